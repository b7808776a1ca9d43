package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"bretter/game"
	"bretter/games/dvonn"
	"bretter/internal/store"
	"bretter/internal/web"
)

// faultyStore wraps the real store and fails on command.
type faultyStore struct {
	*store.SQLite
	panicAppend    atomic.Bool // the next Append panics
	conflictAppend atomic.Bool // the next Append says another server wrote first
	failAppend     atomic.Bool // the next Append fails
	failAppends    atomic.Bool // every Append fails while set
	appends        atomic.Int64
	failLoad       atomic.Bool // the next Load fails
	loads          atomic.Int64
	failLists      atomic.Int64 // so many more ComputerGames fail
	lists          atomic.Int64
}

func (f *faultyStore) ComputerGames(ctx context.Context) ([]string, error) {
	f.lists.Add(1)
	if f.failLists.Add(-1) >= 0 {
		return nil, errors.New("the disk is away")
	}
	return f.SQLite.ComputerGames(ctx)
}

func (f *faultyStore) Append(ctx context.Context, id string, events []store.Event, end *store.Ending) error {
	if f.panicAppend.CompareAndSwap(true, false) {
		panic("the disk is on fire")
	}
	if f.conflictAppend.CompareAndSwap(true, false) {
		return store.ErrConflict
	}
	f.appends.Add(1)
	if f.failAppend.CompareAndSwap(true, false) || f.failAppends.Load() {
		return errors.New("the disk is busy")
	}
	return f.SQLite.Append(ctx, id, events, end)
}

func (f *faultyStore) Load(ctx context.Context, id string) (store.Game, []store.Event, error) {
	f.loads.Add(1)
	if f.failLoad.CompareAndSwap(true, false) {
		return store.Game{}, nil, errors.New("the disk is away")
	}
	return f.SQLite.Load(ctx, id)
}

func newFaultyServer(t *testing.T) (*testServer, *faultyStore) {
	t.Helper()
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "f.db"))
	if err != nil {
		t.Fatal(err)
	}
	f := &faultyStore{SQLite: st}
	site, _ := web.New(testGames)
	srv := New(Config{Store: f, Games: testGames, Site: site, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		hs.Close()
		st.Close()
	})
	return &testServer{Server: hs, srv: srv, store: st}, f
}

// A panic while a game is locked (a bug in an engine or a store) must not
// leave that game locked: the next request is answered, from the store.
func TestPanicLeavesTheGameUsable(t *testing.T) {
	ts, f := newFaultyServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"start":"me"}`)
	f.panicAppend.Store(true)
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, `{"ply":0,"move":"e5"}`, nil); code != http.StatusInternalServerError {
		t.Fatalf("a move whose store panics: %d", code)
	}
	done := make(chan Snapshot, 1)
	go func() { done <- ts.state(t, g.id, "") }()
	select {
	case s := <-done:
		if s.Version != 0 {
			t.Fatalf("after the panic the game is at version %d", s.Version)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the game stayed locked after a panic")
	}
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, `{"ply":0,"move":"e5"}`, nil); code != http.StatusOK {
		t.Fatalf("the move again: %d", code)
	}
}

// When the store says another server wrote first and then cannot be read,
// open pages are let go so that they reconnect, rather than left waiting
// on a game nobody updates.
func TestFailedReloadLetsPagesGo(t *testing.T) {
	ts, f := newFaultyServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"start":"me"}`)
	sub, err := ts.srv.hub.subscribe(t.Context(), g.id, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	// The move meets a conflict; the game is loaded again to judge it
	// once more, and that fails.
	f.conflictAppend.Store(true)
	f.failLoad.Store(true)
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, `{"ply":0,"move":"e5"}`, nil); code != http.StatusInternalServerError {
		t.Fatalf("a move another server beat, on a store that cannot load: %d", code)
	}
	select {
	case <-sub.gone:
	case <-time.After(5 * time.Second):
		t.Fatal("a page of the game was kept after the game was dropped")
	}
	if s := ts.state(t, g.id, ""); s.Version != 0 {
		t.Fatalf("the game came back at version %d", s.Version)
	}
}

// A move and the pass it forces are one event each, stored together. The
// pass takes no time from the clock of the player who passes, and earns
// no increment.
func TestForcedPassIsStoredWithTheMove(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"dvonn","start":"me","clock":{"initial_s":600,"increment_s":10}}`)
	plan := dvonnWithPass(t)
	passer := plan.seats[plan.before-1]
	var before *ClockView
	for i, m := range plan.moves[:plan.before] {
		if m == "PASS" {
			continue
		}
		if i == plan.before-2 {
			before = ts.state(t, g.id, "").Clock
		}
		secret := g.white
		if plan.seats[i] == "black" {
			secret = g.black
		}
		s := ts.state(t, g.id, "")
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", secret, map[string]any{"ply": len(s.Moves), "move": m}, nil); code != 200 {
			t.Fatalf("move %d %s: %d", i+1, m, code)
		}
	}
	s := ts.state(t, g.id, "")
	if len(s.Moves) < plan.before || s.Moves[plan.before-1] != "PASS" {
		t.Fatalf("the forced pass was not played: %v", s.Moves[max(0, len(s.Moves)-3):])
	}
	_, events, _ := ts.store.Load(t.Context(), g.id)
	if last := events[plan.before-1]; last.Move != "PASS" || last.Seat != passer {
		t.Fatalf("stored: %+v", last)
	}
	left := func(c *ClockView) int64 {
		if passer == "white" {
			return c.WhiteMS
		}
		return c.BlackMS
	}
	if after := s.Clock; left(after) != left(before) {
		t.Errorf("the passer's clock went from %d to %d ms", left(before), left(after))
	}
}

// A move that forces a pass comes to every page, a watcher's too, as two
// events: the move, whose change names the pass that follows at once,
// then the pass, after which the mover is to move again. So no page need
// say, for the moment between, that the passer is to move. A page that
// comes afterwards gets the state after both.
func TestMoveTellsOfThePassItForces(t *testing.T) {
	ts := newTestServer(t)
	tellsOfThePass(t, ts, ts)
}

// So it is for the pages on another instance than the one that stored the
// move.
func TestMoveTellsOfThePassItForcesOnOtherInstances(t *testing.T) {
	c := newCluster(t, 2)
	tellsOfThePass(t, c.nodes[0].testServer, c.nodes[1].testServer)
}

// tellsOfThePass plays up to a move that forces a pass on the site at
// mover, with the players' and a watcher's pages open at pages.
func tellsOfThePass(t *testing.T, mover, pages *testServer) {
	t.Helper()
	g := mover.newGame(t, `{"game":"dvonn","start":"me"}`)
	plan := dvonnWithPass(t)
	ply := plan.before - 2 // the move that forces the pass
	mover.playFirst(t, g, plan, ply)
	forcer, passer := g.white, g.black
	if plan.seats[plan.before-1] == "white" {
		forcer, passer = g.black, g.white
	}
	open := map[string]*client{"watcher": pages.dial(t, g.id, "", ""), "forcer": pages.dial(t, g.id, forcer, ""), "passer": pages.dial(t, g.id, passer, "")}
	for _, c := range open {
		if s := c.next("state").State; s.Version != ply {
			t.Fatalf("a page opened at version %d, not %d", s.Version, ply)
		}
	}
	if code := mover.call(t, "POST", "/api/games/"+g.id+"/moves", forcer, map[string]any{"ply": ply, "move": plan.moves[ply]}, nil); code != http.StatusOK {
		t.Fatalf("the move that forces the pass: %d", code)
	}
	type forces struct {
		Change struct {
			ToMove string `json:"to_move"`
			Forces *string
		}
	}
	for name, c := range open {
		var move, pass forces
		moveRaw, passRaw := c.rawEvent(ply+1), c.rawEvent(ply+2)
		if err := errors.Join(json.Unmarshal(moveRaw, &move), json.Unmarshal(passRaw, &pass)); err != nil {
			t.Fatal(err)
		}
		// Nor is the passer given the pass to choose.
		if f := move.Change.Forces; f == nil || *f != "PASS" || strings.Contains(string(moveRaw), `"legal"`) {
			t.Errorf("the %s's page got the move as %s", name, moveRaw)
		}
		if pass.Change.Forces != nil || pass.Change.ToMove != plan.seats[ply] {
			t.Errorf("the %s's page got the pass as %s", name, passRaw)
		}
	}
	if s := pages.dial(t, g.id, "", "").next("state").State; s.Version != ply+2 || s.ToMove != plan.seats[ply] {
		t.Errorf("a page opened after the pass gets version %d, %s to move", s.Version, s.ToMove)
	}
}

// playBeforeThePass plays plan's moves in g, each by its player, up to
// the one that forces the pass.
func (ts *testServer) playBeforeThePass(t *testing.T, g testGame, plan passPlan) {
	t.Helper()
	ts.playFirst(t, g, plan, plan.before-1)
}

// playFirst plays plan's first n moves in g, each by its player.
func (ts *testServer) playFirst(t *testing.T, g testGame, plan passPlan, n int) {
	t.Helper()
	for i, m := range plan.moves[:n] {
		secret := g.white
		if plan.seats[i] == "black" {
			secret = g.black
		}
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", secret, map[string]any{"ply": i, "move": m}, nil); code != http.StatusOK {
			t.Fatalf("move %d %s: %d", i+1, m, code)
		}
	}
}

// passPlan is a DVONN game, played by random moves, up to and including
// its first forced pass.
type passPlan struct {
	moves  []string
	seats  []string // who made each move
	before int      // the number of moves up to and including the pass
}

func dvonnWithPass(t *testing.T) passPlan {
	t.Helper()
	for seed := uint64(1); seed < 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		s := dvonn.New()
		var plan passPlan
		for !s.Outcome().Over {
			legal := s.Legal(nil)
			m := legal[rng.IntN(len(legal))]
			plan.seats = append(plan.seats, s.ToMove().String())
			plan.moves = append(plan.moves, s.FormatMove(m))
			if err := s.Play(m); err != nil {
				t.Fatal(err)
			}
			if plan.moves[len(plan.moves)-1] == "PASS" {
				plan.before = len(plan.moves)
				return plan
			}
		}
	}
	t.Fatal("no random game with a forced pass")
	return passPlan{}
}

// watchersTold waits until the messages for the watchers of game id have
// been handed to them.
func (h *hub) watchersTold(id string) {
	h.mu.Lock()
	g := h.live[id]
	h.mu.Unlock()
	for g != nil {
		g.mu.Lock()
		busy := g.tellingWatchers
		g.mu.Unlock()
		if !busy {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// A new game is kept in memory as the store has it: joining it and
// reading it need not load it, and what is kept is what a load would
// have made of it.
func TestNewGameIsKeptAsStored(t *testing.T) {
	for _, body := range []string{
		`{"game":"havannah","options":{"size":5},"start":"me"}`,
		`{"game":"dvonn","clock":{"initial_s":15,"increment_s":0}}`,
		`{"game":"fanorona","clock":{"days":3}}`,
		`{"game":"havannah","options":{"size":4},"moves":["a1","b2"]}`,
		`{"game":"dvonn","opponent":"computer","level":1,"start":"me"}`,
	} {
		t.Run(body, func(t *testing.T) {
			ts, f := newFaultyServer(t)
			var c createResponse
			if code := ts.call(t, "POST", "/api/games", "", body, &c); code != http.StatusCreated {
				t.Fatalf("create: %d", code)
			}
			if !strings.Contains(body, "computer") {
				invite := c.InviteURL[strings.LastIndex(c.InviteURL, "/")+1:]
				if code := ts.call(t, "POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": invite}, nil); code != http.StatusOK {
					t.Fatalf("join: %d", code)
				}
			}
			ts.state(t, c.ID, c.Secret)
			keptAsStored(t, ts, f, c.ID)
		})
	}
	t.Run("rematch", func(t *testing.T) {
		ts, f := newFaultyServer(t)
		g := finished(t, ts)
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.black, `{"clock":{"days":2}}`, nil); code != http.StatusAccepted {
			t.Fatalf("offer: %d", code)
		}
		var next struct{ ID string }
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, nil, &next); code != http.StatusCreated {
			t.Fatalf("accept: %d", code)
		}
		ts.state(t, next.ID, g.black)
		keptAsStored(t, ts, f, next.ID)
	})
}

// keptAsStored checks that no game was loaded from f, and that game id
// in memory is what loading it would make.
func keptAsStored(t *testing.T, ts *testServer, f *faultyStore, id string) {
	t.Helper()
	if n := f.loads.Load(); n != 0 {
		t.Errorf("the new game was loaded %d times", n)
	}
	h := ts.srv.hub
	kept := h.entry(id)
	kept.mu.Lock()
	defer kept.mu.Unlock()
	loaded := liveGame{down: h.down, givesBack: h.givesBack}
	if err := h.load(t.Context(), id, &loaded); err != nil {
		t.Fatal(err)
	}
	k, l := kept.replayed, loaded.replayed
	// The store keeps times to the millisecond.
	if k.rec.Updated.UnixMilli() == l.rec.Updated.UnixMilli() {
		k.rec.Updated = l.rec.Updated
	}
	if !reflect.DeepEqual(k.rec, l.rec) {
		t.Errorf("kept  %+v\nloaded %+v", k.rec, l.rec)
	}
	if !reflect.DeepEqual(k.events, l.events) || !reflect.DeepEqual(k.moves, l.moves) || !reflect.DeepEqual(k.ticks, l.ticks) {
		t.Errorf("kept events %v, moves %v, ticks %v\nloaded events %v, moves %v, ticks %v",
			k.events, k.moves, k.ticks, l.events, l.moves, l.ticks)
	}
	if !reflect.DeepEqual(k.view, l.view) || !reflect.DeepEqual(k.state, l.state) {
		t.Errorf("kept position %v, loaded %v", k.view, l.view)
	}
	if len(k.chat) != 0 || len(l.chat) != 0 {
		t.Errorf("chat kept %v, loaded %v", k.chat, l.chat)
	}
}

// Taking back after a pass the rules made takes back the passer's own
// move before it, and the reply that forced the pass.
func TestTakebackOverAForcedPass(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"dvonn","start":"me"}`)
	plan := dvonnWithPass(t)
	ts.playBeforeThePass(t, g, plan)
	passer, other := g.white, g.black
	if plan.seats[plan.before-1] == "black" {
		passer, other = g.black, g.white
	}
	ts.offer(t, g.id, passer, "takeback")
	if code, e := ts.answer(t, g.id, other, "takeback", true); code != http.StatusOK {
		t.Fatalf("accepting the takeback: %d %+v", code, e)
	}
	s := ts.state(t, g.id, "")
	if len(s.Moves) != plan.before-3 || s.ToMove != plan.seats[plan.before-1] || slices.Contains(s.Legal, "PASS") {
		t.Fatalf("after the takeback: %d moves (want %d), %s to move, legal %v", len(s.Moves), plan.before-3, s.ToMove, s.Legal)
	}
}

// What follows the end, as everything before it, is kept in memory as the
// store keeps it: to the millisecond.
func TestEventsAfterTheEndKeptAsStored(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	ft.advance(123456 * time.Nanosecond)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5}}`)
	ts.play(t, g, "c3")
	ts.call(t, "POST", "/api/games/"+g.id+"/resign", g.black, nil, nil)
	ft.advance(time.Second + 654321*time.Nanosecond)
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/name", g.white, map[string]string{"name": "Ada"}, nil); code != http.StatusOK {
		t.Fatalf("a name after the end: %d", code)
	}
	_, stored, err := ts.store.Load(t.Context(), g.id)
	if err != nil {
		t.Fatal(err)
	}
	kept := ts.srv.hub.entry(g.id)
	kept.mu.Lock()
	defer kept.mu.Unlock()
	if len(kept.events) != len(stored) {
		t.Fatalf("%d events kept, %d stored", len(kept.events), len(stored))
	}
	for i := range stored {
		if !kept.events[i].At.Equal(stored[i].At) {
			t.Errorf("event %d at %v in memory, %v stored", i+1, kept.events[i].At, stored[i].At)
		}
	}
}

// Each move is played on the position the move before left behind, not on
// a new copy, and what is played there is the game as stored.
func TestMovesPlayedOnTheSparePosition(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	inside := func(f func(lg *liveGame)) {
		t.Helper()
		if err := ts.srv.hub.withCached(t.Context(), g.id, func(lg *liveGame) error { f(lg); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	var first game.State
	ts.moveAt(t, g, 0, "a1")
	inside(func(lg *liveGame) { first = lg.state })
	ts.moveAt(t, g, 1, "b2")
	inside(func(lg *liveGame) {
		if lg.spare != first || lg.state == first {
			t.Fatalf("after the second move the first position is not the spare one")
		}
	})
	// An illegal move leaves the position and the spare one as they are.
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, map[string]any{"ply": 2, "move": "b2"}, nil); code == http.StatusOK {
		t.Fatal("a move on a taken cell was played")
	}
	ts.moveAt(t, g, 2, "c3")
	var view any
	inside(func(lg *liveGame) {
		if lg.state != first {
			t.Fatalf("the third move was not played on the spare position")
		}
		view = lg.state.View()
	})
	ts.srv.hub.evictIdle(-time.Hour)
	inside(func(lg *liveGame) {
		if !reflect.DeepEqual(lg.state.View(), view) || !slices.Equal(lg.moves, []string{"a1", "b2", "c3"}) {
			t.Fatalf("in memory %v, from the store %v (%v)", view, lg.state.View(), lg.moves)
		}
	})
}
