package server

import (
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

func (w *writes) write(batch [][]byte) error {
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
	sub.attach(w.write, func() {})
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
