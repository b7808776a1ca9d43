package server

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"time"

	"bretter/game"
	"bretter/internal/clock"
	"bretter/internal/store"
)

// "New game, same friend" is an offer: one player proposes the terms of
// the next game, the other accepts them by asking for a new game too (or
// answering yes), or declines. Nobody is seated in a game they did not
// agree to. The one who offered may withdraw the offer while it waits.
// The offer is an event of the finished game ("rematch", Move: the terms
// as JSON; "decline" and "withdraw", Move: "rematch"), so it survives a
// restart like everything else; the game's lock orders offers, answers
// and withdrawals. Against the computer the new game starts at once.

// Terms are what the next game is played with.
type Terms struct {
	Options game.Options `json:"options"`
	Clock   ClockTerms   `json:"clock"`
	// White is the seat, in the finished game, of the player who plays
	// White (and so begins) in the next one, or "random".
	White string `json:"white"`
}

// ClockTerms is a time control in the API's words; all zero is no clock.
type ClockTerms struct {
	InitialS   int `json:"initial_s,omitempty"`
	IncrementS int `json:"increment_s,omitempty"`
	Days       int `json:"days,omitempty"`
}

// MarshalJSON writes no clock as null, as a request for a new game says
// it: terms sent back as they were shown ask for the same game. (An empty
// object, as offers stored before say it, still reads as no clock.)
func (c ClockTerms) MarshalJSON() ([]byte, error) {
	if c == (ClockTerms{}) {
		return []byte("null"), nil
	}
	type fields ClockTerms // without this method
	return json.Marshal(fields(c))
}

func clockTerms(c clock.Control) ClockTerms {
	return ClockTerms{InitialS: int(c.Initial / time.Second), IncrementS: int(c.Increment / time.Second), Days: c.Days}
}

func (c ClockTerms) control() clock.Control {
	return clock.Control{Initial: time.Duration(c.InitialS) * time.Second, Increment: time.Duration(c.IncrementS) * time.Second, Days: c.Days}
}

func (t Terms) equal(u Terms) bool {
	return t.Clock == u.Clock && t.White == u.White && maps.Equal(t.Options, u.Options)
}

// rematchAsk is what a player asks the next game to change; nil fields
// keep what the finished game had.
type rematchAsk struct {
	Options game.Options
	Clock   *clock.Control
	// Start is "swap" (colours swapped, the default), "me", "friend" or
	// "random": who plays White, seen from the one asking.
	Start string
}

// rematchRequest is the body of POST /api/games/{id}/rematch, and the
// same fields of the live "rematch" message. Every field is optional.
type rematchRequest struct {
	Options json.RawMessage `json:"options"`
	Clock   json.RawMessage `json:"clock"` // null for no clock
	Start   string          `json:"start"`
}

// given reports whether the request asks for any change at all.
func (r rematchRequest) given() bool {
	return len(r.Options) > 0 || len(r.Clock) > 0 || r.Start != ""
}

// ask checks a request against the game's options; nil when it asks for
// nothing, which is how the other player accepts an offer as it stands.
func (s *Server) ask(gameName string, r rematchRequest) (*rematchAsk, error) {
	if !r.given() {
		return nil, nil
	}
	a := &rematchAsk{Start: r.Start}
	switch r.Start {
	case "", "swap", "me", "friend", "random":
	default:
		return nil, refuse(http.StatusBadRequest, "bad_request", `start must be "swap", "me", "friend" or "random"`)
	}
	if len(r.Options) > 0 {
		opts, err := s.parseOptions(gameName, r.Options)
		if err != nil {
			return nil, err
		}
		a.Options = opts
	}
	if len(r.Clock) > 0 {
		ctl := clock.Control{}
		if string(r.Clock) != "null" {
			var c clockRequest
			if err := decodeStrict(r.Clock, &c); err != nil {
				return nil, refuse(http.StatusBadRequest, "bad_request", "clock must be {initial_s, increment_s}, {days} or null")
			}
			var err error
			if ctl, err = c.control(); err != nil {
				return nil, err
			}
		}
		if err := ctl.Check(); err != nil {
			return nil, refuse(http.StatusBadRequest, "bad_request", "%v", err)
		}
		a.Clock = &ctl
	}
	return a, nil
}

// rematch checks req against the game's kind and asks the hub.
func (s *Server) rematch(ctx context.Context, id, secret string, req rematchRequest) (rematched, error) {
	var name string
	err := s.hub.with(ctx, id, func(g *liveGame) error {
		name = g.rec.Game
		return nil
	})
	if err != nil {
		return rematched{}, err
	}
	ask, err := s.ask(name, req)
	if err != nil {
		return rematched{}, err
	}
	return s.hub.rematch(ctx, id, secret, ask)
}

// rematched is what asking for a new game leads to: an offer waiting for
// the other player (next is empty), or the new game and the asker's seat
// in it.
type rematched struct {
	next, seat string
	version    int
	offer      *Offer
}

// rematch asks for "a new game, same friend" in the finished game id, with
// what ask changes (nil: nothing, or the other player's offer as it is).
func (h *hub) rematch(ctx context.Context, id, secret string, ask *rematchAsk) (rematched, error) {
	r, err := within(ctx, h, id, func(g *liveGame) (rematched, error) {
		return h.follow(ctx, g, secret, ask)
	})
	if err != nil || r.next == "" {
		return r, err
	}
	// The seat in the new game: its own lock, taken after the old one's is
	// let go.
	r.seat, err = within(ctx, h, r.next, func(g *liveGame) (string, error) { return g.seat(secret) })
	return r, err
}

// follow makes or changes the offer of a new game, or accepts the other
// player's, creating the new game.
func (h *hub) follow(ctx context.Context, g *liveGame, secret string, ask *rematchAsk) (rematched, error) {
	seat, err := g.seat(secret)
	if err != nil {
		return rematched{}, err
	}
	if g.rec.Next != "" {
		return rematched{next: g.rec.Next}, nil
	}
	if g.rec.Status != "over" {
		return rematched{}, errNotOver
	}
	if g.rec.WhiteHash == nil || g.rec.BlackHash == nil {
		return rematched{}, errNoFriend
	}
	offer := g.rematchOffer()
	switch {
	case g.rec.Computer != "":
		// The computer takes any terms.
		return h.startNext(ctx, g, seat, g.terms(seat, ask))
	case offer != nil && offer.By != seat && (ask == nil || offer.Terms.equal(g.terms(seat, ask))):
		return h.startNext(ctx, g, offer.By, *offer.Terms)
	case offer != nil && offer.By == seat && ask == nil:
		return rematched{version: len(g.events), offer: offer}, nil
	}
	terms := g.terms(seat, ask)
	if offer != nil && offer.By == seat && offer.Terms.equal(terms) {
		return rematched{version: len(g.events), offer: offer}, nil
	}
	text, err := json.Marshal(terms)
	if err != nil {
		return rematched{}, err
	}
	v, err := h.commitAfterEnd(ctx, g, store.Event{Kind: "rematch", Seat: seat, Move: string(text)})
	if err != nil {
		return rematched{}, err
	}
	// Terms changed, or an offer withdrawn and made again, are not news
	// each time: the other player hears of offers at most once a minute.
	if i := seatIndex(seat); g.rematchTold[i].IsZero() || h.now().Sub(g.rematchTold[i]) >= time.Minute {
		g.rematchTold[i] = h.now()
		h.tell(g, notice{game: g.rec.ID, gameName: g.rec.Game, seat: otherSeat(seat), kind: "rematch"})
	}
	return rematched{version: v, offer: g.offer}, nil
}

var (
	errNoRematchOffer = refuse(http.StatusConflict, "no_offer", "there is no offer of a new game to withdraw")
	errNotYourOffer   = refuse(http.StatusForbidden, "not_your_offer", "only the player who offered the new game can withdraw the offer")
	errNextStarted    = refuse(http.StatusConflict, "too_late", "the new game has already started")
)

// withdrawRematch takes back the offer of a new game that the holder of
// secret made, and returns the game's new version.
func (h *hub) withdrawRematch(ctx context.Context, id, secret string) (int, error) {
	return within(ctx, h, id, func(g *liveGame) (int, error) {
		seat, err := g.seat(secret)
		if err != nil {
			return 0, err
		}
		if g.rec.Next != "" {
			return 0, errNextStarted
		}
		o := g.rematchOffer()
		switch {
		case o == nil:
			return 0, errNoRematchOffer
		case o.By != seat:
			return 0, errNotYourOffer
		}
		return h.commitAfterEnd(ctx, g, store.Event{Kind: "withdraw", Seat: seat, Move: "rematch"})
	})
}

// answerRematch accepts or declines the other player's offer of a new
// game.
func (h *hub) answerRematch(ctx context.Context, g *liveGame, seat string, accept bool) (int, error) {
	o := g.rematchOffer()
	if o == nil || o.By == seat {
		return 0, errNoOffer
	}
	if accept {
		r, err := h.startNext(ctx, g, o.By, *o.Terms)
		return r.version, err
	}
	return h.commitAfterEnd(ctx, g, store.Event{Kind: "decline", Seat: seat, Move: "rematch"})
}

// rematchOffer is the offer of a new game waiting for an answer, or nil.
func (g *liveGame) rematchOffer() *Offer {
	if g.offer == nil || g.offer.Kind != "rematch" || g.rec.Next != "" {
		return nil
	}
	return g.offer
}

// terms are the terms seat asks for: the finished game's, with what ask
// changes.
func (g *liveGame) terms(seat string, ask *rematchAsk) Terms {
	t := Terms{Options: maps.Clone(g.rec.Options), Clock: clockTerms(g.rec.Clock), White: "black"}
	if ask == nil {
		return t
	}
	if ask.Options != nil {
		maps.Copy(t.Options, ask.Options)
	}
	if ask.Clock != nil {
		t.Clock = clockTerms(*ask.Clock)
	}
	switch ask.Start {
	case "me":
		t.White = seat
	case "friend":
		t.White = otherSeat(seat)
	case "random":
		t.White = "random"
	}
	return t
}

// startNext creates the next game on terms that creator offered, and links
// g to it.
func (h *hub) startNext(ctx context.Context, g *liveGame, creator string, t Terms) (rematched, error) {
	engine := h.games[g.rec.Game]
	resolved, err := engine.Resolve(t.Options)
	if err != nil {
		return rematched{}, refuse(http.StatusBadRequest, "bad_request", "%v", err)
	}
	white := t.White
	if white == "random" {
		white = "white"
		var b [1]byte
		rand.Read(b[:])
		if b[0]&1 == 1 {
			white = "black"
		}
	}
	// where is the seat in the new game of the player who had seat.
	where := func(seat string) string {
		if seat == white {
			return "white"
		}
		return "black"
	}
	now := h.now()
	rec := store.Game{ID: newID(), Game: g.rec.Game, Options: resolved, InviteHash: hashSecret(newSecret()),
		Creator: where(creator), Created: now, Updated: now, Status: "playing", Level: g.rec.Level, Clock: t.Clock.control()}
	rec.WhiteHash, rec.BlackHash = g.rec.WhiteHash, g.rec.BlackHash
	if white == "black" {
		rec.WhiteHash, rec.BlackHash = g.rec.BlackHash, g.rec.WhiteHash
	}
	if g.rec.Computer != "" {
		rec.Computer = where(g.rec.Computer)
	}
	if err := h.store.Follow(ctx, g.rec.ID, rec); err != nil {
		if errors.Is(err, store.ErrConflict) {
			g.loaded = false // another instance linked one first
			return rematched{}, conflict{refuse(http.StatusConflict, "stale", "a new game was just started, try again")}
		}
		return rematched{}, err
	}
	client := clientOf(ctx)
	h.remember(rec, nil, client)
	g.rec.Next = rec.ID
	h.noticesFollow(ctx, g, rec, creator, where)
	h.broadcastNext(g)
	h.publish(g, busMessage{Kind: "next", Next: rec.ID})
	if rec.Computer == "white" {
		h.thinkers.add(rec.ID, searchKey(client, rec.ID))
	}
	return rematched{next: rec.ID, version: len(g.events)}, nil
}

// noticesFollow carries the push notices the players of g asked for over
// to next, where seat is now where(seat), and tells creator, who offered
// it, that it has begun: the other player has just accepted it. Their
// page of g, if on screen, follows by itself. A subscription not carried
// only costs notices: the new game has started all the same.
func (h *hub) noticesFollow(ctx context.Context, g *liveGame, next store.Game, creator string, where func(string) string) {
	if g.rec.Computer != "" {
		return // the one who asked began it
	}
	for _, seat := range []string{"white", "black"} {
		err := h.keepNotices(ctx, store.SeatOf{Game: g.rec.ID, Seat: seat}, store.SeatOf{Game: next.ID, Seat: where(seat)})
		if err != nil {
			h.log.Error("carrying push subscriptions to the new game", "game", next.ID, "err", err)
		}
	}
	if !g.lookingAt(creator, h.now()) {
		h.notify(notice{game: next.ID, gameName: next.Game, seat: where(creator), kind: "next"})
	}
}

// commitAfterEnd stores one event that follows the end of g (an offer of
// a new game or its refusal), applies it and tells every page.
func (h *hub) commitAfterEnd(ctx context.Context, g *liveGame, e store.Event) (int, error) {
	e.Seq, e.At = len(g.events)+1, storedTime(h.now())
	if err := h.store.Append(ctx, g.rec.ID, []store.Event{e}, nil); err != nil {
		g.loaded = false // another server wrote first, or the store may have kept it
		if errors.Is(err, store.ErrConflict) {
			return 0, conflict{refuse(http.StatusConflict, "stale", "the game changed meanwhile, try again")}
		}
		return 0, err
	}
	if err := g.apply(e, g.state); err != nil {
		g.loaded = false
		return 0, err
	}
	g.rec.Version, g.rec.Updated = e.Seq, e.At
	h.broadcastEvent(g, e)
	h.publish(g, busMessage{Kind: "events", Events: []store.Event{e}})
	return len(g.events), nil
}
