package server

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Games stay in memory while a page has them open; others are dropped
// once idle, within a minute (the store still has them, and the next
// request loads them again). Near the memory limit (GOMEMLIMIT), every
// game nobody has open is dropped at once.
const (
	evictEvery = 15 * time.Second
	idleFor    = 45 * time.Second
	// pressure is the share of the memory limit above which memory wins
	// over the cost of loading games again.
	pressure = 0.8
)

// evictIdle drops games that nobody has open and nobody used for idle, or
// for any time at all when memory is short. It returns how many it
// dropped.
func (h *hub) evictIdle(idle time.Duration) int {
	if h.memoryShort() {
		idle = 0
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	dropped := 0
	for id, g := range h.live {
		if g.mu.TryLock() {
			if len(g.subs) == 0 && h.now().Sub(g.used) >= idle {
				g.evicted = true
				delete(h.live, id)
				dropped++
			}
			g.mu.Unlock()
		}
	}
	return dropped
}

// heapNearLimit reports whether the live heap is near the memory limit
// the process was given (GOMEMLIMIT or debug.SetMemoryLimit).
func heapNearLimit() bool {
	limit := debug.SetMemoryLimit(-1)
	if limit == math.MaxInt64 {
		return false
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return false
	}
	return float64(s[0].Value.Uint64()) > pressure*float64(limit)
}
