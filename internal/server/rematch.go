package server

import (
	"context"
	"errors"
	"net/http"

	"bretter/internal/store"
)

// rematched is what a player asking for "a new game, same friend" gets
// back: the new game and their seat in it.
type rematched struct {
	next, seat string
}

// rematch starts "a new game, same friend": the same game and options, the
// colours swapped. Each player keeps their secret, so both are seated at
// once. Asking twice gives the same new game.
func (h *hub) rematch(ctx context.Context, id, secret string) (next, seat string, err error) {
	r, err := within(ctx, h, id, func(g *liveGame) (rematched, error) {
		return h.follow(ctx, g, secret)
	})
	return r.next, r.seat, err
}

// follow links g to its new game, creating it the first time.
func (h *hub) follow(ctx context.Context, g *liveGame, secret string) (rematched, error) {
	old, err := g.seat(secret)
	if err != nil {
		return rematched{}, err
	}
	seat := otherSeat(old)
	if g.rec.Next != "" {
		return rematched{next: g.rec.Next, seat: seat}, nil
	}
	if g.rec.Status != "over" {
		return rematched{}, errNotOver
	}
	now := h.now()
	rec := store.Game{ID: newID(), Game: g.rec.Game, Options: g.rec.Options,
		WhiteHash: g.rec.BlackHash, BlackHash: g.rec.WhiteHash, InviteHash: hashSecret(newSecret()),
		Creator: seat, Created: now, Updated: now, Status: "playing", Level: g.rec.Level, Clock: g.rec.Clock}
	if g.rec.Computer != "" {
		rec.Computer = otherSeat(g.rec.Computer)
	}
	if err := h.store.Follow(ctx, g.rec.ID, rec); err != nil {
		if errors.Is(err, store.ErrConflict) {
			g.loaded = false // another instance linked one first
			return rematched{}, conflict{refuse(http.StatusConflict, "stale", "a new game was just started, try again")}
		}
		return rematched{}, err
	}
	g.rec.Next = rec.ID
	h.broadcastNext(g)
	h.publish(g, busMessage{Kind: "next", Next: rec.ID})
	if rec.Computer == "white" {
		h.thinkers.add(rec.ID)
	}
	return rematched{next: rec.ID, seat: seat}, nil
}
