package server

import (
	"context"
	"errors"
	"hash/fnv"
	"slices"
	"time"

	"bretter/ai"
	"bretter/game"
)

// The computer plays through the same path as a person: its move is
// checked by the engine, stored with its number and sent to every page.
// Its search runs outside the game's lock, so the game stays open to
// readers and to the other player's resignation meanwhile; when it is
// done the move is played only if the game is still where it was.

// computerTurn reports whether the computer is to move in g.
func (g *liveGame) computerTurn() bool {
	return g.rec.Computer != "" && g.rec.Status == "playing" && g.state.ToMove().String() == g.rec.Computer
}

// thinkIfComputerTurn queues a search when the computer is to move.
func (h *hub) thinkIfComputerTurn(g *liveGame) {
	if g.computerTurn() {
		h.thinkers.add(g.rec.ID, searchKey(g.client, g.rec.ID))
	}
}

// searchKey is the key game id's searches wait under among the thinkers:
// client, the address of its player's last request here, as the limits
// count it. A game whose player this instance has not heard from since
// it loaded it (after a restart, on an instance other than the player's,
// back in memory after it was dropped) has none: the store keeps no
// address, the site having no need to remember who played. Such a game
// waits under its own id, as a player alone: under one key together,
// every game after a restart would get one search a round between them
// all. The player's next move here gives it the address.
func searchKey(client, id string) string {
	if client == "" {
		return id
	}
	return client
}

// errNoTurn says the computer has nothing to do in a game, and
// errSearching that a search for the position is under way.
var (
	errNoTurn    = errors.New("not the computer's turn")
	errSearching = errors.New("already searching")
)

// computerMove searches a move for the computer in game id, queued under
// key (see searchKey), and plays it.
func (h *hub) computerMove(ctx context.Context, id, key string) {
	// With other instances about, every one of them may queue the game
	// (when they start, or when the one searching seems gone): the lease
	// makes one search. Taken before the game is looked at, so that
	// nobody searches a position the holder has just moved from. The
	// store's versions keep a second move out even without it: the lease
	// only spares the work. That is why it lives in JetStream, not in a
	// row of the store: it needs no durability, a dead holder's lease
	// lapses by itself (the bucket's age limit) with no sweeper and no
	// comparing of clocks between machines, and neither SQL dialect gets
	// a table rewritten every few seconds.
	release, ok, err := h.hold(ctx, "computer."+id)
	if err != nil {
		if ctx.Err() == nil {
			h.log.Error("computer: taking the lease", "game", id, "err", err)
			h.thinkLater(id, key, -1)
		}
		return
	}
	if !ok {
		h.askAgainIfOurs(ctx, id, key)
		return
	}
	defer release()
	var (
		start     game.State
		cfg       ai.Config
		ply       int
		seat      string
		level     int
		moves     []string
		think     time.Duration // on a clock, at most; 0: as the level says
		searchCtx context.Context
		stop      context.CancelFunc
	)
	err = h.with(ctx, id, func(g *liveGame) error {
		if !g.computerTurn() {
			return errNoTurn
		}
		var err error
		if cfg, err = ai.Level(g.rec.Game, g.rec.Level); err != nil {
			return err
		}
		cfg.Seed = seedOf(id)
		start, ply, seat, level = g.state.Clone(), len(g.moves), g.rec.Computer, g.rec.Level
		moves = slices.Clone(g.moves)
		think = g.thinkOnTheClock(h.now())
		// The search ends early when the game moves on meanwhile (see
		// stopStaleSearch). One search at a time for a position: an
		// event that left it as it was (an offer) may queue another.
		searchCtx, stop = context.WithCancel(ctx)
		if !h.searchStarted(id, runningSearch{moves, think, searchCtx, stop}) {
			stop()
			return errSearching
		}
		return nil
	})
	switch {
	case errors.Is(err, errSearching):
		return // the search under way answers
	case errors.Is(err, errNoTurn):
		h.moved(id) // nothing to try again
		return
	case err != nil:
		if ctx.Err() == nil {
			h.log.Error("computer: preparing a move", "game", id, "err", err)
			h.thinkLater(id, key, -1) // perhaps not loaded: the move is not known
		}
		return
	}
	defer stop()
	defer h.searchEnded(id, searchCtx)
	h.searches.Add(1)
	search := h.searchers.searcherFor(id, level, moves, start, cfg)
	thinking := searchCtx
	if think > 0 {
		var cancel context.CancelFunc
		thinking, cancel = context.WithTimeout(searchCtx, think)
		defer cancel()
	}
	r, err := search.Search(thinking)
	if errors.Is(searchCtx.Err(), context.Canceled) && ctx.Err() == nil {
		// Stopped: the game moved on. What it found, perhaps after a
		// moment's thought, answers nothing, even should the same
		// moves be back; a new search was queued if need be.
		return
	}
	if err != nil {
		if ctx.Err() == nil {
			h.log.Error("computer: search", "game", id, "err", err)
			h.thinkLater(id, key, ply)
		}
		return
	}
	text := start.FormatMove(r.Move)
	h.searched(moves, text)
	var played []string
	err = h.with(ctx, id, func(g *liveGame) error {
		// The game may have moved on meanwhile: resigned, say, or a move
		// taken back and another played in its place, where the one
		// found may be legal but answers nothing.
		if !g.computerTurn() || !slices.Equal(g.moves, moves) || g.rec.Computer != seat {
			return nil
		}
		if _, err := h.playAs(ctx, g, seat, ply, text); err != nil {
			return err
		}
		// Only the computer's move: the searcher follows the moves
		// the rules forced after it when it is next taken.
		played = slices.Clone(g.moves[:ply+1])
		return nil
	})
	if played != nil && search.Play(r.Move) == nil {
		h.searchers.put(id, level, played, search)
	}
	if err != nil && ctx.Err() == nil {
		h.log.Error("computer: playing its move", "game", id, "move", text, "err", err)
		h.thinkLater(id, key, ply)
		return
	}
	h.moved(id)
	h.log.Debug("computer moved", "game", id, "move", text, "iterations", r.Iterations, "elapsed", r.Elapsed)
}

// askAgainIfOurs queues game id, under key, for the computer again, after
// leaseRetry, if the lease on its move was held by another instance
// while this one stored the last move. The holder searches a position
// the game has left (it stops once it hears of the move), and nobody
// else would ask for the new one: the instance that stored the move
// asks until the lease is free. One that did not store the last move
// leaves the game to the one that did; the sweep finds games left
// waiting longer.
func (h *hub) askAgainIfOurs(ctx context.Context, id, key string) {
	ours := false
	err := h.with(ctx, id, func(g *liveGame) error {
		ours = g.computerTurn() && g.stored != 0 && g.stored == g.rec.Version
		return nil
	})
	if err != nil || !ours {
		return
	}
	h.afterFunc(leaseRetry, func() {
		if h.ctx.Err() == nil {
			h.thinkers.add(id, key)
		}
	})
}

// leaseRetry is how long an instance waits to ask again for a lease
// another holds on work that is its own (see askAgainIfOurs).
const leaseRetry = time.Second

// searchStarted notes s, the search for game id, unless one runs for the
// same moves already, and reports whether it did. The game is locked: a
// change of its moves after this stops s.
func (h *hub) searchStarted(id string, s runningSearch) bool {
	h.searchingMu.Lock()
	defer h.searchingMu.Unlock()
	if h.searching == nil {
		h.searching = map[string]runningSearch{}
	}
	if r, ok := h.searching[id]; ok && slices.Equal(r.moves, s.moves) {
		return false
	}
	h.searching[id] = s
	return true
}

// searchEnded forgets the search for game id that ctx is the context of.
func (h *hub) searchEnded(id string, ctx context.Context) {
	h.searchingMu.Lock()
	defer h.searchingMu.Unlock()
	if h.searching[id].ctx == ctx {
		delete(h.searching, id)
	}
}

// stopStaleSearch ends the search for g, if one runs, once what it finds
// would answer nothing: the game is over, or its moves are no longer
// those searched (a move taken back). Events that leave the position as
// it was (an offer, a name) let it think on. g is locked.
func (h *hub) stopStaleSearch(g *liveGame) {
	h.searchingMu.Lock()
	defer h.searchingMu.Unlock()
	if s, ok := h.searching[g.rec.ID]; ok && (!g.computerTurn() || !slices.Equal(g.moves, s.moves)) {
		s.stop()
		delete(h.searching, g.rec.ID)
	}
}

// runningSearch is a search for the computer's move under way.
type runningSearch struct {
	moves []string      // the moves it searched after
	think time.Duration // its time on the clock, if any
	ctx   context.Context
	stop  context.CancelFunc
}

// retryAfter is how long work that failed for another reason than the
// game (the store, say) waits to be tried again: the computer's move, or
// ending a game on time.
const retryAfter = 5 * time.Second

// maxRetries is how many tries after failures for one move come every
// retryAfter; later ones come once a minute. A failure that lasts (the
// store away for a while, an engine refusing the move found) is not asked
// again every few seconds, but the computer moves once it passes.
const maxRetries = 12

// thinkLater queues game id, under key, at ply (-1: not known), for the computer once
// more: with nobody else to ask for its move (on another instance, or
// after a restart), a failure that passes would leave the game waiting
// for ever. When the move was stored after all, the search finds nothing
// to do.
func (h *hub) thinkLater(id, key string, ply int) {
	h.retriesMu.Lock()
	if h.retries == nil {
		h.retries = map[string]retries{}
	}
	r, ok := h.retries[id]
	if !ok {
		r.ply = -1
	}
	if ply >= 0 && r.ply != ply {
		if r.ply >= 0 {
			r.n = 0 // another move: the tries start again
		}
		r.ply = ply
	}
	r.n++
	h.retries[id] = r
	h.retriesMu.Unlock()
	wait := retryAfter
	if r.n > maxRetries {
		wait = time.Minute
	}
	if r.n == maxRetries+1 {
		h.log.Error("computer: a move failed again and again, trying once a minute now", "game", id, "tries", maxRetries)
	}
	h.afterFunc(wait, func() {
		if h.ctx.Err() == nil {
			h.thinkers.add(id, key)
		}
	})
}

// retries counts the tries for a game's move at ply.
type retries struct{ ply, n int }

// moved ends the tries of game id after failures: its move is played, or
// there is none to play.
func (h *hub) moved(id string) {
	h.retriesMu.Lock()
	delete(h.retries, id)
	h.retriesMu.Unlock()
}

// seedOf gives each game its own, repeatable, stream of chance.
func seedOf(id string) uint64 {
	f := fnv.New64a()
	f.Write([]byte(id))
	return f.Sum64()
}

// resume queues every game where the computer may be to move, asking
// the store again after retry until it answers, and sets the timer
// of every clock, for a server that has just started. (Clocks are looked
// for again once a minute anyway, should the store fail now: see
// lookAtClocks.)
func (h *hub) resume(ctx context.Context, retry time.Duration) {
	for {
		ids, err := h.store.ComputerGames(ctx)
		if err == nil {
			for _, id := range ids {
				h.thinkers.add(id, searchKey("", id)) // whose, nobody here knows yet
			}
			break
		}
		if ctx.Err() != nil {
			return
		}
		h.log.Error("listing the games against the computer", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(retry):
		}
	}
	h.watchClocks(ctx)
}

// thinkOnTheClock is how long the computer, to move in g, may think at
// now: a thirtieth of what is left on its clock and most of the
// increment, so that it lasts the game, and never more than half of what
// is left. Without a live clock it is 0: as long as its level says.
func (g *liveGame) thinkOnTheClock(now time.Time) time.Duration {
	c := g.rec.Clock
	if c.Initial == 0 {
		return 0
	}
	left := g.clockState(now).Left(g.state.ToMove().String())
	return max(min(left/30+c.Increment*3/4, left/2), 10*time.Millisecond)
}
