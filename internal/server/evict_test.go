package server

import (
	"net/http"
	"runtime/debug"
	"sync"
	"testing"
	"time"
)

// fakeNow is a clock that tests move by hand.
type fakeNow struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeNow) now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.t }
func (f *fakeNow) add(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
}

func (ts *testServer) inMemory() int {
	ts.srv.hub.mu.Lock()
	defer ts.srv.hub.mu.Unlock()
	return len(ts.srv.hub.live)
}

func TestIdleGamesLeaveMemory(t *testing.T) {
	ts := newTestServer(t)
	clock := &fakeNow{t: time.Now()}
	ts.srv.hub.now = clock.now
	short := false
	ts.srv.hub.memoryShort = func() bool { return short }

	over := ts.newGame(t, `{"game":"havannah"}`)
	ts.call(t, "POST", "/api/games/"+over.id+"/resign", over.white, nil, nil)
	open := ts.newGame(t, `{"game":"dvonn"}`)
	page := ts.dial(t, open.id, open.white, "")
	page.next("state")
	recent := ts.newGame(t, `{"game":"fanorona"}`)
	if n := ts.inMemory(); n != 3 {
		t.Fatalf("%d games in memory, want 3", n)
	}

	clock.add(idleFor - time.Second)
	ts.state(t, recent.id, "") // used just now
	clock.add(time.Second)
	if n := ts.srv.hub.evictIdle(idleFor); n != 1 || ts.inMemory() != 2 {
		t.Fatalf("after %v idle: dropped %d, %d left; want the finished game dropped", idleFor, n, ts.inMemory())
	}
	// Short of memory, every game nobody has open goes at once.
	short = true
	if n := ts.srv.hub.evictIdle(idleFor); n != 1 || ts.inMemory() != 1 {
		t.Fatalf("short of memory: dropped %d, %d left; want only the open game kept", n, ts.inMemory())
	}
	// A dropped game comes back from the store whole.
	if s := ts.state(t, over.id, ""); s.Status != "over" || s.Result == nil || s.Result.Reason != "resign" {
		t.Fatalf("a dropped game came back as %+v", s)
	}
	if code := ts.call(t, "POST", "/api/games/"+recent.id+"/moves", recent.white, map[string]any{"ply": 0, "move": "d3-e3"}, nil); code == http.StatusInternalServerError {
		t.Fatal("a dropped game cannot be played on")
	}
}

// A game with a clock keeps one timer however often it leaves memory and
// comes back: the timer ends it on time, loading it if need be.
func TestDroppedGamesKeepOneTimer(t *testing.T) {
	ts := newTestServer(t)
	h := ts.srv.hub
	var mu sync.Mutex
	var timers []*time.Timer
	h.afterFunc = func(d time.Duration, f func()) *time.Timer {
		t := time.AfterFunc(d, f)
		mu.Lock()
		timers = append(timers, t)
		mu.Unlock()
		return t
	}
	g := ts.newGame(t, `{"game":"havannah","clock":{"days":14}}`)
	ts.play(t, g, "c3 d4")
	for range 5 {
		h.evictIdle(-time.Hour)
		ts.state(t, g.id, "")
	}
	mu.Lock()
	defer mu.Unlock()
	pending := 0
	for _, t := range timers {
		if t.Stop() {
			pending++
		}
	}
	if len(timers) < 6 || pending != 1 {
		t.Errorf("%d timers armed, %d of them pending, want 1", len(timers), pending)
	}
}

func TestHeapNearLimit(t *testing.T) {
	if heapNearLimit() {
		t.Fatal("near the limit without any limit set")
	}
	old := debug.SetMemoryLimit(1 << 20)
	defer debug.SetMemoryLimit(old)
	if !heapNearLimit() {
		t.Fatal("a heap of several MiB is not near a limit of 1 MiB")
	}
}
