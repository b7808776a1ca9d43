package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"bretter/game"
	"bretter/internal/store"
)

// Store is what the server needs of persistence.
type Store interface {
	Create(ctx context.Context, g store.Game) error
	Load(ctx context.Context, id string) (store.Game, []store.Event, error)
	Append(ctx context.Context, id string, events []store.Event, end *store.Ending) error
	Join(ctx context.Context, id, seat string, hash []byte, at time.Time) error
	Follow(ctx context.Context, id string, next store.Game) error
}

// hub keeps the games that are in play in memory, one lock per game, so
// that commands on one game are applied one at a time and in order, and
// tells every open page of a game what happened.
type hub struct {
	store Store
	games map[string]game.Game
	log   *slog.Logger
	now   func() time.Time

	mu   sync.Mutex
	live map[string]*liveGame
}

func newHub(st Store, games map[string]game.Game, log *slog.Logger) *hub {
	return &hub{store: st, games: games, log: log, now: time.Now, live: map[string]*liveGame{}}
}

// liveGame is a game rebuilt from its events, with its open pages. Every
// field is guarded by mu.
type liveGame struct {
	mu      sync.Mutex
	evicted bool // dropped from the hub: whoever holds it must look again
	used    time.Time

	subs     map[*subscriber]struct{}
	presence [2]presence

	replayed
}

// replayed is what loading a game from the store rebuilds.
type replayed struct {
	loaded   bool
	rec      store.Game
	events   []store.Event
	engine   game.Game
	state    game.State
	moves    []string
	captured []int // pieces each move removed, for games that capture
	view     any
}

type presence struct {
	conns int
	since time.Time // when the last page of this seat closed
}

// with runs f on the game id, loaded and locked.
func (h *hub) with(ctx context.Context, id string, f func(g *liveGame) error) error {
	if !validID(id) {
		return errNotFound
	}
	for {
		h.mu.Lock()
		g := h.live[id]
		if g == nil {
			g = &liveGame{}
			h.live[id] = g
		}
		h.mu.Unlock()

		if retry, err := h.locked(ctx, id, g, f); !retry {
			return err
		}
	}
}

// locked runs f on g under its lock. It reports retry when g was dropped
// from the hub meanwhile. A panic in f (an engine's bug, say) unlocks the
// game and makes the next caller rebuild it from the store.
func (h *hub) locked(ctx context.Context, id string, g *liveGame, f func(g *liveGame) error) (retry bool, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			g.loaded = false
			panic(p)
		}
	}()
	if g.evicted {
		return true, nil
	}
	if !g.loaded {
		// A reload must not fail because one caller gave up waiting.
		if err := h.load(context.WithoutCancel(ctx), id, g); err != nil {
			// Open pages reconnect and find the game again, or not.
			for sub := range g.subs {
				sub.drop()
			}
			g.evicted = true
			h.drop(id, g)
			return false, err
		}
		if len(g.subs) > 0 {
			// Pages open across a reload may have missed events.
			h.broadcastState(g)
		}
	}
	g.used = h.now()
	return false, f(g)
}

func (h *hub) drop(id string, g *liveGame) {
	h.mu.Lock()
	if h.live[id] == g {
		delete(h.live, id)
	}
	h.mu.Unlock()
}

// load rebuilds a game from the store by replaying its moves.
func (h *hub) load(ctx context.Context, id string, g *liveGame) error {
	rec, events, err := h.store.Load(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	engine, ok := h.games[rec.Game]
	if !ok {
		return fmt.Errorf("game %s: unknown game %q", id, rec.Game)
	}
	state, _, err := engine.Start(rec.Options)
	if err != nil {
		return fmt.Errorf("game %s: %w", id, err)
	}
	// Pages that are open stay subscribed when a game is reloaded.
	if g.subs == nil {
		g.subs = map[*subscriber]struct{}{}
	}
	g.replayed = replayed{rec: rec, engine: engine, state: state}
	for _, e := range events {
		if e.Kind == "move" {
			if err := g.play(e.Move); err != nil {
				return fmt.Errorf("game %s: replaying event %d: %w", id, e.Seq, err)
			}
		}
		g.events = append(g.events, e)
	}
	g.view = g.state.View()
	g.loaded = true
	return nil
}

// play plays a move on the game's position.
func (g *liveGame) play(text string) error {
	m, err := g.state.ParseMove(text)
	if err == nil {
		err = g.state.Play(m)
	}
	if err != nil {
		return err
	}
	g.noteMove(text)
	return nil
}

// noteMove adds the move just played to the move list, with what it
// captured in games that capture.
func (g *liveGame) noteMove(text string) {
	g.moves = append(g.moves, text)
	if c, ok := g.state.(interface{ LastCaptured() int }); ok {
		g.captured = append(g.captured, c.LastCaptured())
	}
}

// after returns a copy of the position with text played on it.
func (g *liveGame) after(text string) (game.State, string, error) {
	next := g.state.Clone()
	m, err := next.ParseMove(text)
	if err == nil {
		err = next.Play(m)
	}
	if err != nil {
		return nil, "", err
	}
	return next, next.FormatMove(m), nil
}

// seatOf returns the seat whose secret this is, or "".
func (g *liveGame) seatOf(secret string) string {
	switch {
	case matches(secret, g.rec.WhiteHash):
		return "white"
	case matches(secret, g.rec.BlackHash):
		return "black"
	}
	return ""
}

func (g *liveGame) seat(secret string) (string, error) {
	if secret == "" {
		return "", errNoSecret
	}
	seat := g.seatOf(secret)
	if seat == "" {
		return "", errWrongSecret
	}
	return seat, nil
}

// playing returns the seat of secret's holder, if the game is in play.
func (g *liveGame) playing(secret string) (string, error) {
	seat, err := g.seat(secret)
	if err != nil {
		return "", err
	}
	switch g.rec.Status {
	case "over":
		return "", errOver
	case "waiting":
		return "", errWaiting
	}
	return seat, nil
}

// created is what the creator of a game gets back.
type created struct {
	ID, Seat, Secret string
}

// create starts a game; start is "me", "friend" or "random" and says who
// plays White, the side that begins.
func (h *hub) create(ctx context.Context, name string, opts game.Options, start string) (created, error) {
	engine, ok := h.games[name]
	if !ok {
		return created{}, refuse(http.StatusBadRequest, "bad_request", "unknown game %q", name)
	}
	resolved, err := engine.Resolve(opts)
	if err != nil {
		return created{}, refuse(http.StatusBadRequest, "bad_request", "%v", err)
	}
	if _, err := engine.New(resolved); err != nil {
		return created{}, refuse(http.StatusBadRequest, "bad_request", "%v", err)
	}
	seat := "white"
	switch start {
	case "me", "":
	case "friend":
		seat = "black"
	case "random":
		var b [1]byte
		rand.Read(b[:])
		if b[0]&1 == 1 {
			seat = "black"
		}
	default:
		return created{}, refuse(http.StatusBadRequest, "bad_request", `start must be "me", "friend" or "random"`)
	}
	c := created{ID: newID(), Seat: seat, Secret: newSecret()}
	now := h.now()
	rec := store.Game{ID: c.ID, Game: name, Options: resolved, InviteHash: hashSecret(inviteToken(c.Secret)),
		Creator: seat, Created: now, Updated: now, Status: "waiting"}
	if seat == "white" {
		rec.WhiteHash = hashSecret(c.Secret)
	} else {
		rec.BlackHash = hashSecret(c.Secret)
	}
	if err := h.store.Create(ctx, rec); err != nil {
		return created{}, err
	}
	return c, nil
}

// join seats the holder of the invitation in the free seat.
func (h *hub) join(ctx context.Context, id, invite string) (seat, secret string, err error) {
	err = h.with(ctx, id, func(g *liveGame) error {
		if !matches(invite, g.rec.InviteHash) {
			return errBadInvite
		}
		switch {
		case g.rec.WhiteHash == nil:
			seat = "white"
		case g.rec.BlackHash == nil:
			seat = "black"
		default:
			return errSeatTaken
		}
		secret = newSecret()
		hash := hashSecret(secret)
		if err := h.store.Join(ctx, id, seat, hash, h.now()); err != nil {
			g.loaded = false // the store knows better: ask it next time
			if errors.Is(err, store.ErrConflict) {
				return errSeatTaken
			}
			return err
		}
		if seat == "white" {
			g.rec.WhiteHash = hash
		} else {
			g.rec.BlackHash = hash
		}
		if g.rec.Status == "waiting" {
			g.rec.Status = "playing"
		}
		h.broadcastState(g)
		return nil
	})
	return seat, secret, err
}

// move plays a move for the holder of secret, as ply (the number of moves
// played before it), and returns the game's new version.
func (h *hub) move(ctx context.Context, id, secret string, ply int, text string) (version int, err error) {
	err = h.with(ctx, id, func(g *liveGame) error {
		seat, err := g.playing(secret)
		if err != nil {
			return err
		}
		if ply != len(g.moves) {
			return errStale(ply, len(g.moves))
		}
		if g.state.ToMove().String() != seat {
			return errNotYourTurn
		}
		next, canonical, err := g.after(text)
		if err != nil {
			if errors.Is(err, game.ErrGameOver) {
				return errOver
			}
			return refuse(http.StatusUnprocessableEntity, "illegal", "%v", err)
		}
		steps := []step{{store.Event{Kind: "move", Seat: seat, Move: canonical}, next}}
		// Moves the rules force (a pass with nothing to move) are made for
		// the player at once, and stored with the move that forced them.
		for !next.Outcome().Over {
			f, ok := next.(interface{ Forced() (game.Move, bool) })
			if !ok {
				break
			}
			m, ok := f.Forced()
			if !ok {
				break
			}
			forcedSeat := next.ToMove().String()
			after := next.Clone()
			if err := after.Play(m); err != nil {
				return err
			}
			steps = append(steps, step{store.Event{Kind: "move", Seat: forcedSeat, Move: after.FormatMove(m)}, after})
			next = after
		}
		if err := h.commit(ctx, g, steps...); err != nil {
			return err
		}
		version = len(g.events)
		return nil
	})
	return version, err
}

// resign ends the game in favour of the other seat.
func (h *hub) resign(ctx context.Context, id, secret string) (version int, err error) {
	err = h.with(ctx, id, func(g *liveGame) error {
		seat, err := g.playing(secret)
		if err != nil {
			return err
		}
		if err := h.commit(ctx, g, step{store.Event{Kind: "resign", Seat: seat}, g.state}); err != nil {
			return err
		}
		version = len(g.events)
		return nil
	})
	return version, err
}

// step is an event with the position after it.
type step struct {
	event store.Event
	after game.State
}

// commit stores events as the game's next, all or none, then applies them
// one by one and tells every page of each. Only what the store has
// accepted is ever applied.
func (h *hub) commit(ctx context.Context, g *liveGame, steps ...step) error {
	now := h.now()
	events := make([]store.Event, len(steps))
	for i := range steps {
		steps[i].event.Seq = len(g.events) + 1 + i
		steps[i].event.At = now
		events[i] = steps[i].event
	}
	last := steps[len(steps)-1]
	var end *store.Ending
	if last.event.Kind == "resign" {
		end = &store.Ending{Winner: otherSeat(last.event.Seat), Reason: "resign"}
	} else if out := last.after.Outcome(); out.Over {
		end = &store.Ending{Winner: out.Winner.String(), Reason: out.Reason}
	}
	if err := h.store.Append(ctx, g.rec.ID, events, end); err != nil {
		if errors.Is(err, store.ErrConflict) {
			// Another server wrote first: forget what we knew.
			g.loaded = false
			return errStale(len(g.moves), len(g.moves)+1)
		}
		return err
	}
	for i, st := range steps {
		e := st.event
		if e.Kind == "move" {
			g.state = st.after
			g.noteMove(e.Move)
		}
		g.events = append(g.events, e)
		g.rec.Version = e.Seq
		g.rec.Updated = e.At
		if i == len(steps)-1 && end != nil {
			g.rec.Status, g.rec.Winner, g.rec.Reason = "over", end.Winner, end.Reason
		}
		g.view = g.state.View()
		h.broadcastEvent(g, e)
	}
	return nil
}

func otherSeat(seat string) string {
	if seat == "white" {
		return "black"
	}
	return "white"
}

// rematch starts "a new game, same friend": the same game and options, the
// colours swapped. Each player keeps their secret, so both are seated at
// once. Asking twice gives the same new game.
func (h *hub) rematch(ctx context.Context, id, secret string) (next, seat string, err error) {
	err = h.with(ctx, id, func(g *liveGame) error {
		old, err := g.seat(secret)
		if err != nil {
			return err
		}
		seat = otherSeat(old)
		if g.rec.Next != "" {
			next = g.rec.Next
			return nil
		}
		if g.rec.Status != "over" {
			return errNotOver
		}
		now := h.now()
		rec := store.Game{ID: newID(), Game: g.rec.Game, Options: g.rec.Options,
			WhiteHash: g.rec.BlackHash, BlackHash: g.rec.WhiteHash, InviteHash: hashSecret(newSecret()),
			Creator: seat, Created: now, Updated: now, Status: "playing"}
		if err := h.store.Follow(ctx, id, rec); err != nil {
			if errors.Is(err, store.ErrConflict) {
				g.loaded = false // another server linked one first
				return refuse(http.StatusConflict, "stale", "a new game was just started, try again")
			}
			return err
		}
		g.rec.Next = rec.ID
		next = rec.ID
		h.broadcast(g, func(string) any { return map[string]any{"type": "next", "game": rec.ID} })
		return nil
	})
	return next, seat, err
}

// evictIdle drops games that nobody has open and nobody used for a while;
// the store still has them.
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
