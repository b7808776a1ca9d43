package server

import (
	"context"
	"crypto/rand"
	"net/http"
	"time"

	"bretter/ai"
	"bretter/game"
	"bretter/internal/clock"
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
	// Moves already played, for a game played on from a record.
	Moves []string
	Clock clock.Control
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
	start, err := engine.New(resolved)
	if err != nil {
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
	if err := req.Clock.Check(); err != nil {
		return created{}, refuse(http.StatusBadRequest, "bad_request", "%v", err)
	}
	now := h.now()
	events, after, err := playedEvents(start, req.Moves, now)
	if err != nil {
		return created{}, err
	}
	c := created{ID: newID(), Seat: seat, Secret: newSecret()}
	rec := store.Game{ID: c.ID, Game: name, Options: resolved, InviteHash: hashSecret(inviteToken(c.Secret)),
		Creator: seat, Created: now, Updated: now, Status: "waiting", Clock: req.Clock, Given: len(events)}
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
	if err := h.store.Create(ctx, rec, events...); err != nil {
		return created{}, err
	}
	client := clientOf(ctx)
	h.remember(rec, events, client)
	if computer == after.ToMove().String() {
		h.thinkers.add(c.ID, searchKey(client, c.ID))
	}
	return c, nil
}

// playedEvents checks the moves a new game starts from and returns them as
// its first events, with the moves the rules force after them, and the
// position they reach, which must leave something to play.
func playedEvents(start game.State, moves []string, at time.Time) ([]store.Event, game.State, error) {
	if len(moves) == 0 {
		return nil, start, nil
	}
	steps := make([]step, 0, len(moves))
	s := start
	for i, text := range moves {
		next := s.Clone()
		m, err := next.ParseMove(text)
		if err == nil {
			err = next.Play(m)
		}
		if err != nil {
			return nil, nil, illegal(atMove(i+1, text, err))
		}
		steps = append(steps, step{store.Event{Kind: "move", Seat: s.ToMove().String(), Move: next.FormatMove(m)}, next})
		s = next
	}
	steps, err := forcedSteps(steps)
	if err != nil {
		return nil, nil, err
	}
	last := steps[len(steps)-1].after
	if last.Outcome().Over {
		return nil, nil, refuse(http.StatusUnprocessableEntity, "game_over", "the game is over after these moves: nothing is left to play")
	}
	events := make([]store.Event, len(steps))
	for i, st := range steps {
		events[i] = st.event
		events[i].Seq, events[i].At = i+1, at
	}
	return events, last, nil
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
