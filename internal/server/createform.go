package server

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"bretter/game"
	"bretter/internal/clock"
)

// createForm is the board page's form: it starts the game and seats the
// creator, without any script.
func (s *Server) createForm(w http.ResponseWriter, r *http.Request) {
	if !s.creates.allow(clientKey(r), s.hub.now()) {
		s.tooMany(w, r)
		return
	}
	lang := s.site.Lang(r)
	req, err := formGame(r, s.games)
	if err != nil {
		s.errorPage(w, r, lang, s.formRefusal(lang, err))
		return
	}
	if req.Clock, err = formClock(r.PostForm); err == nil {
		err = req.Clock.Check()
	}
	if err != nil {
		// A person typed the clock's numbers: the refusal is theirs to read.
		s.errorPage(w, r, lang, refuse(http.StatusBadRequest, "bad_request", "%s", s.site.T(lang, "error.clock")))
		return
	}
	c, err := s.hub.create(r.Context(), req)
	if err != nil {
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
	name := r.PostForm.Get("game")
	g, found := games[name]
	if !found {
		return newGame{}, refuse(http.StatusBadRequest, "bad_request", "unknown game")
	}
	opts := game.Options{}
	for _, o := range g.Options {
		v := r.PostForm.Get(o.Name)
		switch {
		case o.Bool:
			opts[o.Name] = 0
			if v != "" {
				opts[o.Name] = 1
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
	if req.Opponent == "computer" {
		n, err := strconv.Atoi(r.PostForm.Get("level"))
		if err != nil {
			return newGame{}, refuse(http.StatusBadRequest, "bad_request", "the level must be a number")
		}
		req.Level = n
	}
	return req, nil
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
