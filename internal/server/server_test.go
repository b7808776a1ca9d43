package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"bretter/internal/store"
	"bretter/internal/web"
)

func TestCreateJoinPlay(t *testing.T) {
	ts := newTestServer(t)
	var c createResponse
	if code := ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4,"swap":true},"start":"friend"}`, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if c.Seat != "black" || len(c.Secret) < 22 || !strings.HasSuffix(c.WatchURL, "/g/"+c.ID) ||
		!strings.Contains(c.PlayerURL, c.Secret) || !strings.Contains(c.InviteURL, "/g/"+c.ID+"/join/") {
		t.Fatalf("create answered %+v", c)
	}
	s := ts.state(t, c.ID, "")
	if s.Status != "waiting" || s.Options["size"] != 4 || s.Options["swap"] != 1 || s.Version != 0 || s.Result != nil {
		t.Fatalf("new game: %+v", s)
	}
	// Before the friend joins, nobody moves.
	var e errorBody
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, `{"ply":0,"move":"d4"}`, &e); code != http.StatusConflict || e.Code != "waiting" {
		t.Fatalf("move before join: %d %+v", code, e)
	}
	invite := c.InviteURL[strings.LastIndex(c.InviteURL, "/")+1:]
	var j struct{ Seat, Secret, Player_URL string }
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": invite}, &j); code != http.StatusOK || j.Seat != "white" {
		t.Fatalf("join: %d %+v", code, j)
	}
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": invite}, &e); code != http.StatusConflict || e.Code != "seat_taken" {
		t.Fatalf("second join: %d %+v", code, e)
	}
	var v struct{ Version int }
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/moves", j.Secret, `{"ply":0,"move":"d4"}`, &v); code != http.StatusOK || v.Version != 1 {
		t.Fatalf("first move: %d %+v", code, v)
	}
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, `{"ply":1,"move":"swap"}`, &v); code != http.StatusOK || v.Version != 2 {
		t.Fatalf("swap: %d %+v", code, v)
	}
	s = ts.state(t, c.ID, c.Secret)
	if s.Status != "playing" || strings.Join(s.Moves, " ") != "d4 swap" || s.ToMove != "white" || s.Seat != "black" || s.Legal != nil {
		t.Fatalf("after two moves, Black sees %+v", s)
	}
	s = ts.state(t, c.ID, j.Secret)
	if s.Seat != "white" || len(s.Legal) != 36 {
		t.Fatalf("White to move sees %d legal moves: %+v", len(s.Legal), s)
	}
}

func TestWholeGameAndRematch(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	// White connects the corners a1 and a4.
	ts.play(t, g, "a1 d4 a2 e5 a3 f6 a4")
	s := ts.state(t, g.id, "")
	if s.Status != "over" || *s.Result != (Result{Winner: "white", Reason: "bridge"}) {
		t.Fatalf("after the bridge: %+v", s)
	}
	var e errorBody
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.black, `{"ply":7,"move":"g7"}`, &e); code != http.StatusConflict || e.Code != "game_over" {
		t.Fatalf("move after the end: %d %+v", code, e)
	}
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/resign", g.black, nil, &e); code != http.StatusConflict || e.Code != "game_over" {
		t.Fatalf("resign after the end: %d %+v", code, e)
	}
	// New game, same friend: an offer first, colours swapped; the other
	// player's rematch accepts it and seats both.
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.black, nil, nil); code != http.StatusAccepted {
		t.Fatalf("offering a new game: %d", code)
	}
	if s := ts.state(t, g.id, ""); s.Next != "" || s.Offer == nil || s.Offer.Kind != "rematch" || s.Offer.By != "black" {
		t.Fatalf("after the offer: next %q, offer %+v", s.Next, s.Offer)
	}
	var next struct{ ID, Seat string }
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, nil, &next); code != http.StatusCreated || next.Seat != "black" {
		t.Fatalf("accepting the new game: %d %+v", code, next)
	}
	var again struct{ ID, Seat string }
	ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.black, nil, &again)
	if again.ID != next.ID || again.Seat != "white" {
		t.Fatalf("asking again %+v, want the same game %s as white", again, next.ID)
	}
	if s := ts.state(t, next.ID, g.black); s.Status != "playing" || s.Seat != "white" || s.Options["size"] != 4 {
		t.Fatalf("new game: %+v", s)
	}
	if s := ts.state(t, g.id, ""); s.Next != next.ID || s.Offer != nil {
		t.Fatalf("old game does not point at the new one: %+v", s)
	}
}

func TestResign(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"dvonn","start":"me"}`)
	var e errorBody
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/resign", "", nil, &e); code != http.StatusForbidden {
		t.Fatalf("resign without a secret: %d", code)
	}
	var v struct{ Version int }
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/resign", g.black, `{}`, &v); code != http.StatusOK || v.Version != 1 {
		t.Fatalf("resign: %d %+v", code, v)
	}
	s := ts.state(t, g.id, "")
	if s.Status != "over" || *s.Result != (Result{Winner: "white", Reason: "resign"}) || len(s.Events) != 1 || len(s.Moves) != 0 {
		t.Fatalf("after resigning: %+v", s)
	}
}

// A request that takes no terms may send an empty body in chunks, as
// some clients do, rather than with a length of 0.
func TestEmptyBodyInChunks(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"dvonn","start":"me"}`)
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/games/%s/resign HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n",
		g.id, ts.Listener.Addr(), g.black)
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("resign with an empty body in chunks: %d %s", res.StatusCode, body)
	}
	if s := ts.state(t, g.id, ""); s.Status != "over" {
		t.Fatalf("after resigning: %s", s.Status)
	}
}

// Bad input gets a clear error and changes nothing.
func TestBadInput(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"start":"me"}`)
	ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, `{"ply":0,"move":"e5"}`, nil)
	moves := "/api/games/" + g.id + "/moves"
	tests := []struct {
		name, method, path, secret, body string
		status                           int
		code                             string
	}{
		{"unknown game", "GET", "/api/games/zzzzzzzzzz", "", "", 404, "not_found"},
		{"no such API path", "GET", "/api/nothing", "", "", 404, "not_found"},
		{"moves with PUT", "PUT", moves, g.black, `{"ply":1,"move":"a1"}`, 405, "method_not_allowed"},
		{"moves with GET", "GET", moves, g.black, "", 405, "method_not_allowed"},
		{"malformed id", "GET", "/api/games/../../etc", "", "", 404, ""},
		{"move in unknown game", "POST", "/api/games/zzzzzzzzzz/moves", g.black, `{"ply":1,"move":"a1"}`, 404, "not_found"},
		{"no secret", "POST", moves, "", `{"ply":1,"move":"a1"}`, 403, "forbidden"},
		{"wrong secret", "POST", moves, "nope", `{"ply":1,"move":"a1"}`, 403, "forbidden"},
		{"not your turn", "POST", moves, g.white, `{"ply":1,"move":"a1"}`, 403, "not_your_turn"},
		{"stale ply", "POST", moves, g.black, `{"ply":0,"move":"a1"}`, 409, "stale"},
		{"future ply", "POST", moves, g.black, `{"ply":2,"move":"a1"}`, 409, "stale"},
		{"occupied", "POST", moves, g.black, `{"ply":1,"move":"e5"}`, 422, "illegal"},
		{"off the board", "POST", moves, g.black, `{"ply":1,"move":"a9"}`, 422, "illegal"},
		{"gibberish move", "POST", moves, g.black, `{"ply":1,"move":"<script>"}`, 422, "illegal"},
		{"swap without the rule", "POST", moves, g.black, `{"ply":1,"move":"swap"}`, 422, "illegal"},
		{"missing ply", "POST", moves, g.black, `{"move":"a1"}`, 400, "bad_request"},
		{"missing move", "POST", moves, g.black, `{"ply":1}`, 400, "bad_request"},
		{"malformed JSON", "POST", moves, g.black, `{"ply":1,"move":`, 400, "bad_request"},
		{"unknown field", "POST", moves, g.black, `{"ply":1,"move":"a1","x":1}`, 400, "bad_request"},
		{"two values", "POST", moves, g.black, `{"ply":1,"move":"a1"}{}`, 400, "bad_request"},
		// encoding/json would take these as the move a1.
		{"a field in capitals", "POST", moves, g.black, `{"ply":1,"MOVE":"a1"}`, 400, "bad_request"},
		{"a field twice", "POST", moves, g.black, `{"ply":1,"move":"e5","move":"a1"}`, 400, "bad_request"},
		{"a clock's field in capitals", "POST", "/api/games", "", `{"game":"havannah","clock":{"Days":3}}`, 400, "bad_request"},
		{"ply as text", "POST", moves, g.black, `{"ply":"1","move":"a1"}`, 400, "bad_request"},
		{"initial time below", "POST", "/api/games", "", `{"game":"havannah","clock":{"initial_s":-1}}`, 400, "bad_request"},
		{"initial time too short", "POST", "/api/games", "", `{"game":"havannah","clock":{"initial_s":5}}`, 400, "bad_request"},
		{"initial time too long", "POST", "/api/games", "", `{"game":"havannah","clock":{"initial_s":20000}}`, 400, "bad_request"},
		{"initial time far too long", "POST", "/api/games", "", `{"game":"havannah","clock":{"initial_s":9223372036854775807}}`, 400, "bad_request"},
		{"no initial time", "POST", "/api/games", "", `{"game":"havannah","clock":{"initial_s":0}}`, 400, "bad_request"},
		{"increment below", "POST", "/api/games", "", `{"game":"havannah","clock":{"initial_s":60,"increment_s":-1}}`, 400, "bad_request"},
		{"increment too long", "POST", "/api/games", "", `{"game":"havannah","clock":{"initial_s":60,"increment_s":200}}`, 400, "bad_request"},
		{"days not offered", "POST", "/api/games", "", `{"game":"havannah","clock":{"days":4}}`, 400, "bad_request"},
		{"days below", "POST", "/api/games", "", `{"game":"havannah","clock":{"days":-1}}`, 400, "bad_request"},
		{"level too high", "POST", "/api/games", "", `{"game":"havannah","opponent":"computer","level":9}`, 400, "bad_request"},
		{"oversized", "POST", moves, g.black, `{"ply":1,"move":"` + strings.Repeat("a", maxBody) + `"}`, 413, "too_large"},
		{"size 3", "POST", "/api/games", "", `{"game":"havannah","options":{"size":3}}`, 400, "bad_request"},
		{"size 11", "POST", "/api/games", "", `{"game":"havannah","options":{"size":11}}`, 400, "bad_request"},
		{"size x", "POST", "/api/games", "", `{"game":"havannah","options":{"size":"x"}}`, 400, "bad_request"},
		{"swap as number", "POST", "/api/games", "", `{"game":"havannah","options":{"swap":2}}`, 400, "bad_request"},
		{"unknown option", "POST", "/api/games", "", `{"game":"havannah","options":{"colour":1}}`, 400, "bad_request"},
		{"an option twice", "POST", "/api/games", "", `{"game":"havannah","options":{"size":5,"size":8}}`, 400, "bad_request"},
		{"options as a list", "POST", "/api/games", "", `{"game":"havannah","options":[5]}`, 400, "bad_request"},
		{"options for a game without", "POST", "/api/games", "", `{"game":"dvonn","options":{"size":8}}`, 400, "bad_request"},
		{"unknown game to create", "POST", "/api/games", "", `{"game":"chess"}`, 400, "bad_request"},
		{"no game to create", "POST", "/api/games", "", `{}`, 400, "bad_request"},
		{"bad start", "POST", "/api/games", "", `{"game":"havannah","start":"you"}`, 400, "bad_request"},
		{"wrong invitation", "POST", "/api/games/" + g.id + "/join", "", `{"invite":"x"}`, 403, "forbidden"},
		{"rematch while playing", "POST", "/api/games/" + g.id + "/rematch", g.white, ``, 409, "not_over"},
		{"resign with a wrong secret", "POST", "/api/games/" + g.id + "/resign", "nope", ``, 403, "forbidden"},
		{"malformed authorization", "POST", moves, "", `{"ply":1,"move":"a1"}`, 403, "forbidden"},
		{"a list for an object", "POST", moves, g.black, `[1,2]`, 400, "bad_request"},
		{"ply out of range", "POST", moves, g.black, `{"ply":99999999999999999999,"move":"a1"}`, 400, "bad_request"},
		{"move too long", "POST", moves, g.black, `{"ply":1,"move":"` + strings.Repeat("z", 300) + `"}`, 400, "bad_request"},
		{"a form for JSON", "POST", moves, g.black, `ply=1&move=a1`, 415, "unsupported_media_type"},
		{"resigning with terms", "POST", "/api/games/" + g.id + "/resign", g.black, `{"now":true}`, 400, "bad_request"},
		{"resigning with a page", "POST", "/api/games/" + g.id + "/resign", g.black, `x`, 415, "unsupported_media_type"},
		{"withdrawing with a word", "DELETE", "/api/games/" + g.id + "/rematch", g.black, `x`, 400, "bad_request"},
		{"JSON said to be text", "POST", "/api/games", "", `{"game":"havannah"}`, 415, "unsupported_media_type"},
		{"a type without a name", "POST", moves, g.black, `{"ply":1,"move":"a1"}`, 415, "unsupported_media_type"},
		// Read as JSON, and refused by the rules.
		{"JSON with its charset", "POST", moves, g.black, `{"ply":1,"move":"e5"}`, 422, "illegal"},
		{"a type written in JSON", "POST", moves, g.black, `{"ply":1,"move":"e5"}`, 422, "illegal"},
	}
	// The Content-Type some requests name; the others name none.
	sentAs := map[string]string{
		"a form for JSON":        "application/x-www-form-urlencoded",
		"resigning with a page":  "text/html",
		"JSON said to be text":   "text/plain;charset=UTF-8",
		"a type without a name":  "; charset=utf-8",
		"JSON with its charset":  "application/json; charset=utf-8",
		"a type written in JSON": "application/merge-patch+json",
	}
	because := map[string]string{
		"occupied":               "why.illegal_move why.havannah.taken",
		"JSON with its charset":  "why.illegal_move why.havannah.taken",
		"a type written in JSON": "why.illegal_move why.havannah.taken",
		"off the board":          "why.malformed_move why.havannah.not_on_board",
		"gibberish move":         "why.malformed_move why.havannah.not_a_cell",
		"swap without the rule":  "why.illegal_move why.havannah.no_swap_rule",
	}
	// What some refusals say: in the terms of the request, never the
	// server's own types, and without echoing a long move back.
	says := map[string]string{
		"malformed JSON":              "it ends too soon",
		"unknown field":               `unknown field "x"`,
		"an option twice":             "option size is given twice",
		"options as a list":           "options must be an object",
		"a field in capitals":         `malformed JSON: unknown field "MOVE" (it is written "move")`,
		"a field twice":               `malformed JSON: "move" is given twice`,
		"a clock's field in capitals": `malformed JSON: in "clock": unknown field "Days"`,
		"ply as text":                 `"ply" must be a whole number in range`,
		"initial time below":          "initial_s must be between 15 seconds and 3 hours (15 to 10800), not -1",
		"initial time too short":      "the initial time must be between 15 seconds and 3 hours, not 5 seconds",
		"initial time too long":       "initial_s must be between 15 seconds and 3 hours (15 to 10800), not 20000",
		"initial time far too long":   "initial_s must be between 15 seconds and 3 hours (15 to 10800), not 9223372036854775807",
		"no initial time":             "a clock needs a time: at least 15 seconds each, or days per move",
		"increment below":             "increment_s must be between 0 and 3 minutes (0 to 180), not -1",
		"increment too long":          "increment_s must be between 0 and 3 minutes (0 to 180), not 200",
		"days not offered":            "days per move must be 1, 2, 3, 5, 7 or 14, not 4",
		"days below":                  "days per move must be 1, 2, 3, 5, 7 or 14, not -1",
		"level too high":              "level must be between 1 and 8, not 9",
		"unknown game to create":      `unknown game "chess": the site has havannah, dvonn or fanorona`,
		"no game to create":           `a new game needs "game": havannah, dvonn or fanorona`,
		"a list for an object":        "it must be an object",
		"ply out of range":            `"ply" must be a whole number in range`,
		"move too long":               "a move is written in at most 256 characters, not 300",
		"stale ply":                   "ply 0 is not the next one: 1 move has been played",
		"a form for JSON":             `the body must be JSON (Content-Type: application/json), not "application/x-www-form-urlencoded"`,
		"moves with PUT":              `takes POST, not "PUT"`,
		"no such API path":            `the API has no "/api/nothing"`,
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e errorBody
			req, _ := http.NewRequest(tt.method, ts.URL+tt.path, strings.NewReader(tt.body))
			if tt.secret != "" {
				req.Header.Set("Authorization", "Bearer "+tt.secret)
			}
			if ct := sentAs[tt.name]; ct != "" {
				req.Header.Set("Content-Type", ct)
			}
			if tt.name == "malformed authorization" {
				req.Header.Set("Authorization", "Basic "+g.black)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			data, _ := io.ReadAll(res.Body)
			json.Unmarshal(data, &e)
			if res.StatusCode != tt.status || e.Code != tt.code {
				t.Fatalf("got %d %s, want %d %s", res.StatusCode, data, tt.status, tt.code)
			}
			if e.Code != "" && e.Error == "" {
				t.Fatal("an error without a message")
			}
			if allow := res.Header.Get("Allow"); (tt.status == http.StatusMethodNotAllowed) != (allow == "POST") {
				t.Fatalf("Allow: %q", allow)
			}
			if !strings.Contains(e.Error, says[tt.name]) || strings.Contains(e.Error, "Go ") || strings.Contains(e.Error, "zzzz") {
				t.Fatalf("the refusal says %q, want %q", e.Error, says[tt.name])
			}
			// A move the rules refuse says why in a form to translate too;
			// nothing else does.
			if got := e.keys(); got != because[tt.name] {
				t.Fatalf("the refusal's reasons are %q, want %q", got, because[tt.name])
			}
		})
	}
	s := ts.state(t, g.id, "")
	if s.Version != 1 || strings.Join(s.Moves, " ") != "e5" || s.Status != "playing" {
		t.Fatalf("bad input changed the game: %+v", s)
	}
}

// Secrets reach only their owner: not watchers, not the other player, not
// the log.
func TestSecretsStayPrivate(t *testing.T) {
	var logged bytes.Buffer
	st, _ := store.OpenSQLite(filepath.Join(t.TempDir(), "s.db"))
	defer st.Close()
	site, _ := web.New(testGames)
	srv := New(Config{Store: st, Games: testGames, Site: site, Log: slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	ts := &testServer{Server: hs, srv: srv, store: st}
	g := ts.newGame(t, `{"game":"havannah","start":"me"}`)
	ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, `{"ply":0,"move":"e5"}`, nil)
	for _, who := range []string{"", g.white, g.black} {
		res, _ := http.Get(hs.URL + "/api/games/" + g.id)
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if who != "" {
			body = []byte(fmtState(ts, t, g.id, who))
		}
		for _, secret := range []string{g.white, g.black} {
			if secret != who && bytes.Contains(body, []byte(secret)) {
				t.Fatalf("a game state shows another seat's secret")
			}
		}
	}
	res, _ := http.Get(hs.URL + "/g/" + g.id + "/seat/" + g.white)
	res.Body.Close()
	hs.Close() // every request has finished writing to the log
	for _, secret := range []string{g.white, g.black, inviteToken(g.white), inviteToken(g.black)} {
		if strings.Contains(logged.String(), secret) {
			t.Fatal("a secret reached the log")
		}
	}
	rec, _, _ := st.Load(t.Context(), g.id)
	if bytes.Contains(rec.WhiteHash, []byte(g.white)) || len(rec.WhiteHash) != 32 {
		t.Fatal("the store keeps a secret rather than its hash")
	}
}

func fmtState(ts *testServer, t *testing.T, id, secret string) string {
	s := ts.state(t, id, secret)
	b, _ := json.Marshal(s)
	return string(b)
}

// HTTP takes an authorization's scheme in any case: "bearer" is
// "Bearer". Another scheme, or none, is still refused.
func TestBearerInAnyCase(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"start":"me"}`)
	for i, tt := range []struct {
		auth string
		code int
	}{
		{"bearer " + g.white, http.StatusOK},
		{"Basic " + g.black, http.StatusForbidden},
		{g.black, http.StatusForbidden},
		{"BEARER  " + g.black, http.StatusOK},
	} {
		req, _ := http.NewRequest("POST", ts.URL+"/api/games/"+g.id+"/moves", strings.NewReader(fmt.Sprintf(`{"ply":%d,"move":"%s"}`, min(i, 1), []string{"a1", "b1", "b1", "b1"}[i])))
		req.Header.Set("Authorization", tt.auth)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tt.code {
			t.Errorf("%q: %d, want %d", strings.Fields(tt.auth)[0], res.StatusCode, tt.code)
		}
	}
}
