// Package store keeps games: each game's creation record and the ordered
// list of its events (moves, a resignation). Positions are never stored;
// the server rebuilds them by replaying the moves. SQLite in one file is the
// default and needs nothing installed; PostgreSQL keeps the same data for
// several instances of the site.
package store

import (
	"errors"
	"time"

	"bretter/internal/clock"
)

// lastSeq is the number of the last event of the game in the row at hand
// of games, 0 before the first: the game's version, found by the events'
// key. Both stores ask it in these words.
const lastSeq = `COALESCE((SELECT seq FROM events WHERE game_id = games.id ORDER BY seq DESC LIMIT 1), 0)`

// lastEventAt is the time of the last event of game g, 0 before the first.
const lastEventAt = `COALESCE((SELECT e.at FROM events e WHERE e.game_id = g.id ORDER BY e.seq DESC LIMIT 1), 0)`

// Errors callers branch on.
var (
	ErrNotFound = errors.New("no such game")
	// ErrConflict: the event's number is taken (another move landed first),
	// or a seat is already filled.
	ErrConflict = errors.New("conflict")
)

// Game is a game's creation record and its current summary.
type Game struct {
	ID      string
	Game    string         // engine name, such as "havannah"
	Options map[string]int // resolved options
	// Secret hashes per seat ("white", "black"); nil while a seat is free.
	WhiteHash, BlackHash []byte
	InviteHash           []byte // hash of the invitation token
	Creator              string // the creator's seat
	Created, Updated     time.Time
	Status               string // "waiting", "playing" or "over"
	Winner, Reason       string // set when over; Winner is "white", "black" or "none"
	Next                 string // the game that followed this one ("new game, same friend")
	Version              int    // number of events
	// Computer is the seat the computer plays ("" when two people play),
	// at Level.
	Computer string
	Level    int
	// Clock is the game's time control; the zero value is none.
	Clock clock.Control
	// JoinKey is the key the friend joined with, if any.
	JoinKey JoinKey
	// Given is how many of the first events the game was created with
	// ("play on from here"): where it starts, not the players' moves.
	Given int
}

// JoinKey lets a friend whose answer to joining was lost ask again and
// get the same seat: the hash of the key they joined with, and their
// secret sealed so that only that key opens it.
type JoinKey struct {
	Hash, Sealed []byte
}

// Event is one entry of a game's history. Seq counts from 1 and is the
// game's version after the event.
type Event struct {
	Seq  int       `json:"seq"`
	Kind string    `json:"kind"` // "move" or "resign"
	Seat string    `json:"seat"` // who made it
	Move string    `json:"move,omitempty"`
	At   time.Time `json:"at"`
}

// AfterEnd reports whether events may follow a game's end: only offers of
// a new game ("rematch"), their refusals and their withdrawals ("decline"
// and "withdraw" of "rematch"), and the players' names, which the record
// of a game may still want.
// Everything else is refused once a game is over, so a move racing the
// end can never land behind it.
func AfterEnd(events []Event) bool {
	for _, e := range events {
		if e.Kind != "rematch" && e.Kind != "name" && !((e.Kind == "decline" || e.Kind == "withdraw") && e.Move == "rematch") {
			return false
		}
	}
	return true
}

// ChatLine is one message between the players of a game. Chat is kept
// apart from the events: watchers never see it.
type ChatLine struct {
	Seq  int       `json:"seq"`
	Seat string    `json:"seat"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

// SeatOf is one seat of one game.
type SeatOf struct{ Game, Seat string }

// Subscription is a browser's Web Push subscription for a seat of a game:
// where to send (Endpoint) and the keys to encrypt with, from the
// browser's PushSubscription, and the language of its page.
type Subscription struct {
	Game, Seat   string
	Endpoint     string
	P256DH, Auth string
	Lang         string
}

// SubscriptionsPerSeat is how many subscriptions a seat keeps: its
// newest. Every notice goes to each, and one player has only so many
// browsers; a new one beyond them replaces the oldest.
const SubscriptionsPerSeat = 5

// subscribeQuery keeps a subscription as its seat's newest; with
// subscriptionsCapQuery after it, the seat keeps its newest few. The
// parameters are numbered as SQLite writes them (see pgParams).
const (
	subscribeQuery = `INSERT INTO push_subscriptions (game_id, seat, endpoint, p256dh, auth, lang, seq)
		VALUES (?1, ?2, ?3, ?4, ?5, ?6, (SELECT COALESCE(MAX(seq), 0) + 1 FROM push_subscriptions WHERE game_id = ?1 AND seat = ?2))
		ON CONFLICT (game_id, seat, endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth, lang = excluded.lang, seq = excluded.seq`
	subscriptionsCapQuery = `DELETE FROM push_subscriptions WHERE game_id = ?1 AND seat = ?2
		AND seq <= (SELECT MAX(seq) FROM push_subscriptions WHERE game_id = ?1 AND seat = ?2) - ?3`
)

// Holding is a seat a browser holds: the game and the seat's secret,
// sealed with a key only that browser has, so that the store alone
// gives nobody a seat. At is when it was taken; Holdings adds the game's
// Status and when it last changed.
type Holding struct {
	Game    string
	Sealed  []byte
	At      time.Time
	Status  string
	Updated time.Time
}

// Ending is the result an event brings, if any.
type Ending struct {
	Winner, Reason string
}
