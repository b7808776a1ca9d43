package server

import "time"

// evictIdle drops games that nobody has open and nobody used for a while;
// the store still has them, and the next request loads them again.
func (h *hub) evictIdle(idle time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for id, g := range h.live {
		if g.mu.TryLock() {
			if len(g.subs) == 0 && h.now().Sub(g.used) > idle {
				g.evicted = true
				delete(h.live, id)
			}
			g.mu.Unlock()
		}
	}
}
