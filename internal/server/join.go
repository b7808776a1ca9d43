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

// join seats the holder of the invitation in the free seat. A friend who
// joined with key and asks again with it (their answer was lost, say) gets
// the same seat and secret back.
func (h *hub) join(ctx context.Context, id, invite, key string) (seat, secret string, err error) {
	if key != "" && !validJoinKey(key) {
		return "", "", errBadJoinKey
	}
	j, err := within(ctx, h, id, func(g *liveGame) (joined, error) {
		return h.seatGuest(ctx, g, invite, key)
	})
	return j.seat, j.secret, err
}

// invitedBy says whether token is g's invitation, comparing in constant
// time as for every secret.
func (g *liveGame) invitedBy(token string) bool { return matches(token, g.rec.InviteHash) }

// seatGuest gives the free seat of g to the holder of the invitation.
func (h *hub) seatGuest(ctx context.Context, g *liveGame, invite, key string) (joined, error) {
	if !g.invitedBy(invite) {
		return joined{}, errBadInvite
	}
	if key != "" && sameJoinKey(g.rec.ID, key, g.rec.JoinKey.Hash) {
		secret := openSecret(g.rec.ID, key, g.rec.JoinKey.Sealed)
		if seat := g.seatOf(secret); seat != "" {
			return joined{seat: seat, secret: secret}, nil
		}
	}
	var j joined
	switch {
	case g.rec.WhiteHash != nil && g.rec.BlackHash != nil:
		return joined{}, errSeatTaken
	case g.rec.Status == "over":
		return joined{}, errOverUnjoined
	case g.rec.WhiteHash == nil:
		j.seat = "white"
	default:
		j.seat = "black"
	}
	j.secret = newSecret()
	hash := hashSecret(j.secret)
	var jk store.JoinKey
	if key != "" {
		jk = store.JoinKey{Hash: joinKeyHash(g.rec.ID, key), Sealed: sealSecret(g.rec.ID, key, j.secret)}
	}
	at := storedTime(h.now())
	if err := h.store.Join(ctx, g.rec.ID, j.seat, hash, jk, at); err != nil {
		g.loaded = false // the store knows better: ask it next time
		if errors.Is(err, store.ErrConflict) {
			return joined{}, conflict{errSeatTaken}
		}
		return joined{}, err
	}
	g.rec.JoinKey, g.rec.Updated = jk, at
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
	h.tell(g, notice{game: g.rec.ID, gameName: g.rec.Game, seat: otherSeat(j.seat), kind: "joined"})
	return j, nil
}
