package server

import (
	"context"
	"errors"
	"slices"
	"time"

	"bretter/game"
	"bretter/internal/store"
)

// step is an event with the position after it.
type step struct {
	event store.Event
	after game.State
}

// commit stores events as the game's next, all or none, then applies them
// one by one and tells every page of each. Only what the store has
// accepted is ever applied. It returns the game's new version.
func (h *hub) commit(ctx context.Context, g *liveGame, steps ...step) (version int, err error) {
	return h.commitAt(ctx, g, h.now(), steps...)
}

// commitAt is commit with the events' time given. The time is kept as the
// store keeps it, to the millisecond, so that the clocks in memory agree
// with those of a copy loaded from the store.
func (h *hub) commitAt(ctx context.Context, g *liveGame, now time.Time, steps ...step) (version int, err error) {
	now = storedTime(now)
	events := make([]store.Event, len(steps))
	for i := range steps {
		steps[i].event.Seq = len(g.events) + 1 + i
		steps[i].event.At = now
		events[i] = steps[i].event
	}
	end := ending(steps[len(steps)-1])
	start := time.Now()
	err = h.store.Append(ctx, g.rec.ID, events, end)
	h.metrics.appends.Observe(time.Since(start).Seconds())
	if err != nil {
		// Another server wrote first, or the store failed and may or may
		// not have kept the events: forget what we knew.
		g.loaded = false
		if errors.Is(err, store.ErrConflict) {
			return 0, conflict{errStale(len(g.moves), len(g.moves)+1)}
		}
		return 0, err
	}
	for _, e := range events {
		if e.Kind == "move" {
			h.metrics.moves.Inc()
		}
	}
	for i, st := range steps {
		e := st.event
		if err := g.apply(e, st.after); err != nil {
			// Checked before storing: an engine that changed its mind.
			g.loaded = false
			return 0, err
		}
		g.rec.Version = e.Seq
		g.rec.Updated = e.At
		if i == len(steps)-1 && end != nil {
			g.rec.Status, g.rec.Winner, g.rec.Reason = "over", end.Winner, end.Reason
		}
		g.view = g.state.View()
		h.broadcastEvent(g, e)
	}
	g.stored = g.rec.Version
	if c := clientOf(ctx); c != "" {
		g.client = c
	}
	h.publish(g, busMessage{Kind: "events", Events: events, End: end})
	h.stopStaleSearch(g)
	h.thinkIfComputerTurn(g)
	h.armClock(g)
	h.tellPlayers(g, steps[len(steps)-1].event)
	return len(g.events), nil
}

// tellPlayers sends a push notice to whoever's turn it has become, or to
// both players when the game has ended.
func (h *hub) tellPlayers(g *liveGame, last store.Event) {
	for _, n := range playerNotices(g, last, h.now()) {
		h.tell(g, n)
	}
}

// playerNotices are the notices last, just applied to g, brings its
// players: to whoever's turn it has become, or to both when the game has
// ended. The computer needs none. A notice of a turn on a running clock
// lasts until that clock's time is up.
func playerNotices(g *liveGame, last store.Event, now time.Time) []notice {
	base := notice{game: g.rec.ID, gameName: g.rec.Game}
	var out []notice
	switch {
	case g.rec.Status == "over":
		for _, seat := range []string{"white", "black"} {
			n := base
			n.seat, n.kind = seat, "lost"
			switch {
			case g.rec.Reason == "aborted":
				n.kind = "aborted"
			case g.rec.Winner == seat:
				n.kind = "won"
			case g.rec.Winner == "none":
				n.kind = "draw"
			}
			out = append(out, n)
		}
	case g.rec.Status == "playing" && (last.Kind == "move" || last.Kind == "takeback"):
		n := base
		n.seat, n.kind = g.state.ToMove().String(), "turn"
		switch {
		case last.Kind == "takeback":
			n.kind = "takeback"
		case len(g.ticks) > 0 && g.ticks[len(g.ticks)-1].Forced:
			// The rules made the other's move (a pass): the player is
			// to move again after their own.
			n.kind = "again"
		case last.Move == "swap":
			// Havannah's one move that is a word: told in the player's
			// words, as the page's list of moves does.
			n.kind = "swapped"
		default:
			n.text = []any{"move", last.Move}
		}
		// A turn whose time runs out is no news after it has.
		if st := g.clockState(now); st.Running == n.seat {
			n.life = max(time.Second, st.Deadline.Sub(now))
		}
		out = append(out, n)
	}
	return slices.DeleteFunc(out, func(n notice) bool { return n.seat == g.rec.Computer })
}

// spareForPagesHere keeps the notices of events another instance stored
// for the players whose pages here are on screen. That instance sends
// none while they look; should such a page die unseen, the notice goes
// from here (see hub.leave), as it would for news stored here.
func (h *hub) spareForPagesHere(g *liveGame, last store.Event) {
	for _, n := range playerNotices(g, last, h.now()) {
		if i := seatIndex(n.seat); g.presence[i].looking > 0 {
			g.spared[i] = &n
		}
	}
}

// tell sends n, unless its player has the game's page on screen and sees
// the news there. g is locked. With other instances the page may be on
// one of them, and this one may not know it yet: they tell their pages
// at most once every presenceEvery, and only when asked of a game just
// loaded here (the friend's join, say). The notice waits that long
// first, and goes unless the player is looking then.
func (h *hub) tell(g *liveGame, n notice) {
	if h.bus == nil || h.noticeWait == 0 {
		h.tellUnlessLooking(g, n)
		return
	}
	h.afterFunc(h.noticeWait, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		// A game dropped from memory meanwhile had no pages here; what
		// the others said of theirs went with it.
		if g.evicted {
			h.notify(n)
			return
		}
		h.tellUnlessLooking(g, n)
	})
}

// tellUnlessLooking sends n unless its player is looking at g; a notice
// spared for a page here is kept, should that page die unseen. g is
// locked.
func (h *hub) tellUnlessLooking(g *liveGame, n notice) {
	i := seatIndex(n.seat)
	switch {
	case g.presence[i].looking > 0:
		g.spared[i] = &n
	case !g.lookingAt(n.seat, h.now()):
		g.spared[i] = nil
		h.notify(n)
	}
}

// ending is how the game ends with last, or nil when it goes on.
func ending(last step) *store.Ending {
	switch last.event.Kind {
	case "resign", "timeout":
		return &store.Ending{Winner: otherSeat(last.event.Seat), Reason: last.event.Kind}
	case "draw":
		return &store.Ending{Winner: "none", Reason: "agreement"}
	case "abort":
		return &store.Ending{Winner: "none", Reason: "aborted"}
	}
	if out := last.after.Outcome(); out.Over {
		return &store.Ending{Winner: out.Winner.String(), Reason: out.Reason}
	}
	return nil
}
