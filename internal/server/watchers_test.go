package server

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"bretter/games/havannah"
)

// versionsOf reads a page's messages: the version of its first state and
// of every event after it.
func versionsOf(t *testing.T, msgs [][]byte) (state int, events []int) {
	t.Helper()
	state = -1
	for _, b := range msgs {
		var m struct {
			Type    string
			Version int
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		switch {
		case m.Type == "state" && state < 0:
			state = m.Version
		case m.Type == "event" && state >= 0:
			events = append(events, m.Version)
		}
	}
	return state, events
}

// Watchers are told of events apart from the players, but each gets every
// event after its state, in order, even when it opens the page while
// moves are being told; more of them than are written to before the
// telling gives way.
func TestWatchersGetEveryEventInOrder(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":8}}`)
	h := ts.srv.hub
	moves := strings.Fields("a1 a2 a3 a4 a5 a6 a7 a8 b1 b2 b3 b4 b5 b6 b7 b8 b9 c1 c2 c3")
	var mu sync.Mutex
	var watchers []*subscriber
	var wg sync.WaitGroup
	n := 2*givingWayEvery + 20
	for i := range n {
		// Half of them before the first move, the rest while the game goes on.
		if i == n/2 {
			wg.Go(func() { ts.play(t, g, strings.Join(moves, " ")) })
		}
		wg.Go(func() {
			sub, err := h.subscribe(t.Context(), g.id, "", -1)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			watchers = append(watchers, sub)
			mu.Unlock()
		})
	}
	wg.Wait()
	h.watchersTold(g.id)
	for i, w := range watchers {
		state, events := versionsOf(t, w.take())
		last := state
		for _, v := range events {
			if v <= last {
				continue // already in its state: the page ignores it
			}
			if v != last+1 {
				t.Fatalf("watcher %d: state %d, events %v: event %d is missing", i, state, events, last+1)
			}
			last = v
		}
		if last != len(moves) {
			t.Fatalf("watcher %d: state %d, events %v: the last is %d, not %d", i, state, events, last, len(moves))
		}
	}
}

// A watcher who does not read is dropped once too many messages wait for
// it; the players and the other watchers go on.
func TestSlowWatcherIsDropped(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":8}}`)
	h := ts.srv.hub
	slow, err := h.subscribe(t.Context(), g.id, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	reading, err := h.subscribe(t.Context(), g.id, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	// The engine's own order of cells, short of a win.
	board, _ := havannah.New(8, false)
	var moves []string
	for _, m := range board.Legal(nil) {
		if len(moves) == maxQueued+8 {
			break
		}
		if board.WouldWin(m) == 0 && board.Play(m) == nil {
			moves = append(moves, board.FormatMove(m))
		}
	}
	for ply, m := range moves {
		secret := g.white
		if ply%2 == 1 {
			secret = g.black
		}
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", secret, map[string]any{"ply": ply, "move": m}, nil); code != 200 {
			t.Fatalf("move %d %s: %d", ply+1, m, code)
		}
		h.watchersTold(g.id)
		reading.take()
	}
	select {
	case <-slow.gone:
	default:
		t.Fatalf("a watcher with %d messages waiting was not dropped", len(slow.queue))
	}
	h.mu.Lock()
	lg := h.live[g.id]
	h.mu.Unlock()
	lg.mu.Lock()
	_, stillThere := lg.subs[slow]
	_, readerThere := lg.subs[reading]
	lg.mu.Unlock()
	if stillThere || !readerThere {
		t.Fatalf("after the drop: the slow watcher is a page: %v, the reading one: %v", stillThere, readerThere)
	}
	select {
	case <-reading.gone:
		t.Fatal("the watcher who reads was dropped too")
	default:
	}
}

// Messages that gather while the watchers are being told go out together,
// each to every watcher, in the order they were made.
func TestWatchersGetGatheredMessagesInOrder(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":8}}`)
	h := ts.srv.hub
	var watchers []*subscriber
	for range 3 {
		sub, err := h.subscribe(t.Context(), g.id, "", -1)
		if err != nil {
			t.Fatal(err)
		}
		watchers = append(watchers, sub)
	}
	h.watchersTold(g.id)
	for _, w := range watchers {
		w.take()
	}
	h.mu.Lock()
	lg := h.live[g.id]
	h.mu.Unlock()
	// Under the game's lock nothing is handed out: all three gather.
	lg.mu.Lock()
	for _, n := range []string{"1", "2", "3"} {
		h.fanOut(lg, func(string) []byte { return []byte(`{"n":` + n + `}`) })
	}
	lg.mu.Unlock()
	h.watchersTold(g.id)
	for i, w := range watchers {
		var got []string
		for _, b := range w.take() {
			got = append(got, string(b))
		}
		if strings.Join(got, " ") != `{"n":1} {"n":2} {"n":3}` {
			t.Fatalf("watcher %d got %v", i, got)
		}
	}
}

// When a game is loaded again and its pages are caught up, the watchers'
// catching up goes out after the events still waiting for them: sent
// straight away, it overtook them, and a watcher on another instance got
// the third event of a game before the first two.
func TestWatchersCaughtUpAfterWhatWaits(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":8}}`)
	h := ts.srv.hub
	watcher, err := h.subscribe(t.Context(), g.id, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	lg := h.live[g.id]
	h.mu.Unlock()
	waiting := []byte(`{"type":"event","version":1}`)
	lg.mu.Lock()
	// The telling goroutine waits for the lock, as it may on a busy site.
	h.fanOut(lg, func(seat string) []byte { return waiting })
	h.catchUpPages(lg, lg.rec.Version)
	lg.mu.Unlock()
	h.watchersTold(g.id)
	var types []string
	for _, b := range watcher.take() {
		var m struct{ Type string }
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		types = append(types, m.Type)
	}
	if want := []string{"state", "event", "state"}; !slices.Equal(types, want) {
		t.Fatalf("the watcher got %v, want %v: its state, the event that waited, then the catching up", types, want)
	}
}
