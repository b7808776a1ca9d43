package server

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"bretter/internal/clock"
)

// fakeTime is a clock the test moves, and the timers set on it.
type fakeTime struct {
	mu     sync.Mutex
	now    time.Time
	timers []fakeTimer
}

type fakeTimer struct {
	at   time.Time
	f    func()
	real *time.Timer // never fires; stopped, the fake one does not either
}

func useFakeTime(ts *testServer) *fakeTime {
	ft := &fakeTime{now: time.UnixMilli(1_790_000_000_000)}
	useFakeTimeAt(ts, ft)
	return ft
}

// useFakeTimeAt gives ts's server the clock ft.
func useFakeTimeAt(ts *testServer, ft *fakeTime) {
	h := ts.srv.hub
	h.now = func() time.Time { ft.mu.Lock(); defer ft.mu.Unlock(); return ft.now }
	h.afterFunc = func(d time.Duration, f func()) *time.Timer {
		real := time.NewTimer(time.Hour) // only to be stopped
		ft.mu.Lock()
		ft.timers = append(ft.timers, fakeTimer{ft.now.Add(d), f, real})
		ft.mu.Unlock()
		return real
	}
}

// advance moves the clock on by d and runs the timers that are due, as
// their goroutines would.
func (ft *fakeTime) advance(d time.Duration) {
	ft.mu.Lock()
	ft.now = ft.now.Add(d)
	var due []func()
	rest := ft.timers[:0]
	for _, t := range ft.timers {
		switch {
		case t.at.After(ft.now):
			rest = append(rest, t)
		case t.real.Stop(): // not stopped before
			due = append(due, t.f)
		}
	}
	ft.timers = rest
	ft.mu.Unlock()
	for _, f := range due {
		f()
	}
}

func TestClockRunsFromTheSecondMove(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"clock":{"initial_s":60,"increment_s":2}}`)
	s := ts.state(t, g.id, g.white)
	if c := s.Clock; c == nil || c.WhiteMS != 60000 || c.BlackMS != 60000 || c.Running != nil || c.InitialMS != 60000 || c.IncrementMS != 2000 {
		t.Fatalf("new game's clock: %+v", s.Clock)
	}
	ft.advance(30 * time.Second)
	ts.moveAt(t, g, 0, "c3")
	ft.advance(20 * time.Second)
	ts.moveAt(t, g, 1, "d4") // the second move starts the clocks
	ft.advance(7 * time.Second)
	c := ts.state(t, g.id, "").Clock
	if c.WhiteMS != 53000 || c.BlackMS != 60000 || c.Running == nil || *c.Running != "white" || c.ServerMS != ft.now.UnixMilli() {
		t.Fatalf("after 7 s of White's third move: %+v", c)
	}
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, map[string]any{"ply": 2, "move": "e5"}, nil); code != http.StatusOK {
		t.Fatal(code)
	}
	if c := ts.state(t, g.id, "").Clock; c.WhiteMS != 55000 || *c.Running != "black" {
		t.Fatalf("after White's move with the increment: %+v", c)
	}
}

// The flag falls when the time is up, with no page open and no request:
// the game's timer ends it, at the very moment the time ran out.
func TestFlagFallsWithNobodyConnected(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	g := ts.newGame(t, `{"game":"dvonn","clock":{"initial_s":15,"increment_s":0}}`)
	ts.play(t, g, "C1 C2")
	ft.advance(14 * time.Second)
	if s := ts.state(t, g.id, ""); s.Status != "playing" {
		t.Fatalf("before the time is up: %s", s.Status)
	}
	ft.advance(1500 * time.Millisecond)
	s := ts.state(t, g.id, "")
	if s.Status != "over" || s.Result == nil || s.Result.Winner != "black" || s.Result.Reason != "timeout" {
		t.Fatalf("after White's time ran out: %s %+v", s.Status, s.Result)
	}
	last := s.Events[len(s.Events)-1]
	if last.Kind != "timeout" || last.Seat != "white" || !last.At.Equal(time.UnixMilli(1_790_000_000_000).Add(15*time.Second)) {
		t.Errorf("the timeout event: %+v", last)
	}
	if s.Clock.WhiteMS != 0 || s.Clock.Running != nil {
		t.Errorf("the clock after the flag: %+v", s.Clock)
	}
}

// A move that comes after the time ran out, before the timer has fired,
// loses on time instead.
func TestMoveAfterTheFlagLoses(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	ts.srv.hub.afterFunc = func(time.Duration, func()) *time.Timer { return time.NewTimer(time.Hour) } // never fires
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"clock":{"initial_s":15,"increment_s":0}}`)
	ts.play(t, g, "c3 d4")
	ft.advance(16 * time.Second)
	var e errorBody
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, map[string]any{"ply": 2, "move": "e5"}, &e); code != http.StatusConflict {
		t.Fatalf("a move after the flag: %d %+v", code, e)
	}
	if s := ts.state(t, g.id, ""); s.Result == nil || s.Result.Reason != "timeout" || len(s.Moves) != 2 {
		t.Fatalf("the game: %+v after %v", s.Result, s.Moves)
	}
}

// A server started on the same store agrees on the clocks to the
// millisecond, and ends on time a game whose time ran out while it was
// down.
func TestClocksSurviveARestart(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"clock":{"initial_s":100,"increment_s":1}}`)
	ts.play(t, g, "c3 d4")
	// The store keeps milliseconds: so must the copy in memory.
	ft.advance(12345*time.Millisecond + 678*time.Microsecond)
	ts.moveAt(t, g, 2, "e5")
	ft.advance(999*time.Millisecond + 500*time.Microsecond)
	before := ts.state(t, g.id, "").Clock

	again := restartOn(t, ts)
	useFakeTimeAt(again, ft)
	after := again.state(t, g.id, "").Clock
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("clocks before the restart %+v, after %+v", before, after)
	}
	ft.advance(200 * time.Second)
	again.srv.hub.resumeClocks(t.Context(), []string{g.id})
	if s := again.state(t, g.id, ""); s.Result == nil || s.Result.Reason != "timeout" || s.Result.Winner != "white" {
		t.Fatalf("after Black's time ran out while the server was down: %+v", s.Result)
	}
}

// Time the site was down is charged to nobody: a server started 30 s
// after the last sign that the site was up finds the player to move
// with the time they had then, and ends the game on time only once that
// is spent, at the deadline moved on by the outage and its grace.
func TestDowntimeIsNotCharged(t *testing.T) {
	ts, ft, g := startedWithAClock(t)
	again := downAndBack(t, ts, ft, g) // White had 15 s left at the last sign of life
	s := again.state(t, g.id, "")
	if s.Status != "playing" || s.Clock.WhiteMS != 15000 || s.Clock.Running == nil || *s.Clock.Running != "white" {
		t.Fatalf("after 30 s down: %s %+v", s.Status, s.Clock)
	}
	// Another instance, or a restart, agrees.
	third := restartOn(t, again)
	useFakeTimeAt(third, ft)
	if err := third.srv.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if c := third.state(t, g.id, "").Clock; !reflect.DeepEqual(c, s.Clock) {
		t.Fatalf("another instance's clock %+v, the first's %+v", c, s.Clock)
	}
	ft.advance(restartGrace + 14900*time.Millisecond)
	if s := again.state(t, g.id, ""); s.Status != "playing" {
		t.Fatalf("with 100 ms left: %s %+v", s.Status, s.Result)
	}
	ft.advance(200 * time.Millisecond) // the timer set at the start fires
	s = third.state(t, g.id, "")
	if s.Status != "over" || s.Result == nil || s.Result.Reason != "timeout" || s.Result.Winner != "black" {
		t.Fatalf("after White's time ran out: %s %+v", s.Status, s.Result)
	}
	last := s.Events[len(s.Events)-1]
	if want := time.UnixMilli(1_790_000_000_000).Add(50*time.Second + restartGrace); last.Kind != "timeout" || !last.At.Equal(want) {
		t.Errorf("the timeout event: %+v, want at %v", last, want)
	}
	if s.Clock.WhiteMS != 0 || s.Clock.BlackMS != 20000 {
		t.Errorf("the clock after the flag: %+v", s.Clock)
	}
}

// upFor advances ft by d as an instance that is up sees it: noting the
// site up every seenUpEvery, as Run does.
func upFor(t *testing.T, ts *testServer, ft *fakeTime, d time.Duration) {
	t.Helper()
	for d > 0 {
		step := min(d, seenUpEvery)
		ft.advance(step)
		d -= step
		if err := ts.srv.hub.noteUp(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
}

// downAndBack notes the site up 5 s into g's clocks, stops ts (its timers
// do nothing), and after 30 s starts another server on its store, which
// resumes g's clocks.
func downAndBack(t *testing.T, ts *testServer, ft *fakeTime, g testGame) *testServer {
	t.Helper()
	upFor(t, ts, ft, 5*time.Second) // its last note is the last sign of life
	ts.srv.hub.stop()
	ft.advance(30 * time.Second)
	again := restartOn(t, ts)
	useFakeTimeAt(again, ft)
	if err := again.srv.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	again.srv.hub.resumeClocks(t.Context(), []string{g.id})
	return again
}

// After an outage the clocks stand still a little longer, restartGrace,
// whoever is to move: the site is up again, but the players' pages take
// a moment to find that out, and the player to move should not pay for
// it. A page is told how much longer the running clock stands.
func TestGraceAfterAnOutage(t *testing.T) {
	ts, ft, g := startedWithAClock(t)
	again := downAndBack(t, ts, ft, g)
	c := again.state(t, g.id, "").Clock
	if c.WhiteMS != 15000 || c.HeldMS != restartGrace.Milliseconds() || *c.Running != "white" {
		t.Fatalf("as the site is back: %+v", c)
	}
	// Another instance, or a restart, agrees.
	third := restartOn(t, again)
	useFakeTimeAt(third, ft)
	if err := third.srv.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if c3 := third.state(t, g.id, "").Clock; !reflect.DeepEqual(c3, c) {
		t.Fatalf("another instance's clock %+v, the first's %+v", c3, c)
	}
	// White moves in the grace: the move costs nothing, and Black's
	// clock stands until the grace is over.
	ft.advance(2 * time.Second)
	again.moveAt(t, g, 2, "e5")
	if c := again.state(t, g.id, "").Clock; c.WhiteMS != 15000 || c.BlackMS != 20000 || c.HeldMS != 3000 || *c.Running != "black" {
		t.Fatalf("after White's move 2 s into the grace: %+v", c)
	}
	ft.advance(4 * time.Second)
	if c := again.state(t, g.id, "").Clock; c.BlackMS != 19000 || c.HeldMS != 0 {
		t.Fatalf("a second after the grace: %+v", c)
	}
	// The deadline is moved on by the grace too.
	ft.advance(18900 * time.Millisecond)
	if s := again.state(t, g.id, ""); s.Status != "playing" {
		t.Fatalf("with 100 ms left: %s %+v", s.Status, s.Result)
	}
	ft.advance(200 * time.Millisecond)
	if s := again.state(t, g.id, ""); s.Result == nil || s.Result.Reason != "timeout" || s.Result.Winner != "white" {
		t.Fatalf("after Black's time ran out: %s %+v", s.Status, s.Result)
	}
}

// A server that stops notes the site up as it stops: an outage that
// follows starts then.
func TestStopNotesTheSiteUp(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() { ts.srv.Run(ctx); close(done) }()
	ft.advance(downAfter) // no ticker of Run's has seen this moment
	stopped := ft.now
	stop()
	<-done
	outages, err := ts.store.SeenUp(t.Context(), stopped.Add(10*time.Second), downAfter, restartGrace)
	if want := []clock.Outage{{From: stopped, To: stopped.Add(10 * time.Second), Grace: restartGrace}}; err != nil || !reflect.DeepEqual(outages, want) {
		t.Fatalf("started 10 s after the stop: %v, %v; want %v", outages, err, want)
	}
}

func TestBadClocksAreRefused(t *testing.T) {
	ts := newTestServer(t)
	for _, clock := range []string{`{}`, `{"initial_s":14}`, `{"initial_s":10801}`, `{"initial_s":60,"increment_s":181}`,
		`{"initial_s":60,"increment_s":-1}`, `{"days":4}`, `{"days":2,"initial_s":60}`, `"5+3"`, `{"initial_s":"60"}`,
		// Asked for, a clock that keeps no time is refused, not made none.
		`{"initial_s":0}`, `{"days":0}`, `{"initial_s":0,"increment_s":0}`,
		// Too large for a duration: refused, not wrapped round to another time.
		`{"initial_s":9223372037}`, `{"initial_s":60,"increment_s":9223372037}`} {
		var e errorBody
		if code := ts.call(t, "POST", "/api/games", "", `{"game":"dvonn","clock":`+clock+`}`, &e); code != http.StatusBadRequest || e.Error == "" || strings.Contains(e.Error, "2562047h") {
			t.Errorf("clock %s: %d %+v", clock, code, e)
		}
	}
}

// moveAt plays move as ply for the side to move (White on even plies).
func (ts *testServer) moveAt(t *testing.T, g testGame, ply int, move string) {
	t.Helper()
	secret := g.white
	if ply%2 == 1 {
		secret = g.black
	}
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", secret, map[string]any{"ply": ply, "move": move}, nil); code != http.StatusOK {
		t.Fatalf("move %d %s: %d", ply+1, move, code)
	}
}

func TestFormClock(t *testing.T) {
	for form, want := range map[string]clock.Control{
		"":              {},
		"clock=300%2B3": {Initial: 5 * time.Minute, Increment: 3 * time.Second},
		"clock=d7":      {Days: 7},
		"clock=custom&clock_minutes=0.5&clock_increment=0": {Initial: 30 * time.Second},
	} {
		v, _ := url.ParseQuery(form)
		if got, err := formClock(v); err != nil || got != want {
			t.Errorf("%s: %+v, %v; want %+v", form, got, err, want)
		}
	}
	for _, form := range []string{"clock=5", "clock=dx", "clock=custom&clock_minutes=x", "clock=a%2Bb",
		"clock=custom&clock_minutes=0&clock_increment=0", "clock=0%2B0", "clock=d0"} {
		v, _ := url.ParseQuery(form)
		if _, err := formClock(v); err == nil {
			t.Errorf("%s accepted", form)
		}
	}
}

// Moves a game is created from are where it starts, not the players'
// moves: the clocks start, and calling the game off ends, only with the
// players' own first moves, however long the friend takes to join.
func TestGivenMovesAreNotThePlayers(t *testing.T) {
	for _, restart := range []bool{false, true} {
		ts := newTestServer(t)
		var c createResponse
		body := `{"game":"havannah","options":{"size":5},"start":"me","clock":{"initial_s":15,"increment_s":0},"moves":["e5","d4"]}`
		if code := ts.call(t, "POST", "/api/games", "", body, &c); code != http.StatusCreated {
			t.Fatalf("create: %d", code)
		}
		time.Sleep(1100 * time.Millisecond)
		invite := c.InviteURL[strings.LastIndex(c.InviteURL, "/")+1:]
		var j struct{ Secret string }
		if code := ts.call(t, "POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": invite}, &j); code != http.StatusOK {
			t.Fatalf("join: %d", code)
		}
		if restart {
			ts = restartOn(t, ts)
		}
		s := ts.state(t, c.ID, c.Secret)
		if s.Clock == nil || s.Clock.Running != nil || s.Clock.WhiteMS != 15000 || s.Clock.BlackMS != 15000 {
			t.Fatalf("restart %v: the clocks after the join: %+v", restart, s.Clock)
		}
		// Nor can they be taken back.
		if code, e := ts.offer(t, c.ID, j.Secret, "takeback"); code != http.StatusConflict || e.Code != "no_takeback" {
			t.Fatalf("restart %v: a takeback of a given move: %d %+v", restart, code, e)
		}
		if code := ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, map[string]any{"ply": 2, "move": "a1"}, nil); code != http.StatusOK {
			t.Fatalf("the first move of the players: %d", code)
		}
		if s := ts.state(t, c.ID, c.Secret); s.Clock.Running != nil {
			t.Fatalf("restart %v: a clock runs after one player's move: %+v", restart, s.Clock)
		}
		if code, e := ts.offer(t, c.ID, j.Secret, "abort"); code != http.StatusOK {
			t.Fatalf("restart %v: calling off before both moved: %d %+v", restart, code, e)
		}
	}
}

// The clocks stop with the event that ends the game: a name given or a
// new game offered afterwards takes no time from anybody, also once the
// game is loaded again.
func TestClocksStopAtTheEnd(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":4},"clock":{"initial_s":60,"increment_s":0}}`)
	ts.play(t, g, "a1 d4")
	ft.advance(3 * time.Second)
	ts.moveAt(t, g, 2, "a2")
	ft.advance(2 * time.Second)
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/resign", g.white, nil, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	ended := ts.state(t, g.id, "").Clock
	ft.advance(90 * time.Second)
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/name", g.black, map[string]string{"name": "Bob"}, nil); code != http.StatusOK {
		t.Fatalf("name: %d", code)
	}
	ft.advance(5 * time.Second)
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, nil, nil); code != http.StatusAccepted {
		t.Fatalf("rematch offer: %d", code)
	}
	for _, s := range []*testServer{ts, restartOn(t, ts)} {
		useFakeTimeAt(s, ft)
		after := s.state(t, g.id, "").Clock
		if after.WhiteMS != ended.WhiteMS || after.BlackMS != ended.BlackMS || after.BlackMS != 58000 {
			t.Fatalf("clocks at the end %+v, later %+v", ended, after)
		}
	}
}

// A request ends a game whose time ran out before it answers; should the
// store fail to keep the ending, a read still answers, and the next
// request ends the game.
func TestReadsEndGamesOnTime(t *testing.T) {
	ts, f := newFaultyServer(t)
	ft := useFakeTime(ts)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"clock":{"initial_s":15,"increment_s":0}}`)
	ts.play(t, g, "c3 d4")
	ft.mu.Lock()
	ft.now = ft.now.Add(16 * time.Second)
	ft.timers = nil // not fired yet
	ft.mu.Unlock()
	f.failAppend.Store(true)
	if s := ts.state(t, g.id, ""); s.Status != "playing" {
		t.Fatalf("with the store failing: %s", s.Status)
	}
	if s := ts.state(t, g.id, ""); s.Status != "over" || s.Result == nil || s.Result.Reason != "timeout" {
		t.Fatalf("the next request: %s %+v", s.Status, s.Result)
	}
}

// A store that refuses every ending does not make a game's timer fire
// again at once, nor multiply: one try every few seconds, until the store
// takes it.
func TestTimerTriesAgainOneAtATime(t *testing.T) {
	ts, f := newFaultyServer(t)
	ft := useFakeTime(ts)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"clock":{"initial_s":15,"increment_s":0}}`)
	ts.play(t, g, "c3 d4")
	f.failAppends.Store(true)
	for range 10 {
		ft.advance(retryAfter)
	}
	tries := f.appends.Load()
	ft.advance(retryAfter)
	if again := f.appends.Load() - tries; again < 1 || again > 2 || pendingTimers(ft) != 1 {
		t.Fatalf("%d tries in %v, %d timers pending; want one or two, and one", again, retryAfter, pendingTimers(ft))
	}
	f.failAppends.Store(false)
	ft.advance(retryAfter)
	if s := ts.state(t, g.id, ""); s.Status != "over" || s.Result == nil || s.Result.Reason != "timeout" {
		t.Fatalf("once the store takes it: %s %+v", s.Status, s.Result)
	}
}

// A timer that fires before its moment (the system's clock was set back
// while it waited) arms another: the game still ends when its time runs
// out.
func TestTimerFiredEarlyArmsAgain(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"clock":{"initial_s":15,"increment_s":0}}`)
	ts.play(t, g, "c3 d4")
	ft.mu.Lock()
	early := ft.timers[len(ft.timers)-1]
	ft.timers = nil
	ft.mu.Unlock()
	early.f() // a second early
	if pendingTimers(ft) != 1 {
		t.Fatalf("%d timers after one fired early, want 1", pendingTimers(ft))
	}
	ft.advance(16 * time.Second)
	// Asked of the store, not of the site: a request would end it itself.
	if rec, _, err := ts.store.Load(t.Context(), g.id); err != nil || rec.Status != "over" || rec.Reason != "timeout" {
		t.Fatalf("after the moment: %s %s %v", rec.Status, rec.Reason, err)
	}
}

// An instance up learns of an outage that another, starting while the
// notes were late, recorded: its notes late too, it notes before it works
// out a clock, and they agree on the clocks again.
func TestOutageLearnedWhileUp(t *testing.T) {
	ts, ft, g := startedWithAClock(t)
	upFor(t, ts, ft, 5*time.Second)
	ft.advance(10 * time.Second) // the notes stall
	// Another instance starts, and takes the silence for an outage.
	if _, err := ts.store.SeenUp(t.Context(), ft.now, downAfter, restartGrace); err != nil {
		t.Fatal(err)
	}
	if c := ts.state(t, g.id, "").Clock; c.WhiteMS != 15000 {
		t.Fatalf("white has %d ms, want 15000 as the other instance says", c.WhiteMS)
	}
}

// An instance frozen while the site had no other (its machine suspended,
// say) finds on waking that nobody noted the site up meanwhile: that time
// is an outage, charged to nobody, with the grace after it. Its timers
// fire as it wakes, before its next note, and must not end a game on
// time for it.
func TestFrozenInstanceChargesNobody(t *testing.T) {
	ts, ft, g := startedWithAClock(t)
	upFor(t, ts, ft, 5*time.Second)
	ft.advance(time.Minute) // frozen; White's timer fires as it wakes
	c := ts.state(t, g.id, "").Clock
	if c.WhiteMS != 15000 || c.HeldMS != restartGrace.Milliseconds() || *c.Running != "white" {
		t.Fatalf("after a minute frozen: %+v", c)
	}
	// A move on waking is not charged for it either, and a restart
	// agrees on the clocks.
	ft.advance(time.Minute)
	ts.moveAt(t, g, 2, "e5")
	if c := ts.state(t, g.id, "").Clock; c.WhiteMS != 15000 || *c.Running != "black" {
		t.Fatalf("White's move after another minute frozen: %+v", c)
	}
	again := restartOn(t, ts)
	useFakeTimeAt(again, ft)
	if err := again.srv.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if a, b := again.state(t, g.id, "").Clock, ts.state(t, g.id, "").Clock; !reflect.DeepEqual(a, b) {
		t.Fatalf("after a restart: %+v, before: %+v", a, b)
	}
}

// A game lost on time after the last note that the site was up, just
// before it went down, still ends with no time left once the outage is
// known: what the game stored, it stored with the site up.
func TestFlagJustBeforeAnOutage(t *testing.T) {
	ts, ft, g := startedWithAClock(t)
	upFor(t, ts, ft, 19500*time.Millisecond) // the last note at its end
	ft.advance(700 * time.Millisecond)       // White's time runs out
	if s := ts.state(t, g.id, ""); s.Status != "over" || s.Result.Reason != "timeout" || s.Clock.WhiteMS != 0 {
		t.Fatalf("before the crash: %s %+v %+v", s.Status, s.Result, s.Clock)
	}
	ts.srv.hub.stop()
	ft.advance(30 * time.Second)
	again := restartOn(t, ts)
	useFakeTimeAt(again, ft)
	if err := again.srv.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if s := again.state(t, g.id, ""); s.Clock.WhiteMS != 0 {
		t.Errorf("after the restart: lost on time with %d ms left on White's clock", s.Clock.WhiteMS)
	}
}

// startedWithAClock is a server started on a fake clock, with a game on a
// 20 s clock whose clocks run: White is to move.
func startedWithAClock(t *testing.T) (*testServer, *fakeTime, testGame) {
	t.Helper()
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	if err := ts.srv.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"clock":{"initial_s":20,"increment_s":0}}`)
	ts.play(t, g, "c3 d4")
	return ts, ft, g
}

// A takeback gives back the increments of the moves it takes back; the
// time spent thinking stays spent. The player to move after it has their
// clock running from then, and a restart agrees.
func TestTakebackGivesBackTheIncrements(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"clock":{"initial_s":60,"increment_s":10}}`)
	ts.play(t, g, "e5 d4")
	ft.advance(200 * time.Millisecond)
	ts.moveAt(t, g, 2, "f5")
	if c := ts.state(t, g.id, "").Clock; c.WhiteMS != 69800 {
		t.Fatalf("after f5 with its increment: %+v", c)
	}
	ts.offer(t, g.id, g.white, "takeback")
	ft.advance(time.Second) // on Black's clock, which runs until the answer
	if code, e := ts.answer(t, g.id, g.black, "takeback", true); code != http.StatusOK {
		t.Fatalf("accepting the takeback: %d %+v", code, e)
	}
	ft.advance(3 * time.Second) // on White's, to move again
	c := ts.state(t, g.id, "").Clock
	if c.WhiteMS != 56800 || c.BlackMS != 59000 || c.Running == nil || *c.Running != "white" {
		t.Fatalf("3 s after taking back f5: %+v", c)
	}
	again := restartOn(t, ts)
	useFakeTimeAt(again, ft)
	if after := again.state(t, g.id, "").Clock; !reflect.DeepEqual(after, c) {
		t.Fatalf("after a restart %+v, before %+v", after, c)
	}
}

// Against the computer, which grants a takeback at once, taking back
// again and again piles up no time: each round costs White the time it
// thought, and the computer's clock stays where it was.
func TestTakebacksPileUpNoTime(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":5},"opponent":"computer","level":1,"clock":{"initial_s":60,"increment_s":30}}`, &c)
	ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, map[string]any{"ply": 0, "move": "e5"}, nil)
	s := ts.waitFor(t, c.ID, c.Secret, "the computer's reply", func(s Snapshot) bool { return len(s.Moves) == 2 })
	for round := 1; round <= 4; round++ {
		ft.advance(time.Second)
		if code := ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, map[string]any{"ply": 2, "move": s.Legal[0]}, nil); code != http.StatusOK {
			t.Fatalf("round %d: White's move: %d", round, code)
		}
		ts.waitFor(t, c.ID, c.Secret, "the computer's reply", func(s Snapshot) bool { return len(s.Moves) == 4 })
		ft.advance(time.Second)
		if code, e := ts.offer(t, c.ID, c.Secret, "takeback"); code != http.StatusOK {
			t.Fatalf("round %d: takeback: %d %+v", round, code, e)
		}
		s = ts.state(t, c.ID, c.Secret)
		if want := int64(60000 - 2000*round); len(s.Moves) != 2 || s.Clock.WhiteMS != want || s.Clock.BlackMS != 60000 {
			t.Fatalf("round %d: %v, clocks %+v; want White at %d ms, the computer at 60000", round, s.Moves, s.Clock, want)
		}
	}
}

// A takeback that would leave a clock without time, once the increments
// of the moves it takes back are gone, is refused: offered, and accepted
// once the time has run on. Since the time left only shrinks until a move
// is played, such an offer could never be granted: refused on accepting,
// it is withdrawn, as an event that a restart reads back alike.
func TestTakebackLeavingNoTimeIsRefused(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"clock":{"initial_s":15,"increment_s":10}}`)
	ts.play(t, g, "e5 d4")
	ft.advance(14 * time.Second)
	ts.moveAt(t, g, 2, "f5") // White: 15 - 14 + 10 = 11 s
	ts.moveAt(t, g, 3, "c3")
	ft.advance(500 * time.Millisecond)
	// Taken back now, White would have 0.5 s: the offer stands.
	if code, e := ts.offer(t, g.id, g.white, "takeback"); code != http.StatusOK {
		t.Fatalf("offering a takeback with time to spare: %d %+v", code, e)
	}
	ft.advance(time.Second)
	if code, e := ts.answer(t, g.id, g.black, "takeback", true); code != http.StatusConflict || e.Code != "no_time" {
		t.Fatalf("accepting a takeback that leaves White 15 - 14 - 1.5 s: %d %+v", code, e)
	}
	withdrawn := func(ts *testServer) {
		t.Helper()
		s := ts.state(t, g.id, "")
		last := s.Events[len(s.Events)-1]
		if s.Offer != nil || last.Kind != "withdraw" || last.Move != "takeback" || last.Seat != "white" {
			t.Fatalf("after the refused accept the offer is %+v, the last event %+v", s.Offer, last)
		}
	}
	withdrawn(ts)
	if code, e := ts.answer(t, g.id, g.black, "takeback", false); code != http.StatusConflict || e.Code != "no_offer" {
		t.Fatalf("declining the withdrawn offer: %d %+v", code, e)
	}
	if code, e := ts.offer(t, g.id, g.white, "takeback"); code != http.StatusConflict || e.Code != "no_time" {
		t.Fatalf("offering it again: %d %+v", code, e)
	}
	s := ts.state(t, g.id, "")
	if len(s.Moves) != 4 || s.Status != "playing" || s.Clock.WhiteMS != 9500 {
		t.Fatalf("after the refusals: %v %s %+v", s.Moves, s.Status, s.Clock)
	}
	again := restartOn(t, ts)
	useFakeTimeAt(again, ft)
	withdrawn(again)
}

// The takebacks a game stored before the site first ran with takebacks
// that give back their increments keep them, as the players saw then:
// an older game's clocks stay as they were, on every instance and after
// every restart. Its takebacks since give them back.
func TestOlderTakebacksKeepTheirIncrements(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"clock":{"initial_s":60,"increment_s":10}}`)
	ts.play(t, g, "e5 d4")
	ft.advance(time.Second)
	ts.moveAt(t, g, 2, "f5")
	ts.offer(t, g.id, g.white, "takeback")
	ts.answer(t, g.id, g.black, "takeback", true)
	// The site so far was one whose takebacks kept the increments: an
	// older version stored the game.
	if _, err := ts.store.Setting(t.Context(), takebacksGiveBack, strconv.FormatInt(ft.now.Add(time.Millisecond).UnixMilli(), 10)); err != nil {
		t.Fatal(err)
	}
	ft.advance(time.Second)
	again := restartOn(t, ts)
	useFakeTimeAt(again, ft)
	if err := again.srv.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if c := again.state(t, g.id, "").Clock; c.WhiteMS != 68000 || c.BlackMS != 60000 {
		t.Fatalf("a takeback stored before: %+v; want White with the increment of f5 kept", c)
	}
	again.moveAt(t, g, 2, "f5")
	again.offer(t, g.id, g.white, "takeback")
	again.answer(t, g.id, g.black, "takeback", true)
	if c := again.state(t, g.id, "").Clock; c.WhiteMS != 68000 || c.BlackMS != 60000 {
		t.Fatalf("a takeback since: %+v; want White's second increment given back", c)
	}
}
