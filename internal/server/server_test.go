package server

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"bretter/game"
	"bretter/games/dvonn"
	"bretter/games/fanorona"
	"bretter/games/havannah"
	"bretter/internal/store"
	"bretter/internal/web"
)

var testGames = []game.Game{havannah.Game(), dvonn.Game(), fanorona.Game()}

type testServer struct {
	*httptest.Server
	srv   *Server
	store *store.SQLite
}

func newTestServer(t testing.TB) *testServer {
	t.Helper()
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	site, err := web.New(testGames)
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Config{Store: st, Games: testGames, Site: site, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		CreatesPerMinute: 60000, MovesPerSecond: 100000})
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		st.Close()
	})
	return &testServer{Server: ts, srv: srv, store: st}
}

// call sends a JSON request and decodes the JSON answer into out (if not
// nil), returning the status.
func (ts *testServer) call(t testing.TB, method, path, secret string, body any, out any) int {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		data, _ := json.Marshal(b)
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, ts.URL+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: %d %s: %v", method, path, res.StatusCode, data, err)
		}
	}
	return res.StatusCode
}

// game is a game with both seats taken, through the API.
type testGame struct {
	id, white, black, invite string
}

func (ts *testServer) newGame(t testing.TB, body string) testGame {
	t.Helper()
	var c createResponse
	if code := ts.call(t, "POST", "/api/games", "", body, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	g := testGame{id: c.ID, invite: c.InviteURL[strings.LastIndex(c.InviteURL, "/")+1:]}
	var j struct{ Seat, Secret string }
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": g.invite}, &j); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	if c.Seat == "white" {
		g.white, g.black = c.Secret, j.Secret
	} else {
		g.white, g.black = j.Secret, c.Secret
	}
	return g
}

// play plays moves in turn, White first, through the API.
func (ts *testServer) play(t testing.TB, g testGame, moves string) {
	t.Helper()
	for i, m := range strings.Fields(moves) {
		secret := g.white
		if i%2 == 1 {
			secret = g.black
		}
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", secret, map[string]any{"ply": i, "move": m}, nil); code != http.StatusOK {
			t.Fatalf("move %d %s: %d", i+1, m, code)
		}
	}
}

func (ts *testServer) state(t testing.TB, id, secret string) Snapshot {
	t.Helper()
	var s Snapshot
	if code := ts.call(t, "GET", "/api/games/"+id, secret, nil, &s); code != http.StatusOK {
		t.Fatalf("get %s: %d", id, code)
	}
	return s
}

type errorBody struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

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
	// New game, same friend: colours swapped, both seated at once.
	var next struct{ ID, Seat string }
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.black, nil, &next); code != http.StatusCreated || next.Seat != "white" {
		t.Fatalf("rematch: %d %+v", code, next)
	}
	var again struct{ ID, Seat string }
	ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, nil, &again)
	if again.ID != next.ID || again.Seat != "black" {
		t.Fatalf("the second player's rematch %+v, want the same game %s as black", again, next.ID)
	}
	if s := ts.state(t, next.ID, g.black); s.Status != "playing" || s.Seat != "white" || s.Options["size"] != 4 {
		t.Fatalf("new game: %+v", s)
	}
	if s := ts.state(t, g.id, ""); s.Next != next.ID {
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
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/resign", g.black, nil, &v); code != http.StatusOK || v.Version != 1 {
		t.Fatalf("resign: %d %+v", code, v)
	}
	s := ts.state(t, g.id, "")
	if s.Status != "over" || *s.Result != (Result{Winner: "white", Reason: "resign"}) || len(s.Events) != 1 || len(s.Moves) != 0 {
		t.Fatalf("after resigning: %+v", s)
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
		{"ply as text", "POST", moves, g.black, `{"ply":"1","move":"a1"}`, 400, "bad_request"},
		{"oversized", "POST", moves, g.black, `{"ply":1,"move":"` + strings.Repeat("a", maxBody) + `"}`, 413, "too_large"},
		{"size 3", "POST", "/api/games", "", `{"game":"havannah","options":{"size":3}}`, 400, "bad_request"},
		{"size 11", "POST", "/api/games", "", `{"game":"havannah","options":{"size":11}}`, 400, "bad_request"},
		{"size x", "POST", "/api/games", "", `{"game":"havannah","options":{"size":"x"}}`, 400, "bad_request"},
		{"swap as number", "POST", "/api/games", "", `{"game":"havannah","options":{"swap":2}}`, 400, "bad_request"},
		{"unknown option", "POST", "/api/games", "", `{"game":"havannah","options":{"colour":1}}`, 400, "bad_request"},
		{"options for a game without", "POST", "/api/games", "", `{"game":"dvonn","options":{"size":8}}`, 400, "bad_request"},
		{"unknown game to create", "POST", "/api/games", "", `{"game":"chess"}`, 400, "bad_request"},
		{"bad start", "POST", "/api/games", "", `{"game":"havannah","start":"you"}`, 400, "bad_request"},
		{"wrong invitation", "POST", "/api/games/" + g.id + "/join", "", `{"invite":"x"}`, 403, "forbidden"},
		{"rematch while playing", "POST", "/api/games/" + g.id + "/rematch", g.white, ``, 409, "not_over"},
		{"resign with a wrong secret", "POST", "/api/games/" + g.id + "/resign", "nope", ``, 403, "forbidden"},
		{"malformed authorization", "POST", moves, "", `{"ply":1,"move":"a1"}`, 403, "forbidden"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e errorBody
			req, _ := http.NewRequest(tt.method, ts.URL+tt.path, strings.NewReader(tt.body))
			if tt.secret != "" {
				req.Header.Set("Authorization", "Bearer "+tt.secret)
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
		})
	}
	s := ts.state(t, g.id, "")
	if s.Version != 1 || strings.Join(s.Moves, " ") != "e5" || s.Status != "playing" {
		t.Fatalf("bad input changed the game: %+v", s)
	}
}

// Many goroutines post the same ply at once: exactly one move lands.
func TestRacingMoves(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":10},"start":"me"}`)
	cells := havannahCells(t, 10)
	const racers = 32
	var wg sync.WaitGroup
	codes := make([]int, racers)
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, map[string]any{"ply": 0, "move": cells[i]}, nil)
		}()
	}
	wg.Wait()
	won := 0
	for _, c := range codes {
		switch c {
		case http.StatusOK:
			won++
		case http.StatusConflict:
		default:
			t.Fatalf("a racing move got %d", c)
		}
	}
	s := ts.state(t, g.id, "")
	if won != 1 || s.Version != 1 || len(s.Moves) != 1 {
		t.Fatalf("%d racing moves landed, game at version %d with moves %v", won, s.Version, s.Moves)
	}
	_, events, err := ts.store.Load(t.Context(), g.id)
	if err != nil || len(events) != 1 {
		t.Fatalf("the store holds %d events: %v", len(events), err)
	}
}

// A second server process on the same database is another writer: the
// store alone must make sure only one of two moves for a ply lands.
func TestRacingServers(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":8},"start":"me"}`)
	site, _ := web.New(testGames)
	other := httptest.NewServer(New(Config{Store: ts.store, Games: testGames, Site: site, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	defer other.Close()
	// Both servers know the game before either move.
	ts.state(t, g.id, "")
	second := &testServer{Server: other, store: ts.store}
	second.state(t, g.id, "")
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, `{"ply":0,"move":"a1"}`, nil); code != 200 {
		t.Fatalf("first server: %d", code)
	}
	var e errorBody
	if code := second.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, `{"ply":0,"move":"a2"}`, &e); code != http.StatusConflict {
		t.Fatalf("second server, same ply: %d %+v", code, e)
	}
	if s := second.state(t, g.id, ""); strings.Join(s.Moves, " ") != "a1" {
		t.Fatalf("second server now says %v", s.Moves)
	}
}

func havannahCells(t testing.TB, size int) []string {
	s, err := havannah.New(size, false)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range s.Legal(nil) {
		out = append(out, s.FormatMove(m))
	}
	return out
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
