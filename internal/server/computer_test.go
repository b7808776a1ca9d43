package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"bretter/internal/store"
	"bretter/internal/web"
)

// waitFor polls the game as its player until ok holds.
func (ts *testServer) waitFor(t *testing.T, id, secret, what string, ok func(Snapshot) bool) Snapshot {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := ts.state(t, id, secret)
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: the game is %s after %v", what, s.Status, s.Moves)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestComputerOpensWhenItIsWhite(t *testing.T) {
	ts := newTestServer(t)
	var c createResponse
	body := `{"game":"havannah","options":{"size":5},"opponent":"computer","level":2,"start":"friend"}`
	if code := ts.call(t, "POST", "/api/games", "", body, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if c.Seat != "black" || c.InviteURL != "" {
		t.Fatalf("created %+v: want Black and no invitation", c)
	}
	s := ts.waitFor(t, c.ID, c.Secret, "the computer's first move", func(s Snapshot) bool { return len(s.Moves) == 1 })
	if s.Status != "playing" || s.ToMove != "black" || len(s.Legal) == 0 || s.Events[0].Seat != "white" {
		t.Fatalf("after the computer's move: %+v", s)
	}
	if p := s.Players.White; p.Computer != 2 || !p.Seated {
		t.Errorf("White is %+v, want the computer at level 2", p)
	}
	if p := s.Players.Black; p.Computer != 0 {
		t.Errorf("Black is %+v, want a person", p)
	}
}

// A whole game: the person plays the first legal move each time, the
// computer answers, until the rules end it; the record names the computer.
func TestWholeGameAgainstTheComputerThroughTheAPI(t *testing.T) {
	ts := newTestServer(t)
	for _, body := range []string{
		`{"game":"havannah","options":{"size":4},"opponent":"computer","level":3}`,
		`{"game":"dvonn","opponent":"computer","level":1,"start":"friend"}`,
		`{"game":"fanorona","opponent":"computer","level":1}`,
	} {
		var c createResponse
		if code := ts.call(t, "POST", "/api/games", "", body, &c); code != http.StatusCreated {
			t.Fatalf("create %s: %d", body, code)
		}
		for range 400 {
			s := ts.waitFor(t, c.ID, c.Secret, "my turn", func(s Snapshot) bool { return s.Status == "over" || s.ToMove == c.Seat })
			if s.Status == "over" {
				break
			}
			if code := ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, map[string]any{"ply": len(s.Moves), "move": s.Legal[0]}, nil); code != http.StatusOK {
				t.Fatalf("my move %s: %d", s.Legal[0], code)
			}
		}
		s := ts.state(t, c.ID, c.Secret)
		if s.Status != "over" || s.Result == nil {
			t.Fatalf("%s: not over after 400 of my moves", body)
		}
		res, err := http.Get(ts.URL + "/api/games/" + c.ID + "/record")
		if err != nil {
			t.Fatal(err)
		}
		rec, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(rec), "bretter level") {
			t.Errorf("the record does not name the computer:\n%s", rec)
		}
	}
}

func TestComputerGameRefusesBadRequests(t *testing.T) {
	ts := newTestServer(t)
	for _, body := range []string{
		`{"game":"dvonn","opponent":"robot"}`,
		`{"game":"dvonn","opponent":"computer","level":0}`,
		`{"game":"dvonn","opponent":"computer","level":9}`,
		`{"game":"dvonn","opponent":"computer","level":"hard"}`,
		`{"game":"dvonn","opponent":"friend","level":3}`,
		`{"game":"dvonn","level":3}`,
	} {
		var e errorBody
		if code := ts.call(t, "POST", "/api/games", "", body, &e); code != http.StatusBadRequest || e.Error == "" {
			t.Errorf("%s: %d %+v, want 400 with a reason", body, code, e)
		}
	}
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"dvonn","opponent":"computer"}`, &c)
	s := ts.state(t, c.ID, c.Secret)
	if s.Players.Black.Computer != 4 {
		t.Errorf("default level: %+v", s.Players.Black)
	}
	// Nobody can take or play the computer's seat.
	token := inviteToken(c.Secret)
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": token}, nil); code == http.StatusOK {
		t.Error("someone joined a game against the computer")
	}
}

func TestComputerRematchSwapsColours(t *testing.T) {
	ts := newTestServer(t)
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"fanorona","opponent":"computer","level":1}`, &c)
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/resign", c.Secret, nil, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	var r struct{ ID, Seat string }
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/rematch", c.Secret, nil, &r); code != http.StatusCreated || r.Seat != "black" {
		t.Fatalf("rematch: %d %+v", code, r)
	}
	s := ts.waitFor(t, r.ID, c.Secret, "the computer's opening as White", func(s Snapshot) bool { return len(s.Moves) == 1 })
	if s.Players.White.Computer != 1 || s.Seat != "black" {
		t.Errorf("the new game: %+v", s.Players)
	}
}

// A server that starts finds the games where the computer is to move.
func TestComputerMovesAfterARestart(t *testing.T) {
	ts := newTestServer(t)
	now := time.Now()
	rec := store.Game{ID: newID(), Game: "havannah", Options: map[string]int{"size": 5, "swap": 0},
		WhiteHash: hashSecret(newSecret()), BlackHash: hashSecret("person"), InviteHash: hashSecret(newSecret()),
		Creator: "black", Created: now, Updated: now, Status: "playing", Computer: "white", Level: 1}
	if err := ts.store.Create(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	site, err := web.New(testGames)
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Config{Store: ts.store, Games: testGames, Site: site, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()
	started := httptest.NewServer(srv)
	defer started.Close()
	other := &testServer{Server: started, srv: srv, store: ts.store}
	other.waitFor(t, rec.ID, "person", "the computer's move", func(s Snapshot) bool { return len(s.Moves) == 1 })
}

// A game played on from a record starts from its moves, checked, and the
// computer answers when it is its turn.
func TestPlayOnFromARecord(t *testing.T) {
	ts := newTestServer(t)
	var c createResponse
	body := `{"game":"havannah","options":{"size":5},"opponent":"computer","level":1,"start":"friend","moves":["c3","D4","c4"]}`
	if code := ts.call(t, "POST", "/api/games", "", body, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	s := ts.state(t, c.ID, c.Secret)
	if got := strings.Join(s.Moves, " "); got != "c3 d4 c4" || s.Version != 3 || s.ToMove != "black" || s.Seat != "black" {
		t.Fatalf("played on: moves %q, version %d, %s to move, seat %s", got, s.Version, s.ToMove, s.Seat)
	}
	// With the computer to move, it answers.
	body = `{"game":"havannah","options":{"size":5},"opponent":"computer","level":1,"start":"friend","moves":["c3","d4"]}`
	ts.call(t, "POST", "/api/games", "", body, &c)
	ts.waitFor(t, c.ID, c.Secret, "the computer's answer", func(s Snapshot) bool { return len(s.Moves) == 3 })

	for body, want := range map[string]string{
		`{"game":"havannah","options":{"size":5},"opponent":"computer","moves":["c3","c3"]}`:    "move 2 (c3)",
		`{"game":"havannah","options":{"size":5},"opponent":"computer","moves":["c3","zz9"]}`:   "move 2 (zz9)",
		`{"game":"havannah","options":{"size":4},"moves":["a1","d1","a2","d2","a3","d3","a4"]}`: "over",
	} {
		var e errorBody
		if code := ts.call(t, "POST", "/api/games", "", body, &e); code != http.StatusUnprocessableEntity || !strings.Contains(e.Error, want) {
			t.Errorf("%s: %d %+v, want 422 saying %q", body, code, e, want)
		}
	}
}

// A search that ends after the move it answers was taken back, and
// another played in its place, answers nothing: its move may well be
// legal, but the computer searches the position on the board again.
func TestComputerAnswersTheMoveOnTheBoard(t *testing.T) {
	ts := newTestServer(t)
	type search struct {
		moves []string
		found string
	}
	searched := make(chan search)
	release := make(chan struct{})
	ts.srv.hub.searched = func(moves []string, found string) {
		searched <- search{moves, found}
		<-release
	}
	var c createResponse
	body := `{"game":"havannah","options":{"size":5},"opponent":"computer","level":1,"start":"me"}`
	if code := ts.call(t, "POST", "/api/games", "", body, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	move := func(text string) {
		t.Helper()
		if code := ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, map[string]any{"ply": 0, "move": text}, nil); code != http.StatusOK {
			t.Fatalf("move %s: %d", text, code)
		}
	}
	next := func() search {
		t.Helper()
		select {
		case s := <-searched:
			return s
		case <-time.After(30 * time.Second):
			t.Fatal("no search of the computer's ended")
			return search{}
		}
	}
	move("e5")
	if got := next(); !slices.Equal(got.moves, []string{"e5"}) {
		t.Fatalf("the first search was after %v", got.moves)
	}
	if code, e := ts.offer(t, c.ID, c.Secret, "takeback"); code != http.StatusOK {
		t.Fatalf("takeback: %d %+v", code, e)
	}
	move("b2")
	close(release)
	second := next()
	if !slices.Equal(second.moves, []string{"b2"}) {
		t.Fatalf("the second search was after %v", second.moves)
	}
	s := ts.waitFor(t, c.ID, c.Secret, "the computer's answer", func(s Snapshot) bool { return len(s.Moves) == 2 })
	if s.Moves[1] != second.found {
		t.Fatalf("moves %v: the computer played other than what it found after b2 (%s)", s.Moves, second.found)
	}
}

// On a clock the computer thinks as long as its time allows, not as long
// as its level would: at full strength, five seconds a move, it would
// lose on fifteen seconds within three moves.
func TestComputerThinksOnTheClock(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	for _, tt := range []struct {
		clock string
		spent time.Duration
		want  time.Duration
	}{
		{`{"initial_s":15,"increment_s":0}`, 0, 500 * time.Millisecond},
		{`{"initial_s":90,"increment_s":2}`, 30 * time.Second, 3500 * time.Millisecond},
		{`{"initial_s":15,"increment_s":30}`, 11 * time.Second, 2 * time.Second}, // never more than half of what is left
		{`{"initial_s":15,"increment_s":0}`, 15 * time.Second, 10 * time.Millisecond},
		{`{"days":1}`, time.Hour, 0}, // as long as the level says
	} {
		g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"clock":`+tt.clock+`}`)
		ts.play(t, g, "c3 d4")
		ft.advance(tt.spent)
		lg := ts.srv.hub.entry(g.id)
		lg.mu.Lock()
		got := lg.thinkOnTheClock(ts.srv.hub.now())
		lg.mu.Unlock()
		if got != tt.want {
			t.Errorf("%s after %v: %v, want %v", tt.clock, tt.spent, got, tt.want)
		}
	}
}

// A move of the computer's that the store failed to keep is searched
// again a little later: nothing else would ask for it.
func TestComputerTriesAgainAfterTheStoreFailed(t *testing.T) {
	ts, f := newFaultyServer(t)
	ft := useFakeTime(ts)
	var failed atomic.Bool
	ts.srv.hub.searched = func([]string, string) {
		if !failed.Swap(true) {
			f.failAppend.Store(true)
		}
	}
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":5},"opponent":"computer","level":1,"start":"friend"}`, &c)
	deadline := time.Now().Add(30 * time.Second) // only to end a test that hangs
	for len(ts.state(t, c.ID, c.Secret).Moves) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the computer did not try again")
		}
		ft.advance(retryAfter)
		time.Sleep(10 * time.Millisecond)
	}
	if !failed.Load() {
		t.Fatal("the store never failed")
	}
}

// A server started while the store fails asks it again for the games
// waiting for the computer, until it answers, and the computer moves in
// them.
func TestStartAsksTheStoreAgain(t *testing.T) {
	ts, f := newFaultyServer(t)
	h := ts.srv.hub
	// The computer opens, but its search is not to run, as if the server
	// had stopped before it did.
	h.thinkers.close()
	var c createResponse
	if code := ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"opponent":"computer","level":1,"start":"friend"}`, &c); code != http.StatusCreated {
		t.Fatal(code)
	}
	h.thinkers = newThinkers(1, h.computerMove, slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(h.thinkers.close)
	f.failLists.Store(2)
	h.resume(t.Context(), time.Millisecond)
	if n := f.lists.Load(); n != 3 {
		t.Fatalf("the store was asked %d times, not 3", n)
	}
	deadline := time.Now().Add(30 * time.Second) // only to end a test that hangs
	for len(ts.state(t, c.ID, c.Secret).Moves) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the computer did not move")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A search whose game moves on (here it is resigned) stops: it would
// answer nothing, and other games' searches wait for its processor. An
// event that leaves the position as it was lets it think on.
func TestSearchStopsWhenTheGameMovesOn(t *testing.T) {
	ts := newTestServer(t)
	h := ts.srv.hub
	// Workers to spare, as on a larger machine: an event that leaves the
	// position as it was must not start a second search beside the first.
	h.thinkers.close()
	h.thinkers = newThinkers(3, h.computerMove, slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(h.thinkers.close)
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":8},"opponent":"computer","level":8,"start":"me"}`, &c)
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, map[string]any{"ply": 0, "move": "e5"}, nil); code != http.StatusOK {
		t.Fatalf("my move: %d", code)
	}
	var search context.Context
	for deadline := time.Now().Add(30 * time.Second); search == nil; time.Sleep(time.Millisecond) {
		h.searchingMu.Lock()
		search = h.searching[c.ID].ctx
		h.searchingMu.Unlock()
		if time.Now().After(deadline) { // only to end a test that hangs
			t.Fatal("no search began")
		}
	}
	ts.offer(t, c.ID, c.Secret, "draw")
	ts.call(t, "POST", "/api/games/"+c.ID+"/name", c.Secret, map[string]string{"name": "Ada"}, nil)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		if running, waiting := h.thinkers.load(); running == 1 && waiting == 0 {
			break
		}
		if time.Now().After(deadline) { // only to end a test that hangs
			t.Fatal("more than one search for one position")
		}
	}
	h.searchingMu.Lock()
	same := h.searching[c.ID].ctx == search
	h.searchingMu.Unlock()
	if err := search.Err(); err != nil || !same || h.searches.Load() != 1 {
		t.Fatalf("after a draw offer and a name: %v, the same search %v, %d searches", err, same, h.searches.Load())
	}
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/resign", c.Secret, nil, nil); code != http.StatusOK {
		t.Fatalf("resign: %d", code)
	}
	if !errors.Is(search.Err(), context.Canceled) {
		t.Fatalf("after the resignation the search goes on: %v", search.Err())
	}
}

// A failure that does not pass is tried every few seconds for a minute,
// then once a minute: the computer moves once it passes.
func TestComputerTriesLessOftenAfterAMinute(t *testing.T) {
	ts, f := newFaultyServer(t)
	ft := useFakeTime(ts)
	var searches atomic.Int64
	ts.srv.hub.searched = func([]string, string) {
		f.failAppend.Store(true)
		searches.Add(1)
	}
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":5},"opponent":"computer","level":1,"start":"friend"}`, &c)
	deadline := time.Now().Add(time.Minute) // only to end a test that hangs
	wait := func(n int64) {
		t.Helper()
		for searches.Load() < n || pendingTimers(ft) == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("%d searches, want %d", searches.Load(), n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	for n := int64(1); n <= maxRetries+1; n++ {
		wait(n)
		ft.advance(retryAfter)
	}
	// The first search and twelve tries, each 5 s after the last; the
	// thirteenth try waits a minute.
	ft.advance(retryAfter)
	for running, waiting := ts.srv.hub.thinkers.load(); running+waiting > 0; running, waiting = ts.srv.hub.thinkers.load() {
		time.Sleep(time.Millisecond)
	}
	if n := searches.Load(); n != maxRetries+1 {
		t.Fatalf("%d searches, want %d", n, maxRetries+1)
	}
	ts.srv.hub.searched = func([]string, string) {}
	ft.advance(time.Minute)
	ts.waitFor(t, c.ID, c.Secret, "the computer's move", func(s Snapshot) bool { return len(s.Moves) == 1 })
}

func pendingTimers(ft *fakeTime) int {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	return len(ft.timers)
}

// The computer's search on a clock is given the time the clock allows.
func TestComputerSearchesOnItsClock(t *testing.T) {
	ts := newTestServer(t)
	h := ts.srv.hub
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":8},"opponent":"computer","level":8,"start":"me","clock":{"initial_s":15,"increment_s":0}}`, &c)
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, map[string]any{"ply": 0, "move": "e5"}, nil); code != http.StatusOK {
		t.Fatalf("my move: %d", code)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Millisecond) {
		h.searchingMu.Lock()
		s, ok := h.searching[c.ID]
		h.searchingMu.Unlock()
		if ok {
			if s.think != 500*time.Millisecond {
				t.Fatalf("the search is given %v, want a thirtieth of 15 s", s.think)
			}
			break
		}
		if time.Now().After(deadline) { // only to end a test that hangs
			t.Fatal("no search began")
		}
	}
	ts.call(t, "POST", "/api/games/"+c.ID+"/resign", c.Secret, nil, nil)
}

// The computer's searches for a game wait under the address of its
// player's last request, the one the limits count (behind a trusted
// proxy, the forwarded one); a game nobody here has asked about since
// the server started waits under its own id.
func TestSearchesWaitUnderThePlayersAddress(t *testing.T) {
	ts := limitedServer(t, lenient(Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}))
	h := ts.srv.hub
	h.thinkers.close()
	type queued struct{ id, key string }
	searched := make(chan queued, 10)
	h.thinkers = newThinkers(1, func(_ context.Context, id, key string) { searched <- queued{id, key} }, h.log)
	t.Cleanup(h.thinkers.close)
	from := func(client string) http.Header { return http.Header{"X-Forwarded-For": {client}} }

	var white, black createResponse
	decode(t, postJSON(t, ts.URL+"/api/games", `{"game":"havannah","options":{"size":8},"opponent":"computer","level":1,"start":"friend"}`,
		from("198.51.100.1")), &white)
	if q := <-searched; q != (queued{white.ID, "198.51.100.1"}) {
		t.Fatalf("the computer opening: %+v, want game %s under 198.51.100.1", q, white.ID)
	}
	decode(t, postJSON(t, ts.URL+"/api/games", `{"game":"havannah","options":{"size":8},"opponent":"computer","level":1,"start":"me"}`,
		from("198.51.100.2")), &black)
	move := from("[2001:db8:1:2::5]:4711")
	move.Set("Authorization", "Bearer "+black.Secret)
	if res := postJSON(t, ts.URL+"/api/games/"+black.ID+"/moves", `{"ply":0,"move":"e5"}`, move); res.StatusCode != http.StatusOK {
		t.Fatalf("my move: %d", res.StatusCode)
	}
	if q := <-searched; q != (queued{black.ID, "2001:db8:1:2::/64"}) {
		t.Fatalf("the computer's answer: %+v, want game %s under 2001:db8:1:2::/64", q, black.ID)
	}

	h.resume(t.Context(), time.Millisecond)
	got := []queued{<-searched, <-searched}
	slices.SortFunc(got, func(a, b queued) int { return strings.Compare(a.id, b.id) })
	want := []queued{{white.ID, white.ID}, {black.ID, black.ID}}
	slices.SortFunc(want, func(a, b queued) int { return strings.Compare(a.id, b.id) })
	if !slices.Equal(got, want) {
		t.Fatalf("on start: %+v, want %+v", got, want)
	}
}
