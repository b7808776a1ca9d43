package server

import (
	"context"
	"errors"
	"time"

	"bretter/internal/clock"
	"bretter/internal/store"
)

// The server owns time. Each event carries the time it was stored, the
// clocks are worked out from those times and the times the site was down
// (package clock; see downtime.go), and a timer per game ends it when the
// running clock runs out, whether or not anybody has it open. A move that
// arrives after that moment, before the timer has fired, finds the game
// lost on time.

// ClockView is a game's clock as the API and the live protocol send it.
type ClockView struct {
	WhiteMS  int64   `json:"white_ms"`
	BlackMS  int64   `json:"black_ms"`
	Running  *string `json:"running"`
	ServerMS int64   `json:"server_ms"`
	HeldMS   int64   `json:"held_ms,omitempty"`
	// The time control.
	InitialMS   int64 `json:"initial_ms,omitempty"`
	IncrementMS int64 `json:"increment_ms,omitempty"`
	Days        int   `json:"days,omitempty"`
}

// clockState works out g's clocks at now, or at the end of a finished
// game.
func (g *liveGame) clockState(now time.Time) clock.State {
	playing := g.rec.Status == "playing"
	if !playing {
		// The clocks stopped with the event that ended the game: what
		// may follow the end (an offer of a new game, a name) takes no
		// time from anybody.
		for i := len(g.events) - 1; i >= 0; i-- {
			if now = g.events[i].At; !store.AfterEnd(g.events[i : i+1]) {
				break
			}
		}
	}
	return clock.At(g.rec.Clock, g.ticks, g.state.ToMove().String(), playing, now, g.down())
}

// clockView is g's clock for a snapshot at now, or nil without a clock.
func (g *liveGame) clockView(now time.Time) *ClockView {
	c := g.rec.Clock
	if c.None() {
		return nil
	}
	st := g.clockState(now)
	v := &ClockView{WhiteMS: max(0, st.White.Milliseconds()), BlackMS: max(0, st.Black.Milliseconds()), ServerMS: now.UnixMilli(),
		InitialMS: c.Initial.Milliseconds(), IncrementMS: c.Increment.Milliseconds(), Days: c.Days}
	if st.Running != "" {
		running := st.Running
		v.Running = &running
		// A clock that runs out later than its time left from now stands
		// still until then: the site's outage, or the grace after it.
		v.HeldMS = max(0, st.Deadline.Sub(now)-st.Left(running)).Milliseconds()
	}
	return v
}

// armClock sets the timer of g's clock for the moment the running clock
// runs out, and stops it when no clock runs. The timer is the game's, not
// its copy's: a game dropped from memory keeps it (it loads the game when
// it fires), and a copy loaded again replaces it. A moment already past
// fires at once.
func (h *hub) armClock(g *liveGame) { h.armClockOr(g, 0) }

// armClockLoaded is armClock for a game just loaded, whose moment may have
// passed: that is left to the request that loaded it (every request ends
// a game whose time ran out first), and the timer tries again only after
// retryAfter. Firing at once, it would load the game again, and arm
// another timer at once: a store refusing the ending would be asked for
// ever, as fast as it answers.
func (h *hub) armClockLoaded(g *liveGame) { h.armClockOr(g, retryAfter) }

// armClockOr is armClock, waiting late when the moment has passed.
func (h *hub) armClockOr(g *liveGame, late time.Duration) {
	if g.rec.Clock.None() {
		return
	}
	var st clock.State
	if g.rec.Status == "playing" {
		st = g.clockState(h.now())
	}
	h.clocksMu.Lock()
	defer h.clocksMu.Unlock()
	if st.Running == "" {
		h.dropClock(g.rec.ID)
		return
	}
	wait := st.Deadline.Sub(h.now())
	if wait <= 0 {
		wait = late
	}
	h.setClock(g.rec.ID, wait)
}

// clockTimer is the timer of a game's clock.
type clockTimer struct{ t *time.Timer }

// setClock replaces the timer of game id with one that fires after wait.
// clocksMu is held.
func (h *hub) setClock(id string, wait time.Duration) {
	h.dropClock(id)
	if h.clocks == nil {
		h.clocks = map[string]*clockTimer{}
	}
	c := &clockTimer{}
	c.t = h.afterFunc(wait, func() { h.flagOnTime(id, c) })
	h.clocks[id] = c
}

// dropClock stops the timer of game id, if any. clocksMu is held.
func (h *hub) dropClock(id string) {
	if c := h.clocks[id]; c != nil {
		c.t.Stop()
		delete(h.clocks, id)
	}
}

// flagOnTime ends game id on time if its clock has run out, for its timer
// c. Should the store fail, it tries again a little later, unless loading
// the game set a new timer meanwhile.
func (h *hub) flagOnTime(id string, c *clockTimer) {
	if h.ctx.Err() != nil {
		return
	}
	err := h.with(h.ctx, id, func(g *liveGame) error {
		flagged, err := h.flagIfDue(h.ctx, g)
		if err == nil && !flagged {
			// Not yet: the wall clock went back while the timer waited,
			// or the game changed. Its timer must not be the one spent.
			h.armClock(g)
		}
		return err
	})
	if err == nil || h.ctx.Err() != nil || errors.Is(err, errNotFound) {
		return
	}
	h.log.Error("ending a game on time", "game", id, "err", err)
	h.clocksMu.Lock()
	defer h.clocksMu.Unlock()
	if h.clocks[id] == c {
		h.setClock(id, retryAfter)
	}
}

// forgetClock drops the timer of game id: another instance changed the
// game while it was out of memory here, so the timer's deadline may be
// wrong. The next look for clocks without a timer loads the game anew.
func (h *hub) forgetClock(id string) {
	h.clocksMu.Lock()
	defer h.clocksMu.Unlock()
	h.dropClock(id)
}

// flagIfDue ends g on time if the running clock has run out, and reports
// whether it did. The event carries the moment the time ran out, so the
// clocks read zero whenever it is stored.
func (h *hub) flagIfDue(ctx context.Context, g *liveGame) (bool, error) {
	if g.rec.Clock.None() || g.rec.Status != "playing" {
		return false, nil
	}
	if err := h.noteIfLate(ctx); err != nil {
		return false, err
	}
	st := g.clockState(h.now())
	if st.Running == "" || h.now().Before(st.Deadline) {
		return false, nil
	}
	_, err := h.commitAt(ctx, g, st.Deadline, step{store.Event{Kind: "timeout", Seat: st.Running}, g.state})
	return true, err
}

// notFlagged is for commands on a game in play: it ends the game on time
// first if its time ran out, and then refuses the command.
func (h *hub) notFlagged(ctx context.Context, g *liveGame) error {
	flagged, err := h.flagIfDue(ctx, g)
	if err != nil {
		return err
	}
	if flagged {
		return errOver
	}
	return nil
}

// clocksLookedEvery is how often an instance looks for clocks without a
// timer here.
const clocksLookedEvery = time.Minute

// lookAtClocks runs watchClocks, once a minute at most, apart.
func (h *hub) lookAtClocks() {
	now := h.now()
	h.clocksMu.Lock()
	since := now.Sub(h.clocksLooked)
	due := since >= clocksLookedEvery || since < 0 // or the system's clock went back
	if due {
		h.clocksLooked = now
	}
	h.clocksMu.Unlock()
	if due && h.lookingAtClocks.CompareAndSwap(false, true) {
		go func() {
			defer h.lookingAtClocks.Store(false)
			h.watchClocks(h.ctx)
		}()
	}
}

// watchClocks watches the clocks of the games in play that have no timer
// here: all of them at start, then games another instance stored and held
// in memory alone, or games a failing store left without one. It runs at
// start and every minute or so after, so that should another instance
// die, its games still end on time (within that minute).
func (h *hub) watchClocks(ctx context.Context) {
	ids, err := h.store.TimedGames(ctx)
	if err != nil {
		if ctx.Err() == nil {
			h.log.Error("listing the games with a clock", "err", err)
		}
		return
	}
	h.clocksMu.Lock()
	unwatched := ids[:0]
	for _, id := range ids {
		if h.clocks[id] == nil {
			unwatched = append(unwatched, id)
		}
	}
	h.clocksMu.Unlock()
	h.resumeClocks(ctx, unwatched)
}

// resumeClocks sets the timers of the clocks of games ids, in play; those
// whose time ran out meanwhile end now.
func (h *hub) resumeClocks(ctx context.Context, ids []string) {
	for _, id := range ids {
		err := h.with(ctx, id, func(g *liveGame) error {
			// A game in memory already may have lost its timer (see
			// forgetClock) to news that raced its loading.
			h.armClockLoaded(g)
			return nil
		})
		if err != nil && ctx.Err() == nil {
			h.log.Error("resuming a game's clock", "game", id, "err", err)
		}
	}
}
