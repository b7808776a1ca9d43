package server

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// The "my games" page lists what this browser holds a seat in.
const (
	mostHeld     = 1000 // seats read from the store
	mostFinished = 50   // finished games shown
)

// myGame is one line of the "my games" page.
type myGame struct {
	ID, Game, Seat string
	Options        map[string]int
	View           any
	// Turn: it is this player's move; Joined: the opponent has a seat.
	Turn, Joined bool
	Over         bool
	Opponent     string // the opponent's name, "" when they gave none
	Computer     int    // the computer's level, when it is the opponent
	Result       string // "won", "lost", "draw" or "aborted", when over
	Reason       string
	Left         string // the time left of the side to move, "" without clock
	// Due is when the side to move of a game of days must have moved
	// (RFC 3339), the grace after an outage included, for the page's
	// script to say in the reader's own time; "" otherwise.
	Due     string
	Updated time.Time
	// deadline is when the side to move runs out of time; zero without
	// a running clock.
	deadline time.Time
}

// myGamesData is the page: games to move in first, then those waiting
// for the friend, then the last ones finished.
type myGamesData struct {
	Turn, Waiting, Over []myGame
}

func (s *Server) myGames(w http.ResponseWriter, r *http.Request) {
	lang, ok := s.language(w, r)
	if !ok {
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	var d myGamesData
	token := s.foldSeats(w, r)
	if token != "" {
		held, err := s.holdings.Holdings(r.Context(), browserID(token), mostHeld)
		if err != nil {
			s.errorPage(w, r, lang, err)
			return
		}
		finished := 0
		for _, h := range held {
			// Holdings come newest first: only the newest finished games
			// are loaded at all.
			if h.Status == "over" {
				if finished == mostFinished {
					continue
				}
				finished++
			}
			secret, ok := unseal(token, h.Game, h.Sealed)
			if !ok {
				continue
			}
			line, err := within(r.Context(), s.hub, h.Game, func(g *liveGame) (myGame, error) {
				return s.myLine(g, secret, lang), nil
			})
			if err != nil || line.Seat == "" {
				continue // a game gone, or a seat no longer this browser's
			}
			switch {
			case line.Over:
				d.Over = append(d.Over, line)
			case line.Turn:
				d.Turn = append(d.Turn, line)
			default:
				d.Waiting = append(d.Waiting, line)
			}
		}
	}
	newest := func(a, b myGame) int { return b.Updated.Compare(a.Updated) }
	slices.SortFunc(d.Turn, mostUrgent)
	slices.SortFunc(d.Waiting, newest)
	slices.SortFunc(d.Over, newest)
	s.render(w, r, http.StatusOK, "mygames", lang, s.site.T(lang, "my.title"), d)
}

// mostUrgent orders the games to move in: the move due first comes
// first, so that no game is lost on time for one that could wait, then
// the games without a running clock, whoever waits longest for this
// player first.
func mostUrgent(a, b myGame) int {
	switch {
	case a.deadline.IsZero() != b.deadline.IsZero():
		if a.deadline.IsZero() {
			return 1
		}
		return -1
	case !a.deadline.IsZero():
		if c := a.deadline.Compare(b.deadline); c != 0 {
			return c
		}
	}
	return a.Updated.Compare(b.Updated)
}

// myLine describes g for the player holding secret.
func (s *Server) myLine(g *liveGame, secret, lang string) myGame {
	seat := g.seatOf(secret)
	if seat == "" {
		return myGame{}
	}
	players := g.players()
	other := players.of(otherSeat(seat))
	line := myGame{
		ID: g.rec.ID, Game: g.rec.Game, Seat: seat, Options: g.rec.Options, View: g.view,
		Joined: other.Seated, Opponent: other.Name, Computer: other.Computer, Updated: g.rec.Updated,
		Over: g.rec.Status == "over",
	}
	switch {
	case line.Over:
		line.Reason = g.rec.Reason
		switch g.rec.Winner {
		case seat:
			line.Result = "won"
		case otherSeat(seat):
			line.Result = "lost"
		default:
			line.Result = cmp.Or(map[string]string{"aborted": "aborted"}[g.rec.Reason], "draw")
		}
	case g.rec.Status == "playing":
		line.Turn = g.state.ToMove().String() == seat
		now := g.now()
		if c := g.clockView(now); c != nil && c.Running != nil {
			ms := c.WhiteMS
			if *c.Running == "black" {
				ms = c.BlackMS
			}
			line.Left = s.timeLeft(lang, ms, c.Days != 0)
			// The clock stands still for the grace after an outage first.
			line.deadline = now.Add(time.Duration(c.HeldMS+ms) * time.Millisecond)
			if c.Days != 0 {
				line.Due = line.deadline.UTC().Format(time.RFC3339)
			}
		}
	}
	return line
}

// timeLeft says how much time a clock has left, as the game page does.
func (s *Server) timeLeft(lang string, ms int64, days bool) string {
	if days {
		// Minutes counted up, as clocks.js does: the last minute is one
		// still to play, not nought.
		minutes := (ms + 59_999) / 60_000
		switch {
		case minutes >= 24*60:
			return s.site.T(lang, "clock.left_days", "days", minutes/(24*60), "hours", minutes%(24*60)/60)
		case minutes >= 60:
			return s.site.T(lang, "clock.left_hours", "hours", minutes/60, "minutes", minutes%60)
		}
		return s.site.T(lang, "clock.left_minutes", "minutes", minutes)
	}
	sec := ms / 1000
	text := fmt.Sprintf("%d:%02d", sec/60, sec%60)
	if sec >= 3600 {
		text = fmt.Sprintf("%d:%02d:%02d", sec/3600, sec%3600/60, sec%60)
	}
	return s.site.T(lang, "my.left", "time", text)
}
