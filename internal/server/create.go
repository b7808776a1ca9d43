package server

import (
	"context"
	"crypto/rand"
	"net/http"

	"bretter/game"
	"bretter/internal/store"
)

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
	seat, err := creatorSeat(start)
	if err != nil {
		return created{}, err
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

// creatorSeat is the creator's seat for start: "me" (or nothing) is White,
// "friend" is Black, "random" either.
func creatorSeat(start string) (string, error) {
	switch start {
	case "me", "":
		return "white", nil
	case "friend":
		return "black", nil
	case "random":
		var b [1]byte
		rand.Read(b[:])
		if b[0]&1 == 1 {
			return "black", nil
		}
		return "white", nil
	}
	return "", refuse(http.StatusBadRequest, "bad_request", `start must be "me", "friend" or "random"`)
}
