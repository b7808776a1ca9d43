package server

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeSearches is work for thinkers that tells of each search it starts
// and ends it when the test lets that game go, or when the thinkers close.
type fakeSearches struct {
	started chan string
	running atomic.Int64

	mu    sync.Mutex
	gates map[string]chan struct{}
}

func newFakeSearches() *fakeSearches {
	return &fakeSearches{started: make(chan string), gates: map[string]chan struct{}{}}
}

func (f *fakeSearches) gate(id string) chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gates[id] == nil {
		f.gates[id] = make(chan struct{})
	}
	return f.gates[id]
}

// release ends the search of game id, once it runs.
func (f *fakeSearches) release(id string) { f.gate(id) <- struct{}{} }

// startThinkers starts n goroutines of thinkers on fake searches.
func startThinkers(t *testing.T, n int) (*fakeSearches, *thinkers) {
	f := newFakeSearches()
	th := newThinkers(n, f.work, slog.New(slog.DiscardHandler))
	t.Cleanup(th.close)
	return f, th
}

// first checks that the search of game want starts, with none before.
func (f *fakeSearches) first(t *testing.T, want string) {
	t.Helper()
	if id := <-f.started; id != want {
		t.Fatalf("searched %s first, want %s", id, want)
	}
}

// next ends the search of game done and checks that want's starts.
func (f *fakeSearches) next(t *testing.T, done, want string) {
	t.Helper()
	f.release(done)
	if id := <-f.started; id != want {
		t.Fatalf("after %s, searched %s, want %s", done, id, want)
	}
}

func (f *fakeSearches) work(ctx context.Context, id, key string) {
	f.running.Add(1)
	defer f.running.Add(-1)
	select {
	case f.started <- id:
	case <-ctx.Done():
		return
	}
	select {
	case <-f.gate(id):
	case <-ctx.Done():
	}
}

// One address's many games make another's wait for one search at most:
// the keys take turns, each key's games in the order they came. A game waits
// at most once, under the key it came with first.
func TestThinkersTakeTurnsByAddress(t *testing.T) {
	f, th := startThinkers(t, 1)
	th.add("a1", "A")
	f.first(t, "a1")
	for _, id := range []string{"a2", "a3", "a4", "a5"} {
		th.add(id, "A")
	}
	th.add("b1", "B")
	th.add("a2", "A")
	th.add("a3", "B")
	th.add("b1", "B")
	if running, waiting := th.load(); running != 1 || waiting != 5 {
		t.Fatalf("%d running, %d waiting; want 1 and 5", running, waiting)
	}
	order := []string{"a1"}
	for range 5 {
		f.release(order[len(order)-1])
		order = append(order, <-f.started)
	}
	if want := []string{"a1", "b1", "a2", "a3", "a4", "a5"}; !slices.Equal(order, want) {
		t.Fatalf("searched %v, want %v", order, want)
	}
	if running, waiting := th.load(); running != 1 || waiting != 0 {
		t.Fatalf("%d running, %d waiting; want 1 and 0", running, waiting)
	}
	// A game searched may be queued again, for its next move.
	th.add("a5", "A")
	f.next(t, "a5", "a5")
}

// A key goes to the end of the line when a search of its ends: it waits
// for the keys that were there before, not for those that come after,
// however many come.
func TestThinkersKeepTheLine(t *testing.T) {
	f, th := startThinkers(t, 1)
	th.add("a1", "A")
	f.first(t, "a1")
	th.add("a2", "A")
	th.add("b1", "B")
	f.next(t, "a1", "b1")
	th.add("c1", "C")
	f.next(t, "b1", "a2")
	th.add("b2", "B")
	f.next(t, "a2", "c1")
	f.next(t, "c1", "b2")

	// A newcomer for every search ending passes nobody already waiting.
	th.add("x1", "X")
	th.add("y1", "Y")
	f.next(t, "b2", "x1")
	th.add("x2", "X")
	th.add("new0", "N0")
	f.next(t, "x1", "y1")
	th.add("new1", "N1")
	f.next(t, "y1", "new0")
	th.add("new2", "N2")
	f.next(t, "new0", "x2")
}

// An address that searches already waits, with more games, while
// another with none running has one: it takes no second goroutine.
func TestThinkersShareTheGoroutines(t *testing.T) {
	f, th := startThinkers(t, 2)
	th.add("a1", "A")
	f.first(t, "a1")
	th.add("b1", "B")
	f.first(t, "b1") // while a1 is searched
	th.add("a2", "A")
	th.add("b2", "B")
	f.next(t, "b1", "b2") // a1 is searched still: A waits
	f.next(t, "a1", "a2")
}

// Closing stops the searches under way, and nothing waiting starts.
func TestThinkersClose(t *testing.T) {
	f := newFakeSearches()
	th := newThinkers(1, f.work, slog.New(slog.DiscardHandler))
	th.add("a1", "A")
	<-f.started
	th.add("a2", "A")
	th.add("b1", "B")
	th.close()
	if n := f.running.Load(); n != 0 {
		t.Fatalf("%d searches run after close", n)
	}
	th.add("c1", "C")
	select {
	case id := <-f.started:
		t.Fatalf("%s searched after close", id)
	default:
	}
}
