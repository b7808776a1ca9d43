package server

import (
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// writes records each write a page's connection is given.
type writes struct {
	mu   sync.Mutex
	got  []string
	more chan struct{}
}

func (w *writes) try(batch [][]byte) ([][]byte, bool, error) { return nil, true, w.send(batch) }

func (w *writes) stop() {}

func (w *writes) send(batch [][]byte) error {
	var msgs []string
	for _, b := range batch {
		msgs = append(msgs, string(b))
	}
	w.mu.Lock()
	w.got = append(w.got, strings.Join(msgs, "+"))
	w.mu.Unlock()
	w.more <- struct{}{}
	return nil
}

func (w *writes) wait(t *testing.T) {
	t.Helper()
	select {
	case <-w.more:
	case <-time.After(5 * time.Second):
		t.Fatal("nothing was written")
	}
}

// While a page's own message is carried out, what it is sent waits, and
// goes out in one write with the answer.
func TestHeldMessagesGoOutInOneWrite(t *testing.T) {
	w := &writes{more: make(chan struct{}, 8)}
	sub := newSubscriber("white")
	sub.attach(w)
	sub.hold()
	sub.push([]byte("event"))
	sub.push([]byte("presence"))
	select {
	case <-w.more:
		t.Fatalf("written while held: %v", w.got)
	case <-time.After(50 * time.Millisecond):
	}
	sub.push([]byte("ack"))
	sub.release()
	w.wait(t)
	// Once released, messages go out as they come.
	sub.push([]byte("next"))
	w.wait(t)
	w.mu.Lock()
	defer w.mu.Unlock()
	if strings.Join(w.got, " ") != "event+presence+ack next" {
		t.Fatalf("writes %q, want the held three in one, then the next", w.got)
	}
}

// stalledPage takes nothing at once, and each send waits for open.
type stalledPage struct {
	open  chan struct{}
	tries int
	writes
}

func (p *stalledPage) try(batch [][]byte) ([][]byte, bool, error) {
	p.tries++
	return batch, false, nil
}

func (p *stalledPage) send(batch [][]byte) error {
	<-p.open
	return p.writes.send(batch)
}

// A page that does not take its messages at once does not hold up
// whoever pushes them (a game's goroutine, or the one telling its
// watchers): a writer of its own sends them, in order, and what comes
// meanwhile waits for that writer instead of being tried again.
func TestSlowPageDoesNotHoldUpThePusher(t *testing.T) {
	p := &stalledPage{open: make(chan struct{}), writes: writes{more: make(chan struct{}, 8)}}
	sub := newSubscriber("")
	sub.attach(p)
	pushed := make(chan struct{})
	go func() {
		sub.pushNow([]byte("one"))
		sub.pushNow([]byte("two"), []byte("three"))
		close(pushed)
	}()
	select {
	case <-pushed:
	case <-time.After(5 * time.Second):
		t.Fatal("push waited for the page")
	}
	if p.tries != 1 {
		t.Errorf("tried %d times, want once: later messages wait for the page's writer", p.tries)
	}
	close(p.open)
	p.wait(t)
	p.wait(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	if strings.Join(p.got, " ") != "one two+three" {
		t.Fatalf("writes %q, want one, then the two that waited", p.got)
	}
}

// In a watched game the players' messages are written before the watchers
// are told, by whoever hands them out, not by a writer that would have to
// win a processor from the one telling the watchers.
func TestWatchedGameWritesPlayersFirst(t *testing.T) {
	h := newHub(nil, nil, slog.New(slog.DiscardHandler))
	player := &writes{more: make(chan struct{}, 8)}
	watcher := &writes{more: make(chan struct{}, 8)}
	white, watching := newSubscriber("white"), newSubscriber("")
	white.attach(player)
	watching.attach(watcher)
	g := &liveGame{subs: map[*subscriber]struct{}{white: {}, watching: {}}}
	g.mu.Lock()
	h.fanOut(g, func(seat string) []byte { return []byte("to " + seat) })
	player.mu.Lock()
	got := strings.Join(player.got, " ")
	player.mu.Unlock()
	g.mu.Unlock()
	if got != "to white" {
		t.Errorf("the player's page had %q written when the event was handed out, want %q", got, "to white")
	}
	watcher.wait(t)
	watcher.mu.Lock()
	defer watcher.mu.Unlock()
	if strings.Join(watcher.got, " ") != "to " {
		t.Errorf("the watcher got %q", watcher.got)
	}
}
