package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"bretter/game"
	"bretter/internal/store"
)

// move plays a player's move that arrived at received, and counts the
// time it took the site to store it and hand its event to the players'
// pages: the site's own share of the time a move takes to reach the
// opponent.
func (s *Server) move(ctx context.Context, id, secret string, ply int, text string, received time.Time) (int, error) {
	if len(text) > maxMoveText {
		// Not echoed in the refusal, unlike a move of sensible length.
		return 0, refuse(http.StatusBadRequest, "bad_request", "a move is written in at most %d characters, not %d", maxMoveText, len(text))
	}
	version, err := s.hub.move(ctx, id, secret, ply, text)
	if err == nil {
		s.hub.metrics.moveTimes.Observe(time.Since(received).Seconds())
	}
	return version, err
}

// maxMoveText is the longest a move's notation may be. Fanorona's longest
// turns, capture after capture, take about sixty characters.
const maxMoveText = 256

// move plays a move for the holder of secret, as ply (the number of moves
// played before it), and returns the game's new version.
func (h *hub) move(ctx context.Context, id, secret string, ply int, text string) (version int, err error) {
	return within(ctx, h, id, func(g *liveGame) (int, error) {
		if err := h.notFlagged(ctx, g); err != nil {
			return 0, err
		}
		steps, err := g.moveSteps(secret, ply, text)
		if err != nil {
			return 0, err
		}
		return h.commit(ctx, g, steps...)
	})
}

// moveSteps checks a move for the holder of secret and returns the events
// it makes: the move, then the moves it forces.
func (g *liveGame) moveSteps(secret string, ply int, text string) ([]step, error) {
	seat, err := g.playing(secret)
	if err != nil {
		return nil, err
	}
	return g.seatSteps(seat, ply, text)
}

// playAs plays a move for seat, which the caller has checked (the
// computer's), and returns the game's new version.
func (h *hub) playAs(ctx context.Context, g *liveGame, seat string, ply int, text string) (int, error) {
	if err := h.notFlagged(ctx, g); err != nil {
		return 0, err
	}
	steps, err := g.seatSteps(seat, ply, text)
	if err != nil {
		return 0, err
	}
	return h.commit(ctx, g, steps...)
}

// seatSteps checks a move for seat and returns the events it makes.
func (g *liveGame) seatSteps(seat string, ply int, text string) ([]step, error) {
	if ply != len(g.moves) {
		return nil, errStale(ply, len(g.moves))
	}
	if g.state.ToMove().String() != seat {
		return nil, errNotYourTurn
	}
	next, canonical, err := g.after(text)
	if err != nil {
		if errors.Is(err, game.ErrGameOver) {
			return nil, errOver
		}
		return nil, illegal(err)
	}
	return forcedSteps([]step{{store.Event{Kind: "move", Seat: seat, Move: canonical}, next}})
}

// forcedSteps adds to steps the moves the rules force after the last (a
// pass with nothing to move): they are made for the player at once, and
// stored with the move that forced them.
func forcedSteps(steps []step) ([]step, error) {
	next := steps[len(steps)-1].after
	for !next.Outcome().Over {
		f, ok := next.(game.Forcer)
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
			return nil, err
		}
		steps = append(steps, step{store.Event{Kind: "move", Seat: forcedSeat, Move: after.FormatMove(m)}, after})
		next = after
	}
	return steps, nil
}
