package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"bretter/ai"
	"bretter/game"
	"bretter/internal/clock"
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
	if c.InitialS != nil {
		ctl.Initial = time.Duration(*c.InitialS) * time.Second
	}
	if c.IncrementS != nil {
		ctl.Increment = time.Duration(*c.IncrementS) * time.Second
	}
	if c.Days != nil {
		ctl.Days = *c.Days
	}
	return ctl, nil
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
	if !s.creates.allow(clientKey(r), s.hub.now()) {
		writeError(w, refuse(http.StatusTooManyRequests, "rate", "too many new games from your address: wait a minute"))
		return
	}
	var req createRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	opts, err := s.parseOptions(req.Game, req.Options)
	if err != nil {
		writeError(w, err)
		return
	}
	level, err := chosenLevel(req.Opponent, req.Level)
	if err != nil {
		writeError(w, err)
		return
	}
	ctl, err := req.Clock.control()
	if err != nil {
		writeError(w, err)
		return
	}
	c, err := s.hub.create(r.Context(), newGame{Game: req.Game, Options: opts, Start: req.Start, Opponent: req.Opponent,
		Level: level, Moves: req.Moves, Clock: ctl})
	if err != nil {
		writeError(w, err)
		return
	}
	setSeatCookie(w, r, c.ID, c.Secret)
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

// parseOptions reads a game's options from JSON: numbers, and true/false
// for on/off options.
func (s *Server) parseOptions(name string, raw json.RawMessage) (game.Options, error) {
	g, ok := s.games[name]
	if !ok {
		return nil, refuse(http.StatusBadRequest, "bad_request", "unknown game %q", name)
	}
	opts := game.Options{}
	if len(raw) == 0 || string(raw) == "null" {
		return opts, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, refuse(http.StatusBadRequest, "bad_request", "options must be an object")
	}
	for name, v := range fields {
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
			var b bool
			if err := json.Unmarshal(v, &b); err != nil {
				return nil, refuse(http.StatusBadRequest, "bad_request", "option %s must be true or false", name)
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

func (s *Server) apiGet(w http.ResponseWriter, r *http.Request) {
	snap, err := within(r.Context(), s.hub, r.PathValue("id"), func(g *liveGame) (Snapshot, error) {
		seat := ""
		if secret := s.secret(r, g.rec.ID); secret != "" {
			var err error
			if seat, err = g.seat(secret); err != nil {
				return Snapshot{}, err
			}
		}
		return g.snapshot(seat), nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, snap)
}

func (s *Server) apiJoin(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Invite string `json:"invite"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("id")
	seat, secret, err := s.hub.join(r.Context(), id, req.Invite)
	if err != nil {
		writeError(w, err)
		return
	}
	setSeatCookie(w, r, id, secret)
	writeJSON(w, http.StatusOK, map[string]string{"seat": seat, "secret": secret, "player_url": baseURL(r) + playerPath(id, secret)})
}

func (s *Server) apiMove(w http.ResponseWriter, r *http.Request) {
	if !s.moves.allow(clientKey(r), s.hub.now()) {
		writeError(w, refuse(http.StatusTooManyRequests, "rate", "too many moves from your address: slow down"))
		return
	}
	var req struct {
		Ply  *int   `json:"ply"`
		Move string `json:"move"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Ply == nil || req.Move == "" {
		writeError(w, refuse(http.StatusBadRequest, "bad_request", `a move needs "ply" (the number of moves played before it) and "move"`))
		return
	}
	id := r.PathValue("id")
	version, err := s.hub.move(r.Context(), id, s.secret(r, id), *req.Ply, req.Move)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"version": version})
}

func (s *Server) apiResign(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	version, err := s.hub.resign(r.Context(), id, s.secret(r, id))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"version": version})
}

func (s *Server) apiRematch(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	secret := s.secret(r, id)
	next, seat, err := s.hub.rematch(r.Context(), id, secret)
	if err != nil {
		writeError(w, err)
		return
	}
	setSeatCookie(w, r, next, secret)
	writeJSON(w, http.StatusCreated, map[string]string{
		"id": next, "seat": seat, "player_url": baseURL(r) + playerPath(next, secret), "watch_url": baseURL(r) + watchPath(next),
	})
}

// secret is the seat secret a request carries: the Authorization header
// (for programs), else the game's cookie (for the browser). A POST is
// authorised by cookie only with a JSON body, which another site cannot send
// without the browser asking this one first; the cookie is SameSite=Lax
// too.
func (s *Server) secret(r *http.Request, id string) string {
	if auth := r.Header.Get("Authorization"); auth != "" {
		secret, ok := strings.CutPrefix(auth, "Bearer ")
		if !ok {
			return "\x00" // present but unusable: never matches
		}
		return strings.TrimSpace(secret)
	}
	if r.Method != http.MethodGet && !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		return ""
	}
	if c, err := r.Cookie(seatCookie(id)); err == nil {
		return c.Value
	}
	return ""
}

// readJSON decodes one JSON object from the body into v, strictly.
func readJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return refuse(http.StatusRequestEntityTooLarge, "too_large", "the request is larger than %d bytes", maxBody)
		}
		return refuse(http.StatusBadRequest, "bad_request", "malformed JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return refuse(http.StatusBadRequest, "bad_request", "malformed JSON: more than one value")
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	// Answers may carry a secret or a game's changing state: never cache.
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, err error) {
	e := asError(err)
	writeJSON(w, e.Status, map[string]string{"error": e.Message, "code": e.Code})
}

func seatCookie(id string) string { return "seat_" + id }

// setSeatCookie lets the browser come back to its seat.
func setSeatCookie(w http.ResponseWriter, r *http.Request, id, secret string) {
	http.SetCookie(w, &http.Cookie{
		Name: seatCookie(id), Value: secret, Path: "/", MaxAge: 400 * 24 * 3600,
		HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode,
	})
}

func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func watchPath(id string) string          { return "/g/" + id }
func playerPath(id, secret string) string { return fmt.Sprintf("/g/%s/seat/%s", id, secret) }

// invitePath is the invitation link. Its token is derived from the
// creator's secret, so the creator's page can always show it again while
// the store keeps only its hash.
func invitePath(id, creatorSecret string) string {
	return fmt.Sprintf("/g/%s/join/%s", id, inviteToken(creatorSecret))
}
