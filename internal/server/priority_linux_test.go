package server

import (
	"context"
	"io"
	"log/slog"
	"syscall"
	"testing"
)

// The computer's searches run at the lowest priority, and only they do.
func TestSearchesRunAtTheLowestPriority(t *testing.T) {
	// getpriority answers 20 - nice: 1 for nice 19.
	const lowest = 1
	own, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	if own == lowest {
		t.Fatal("the test itself runs at the lowest priority: nothing to compare with")
	}
	got := make(chan int, 1)
	th := newThinkers(1, func(ctx context.Context, id string) {
		p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
		if err != nil {
			p = -1
		}
		got <- p
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	th.add("somegame01")
	if p := <-got; p != lowest {
		t.Fatalf("a search ran at priority %d (20 - nice), want %d", p, lowest)
	}
	th.close()
	for range 100 {
		if p, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid()); p == lowest {
			t.Fatal("a goroutine other than a search runs at the searches' priority")
		}
	}
}
