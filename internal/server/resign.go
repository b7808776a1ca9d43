package server

import (
	"context"

	"bretter/internal/store"
)

// resign ends the game in favour of the other seat and returns the game's
// new version.
func (h *hub) resign(ctx context.Context, id, secret string) (version int, err error) {
	return within(ctx, h, id, func(g *liveGame) (int, error) {
		seat, err := g.playing(secret)
		if err != nil {
			return 0, err
		}
		if err := h.notFlagged(ctx, g); err != nil {
			return 0, err
		}
		return h.commit(ctx, g, step{store.Event{Kind: "resign", Seat: seat}, g.state})
	})
}
