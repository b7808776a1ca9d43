package server

import (
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"bretter/ai"
	"bretter/game"
	"bretter/internal/clock"
	"bretter/internal/jsonscan"
)

// createRequest is the body of POST /api/games.
type createRequest struct {
	Game    string          `json:"game"`
	Options json.RawMessage `json:"options"`
	Start   string          `json:"start"`
	// Opponent is "friend" (the default) or "computer", at Level 1 to 8
	// (default 4).
	Opponent string `json:"opponent"`
	Level    *int   `json:"level"`
	// Moves to play on from, in the game's notation.
	Moves []string `json:"moves"`
	// Clock is {"initial_s", "increment_s"} or {"days"}; none by default.
	Clock *clockRequest `json:"clock"`
}

type clockRequest struct {
	InitialS   *int `json:"initial_s"`
	IncrementS *int `json:"increment_s"`
	Days       *int `json:"days"`
}

// control is the time control asked for; Check says what is wrong with it.
func (c *clockRequest) control() (clock.Control, error) {
	if c == nil {
		return clock.Control{}, nil
	}
	if c.InitialS == nil && c.Days == nil {
		return clock.Control{}, refuse(http.StatusBadRequest, "bad_request", "a clock needs initial_s (and increment_s) or days")
	}
	var ctl clock.Control
	var err error
	if ctl.Initial, err = seconds("initial_s", c.InitialS, clock.MinInitial, clock.MaxInitial); err != nil {
		return ctl, err
	}
	if ctl.Increment, err = seconds("increment_s", c.IncrementS, 0, clock.MaxIncrement); err != nil {
		return ctl, err
	}
	if c.Days != nil {
		ctl.Days = *c.Days
	}
	if ctl.None() {
		return ctl, errNoTime
	}
	return ctl, nil
}

// seconds is the duration of a field given in seconds, nil being none. A
// number too large for a duration is refused as out of range rather than
// made into some other time. The refusal says the range a clock accepts,
// in words as the clock's own check does; a number under the least but
// not under 0 is left to that check, as 0 beside days per move is no
// time at all.
func seconds(field string, v *int, least, most time.Duration) (time.Duration, error) {
	if v == nil {
		return 0, nil
	}
	if *v < 0 || *v > int(most/time.Second) {
		low := "0"
		if least > 0 {
			low = clock.Words(least)
		}
		return 0, refuse(http.StatusBadRequest, "bad_request", "%s must be between %s and %s (%d to %d), not %d",
			field, low, clock.Words(most), int(least/time.Second), int(most/time.Second), *v)
	}
	return time.Duration(*v) * time.Second, nil
}

type createResponse struct {
	ID        string `json:"id"`
	Seat      string `json:"seat"`
	Secret    string `json:"secret"`
	PlayerURL string `json:"player_url"`
	InviteURL string `json:"invite_url,omitempty"` // none against the computer
	WatchURL  string `json:"watch_url"`
}

func (s *Server) apiCreate(w http.ResponseWriter, r *http.Request) {
	client := clientKey(r)
	if !s.creates.allow(client, s.hub.now()) {
		writeError(w, refuse(http.StatusTooManyRequests, "rate", "too many new games from your address: wait a minute"))
		return
	}
	req, err := s.readCreate(r)
	var c created
	if err == nil {
		c, err = s.hub.create(r.Context(), req)
	}
	if err != nil {
		s.refundCreation(client, err)
		writeError(w, err)
		return
	}
	s.holdSeat(w, r, c.ID, c.Secret)
	res := createResponse{
		ID: c.ID, Seat: c.Seat, Secret: c.Secret,
		PlayerURL: baseURL(r) + playerPath(c.ID, c.Secret),
		WatchURL:  baseURL(r) + watchPath(c.ID),
	}
	if req.Opponent != "computer" {
		res.InviteURL = baseURL(r) + invitePath(c.ID, c.Secret)
	}
	writeJSON(w, http.StatusCreated, res)
}

// readCreate reads the new game a request asks for.
func (s *Server) readCreate(r *http.Request) (newGame, error) {
	var req createRequest
	if err := readJSON(r, &req); err != nil {
		return newGame{}, err
	}
	opts, err := s.parseOptions(req.Game, req.Options)
	if err != nil {
		return newGame{}, err
	}
	level, err := chosenLevel(req.Opponent, req.Level)
	if err != nil {
		return newGame{}, err
	}
	ctl, err := req.Clock.control()
	if err != nil {
		return newGame{}, err
	}
	return newGame{Game: req.Game, Options: opts, Start: req.Start, Opponent: req.Opponent,
		Level: level, Moves: req.Moves, Clock: ctl}, nil
}

// refusedCreation is what a new game refused for what it asks costs, in
// new games. A whole one would lock out a player who mistypes a few
// times; nothing would leave a flood of bad requests unbounded, as no
// other limit counts a POST. A tenth lets an address send ten times as
// many refused ones as it may create games, 300 a minute by default
// (100 at once): reading one is 16 KiB at most and checking the moves of
// one game, work of the order of a read, of which an address may make
// 20 a second.
const refusedCreation = 0.1

// refundCreation gives a creation refused for what it asks (err a 4xx)
// most of the new game it was charged back. A refusal of the site's
// (a 5xx: the store failed) costs a whole one: it passed every check,
// and retried at once it would only add to the store's trouble.
func (s *Server) refundCreation(client string, err error) {
	if asError(err).Status < http.StatusInternalServerError {
		s.creates.give(client, s.hub.now(), 1-refusedCreation)
	}
}

// chosenLevel is the computer's level of a new game: the default when none
// is given; a level is only for a game against the computer.
func chosenLevel(opponent string, level *int) (int, error) {
	switch {
	case opponent != "computer" && level != nil:
		return 0, refuse(http.StatusBadRequest, "bad_request", "a level is only for a game against the computer")
	case opponent != "computer":
		return 0, nil
	case level == nil:
		return ai.DefaultLevel, nil
	}
	return *level, nil
}

// gameNames lists the names of the site's games, for a refusal that
// says which there are: "havannah, dvonn or fanorona".
func (s *Server) gameNames() string {
	names := make([]string, len(s.order))
	for i, g := range s.order {
		names[i] = g.Name
	}
	return clock.OrList(names)
}

// parseOptions reads a game's options from JSON: numbers, and true/false
// for on/off options.
func (s *Server) parseOptions(name string, raw json.RawMessage) (game.Options, error) {
	g, ok := s.games[name]
	switch {
	case !ok && name == "":
		return nil, refuse(http.StatusBadRequest, "bad_request", `a new game needs "game": %s`, s.gameNames())
	case !ok:
		return nil, refuse(http.StatusBadRequest, "bad_request", "unknown game %.40q: the site has %s", name, s.gameNames())
	}
	opts := game.Options{}
	if len(raw) == 0 || string(raw) == "null" {
		return opts, nil
	}
	// Each option once: decoded into a map, the last of a name given
	// twice would be taken.
	var fields []string
	var values []json.RawMessage
	twice := ""
	err := jsonscan.EachMember(raw, func(key, value []byte) error {
		if slices.Contains(fields, string(key)) {
			twice = string(key)
			return jsonscan.ErrStop
		}
		fields, values = append(fields, string(key)), append(values, value)
		return nil
	})
	switch {
	case err != nil:
		return nil, refuse(http.StatusBadRequest, "bad_request", "options must be an object")
	case twice != "":
		return nil, refuse(http.StatusBadRequest, "bad_request", "option %s is given twice", twice)
	}
	for i, name := range fields {
		v := values[i]
		var def *game.Option
		for i := range g.Options {
			if g.Options[i].Name == name {
				def = &g.Options[i]
			}
		}
		if def == nil {
			return nil, refuse(http.StatusBadRequest, "bad_request", "%s has no option %s", g.Name, name)
		}
		if def.Bool {
			// 1 and 0 too: a game's state and the terms of a new one
			// write an on/off option so, and may be sent back as read.
			var b bool
			switch string(v) {
			case "1":
				b = true
			case "0":
			default:
				if err := json.Unmarshal(v, &b); err != nil {
					return nil, refuse(http.StatusBadRequest, "bad_request", "option %s must be true or false", name)
				}
			}
			opts[name] = 0
			if b {
				opts[name] = 1
			}
			continue
		}
		var n int
		if err := json.Unmarshal(v, &n); err != nil {
			return nil, refuse(http.StatusBadRequest, "bad_request", "option %s must be a whole number from %d to %d", name, def.Min, def.Max)
		}
		opts[name] = n
	}
	if _, err := g.Resolve(opts); err != nil {
		return nil, refuse(http.StatusBadRequest, "bad_request", "%v", err)
	}
	return opts, nil
}
