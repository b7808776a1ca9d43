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
	f := newFakeSearches()
	th := newThinkers(1, f.work, slog.New(slog.DiscardHandler))
	t.Cleanup(th.close)
	th.add("a1", "A")
	if id := <-f.started; id != "a1" {
		t.Fatalf("first search: %s", id)
	}
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
	f.release("a5")
	if id := <-f.started; id != "a5" {
		t.Fatalf("searched %s, want a5 again", id)
	}
}

// A key goes to the end of the line when a search of its ends: it waits
// for the keys that were there before, not for those that come after,
// however many come.
func TestThinkersKeepTheLine(t *testing.T) {
	f := newFakeSearches()
	th := newThinkers(1, f.work, slog.New(slog.DiscardHandler))
	t.Cleanup(th.close)
	th.add("a1", "A")
	order := []string{<-f.started}
	th.add("a2", "A")
	th.add("b1", "B")
	f.release("a1")
	order = append(order, <-f.started)
	th.add("c1", "C")
	f.release("b1")
	order = append(order, <-f.started)
	th.add("b2", "B")
	for range 2 {
		f.release(order[len(order)-1])
		order = append(order, <-f.started)
	}
	if want := []string{"a1", "b1", "a2", "c1", "b2"}; !slices.Equal(order, want) {
		t.Fatalf("searched %v, want %v", order, want)
	}

	// A newcomer for every search ending passes nobody already waiting.
	next := func(done, want string) {
		t.Helper()
		f.release(done)
		if id := <-f.started; id != want {
			t.Fatalf("after %s, searched %s, want %s", done, id, want)
		}
	}
	th.add("x1", "X")
	th.add("y1", "Y")
	next("b2", "x1")
	th.add("x2", "X")
	th.add("new0", "N0")
	next("x1", "y1")
	th.add("new1", "N1")
	next("y1", "new0")
	th.add("new2", "N2")
	next("new0", "x2")
}

// An address that searches already waits, with more games, while
// another with none running has one: it takes no second goroutine.
func TestThinkersShareTheGoroutines(t *testing.T) {
	f := newFakeSearches()
	th := newThinkers(2, f.work, slog.New(slog.DiscardHandler))
	t.Cleanup(th.close)
	th.add("a1", "A")
	if id := <-f.started; id != "a1" {
		t.Fatalf("first search: %s", id)
	}
	th.add("b1", "B")
	if id := <-f.started; id != "b1" {
		t.Fatalf("second search: %s", id)
	}
	th.add("a2", "A")
	th.add("b2", "B")
	f.release("b1")
	if id := <-f.started; id != "b2" {
		t.Fatalf("with a1 searched, %s's search started, want b2's", id)
	}
	f.release("a1")
	if id := <-f.started; id != "a2" {
		t.Fatalf("then %s's search started, want a2's", id)
	}
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
