package server

import (
	"context"
	"time"

	"bretter/internal/clock"
)

// While the site is down nobody can move, so that time is charged to
// nobody: a deploy or a crash must not decide a game. Every instance
// notes in the store that the site is up every seenUpEvery, and once
// more when it stops. An instance that starts finds there when the site
// was last seen up; if that is longer ago than downAfter, nobody was up
// meanwhile, and it records the outage, from then to now, for every
// instance (see store's SeenUp). The clocks leave out every outage.
//
// An outage is recorded by an instance that starts, before it serves,
// and no instance was up during it: every instance that works out a
// clock across it knows it, so every instance, a restart and a replay
// agree on the clocks. An instance that was frozen (its machine
// suspended or paused, or the process stopped) while no other was up,
// or whose store failed as long, records the outage the same way with
// its next note; a timer or a request waking with it notes first (see
// noteIfLate), so that no clock charges the player to move for the time
// nobody could play. A site down for less than downAfter charges the
// player to move for it. A longer outage begins at the last note, which
// may be up to seenUpEvery before a crash (or a stop's last answers
// after it): that time is charged to nobody, but for a game that stored
// something meanwhile, the outage begins there instead (clock.At).
// Should the notes of the instances up come later than downAfter (a
// store that stalls), one starting meanwhile records an outage they were
// up for; each learns of it with its next note, so that they disagree on
// the clocks for a second at most, and the time is charged to nobody.
//
// After an outage the clocks stand still restartGrace longer, whoever is
// to move: the site is up again, but a page finds that out only when it
// next tries to connect (within two seconds while a clock runs: see
// connect in game.js), and the player to move must not pay for the
// site's restart. The grace is recorded with the outage, so that every
// instance, a restart and a replay agree on it, and it is the same for
// both players: moves are made in it as usual, and cost nothing.
const (
	seenUpEvery = time.Second
	// downAfter leaves room for a note that came late (a busy store)
	// and for the instances' system clocks to differ a little: a gap
	// that short is no outage.
	downAfter = seenUpEvery + 2*time.Second
	// restartGrace leaves a page room to come back: its wait for the
	// next try, the connection and the state.
	restartGrace = 5 * time.Second
)

// down is the time the site was down, as known when this instance
// started.
func (h *hub) down() clock.Downtime {
	if d := h.downtime.Load(); d != nil {
		return *d
	}
	return clock.Downtime{}
}

// Start records how long the site was down, if it was, and learns every
// time it was, for the clocks, and since when takebacks give back their
// increments. Call it before the server serves: a request must not work
// out a clock (and end a game on time) without the outage that just
// ended.
func (s *Server) Start(ctx context.Context) error {
	return s.hub.start(ctx)
}

func (h *hub) start(ctx context.Context) error {
	outages, err := h.store.SeenUp(ctx, h.now(), downAfter, restartGrace)
	if err != nil {
		return err
	}
	h.learnOutages(outages)
	return h.learnTakebacks(ctx)
}

func (h *hub) learnOutages(outages []clock.Outage) {
	d := clock.NewDowntime(outages)
	h.downtime.Store(&d)
	h.outages.Store(int64(len(outages)))
}

// noteUp notes in the store that the site is up, recording the outage
// should nobody have for longer than downAfter, and learns of the
// outages recorded since.
func (h *hub) noteUp(ctx context.Context) error {
	now := h.now()
	outages, err := h.store.SeenUp(ctx, now, downAfter, restartGrace)
	if err != nil {
		return err
	}
	h.noted.Store(now.UnixMilli())
	if int64(len(outages)) != h.outages.Load() {
		h.learnOutages(outages) // outages are only ever added
	}
	return nil
}

// noteIfLate notes the site up at once if this instance noted it before
// (it does every second once it runs) but not within downAfter: it was
// frozen, and what wakes with it must not work out a clock before the
// outage is known. A clock's timer, or a move, would charge the player
// to move for it.
func (h *hub) noteIfLate(ctx context.Context) error {
	last := h.noted.Load()
	if last == 0 || h.now().Sub(time.UnixMilli(last)) <= downAfter {
		return nil
	}
	return h.noteUp(ctx)
}

// seenUp notes in the store that the site is up, every seenUpEvery
// until ctx ends, and once more then, so that the outage of a stop
// begins when the instance stopped.
func (h *hub) seenUp(ctx context.Context) {
	t := time.NewTicker(seenUpEvery)
	defer t.Stop()
	failing := false
	note := func(ctx context.Context) {
		err := h.noteUp(ctx)
		switch {
		case err != nil && !failing && ctx.Err() == nil:
			h.log.Error("noting the site up", "err", err)
		case err == nil && failing:
			h.log.Info("noting the site up again")
		}
		failing = err != nil
	}
	for {
		select {
		case <-t.C:
			note(ctx)
		case <-ctx.Done():
			last, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			note(last)
			return
		}
	}
}
