package server

import (
	"time"

	"bretter/game"
	"bretter/internal/store"
)

// Snapshot is a game as the API and the live protocol send it, for one
// viewer: Seat and Legal are theirs.
type Snapshot struct {
	ID       string              `json:"id"`
	Game     string              `json:"game"`
	Options  game.Options        `json:"options"`
	Status   string              `json:"status"`
	Moves    []string            `json:"moves"`
	Captured []int               `json:"captured,omitempty"`
	Events   []store.Event       `json:"events"`
	ToMove   string              `json:"to_move"`
	Version  int                 `json:"version"`
	Result   *Result             `json:"result"`
	View     any                 `json:"view"`
	Seat     string              `json:"seat,omitempty"`
	Legal    []string            `json:"legal,omitempty"`
	Players  map[string]Presence `json:"players"`
	Next     string              `json:"next,omitempty"`
	Clock    *ClockView          `json:"clock,omitempty"`
	Offer    *Offer              `json:"offer"`
	// Chat is sent to players only, and only with the full state; new
	// lines come as messages of their own.
	Chat    []store.ChatLine `json:"chat,omitempty"`
	Created time.Time        `json:"created"`
	Updated time.Time        `json:"updated"`
}

// Result is how a game ended; Winner is "none" for a draw.
type Result struct {
	Winner string `json:"winner"`
	Reason string `json:"reason"`
}

// Presence says whether a seat is taken and whether its player has the game
// open, or since when they are away.
type Presence struct {
	// Computer is the level of the computer in this seat, 0 for a person.
	Computer int        `json:"computer,omitempty"`
	Name     string     `json:"name,omitempty"`
	Seated   bool       `json:"seated"`
	Online   bool       `json:"online"`
	Since    *time.Time `json:"since,omitempty"`
}

func (g *liveGame) snapshot(seat string) Snapshot {
	s := Snapshot{
		ID: g.rec.ID, Game: g.rec.Game, Options: g.rec.Options, Status: g.rec.Status,
		Moves: g.moves, Captured: g.captured, Events: g.events, ToMove: g.state.ToMove().String(),
		Version: len(g.events), View: g.view, Seat: seat, Players: g.players(), Next: g.rec.Next,
		Created: g.rec.Created, Updated: g.rec.Updated, Clock: g.clockView(g.now()), Offer: g.offer,
	}
	if g.offer != nil && g.offer.Kind == "rematch" {
		s.Offer = g.rematchOffer() // none once the new game has begun
	}
	if s.Moves == nil {
		s.Moves = []string{}
	}
	if s.Events == nil {
		s.Events = []store.Event{}
	}
	if g.rec.Status == "over" {
		s.Result = &Result{Winner: g.rec.Winner, Reason: g.rec.Reason}
	}
	if g.rec.Status == "playing" && seat == s.ToMove {
		var buf []game.Move
		for _, m := range g.state.Legal(buf) {
			s.Legal = append(s.Legal, g.state.FormatMove(m))
		}
	}
	return s
}

func (g *liveGame) players() map[string]Presence {
	out := make(map[string]Presence, 2)
	for i, seat := range []string{"white", "black"} {
		p := g.presence[i]
		pr := Presence{Seated: g.hashOf(seat) != nil, Online: p.conns > 0}
		pr.Name = g.names[i]
		if seat == g.rec.Computer {
			pr.Computer, pr.Online = g.rec.Level, true
		}
		if !pr.Online && !p.since.IsZero() {
			since := p.since
			pr.Since = &since
		}
		out[seat] = pr
	}
	return out
}

func (g *liveGame) hashOf(seat string) []byte {
	if seat == "white" {
		return g.rec.WhiteHash
	}
	return g.rec.BlackHash
}

// fullSnapshot is the snapshot with what only the first state carries:
// the chat, for a player.
func (g *liveGame) fullSnapshot(seat string) Snapshot {
	s := g.snapshot(seat)
	if seat != "" {
		s.Chat = g.chat
	}
	return s
}
