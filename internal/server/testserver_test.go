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
	"testing"

	"bretter/game"
	"bretter/games/dvonn"
	"bretter/games/fanorona"
	"bretter/games/havannah"
	"bretter/internal/store"
	"bretter/internal/store/pgtest"
	"bretter/internal/web"
)

var testGames = []game.Game{havannah.Game(), dvonn.Game(), fanorona.Game()}

type testServer struct {
	*httptest.Server
	srv   *Server
	store testStore
}

// testStore is a store that tests can close.
type testStore interface {
	Store
	Close() error
}

func newTestServer(t testing.TB) *testServer {
	t.Helper()
	return serverOn(t, openTestStore(t))
}

// openTestStore opens an empty store, closed when t ends: SQLite, or
// PostgreSQL for the tests that TestOnPostgres runs.
func openTestStore(t testing.TB) testStore {
	t.Helper()
	var st testStore
	var err error
	if strings.HasPrefix(t.Name(), "TestOnPostgres/") {
		st, err = store.OpenPostgres(t.Context(), pgtest.URL(t))
	} else {
		st, err = store.OpenSQLite(filepath.Join(t.TempDir(), "test.db"))
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// serverOn starts a server on st.
func serverOn(t testing.TB, st testStore) *testServer {
	t.Helper()
	site, err := web.New(testGames)
	if err != nil {
		t.Fatal(err)
	}
	srv := New(Config{Store: st, Games: testGames, Site: site, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		CreatesPerMinute: 60000, MovesPerSecond: 100000, ConnsPerClient: 1000, ChatsPerMinute: 60000,
		LivesPerMinute: 600000, ReadsPerSecond: 100000, ImportsPerMinute: 60000})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &testServer{Server: ts, srv: srv, store: st}
}

// restartOn starts a second server on ts's store, as after a restart.
func restartOn(t testing.TB, ts *testServer) *testServer { return serverOn(t, ts.store) }

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
	Error   string   `json:"error"`
	Code    string   `json:"code"`
	Reasons []reason `json:"reasons"`
}

// keys lists the message keys of an error's reasons.
func (e errorBody) keys() string {
	var out []string
	for _, r := range e.Reasons {
		out = append(out, r.Key)
	}
	return strings.Join(out, " ")
}
