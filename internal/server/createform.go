package server

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"bretter/ai"
	"bretter/game"
	"bretter/internal/clock"
)

// createForm is the board page's form: it starts the game and seats the
// creator, without any script.
func (s *Server) createForm(w http.ResponseWriter, r *http.Request) {
	client := clientKey(r)
	if !s.creates.allow(client, s.hub.now()) {
		s.tooMany(w, r)
		return
	}
	lang := s.site.Lang(r)
	req, err := formGame(r, s.games)
	if err != nil {
		s.refundCreation(client, err)
		s.errorPage(w, r, lang, s.formRefusal(lang, err))
		return
	}
	if req.Clock, err = formClock(r.PostForm); err == nil {
		err = req.Clock.Check()
	}
	if err != nil {
		err = refuse(http.StatusBadRequest, "bad_request", "%s", s.clockRefusal(lang, r.PostForm.Get("clock")))
		s.refundCreation(client, err)
		s.errorPage(w, r, lang, err)
		return
	}
	c, err := s.hub.create(r.Context(), req)
	if err != nil {
		s.refundCreation(client, err)
		s.errorPage(w, r, lang, s.formRefusal(lang, err))
		return
	}
	s.holdSeat(w, r, c.ID, c.Secret)
	http.Redirect(w, r, watchPath(c.ID), http.StatusSeeOther)
}

// formGame reads the game a start form asks for, all but its clock.
func formGame(r *http.Request, games map[string]game.Game) (newGame, error) {
	if err := r.ParseForm(); err != nil {
		return newGame{}, refuse(http.StatusBadRequest, "bad_request", "the form could not be read")
	}
	// A form sends each field once; of two values, taking either would
	// start a game its sender may not have meant.
	for field, values := range r.PostForm {
		if len(values) > 1 {
			return newGame{}, refuse(http.StatusBadRequest, "bad_request", "the field %s is given more than once", field)
		}
	}
	name := r.PostForm.Get("game")
	g, found := games[name]
	if !found {
		return newGame{}, refuse(http.StatusBadRequest, "bad_request", "unknown game")
	}
	for field := range r.PostForm {
		if !formFields[field] && !slices.ContainsFunc(g.Options, func(o game.Option) bool { return o.Name == field }) {
			return newGame{}, refuse(http.StatusBadRequest, "bad_request", "%s has no field %s", name, field)
		}
	}
	opts := game.Options{}
	for _, o := range g.Options {
		v := r.PostForm.Get(o.Name)
		switch {
		case o.Bool:
			// A checkbox sends its value, "1", when it is ticked, and
			// nothing when it is not.
			switch v {
			case "":
				opts[o.Name] = 0
			case "1":
				opts[o.Name] = 1
			default:
				return newGame{}, refuse(http.StatusBadRequest, "bad_request", "option %s must be 1 or left out", o.Name)
			}
		case v != "":
			n, err := strconv.Atoi(v)
			if err != nil {
				return newGame{}, refuse(http.StatusBadRequest, "bad_request", "option %s must be a number", o.Name)
			}
			opts[o.Name] = n
		}
	}
	req := newGame{Game: name, Options: opts, Start: r.PostForm.Get("start"), Opponent: r.PostForm.Get("opponent"),
		Moves: strings.Fields(r.PostForm.Get("moves"))}
	// The board's form sends the level it shows even for a friend's game
	// (only its style hides it), so there a level is checked, then left
	// aside.
	if v, ok := r.PostForm["level"]; ok || req.Opponent == "computer" {
		n, err := strconv.Atoi(strings.Join(v, ""))
		if err != nil {
			return newGame{}, refuse(http.StatusBadRequest, "bad_request", "the level must be a number")
		}
		if _, err := ai.Level(name, n); err != nil {
			return newGame{}, refuse(http.StatusBadRequest, "bad_request", "%v", err)
		}
		if req.Opponent == "computer" {
			req.Level = n
		}
	}
	return req, nil
}

// formFields are the fields the site's start forms send besides a game's
// options: the board page's form and the "play on from here" form of a
// game's replay (templates board.html and layout.html).
var formFields = map[string]bool{
	"game": true, "start": true, "opponent": true, "level": true, "moves": true,
	"clock": true, "clock_minutes": true, "clock_increment": true,
}

// formRefusal is err, a refusal of a start form, as its visitor reads
// it. The clock, the only field typed, is checked on its own: any other
// value refused is one the page fills in itself (the game, the moves
// played on from) or offers as a choice, so it came from a page older
// than the site or from a request made by hand, and the visitor is told
// so in lang. A failure of the site keeps its own words (errorPage).
func (s *Server) formRefusal(lang string, err error) error {
	e := asError(err)
	if e.Status >= 500 {
		return err
	}
	return &Error{Status: e.Status, Code: e.Code, Message: s.site.T(lang, "error.form"), Cause: e.Cause}
}

// clockRefusal says in lang why the start form's clock, v, was refused.
// A person typed a live clock's numbers, so the refusal is theirs to
// read; a slow clock is chosen among days per move, and one the form
// does not offer is told the days it does, not the live clock's minutes.
func (s *Server) clockRefusal(lang, v string) string {
	if !strings.HasPrefix(v, "d") {
		return s.site.T(lang, "error.clock")
	}
	days := make([]string, len(clock.DaysChoices))
	for i, d := range clock.DaysChoices {
		days[i] = strconv.Itoa(d)
	}
	last := len(days) - 1
	return s.site.T(lang, "error.clock_days", "choices", strings.Join(days[:last], ", "), "last", days[last])
}

// formClock reads the start form's clock: "" for none, a preset
// "INITIAL+INCREMENT" in seconds, "dN" for N days per move, or "custom"
// with clock_minutes and clock_increment.
func formClock(f url.Values) (clock.Control, error) {
	if f.Get("clock") == "" {
		return clock.Control{}, nil
	}
	ctl, err := formClockAskedFor(f)
	if err == nil && ctl.None() {
		err = errNoTime
	}
	return ctl, err
}

// formClockAskedFor reads a clock the form asks for.
func formClockAskedFor(f url.Values) (clock.Control, error) {
	v := f.Get("clock")
	bad := refuse(http.StatusBadRequest, "bad_request", "the clock could not be read")
	switch {
	case v == "custom":
		minutes, err1 := strconv.ParseFloat(f.Get("clock_minutes"), 64)
		inc, err2 := strconv.Atoi(f.Get("clock_increment"))
		if err1 != nil || err2 != nil || minutes < 0 || minutes > 1e4 {
			return clock.Control{}, bad
		}
		return clock.Control{Initial: time.Duration(minutes * float64(time.Minute)), Increment: time.Duration(inc) * time.Second}, nil
	case strings.HasPrefix(v, "d"):
		days, err := strconv.Atoi(v[1:])
		if err != nil {
			return clock.Control{}, bad
		}
		return clock.Control{Days: days}, nil
	}
	initial, increment, ok := strings.Cut(v, "+")
	i, err1 := strconv.Atoi(initial)
	n, err2 := strconv.Atoi(increment)
	if !ok || err1 != nil || err2 != nil {
		return clock.Control{}, bad
	}
	return clock.Control{Initial: time.Duration(i) * time.Second, Increment: time.Duration(n) * time.Second}, nil
}
