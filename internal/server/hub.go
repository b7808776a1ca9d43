package server

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"bretter/game"
	"bretter/internal/clock"
	"bretter/internal/store"
)

// Store is what the server needs of persistence.
type Store interface {
	Create(ctx context.Context, g store.Game, events ...store.Event) error
	Load(ctx context.Context, id string) (store.Game, []store.Event, error)
	Append(ctx context.Context, id string, events []store.Event, end *store.Ending) error
	Join(ctx context.Context, id, seat string, hash []byte, key store.JoinKey, at time.Time) error
	Follow(ctx context.Context, id string, next store.Game) error
	// ComputerGames lists the games in play against the computer.
	ComputerGames(ctx context.Context) ([]string, error)
	// TimedGames lists the games in play with a clock.
	TimedGames(ctx context.Context) ([]string, error)
	Say(ctx context.Context, id string, line store.ChatLine) (store.ChatLine, error)
	Chat(ctx context.Context, id string) ([]store.ChatLine, error)
	// Ping says whether the store answers, for /readyz.
	Ping(ctx context.Context) error
	// SeenUp keeps the times the site was down (see Server.Start).
	SeenUp(ctx context.Context, now time.Time, gap, grace time.Duration) ([]clock.Outage, error)
	pushStore
	holdingStore
}

// hub is the registry of the games in play: it keeps them in memory, one
// lock per game, so that commands on one game are applied one at a time and
// in order, and tells every open page of a game what happened.
//
// Where to look: loading a game is in load.go, each command in a file of
// its name (create.go, join.go, move.go, resign.go, rematch.go) with the
// storing of their events in commit.go, open pages in live.go, and
// dropping idle games in evict.go, the computer's moves in computer.go.
type hub struct {
	store Store
	games map[string]game.Game
	log   *slog.Logger
	now   func() time.Time
	// afterFunc runs f after d, as time.AfterFunc; tests replace both.
	afterFunc func(d time.Duration, f func()) *time.Timer

	mu   sync.Mutex
	live map[string]*liveGame

	// memoryShort reports that memory is near its limit; tests replace it.
	memoryShort func() bool

	thinkers  *thinkers  // the computer's searches
	searchers *searchers // the computer's trees, kept between its moves
	searches  atomic.Int64
	// retries counts the computer's tries after failures, by game (see
	// thinkLater).
	retriesMu sync.Mutex
	retries   map[string]retries
	// searching are the searches under way, by game (see stopStaleSearch).
	searchingMu sync.Mutex
	searching   map[string]runningSearch
	// searched is told of every search of the computer's that ends:
	// the moves it searched after and the move it found; tests replace it.
	searched func(moves []string, found string)
	notify   func(notice)
	// keepNotices subscribes a seat of a new game, same friend, to the
	// push notices the player's seat in the game before had.
	keepNotices func(ctx context.Context, from, to store.SeatOf) error
	// noticeWait is how long a notice waits, with other instances, to
	// learn whether the player is looking at the game on one of them (see
	// tell); tests that count notices set it to 0.
	noticeWait time.Duration
	metrics    *siteMetrics

	// bus connects this instance, known there as instance, to the
	// others; nil when it is alone. lag, if set, is told how long each event took
	// from the instance that stored it to this one.
	bus      Bus
	instance string
	lag      func(time.Duration)
	// recheckMu is held by the check of the games after lost news;
	// recheckQueued is set while one waits to start.
	recheckMu     sync.Mutex
	recheckQueued atomic.Bool
	// clocks are the timers of the running clocks, by game (see
	// armClock); clocksLooked is when the store was last asked for clocks
	// without one (see sweep), and lookingAtClocks is set while that runs.
	clocksMu        sync.Mutex
	clocks          map[string]*clockTimer
	clocksLooked    time.Time
	lookingAtClocks atomic.Bool
	// downtime is the time the site was down, which the clocks leave
	// out, as the store said when this instance started (see
	// Server.Start) or last noted the site up; none before.
	downtime atomic.Pointer[clock.Downtime]
	outages  atomic.Int64 // how many outages downtime is made of
	// noted is when (Unix ms) this instance last noted the site up
	// (see noteUp); 0 before its first note.
	noted atomic.Int64
	// givingBack is when (in ms) the site first ran with takebacks that
	// give back their increments, as the store said when this instance
	// started; 0, always, before.
	givingBack atomic.Int64

	// ctx ends when the server shuts down, for work started by timers.
	ctx  context.Context
	stop context.CancelFunc
}

func newHub(st Store, games map[string]game.Game, log *slog.Logger) *hub {
	ctx, stop := context.WithCancel(context.Background())
	return &hub{store: st, games: games, log: log, now: time.Now, live: map[string]*liveGame{}, ctx: ctx, stop: stop,
		afterFunc: time.AfterFunc, notify: func(notice) {},
		keepNotices: func(context.Context, store.SeatOf, store.SeatOf) error { return nil }, noticeWait: 2 * presenceEvery, memoryShort: heapNearLimit, searched: func([]string, string) {}}
}

// within runs f on the game id, loaded and locked, and returns what f
// returns. With other instances about, the copy in memory is first
// checked against the store, so that no command is judged on an outdated
// copy; a command that meets a change in the store when it stores its
// result (a conflict) is judged once more on the game as it now is.
func within[T any](ctx context.Context, h *hub, id string, f func(g *liveGame) (T, error)) (T, error) {
	return run(ctx, h, id, h.bus != nil, f)
}

// run is within, checking the copy against the store when verify is set.
func run[T any](ctx context.Context, h *hub, id string, verify bool, f func(g *liveGame) (T, error)) (T, error) {
	if !validID(id) {
		var zero T
		return zero, errNotFound
	}
	again := false
	for {
		g := h.entry(id)
		out, retry, err := locked(ctx, h, id, g, verify, f)
		var c conflict
		if !retry && errors.As(err, &c) && !again {
			again, retry = true, true
		}
		if !retry {
			return out, err
		}
	}
}

// with runs f on the game id, loaded and locked, for work that returns
// nothing but an error.
func (h *hub) with(ctx context.Context, id string, f func(g *liveGame) error) error {
	_, err := within(ctx, h, id, func(g *liveGame) (struct{}, error) {
		return struct{}{}, f(g)
	})
	return err
}

// withCached is with on the copy in memory as it is, for work that only
// concerns this instance's pages.
func (h *hub) withCached(ctx context.Context, id string, f func(g *liveGame) error) error {
	_, err := run(ctx, h, id, false, func(g *liveGame) (struct{}, error) {
		return struct{}{}, f(g)
	})
	return err
}

// conflict is a refusal because the store changed under the copy the
// command was judged on; the copy is to be loaded again.
type conflict struct{ err error }

func (c conflict) Error() string { return c.err.Error() }
func (c conflict) Unwrap() error { return c.err }

// entry returns the registry's entry for id, adding an empty one (loaded on
// first use) when there is none.
func (h *hub) entry(id string) *liveGame {
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.live[id]
	if g == nil {
		g = &liveGame{now: func() time.Time { return h.now() }, down: h.down, givesBack: h.givesBack}
		h.live[id] = g
	}
	return g
}

// locked runs f on g under its lock. It reports retry when g was dropped
// from the hub meanwhile. A panic in f (an engine's bug, say) unlocks the
// game and makes the next caller rebuild it from the store.
func locked[T any](ctx context.Context, h *hub, id string, g *liveGame, verify bool, f func(g *liveGame) (T, error)) (out T, retry bool, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			g.loaded = false
			panic(p)
		}
	}()
	if g.evicted {
		return out, true, nil
	}
	fresh := !g.loaded
	if err := h.ensureLoaded(ctx, id, g); err != nil {
		return out, false, err
	}
	if verify && !fresh {
		if err := h.verify(ctx, id, g); err != nil {
			return out, false, err
		}
	}
	// A clock that ran out ends the game before anything is answered,
	// whether or not its timer has fired: on an instance that has just
	// loaded the game, it has not. Should the store fail, a read still
	// answers (the timer tries again); a command on a game in play tries
	// again itself (notFlagged), and fails.
	if _, err := h.flagIfDue(ctx, g); err != nil {
		var c conflict
		if errors.As(err, &c) {
			return out, false, err // judged again on the game as stored
		}
		if ctx.Err() == nil {
			h.log.Warn("ending a game on time before answering", "game", id, "err", err)
		}
	}
	g.used = h.now()
	out, err = f(g)
	return out, false, err
}

// drop removes g from the registry, if it is still id's entry.
func (h *hub) drop(id string, g *liveGame) {
	h.mu.Lock()
	if h.live[id] == g {
		delete(h.live, id)
	}
	h.mu.Unlock()
}
