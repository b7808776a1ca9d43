package server

import (
	"context"
	"log/slog"
	"sync"
)

// thinkers run the computer's searches on a fixed number of goroutines,
// so that however many games wait for the computer, no more searches run
// at once than there are cores and the relay of people's moves keeps its
// share of the machine.
//
// Each game waits at most once, under a key: the address of the person
// playing it against the computer (see searchKey). The keys take turns,
// each with its games first come, first served, so that one address's ten
// games at the strongest level hold anybody else's game up for one search
// at most, not ten. A key joins the line when its first game comes, and
// goes to its end each time one of its searches ends: a key waits for at
// most one search of each key ahead of it, however many come after it.
// A free goroutine serves the key with the fewest searches running, so
// that one address takes a second goroutine only when nobody with fewer
// waits, and among those the one first in line.
type thinkers struct {
	work func(ctx context.Context, id, key string)
	log  *slog.Logger

	mu     sync.Mutex
	wake   *sync.Cond
	queued map[string]bool  // the games waiting
	turns  map[string]*turn // the keys with games waiting or searched
	ticks  int              // counts the keys joining the line, to keep its order
	busy   int
	closed bool

	cancel context.CancelFunc
	done   sync.WaitGroup
}

// turn is one key's place among the thinkers.
type turn struct {
	games   []string // waiting, in the order they came
	running int      // searches under way
	place   int      // in line: the lowest is served first
}

func newThinkers(n int, work func(ctx context.Context, id, key string), log *slog.Logger) *thinkers {
	ctx, cancel := context.WithCancel(context.Background())
	t := &thinkers{work: work, log: log, queued: map[string]bool{}, turns: map[string]*turn{}, cancel: cancel}
	t.wake = sync.NewCond(&t.mu)
	for range n {
		t.done.Go(func() { t.run(ctx) })
	}
	return t
}

// add queues game id under key, unless it is queued already.
func (t *thinkers) add(id, key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.queued[id] {
		return
	}
	k := t.turns[key]
	if k == nil {
		t.ticks++
		k = &turn{place: t.ticks}
		t.turns[key] = k
	}
	t.queued[id] = true
	k.games = append(k.games, id)
	t.wake.Signal()
}

// load reports the searches running and the games waiting for one.
func (t *thinkers) load() (running, waiting int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.busy, len(t.queued)
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
		for len(t.queued) == 0 && !t.closed {
			t.wake.Wait()
		}
		if t.closed {
			t.mu.Unlock()
			return
		}
		id, key := t.next()
		t.mu.Unlock()

		t.work(ctx, id, key)

		t.mu.Lock()
		t.busy--
		k := t.turns[key]
		k.running--
		if len(k.games) == 0 && k.running == 0 {
			// Should it come back, it joins the line's end, as here.
			delete(t.turns, key)
		} else {
			t.ticks++
			k.place = t.ticks
		}
		t.mu.Unlock()
	}
}

// next takes the game to search now, and its key. A game is waiting.
func (t *thinkers) next() (id, key string) {
	var k *turn
	for name, c := range t.turns {
		if len(c.games) > 0 && (k == nil || c.running < k.running || c.running == k.running && c.place < k.place) {
			k, key = c, name
		}
	}
	id, k.games = k.games[0], k.games[1:]
	// A game may be queued again while it is searched: its next turn.
	delete(t.queued, id)
	t.busy++
	k.running++
	return id, key
}
