package server

import (
	"iter"
	"slices"
	"sync"
	"time"

	"bretter/game"
	"bretter/internal/store"
)

// Snapshot is a game as the API and the live protocol send it, for one
// viewer: Seat and Legal are theirs.
type Snapshot struct {
	ID       string        `json:"id"`
	Game     string        `json:"game"`
	Options  game.Options  `json:"options"`
	Status   string        `json:"status"`
	Moves    []string      `json:"moves"`
	Captured []int         `json:"captured,omitempty"`
	Events   []store.Event `json:"events"`
	// Given is how many of the first events the game was created from
	// ("play on from here"): not the players' moves.
	Given   int        `json:"given,omitempty"`
	ToMove  string     `json:"to_move"`
	Version int        `json:"version"`
	Result  *Result    `json:"result"`
	View    any        `json:"view"`
	Seat    string     `json:"seat,omitempty"`
	Legal   []string   `json:"legal,omitempty"`
	Players Players    `json:"players"`
	Next    string     `json:"next,omitempty"`
	Clock   *ClockView `json:"clock,omitempty"`
	Offer   *Offer     `json:"offer"`
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
		Moves: g.moves, Captured: g.captured, Events: g.events, Given: g.rec.Given, ToMove: g.state.ToMove().String(),
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
	if seat == s.ToMove {
		s.Legal = g.legal()
	}
	return s
}

// legal lists the moves of the player to move, nil when nobody is.
func (g *liveGame) legal() []string {
	var out []string
	g.legalMoves(func(n int, list iter.Seq[string]) {
		out = slices.AppendSeq(make([]string, 0, n), list)
	})
	return out
}

// withLegal is an encoded message, an object, with the legal moves of the
// player to move added (see withList). It returns nil when nobody is to
// move.
func (g *liveGame) withLegal(msg []byte) []byte {
	var out []byte
	g.legalMoves(func(n int, list iter.Seq[string]) {
		out = withList(msg, n, list)
	})
	return out
}

// legalMoves hands f the notation of each of the n moves of the player to
// move, unless nobody is. The list is good only while f runs.
func (g *liveGame) legalMoves(f func(n int, list iter.Seq[string])) {
	if g.rec.Status != "playing" {
		return
	}
	buf := legalBufs.Get().(*[]game.Move)
	moves := g.state.Legal((*buf)[:0])
	f(len(moves), func(yield func(string) bool) {
		for _, m := range moves {
			if !yield(g.state.FormatMove(m)) {
				return
			}
		}
	})
	*buf = moves
	legalBufs.Put(buf)
}

// legalBufs are buffers for legalMoves, shared by every game: kept by
// each game, they would be most of the memory of ten thousand games in
// play, growing a new one after every move would be most of its garbage.
var legalBufs = sync.Pool{New: func() any { return new([]game.Move) }}

// withList is an encoded message, an object, with n strings added as its
// last field "legal": the message for the player to move is the one for
// everyone and the list, without encoding the rest again. The strings go
// straight into the message: made into a list of their own first, they
// were a sixth of all the site allocated in games played flat out.
func withList(msg []byte, n int, list iter.Seq[string]) []byte {
	out := make([]byte, 0, len(msg)+len(`,"legal":[]`)+n*6)
	out = append(out, msg[:len(msg)-1]...)
	out = append(out, `,"legal":[`...)
	first := true
	for s := range list {
		if !first {
			out = append(out, ',')
		}
		first = false
		out = appendJSONString(out, s)
	}
	return append(out, "]}"...)
}

// appendJSONString appends s as encoding/json writes it. A move's notation
// is letters, digits and a few signs, which stand for themselves; anything
// else takes encoding/json's own way.
func appendJSONString(out []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return append(out, encode(s)...)
		}
	}
	out = append(out, '"')
	out = append(out, s...)
	return append(out, '"')
}

// Change is what an event changed in the state a page holds: the page
// adds the event (and its move) to its lists and takes the rest as it is.
type Change struct {
	Status  string     `json:"status"`
	ToMove  string     `json:"to_move"`
	Result  *Result    `json:"result"`
	View    any        `json:"view"`
	Players Players    `json:"players"`
	Clock   *ClockView `json:"clock,omitempty"`
	Offer   *Offer     `json:"offer"`
	// Captured is what the event's move captured, on boards that count.
	Captured *int `json:"captured,omitempty"`
	// Forces is the move the rules leave the player to move (DVONN's
	// pass), which the site made for them: it is the next event, sent
	// right after this one. Until then ToMove names a player whose turn
	// it will not be, which a page need not show.
	Forces  string    `json:"forces,omitempty"`
	Updated time.Time `json:"updated"`
}

// change is the Change that e, just applied, made to g.
func (g *liveGame) change(e store.Event) *Change {
	c := &Change{Status: g.rec.Status, ToMove: g.state.ToMove().String(), View: g.view, Players: g.players(),
		Clock: g.clockView(g.now()), Offer: g.offer, Updated: g.rec.Updated}
	if g.rec.Status == "over" {
		c.Result = &Result{Winner: g.rec.Winner, Reason: g.rec.Reason}
	}
	if e.Kind == "move" && len(g.captured) > 0 {
		c.Captured = &g.captured[len(g.captured)-1]
	}
	c.Forces = g.forced()
	return c
}

// forced is the move the rules leave the player to move, in notation, or
// "" when they have a choice. The site makes such a move as soon as the
// position arises (see forcedSteps), with the move that led to it, so
// only the pages see this position, between the two events.
func (g *liveGame) forced() string {
	f, ok := g.state.(game.Forcer)
	if !ok || g.rec.Status != "playing" {
		return ""
	}
	m, ok := f.Forced()
	if !ok {
		return ""
	}
	return g.state.FormatMove(m)
}

// Players is what is known of the player in each seat. (A map of the
// two was allocated, and its keys sorted, for every event.)
type Players struct {
	White Presence `json:"white"`
	Black Presence `json:"black"`
}

// of returns the presence of seat's player.
func (p *Players) of(seat string) *Presence {
	if seat == "white" {
		return &p.White
	}
	return &p.Black
}

func (g *liveGame) players() Players {
	var out Players
	for i, seat := range []string{"white", "black"} {
		p := g.presence[i]
		for _, r := range g.remote {
			p.conns += r.Conns[i]
			if r.Since[i].After(p.since) {
				p.since = r.Since[i]
			}
		}
		pr := Presence{Seated: g.hashOf(seat) != nil, Online: p.conns > 0}
		pr.Name = g.names[i]
		if seat == g.rec.Computer {
			pr.Computer, pr.Online = g.rec.Level, true
		}
		if !pr.Online && !p.since.IsZero() {
			since := p.since
			pr.Since = &since
		}
		*out.of(seat) = pr
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
