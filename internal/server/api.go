package server

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"time"
)

func (s *Server) apiGet(w http.ResponseWriter, r *http.Request) {
	snap, err := within(r.Context(), s.hub, r.PathValue("id"), func(g *liveGame) (Snapshot, error) {
		seat, err := g.viewer(s.credential(r, g.rec.ID))
		if err != nil {
			return Snapshot{}, err
		}
		return g.fullSnapshot(seat), nil
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
		Key    string `json:"key"` // the same key again gets the same seat
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("id")
	seat, secret, err := s.hub.join(r.Context(), id, req.Invite, req.Key)
	if err != nil {
		writeError(w, err)
		return
	}
	s.holdSeat(w, r, id, secret)
	writeJSON(w, http.StatusOK, map[string]string{"seat": seat, "secret": secret, "player_url": baseURL(r) + playerPath(id, secret)})
}

func (s *Server) apiMove(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
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
	version, err := s.move(r.Context(), id, s.secret(r, id), *req.Ply, req.Move, received)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"version": version})
}

func (s *Server) apiResign(w http.ResponseWriter, r *http.Request) {
	if err := readNothing(r); err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("id")
	version, err := s.hub.resign(r.Context(), id, s.secret(r, id))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"version": version})
}

// apiRematch offers a new game (202 with the offer) or, when the other
// player has offered one, accepts it (201 with the new game).
func (s *Server) apiRematch(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	secret := s.secret(r, id)
	var req rematchRequest
	if err := readOptional(r, &req); err != nil {
		writeError(w, err)
		return
	}
	res, err := s.rematch(r.Context(), id, secret, req)
	if err != nil {
		writeError(w, err)
		return
	}
	if res.next == "" {
		writeJSON(w, http.StatusAccepted, map[string]any{"version": res.version, "offer": res.offer})
		return
	}
	s.holdSeat(w, r, res.next, secret)
	writeJSON(w, http.StatusCreated, map[string]string{
		"id": res.next, "seat": res.seat, "player_url": baseURL(r) + playerPath(res.next, secret), "watch_url": baseURL(r) + watchPath(res.next),
	})
}

// apiWithdrawRematch withdraws the asker's offer of a new game.
func (s *Server) apiWithdrawRematch(w http.ResponseWriter, r *http.Request) {
	if err := readNothing(r); err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("id")
	version, err := s.hub.withdrawRematch(r.Context(), id, s.secret(r, id))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"version": version})
}

// A credential is the seat secret a request carries, and how: given
// (the Authorization header, which a program sets on purpose) or ambient
// (this browser's cookie, which the browser sends by itself, an old one
// of a seat it no longer holds too).
type credential struct {
	secret string
	given  bool
}

// credential is the secret r carries: the Authorization header (for
// programs), else the seat this browser holds (see browser.go). A POST is
// authorised by cookie only with a JSON body, which another site cannot
// send without the browser asking this one first; the cookie is
// SameSite=Lax too.
func (s *Server) credential(r *http.Request, id string) credential {
	if auth := r.Header.Get("Authorization"); auth != "" {
		// The scheme in any case, as HTTP has it ("bearer" too).
		scheme, secret, _ := strings.Cut(auth, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return credential{"\x00", true} // present but unusable: never matches
		}
		if secret = strings.TrimSpace(secret); secret == "" {
			return credential{} // a program that has no secret to give: it watches
		}
		return credential{secret, true}
	}
	if r.Method != http.MethodGet && !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		return credential{}
	}
	if secret := s.heldSecret(r, id); secret != "" {
		return credential{secret: secret}
	}
	if c, err := r.Cookie(seatCookie(id)); err == nil {
		return credential{secret: c.Value}
	}
	return credential{}
}

// secret is the seat secret r carries, however it carries it: what a
// change needs, refused when it is no seat's.
func (s *Server) secret(r *http.Request, id string) string { return s.credential(r, id).secret }

// readJSON decodes one JSON object from the body into v, strictly. A
// body said to be something else (a form, text) is refused rather than
// read as JSON; a body that says nothing of its type is read as JSON, as
// the programs written for this API send it.
func readJSON(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" && !isJSON(ct) {
		return refuse(http.StatusUnsupportedMediaType, "unsupported_media_type", "the body must be JSON (Content-Type: application/json), not %.60q", ct)
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return refuse(http.StatusRequestEntityTooLarge, "too_large", "the request is larger than %d bytes", maxBody)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return refuse(http.StatusBadRequest, "bad_request", "malformed JSON: %s", jsonProblem(err))
		}
		return refuse(http.StatusBadRequest, "bad_request", "the request's body could not be read whole")
	}
	if err := decodeStrict(data, v); err != nil {
		return refuse(http.StatusBadRequest, "bad_request", "malformed JSON: %s", jsonProblem(err))
	}
	return nil
}

// readNothing checks the body of a request that takes no terms: there is
// none, or it is an empty JSON object. Anything else is refused rather
// than ignored, as it may mean the client asked for something else.
func readNothing(r *http.Request) error { return readOptional(r, &struct{}{}) }

// readOptional is readJSON for a body that may be left out, v then left
// as it is. An empty body counts as none however it is sent, with a
// length of 0 or in chunks.
func readOptional(r *http.Request, v any) error {
	body := bufio.NewReader(r.Body)
	if _, err := body.Peek(1); err == io.EOF {
		return nil
	}
	r.Body = struct {
		io.Reader
		io.Closer
	}{body, r.Body}
	return readJSON(r, v)
}

// isJSON reports whether the Content-Type ct names JSON:
// application/json or a type in JSON such as application/merge-patch+json,
// with any parameters.
func isJSON(ct string) bool {
	typ, _, err := mime.ParseMediaType(ct)
	return err == nil && (typ == "application/json" || strings.HasPrefix(typ, "application/") && strings.HasSuffix(typ, "+json"))
}

// jsonProblem says what is wrong with a JSON request in the terms of its
// fields, without the names of the server's own types.
func jsonProblem(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "there is nothing"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "it ends too soon"
	case errors.As(err, &syntax):
		return fmt.Sprintf("not JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ) && typ.Field == "":
		return "it must be an object"
	case errors.As(err, &typ):
		return fmt.Sprintf("%q must be %s", typ.Field, jsonKind(typ.Type))
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonKind names what a value of type t is written as in JSON.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number in range"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return "an object"
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
	noteCause(w, e, err)
	writeJSON(w, e.Status, errorAnswer{Error: e.Message, Code: e.Code, Reasons: reasonsOf(e.Cause)})
}

func watchPath(id string) string          { return "/g/" + id }
func playerPath(id, secret string) string { return fmt.Sprintf("/g/%s/seat/%s", id, secret) }

// invitePath is the invitation link. Its token is derived from the
// creator's secret, so the creator's page can always show it again while
// the store keeps only its hash.
func invitePath(id, creatorSecret string) string {
	return fmt.Sprintf("/g/%s/join/%s", id, inviteToken(creatorSecret))
}

// noteCause hands the cause of a 5xx to ServeHTTP, which logs it.
func noteCause(w http.ResponseWriter, e *Error, err error) {
	if rec, ok := w.(*statusRecorder); ok && e.Status >= 500 {
		rec.cause = err
	}
}

// apiUnknown answers what no route of the API takes in the API's own
// words: a path it has with another method, or no such path.
func (s *Server) apiUnknown(w http.ResponseWriter, r *http.Request) {
	if !s.unknownRead(w, r) {
		return
	}
	allow := s.allowed(r)
	if len(allow) == 0 {
		writeError(w, refuse(http.StatusNotFound, "not_found", "the API has no %.100q", r.URL.Path))
		return
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	writeError(w, refuse(http.StatusMethodNotAllowed, "method_not_allowed", "%.100q takes %s, not %.10q", r.URL.Path, strings.Join(allow, " or "), r.Method))
}

// allowed lists the methods that a route takes r's path with, for a
// request that came to a catch-all route, which answers any method.
func (s *Server) allowed(r *http.Request) []string {
	var allow []string
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodDelete} {
		other := r.Clone(r.Context())
		other.Method = method
		if _, pattern := s.mux.Handler(other); pattern != r.Pattern {
			allow = append(allow, method)
			if method == http.MethodGet {
				allow = append(allow, http.MethodHead)
			}
		}
	}
	return allow
}
