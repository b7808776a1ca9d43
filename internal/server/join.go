package server

import (
	"context"
	"errors"

	"bretter/internal/store"
)

// joined is what the friend who takes the free seat gets back.
type joined struct {
	seat, secret string
}

// join seats the holder of the invitation in the free seat.
func (h *hub) join(ctx context.Context, id, invite string) (seat, secret string, err error) {
	j, err := within(ctx, h, id, func(g *liveGame) (joined, error) {
		return h.seatGuest(ctx, g, invite)
	})
	return j.seat, j.secret, err
}

// seatGuest gives the free seat of g to the holder of the invitation.
func (h *hub) seatGuest(ctx context.Context, g *liveGame, invite string) (joined, error) {
	if !matches(invite, g.rec.InviteHash) {
		return joined{}, errBadInvite
	}
	var j joined
	switch {
	case g.rec.WhiteHash == nil:
		j.seat = "white"
	case g.rec.BlackHash == nil:
		j.seat = "black"
	default:
		return joined{}, errSeatTaken
	}
	j.secret = newSecret()
	hash := hashSecret(j.secret)
	if err := h.store.Join(ctx, g.rec.ID, j.seat, hash, h.now()); err != nil {
		g.loaded = false // the store knows better: ask it next time
		if errors.Is(err, store.ErrConflict) {
			return joined{}, conflict{errSeatTaken}
		}
		return joined{}, err
	}
	if j.seat == "white" {
		g.rec.WhiteHash = hash
	} else {
		g.rec.BlackHash = hash
	}
	if g.rec.Status == "waiting" {
		g.rec.Status = "playing"
	}
	h.broadcastState(g)
	h.publish(g, busMessage{Kind: "changed"})
	h.notify(notice{game: g.rec.ID, gameName: g.rec.Game, seat: otherSeat(j.seat), kind: "joined"})
	return j, nil
}
