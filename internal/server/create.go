package server

import (
	"context"
	"crypto/rand"
	"net/http"

	"bretter/ai"
	"bretter/game"
	"bretter/internal/store"
)

// created is what the creator of a game gets back.
type created struct {
	ID, Seat, Secret string
}

// newGame is what a new game is made from.
type newGame struct {
	Game    string
	Options game.Options
	// Start is "me", "friend" or "random" and says who plays White, the
	// side that begins.
	Start string
	// Opponent is "friend" (or nothing) or "computer", at Level.
	Opponent string
	Level    int
}

// create starts a game. A game against the computer has no invitation
// and is in play at once.
func (h *hub) create(ctx context.Context, req newGame) (created, error) {
	name, opts := req.Game, req.Options
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
	seat, err := creatorSeat(req.Start)
	if err != nil {
		return created{}, err
	}
	computer, err := h.computerSeat(req, seat)
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
	if computer != "" {
		// The computer's seat has a secret that nobody is ever told.
		rec.Computer, rec.Level, rec.Status = computer, req.Level, "playing"
		if computer == "white" {
			rec.WhiteHash = hashSecret(newSecret())
		} else {
			rec.BlackHash = hashSecret(newSecret())
		}
	}
	if err := h.store.Create(ctx, rec); err != nil {
		return created{}, err
	}
	if computer == "white" {
		h.thinkers.add(c.ID)
	}
	return c, nil
}

// computerSeat checks the opponent of a new game and returns the seat of
// the computer, or "" when the opponent is a friend.
func (h *hub) computerSeat(req newGame, creator string) (string, error) {
	switch req.Opponent {
	case "", "friend":
		return "", nil
	case "computer":
		if _, err := ai.Level(req.Game, req.Level); err != nil {
			return "", refuse(http.StatusBadRequest, "bad_request", "%v", err)
		}
		return otherSeat(creator), nil
	}
	return "", refuse(http.StatusBadRequest, "bad_request", `opponent must be "friend" or "computer"`)
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
