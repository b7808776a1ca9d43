package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"bretter/game"
	"bretter/internal/clock"
)

// Error is a refusal with the HTTP status it maps to and a short code that
// the live protocol sends beside the message. Cause, when the rules
// refused, is their refusal, whose reasons go with the message.
type Error struct {
	Status  int
	Code    string
	Message string
	Cause   error
}

func (e *Error) Error() string { return e.Message }

func refuse(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

var (
	errNotFound     = refuse(http.StatusNotFound, "not_found", "no such game")
	errNoSecret     = refuse(http.StatusForbidden, "forbidden", "this needs a player's secret (Authorization: Bearer <secret>)")
	errWrongSecret  = refuse(http.StatusForbidden, "forbidden", "the secret does not match a seat of this game")
	errWatcherLooks = refuse(http.StatusForbidden, "forbidden", "only a player's page says whether it is on screen")
	errNotYourTurn  = refuse(http.StatusForbidden, "not_your_turn", "it is not your turn")
	errOver         = refuse(http.StatusConflict, "game_over", "the game is over")
	errWaiting      = refuse(http.StatusConflict, "waiting", "the game starts when your friend has joined")
	// Asked for, a clock that keeps no time would quietly be none.
	errNoTime       = refuse(http.StatusBadRequest, "bad_request", "a clock needs a time: at least %d seconds each, or days per move", int(clock.MinInitial/time.Second))
	errSeatTaken    = refuse(http.StatusConflict, "seat_taken", "this invitation has already been used: both seats are taken, you can watch the game")
	errBadInvite    = refuse(http.StatusForbidden, "forbidden", "this invitation does not belong to this game")
	errBadJoinKey   = refuse(http.StatusBadRequest, "bad_request", "a join key is 16 to 128 letters, digits, - or _")
	errNotOver      = refuse(http.StatusConflict, "not_over", "a new game can follow only when this one is over")
	errOverUnjoined = refuse(http.StatusConflict, "game_over", "this game ended before anyone joined it: ask for a new invitation")
	errRate         = refuse(http.StatusTooManyRequests, "rate", "too many requests from your address: slow down")
	errNoFriend     = refuse(http.StatusConflict, "no_friend", "nobody joined this game: a new game with the same friend needs one; invite a friend to a new game instead")
)

func errStale(ply, want int) *Error {
	played := "moves have"
	if want == 1 {
		played = "move has"
	}
	return refuse(http.StatusConflict, "stale", "ply %d is not the next one: %d %s been played", ply, want, played)
}

// illegal is the refusal of a move the rules do not allow, err saying why.
func illegal(err error) *Error {
	return &Error{Status: http.StatusUnprocessableEntity, Code: "illegal", Message: err.Error(), Cause: err}
}

// atMove is err, the refusal of move ply (counted from 1) of a list,
// saying which move it is.
func atMove(ply int, move string, err error) error {
	return &game.Refusal{Reason: game.Because("why.import.move", "move {ply} ({move})", "ply", ply, "move", move), Cause: err}
}

// errorAnswer is the body of every refusal: what, its code, and, when the
// rules or a record's reader refused, their reasons.
type errorAnswer struct {
	Error   string   `json:"error"`
	Code    string   `json:"code"`
	Ply     int      `json:"ply,omitempty"` // the move of a record at fault
	Reasons []reason `json:"reasons,omitempty"`
}

// A reason is a game.Reason as the API and the live protocol send it: a
// message of the site's catalogues whose placeholders take the values, or
// the message key of a value that is a word to translate.
type reason struct {
	Key  string `json:"key"`
	Args []arg  `json:"args"`
}

type arg struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Key   string `json:"key,omitempty"`
}

// reasonsOf is what err says, as reasons from where to what, or nil when
// a part of it has none.
func reasonsOf(err error) []reason {
	list, ok := game.Reasons(err)
	if !ok {
		return nil
	}
	out := make([]reason, len(list))
	for i, r := range list {
		out[i] = reason{Key: r.Key, Args: make([]arg, len(r.Args))}
		for j, a := range r.Args {
			out[i].Args[j] = arg(a)
		}
	}
	return out
}

// asError turns any error into a refusal; unknown errors are internal.
func asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return refuse(http.StatusInternalServerError, "internal", "something went wrong on the server")
}
