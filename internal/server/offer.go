package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"bretter/game"
	"bretter/internal/clock"
	"bretter/internal/store"
)

// Offers between the two players: a draw, taking back the last move, and
// aborting a game nobody has really started. Each offer, answer and
// takeback is an event like a move, so the log keeps everything and
// nothing is ever deleted; the game's lock orders them with the moves, so
// an offer racing a move has exactly one outcome.
//
// Events: "offer" and "decline" (Move: the kind), "draw" (an offer of a
// draw accepted), "takeback" (Move: how many moves were taken back; Seat:
// who asked), "withdraw" of a takeback that would leave a clock without
// time (Move: "takeback"; Seat: who asked) and "abort".

// Offer is an offer waiting for the other player's answer.
type Offer struct {
	Kind  string `json:"kind"`            // "draw", "takeback" or "rematch"
	By    string `json:"by"`              // the seat that made it
	Terms *Terms `json:"terms,omitempty"` // of a new game
}

var errNoOffer = refuse(http.StatusConflict, "no_offer", "there is no such offer to answer")

// apply changes g by one event that the store has (or is about to have)
// accepted. after is the position it leads to, nil to work it out.
func (g *liveGame) apply(e store.Event, after game.State) error {
	switch e.Kind {
	case "move":
		forced := false
		if f, ok := g.state.(game.Forcer); ok {
			_, forced = f.Forced()
		}
		if after == nil {
			if err := g.play(e.Move); err != nil {
				return err
			}
		} else {
			if after != g.state {
				// The position before is nobody's now: the next move is
				// played on it.
				g.spare = g.state
			}
			g.state = after
			g.noteMove(e.Move)
		}
		if !g.given(e) {
			g.ticks = append(g.ticks, clock.Move{Seat: e.Seat, At: e.At, Forced: forced})
		}
		g.offer = nil
	case "takeback":
		n, err := strconv.Atoi(e.Move)
		if err != nil || n < 1 || n > len(g.moves) {
			return refuse(http.StatusInternalServerError, "internal", "a takeback of %q moves", e.Move)
		}
		g.ticks = append(g.ticks, g.takebackTick(n, e.At))
		if after == nil {
			if err := g.rewind(len(g.moves) - n); err != nil {
				return err
			}
		} else {
			g.state, g.moves = after, g.moves[:len(g.moves)-n]
			if len(g.captured) >= n {
				g.captured = g.captured[:len(g.captured)-n]
			}
		}
		g.offer = nil
	case "offer":
		g.offer = &Offer{Kind: e.Move, By: e.Seat}
	case "rematch":
		var t Terms
		if err := json.Unmarshal([]byte(e.Move), &t); err != nil {
			return refuse(http.StatusInternalServerError, "internal", "an offer of a new game on %q: %v", e.Move, err)
		}
		g.offer = &Offer{Kind: "rematch", By: e.Seat, Terms: &t}
	case "decline", "draw", "withdraw":
		g.offer = nil
	case "name":
		g.names[seatIndex(e.Seat)] = e.Move
	}
	g.events = append(g.events, e)
	return nil
}

// rewind rebuilds the position after the first n moves.
func (g *liveGame) rewind(n int) error {
	state, _, err := g.engine.Start(g.rec.Options)
	if err != nil {
		return err
	}
	moves := g.moves[:n]
	g.state, g.moves, g.captured = state, nil, nil
	for _, text := range moves {
		if err := g.play(text); err != nil {
			return err
		}
	}
	return nil
}

// given reports whether e is one of the moves the game was created from
// ("play on from here") rather than a player's: the clocks do not count
// it, and the game may still be called off.
func (g *liveGame) given(e store.Event) bool { return e.Seq <= g.rec.Given }

// bothMoved reports whether each player has made a move of their own.
func (g *liveGame) bothMoved() bool {
	var seen [2]bool
	for _, t := range g.ticks {
		if !t.Pause {
			seen[seatIndex(t.Seat)] = true
		}
	}
	return seen[0] && seen[1]
}

// takebackCount is how many moves asking seat's last move back takes
// back: that move and whatever came after it. A pass the rules made for
// seat is not its move: taking back only that would leave seat where the
// rules pass again.
func (g *liveGame) takebackCount(seat string) int {
	moves := 0
	// Each of the player's moves scanned has its tick, in the same order,
	// from the end: a takeback (a pause) or a given move ends the scan.
	tick := len(g.ticks)
	for i := len(g.events) - 1; i >= 0; i-- {
		e := g.events[i]
		if e.Kind == "takeback" {
			return 0 // moves before a takeback are not taken back again
		}
		if e.Kind != "move" {
			continue
		}
		if g.given(e) {
			return 0 // nor are the moves the game was created from
		}
		moves++
		tick--
		if e.Seat == seat && !g.ticks[tick].Forced {
			return moves
		}
	}
	return 0
}

// offer makes an offer for the holder of secret, or aborts the game at
// once: "draw", "takeback" or "abort". An offer of what the other player
// has just offered accepts it. It returns the game's new version.
func (h *hub) offer(ctx context.Context, id, secret, kind string) (int, error) {
	return within(ctx, h, id, func(g *liveGame) (int, error) {
		seat, err := g.seat(secret)
		if err != nil {
			return 0, err
		}
		// A kind that is no offer's is wrong whatever the game's state:
		// said first, it is not hidden behind the game being over.
		if err := offerKind(g.rec.ID, kind); err != nil {
			return 0, err
		}
		if g.rec.Status == "over" {
			return 0, errOver
		}
		if err := h.notFlagged(ctx, g); err != nil {
			return 0, err
		}
		if kind == "abort" {
			if g.bothMoved() {
				return 0, refuse(http.StatusConflict, "too_late", "both players have moved: the game can no longer be aborted")
			}
			return h.commit(ctx, g, step{store.Event{Kind: "abort", Seat: seat}, g.state})
		}
		if g.rec.Status != "playing" {
			return 0, errWaiting
		}
		if o := g.offer; o != nil {
			if o.By != seat && o.Kind == kind {
				return h.accept(ctx, g, seat)
			}
			return 0, refuse(http.StatusConflict, "offer_pending", "an offer is waiting for an answer")
		}
		// The takeback is checked against the clocks at the moment it is
		// stored.
		now := h.now()
		var back step
		if kind == "takeback" {
			if back, err = g.takeback(seat, now); err != nil {
				return 0, err
			}
		}
		steps := []step{{store.Event{Kind: "offer", Seat: seat, Move: kind}, g.state}}
		if computer := g.rec.Computer; computer != "" {
			// The computer grants takebacks and plays draws out.
			if kind == "takeback" {
				steps = append(steps, back)
			} else {
				steps = append(steps, step{store.Event{Kind: "decline", Seat: computer, Move: kind}, g.state})
			}
		}
		return h.commitAt(ctx, g, now, steps...)
	})
}

// offerKind refuses a kind of offer there is not. A new game is an offer
// too, but one with terms, made once the game is over: it has a request
// of its own, which the refusal names.
func offerKind(id, kind string) error {
	switch kind {
	case "draw", "takeback", "abort":
		return nil
	case "rematch":
		return refuse(http.StatusBadRequest, "bad_request",
			`a new game is not offered here: ask for it with POST /api/games/%s/rematch (on the live connection, a "rematch" message)`, id)
	}
	return refuse(http.StatusBadRequest, "bad_request", `an offer is "draw", "takeback" or "abort"`)
}

// answer accepts or declines the other player's offer of kind.
func (h *hub) answer(ctx context.Context, id, secret, kind string, accept bool) (int, error) {
	return within(ctx, h, id, func(g *liveGame) (int, error) {
		seat, err := g.seat(secret)
		if err != nil {
			return 0, err
		}
		switch kind {
		case "rematch":
			return h.answerRematch(ctx, g, seat, accept)
		case "draw", "takeback":
		default:
			return 0, refuse(http.StatusBadRequest, "bad_request", `an answer is to "draw", "takeback" or "rematch"`)
		}
		switch g.rec.Status {
		case "waiting":
			return 0, errWaiting
		case "over":
			return 0, errOver
		}
		if err := h.notFlagged(ctx, g); err != nil {
			return 0, err
		}
		if o := g.offer; o == nil || o.Kind != kind || o.By == seat {
			return 0, errNoOffer
		}
		if !accept {
			return h.commit(ctx, g, step{store.Event{Kind: "decline", Seat: seat, Move: kind}, g.state})
		}
		return h.accept(ctx, g, seat)
	})
}

// accept carries out the pending offer, which seat has accepted.
func (h *hub) accept(ctx context.Context, g *liveGame, seat string) (int, error) {
	if g.offer.Kind == "draw" {
		return h.commit(ctx, g, step{store.Event{Kind: "draw", Seat: seat}, g.state})
	}
	now := h.now()
	back, err := g.takeback(g.offer.By, now)
	if errors.Is(err, errTakebackTime) {
		// Until a move ends the offer, the time left only shrinks: it can
		// never be granted, so it is withdrawn rather than left waiting.
		withdraw := step{store.Event{Kind: "withdraw", Seat: g.offer.By, Move: "takeback"}, g.state}
		if _, err := h.commitAt(ctx, g, now, withdraw); err != nil {
			return 0, err
		}
		return 0, errTakebackWithdrawn
	}
	if err != nil {
		return 0, err
	}
	return h.commitAt(ctx, g, now, back)
}

var (
	errTakebackTime = refuse(http.StatusConflict, "no_time",
		"taking back now would leave a clock without time: the moves taken back give back their increments")
	errTakebackWithdrawn = refuse(http.StatusConflict, "no_time",
		"taking back now would leave a clock without time, as the moves taken back give back their increments: the offer is withdrawn")
)

// takeback is the event that takes back asker's last move at now, with
// the position after it. It is refused when there is no such move, or
// when a player's time would run out by it.
func (g *liveGame) takeback(asker string, now time.Time) (step, error) {
	n := g.takebackCount(asker)
	if n == 0 {
		return step{}, refuse(http.StatusConflict, "no_takeback", "you have no move to take back")
	}
	state, _, err := game.Replay(g.engine, g.rec.Options, g.moves[:len(g.moves)-n])
	if err != nil {
		return step{}, err
	}
	if c := g.rec.Clock; !c.None() {
		now = storedTime(now) // as commitAt stores it
		ticks := append(slices.Clip(g.ticks), g.takebackTick(n, now))
		if st := clock.At(c, ticks, state.ToMove().String(), true, now, g.down()); st.White <= 0 || st.Black <= 0 {
			return step{}, errTakebackTime
		}
	}
	return step{store.Event{Kind: "takeback", Seat: asker, Move: strconv.Itoa(n)}, state}, nil
}

// takebackTick is what the clocks count of taking back n moves at at: the
// time of the player to move runs until then, and the moves give back
// their increments.
func (g *liveGame) takebackTick(n int, at time.Time) clock.Move {
	m := clock.Move{Seat: g.state.ToMove().String(), At: at, Pause: true}
	if g.givesBack(at) {
		m.Back = n
	}
	return m
}

// takebacksGiveBack is the setting that says when the site first ran with
// takebacks that give back the increments of the moves they take back
// (ms since 1970). The site's takebacks before then kept them, and still
// do: the clocks of an older game stay as its players saw them, on every
// instance and after every restart.
const takebacksGiveBack = "takebacks_give_back"

// learnTakebacks learns when the site's takebacks first gave back their
// increments, recording now if they never did before.
func (h *hub) learnTakebacks(ctx context.Context) error {
	v, err := h.store.Setting(ctx, takebacksGiveBack, strconv.FormatInt(h.now().UnixMilli(), 10))
	if err != nil {
		return err
	}
	ms, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return fmt.Errorf("when takebacks first gave back their increments: %q", v)
	}
	h.givingBack.Store(ms)
	return nil
}

// givesBack reports whether a takeback stored at at gives back the
// increments of the moves it takes back.
func (h *hub) givesBack(at time.Time) bool { return at.UnixMilli() >= h.givingBack.Load() }
