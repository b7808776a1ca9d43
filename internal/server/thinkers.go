package server

import (
	"context"
	"log/slog"
	"sync"
)

// thinkers run the computer's searches on a fixed number of goroutines,
// so that however many games wait for the computer, no more searches run
// at once than there are cores and the relay of people's moves keeps its
// share of the machine. Games wait their turn first come, first served,
// each at most once in the queue.
type thinkers struct {
	work func(ctx context.Context, id string)
	log  *slog.Logger

	mu     sync.Mutex
	wake   *sync.Cond
	queue  []string
	queued map[string]bool
	busy   int
	closed bool

	cancel context.CancelFunc
	done   sync.WaitGroup
}

func newThinkers(n int, work func(ctx context.Context, id string), log *slog.Logger) *thinkers {
	ctx, cancel := context.WithCancel(context.Background())
	t := &thinkers{work: work, log: log, queued: map[string]bool{}, cancel: cancel}
	t.wake = sync.NewCond(&t.mu)
	for range n {
		t.done.Go(func() { t.run(ctx) })
	}
	return t
}

// add queues game id, unless it is queued already.
func (t *thinkers) add(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.queued[id] {
		return
	}
	t.queued[id] = true
	t.queue = append(t.queue, id)
	t.wake.Signal()
}

// load reports the searches running and the games waiting for one.
func (t *thinkers) load() (running, waiting int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.busy, len(t.queue)
}

// close stops the searches under way and waits for every goroutine.
func (t *thinkers) close() {
	t.mu.Lock()
	t.closed = true
	t.wake.Broadcast()
	t.mu.Unlock()
	t.cancel()
	t.done.Wait()
}

func (t *thinkers) run(ctx context.Context) {
	// The searches run at the process's own priority. Run at the lowest
	// (nice 19, each on a thread of its own), they made the relay of
	// people's moves slower, not faster, on a busy machine: the kernel
	// left the low thread waiting, and every stop of the world for the
	// garbage collector waited for it too. The pool's size is what keeps
	// a core free for the relay.
	for {
		t.mu.Lock()
		for len(t.queue) == 0 && !t.closed {
			t.wake.Wait()
		}
		if t.closed {
			t.mu.Unlock()
			return
		}
		id := t.queue[0]
		t.queue = t.queue[1:]
		// A game may be queued again while it is searched: its next turn.
		delete(t.queued, id)
		t.busy++
		t.mu.Unlock()

		t.work(ctx, id)

		t.mu.Lock()
		t.busy--
		t.mu.Unlock()
	}
}
