package server

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"bretter/internal/store"
)

// failingStore is a store whose writes fail, as on a full disk, while
// fail is set; loading fails while failLoad is set.
type failingStore struct {
	*store.SQLite
	fail, failLoad atomic.Bool
}

var errDiskFull = errors.New("database or disk is full (test)")

func (f *failingStore) Append(ctx context.Context, id string, events []store.Event, end *store.Ending) error {
	if f.fail.Load() {
		return errDiskFull
	}
	return f.SQLite.Append(ctx, id, events, end)
}

func (f *failingStore) Join(ctx context.Context, id, seat string, hash []byte, key store.JoinKey, at time.Time) error {
	if f.fail.Load() {
		return errDiskFull
	}
	return f.SQLite.Join(ctx, id, seat, hash, key, at)
}

func (f *failingStore) Load(ctx context.Context, id string) (store.Game, []store.Event, error) {
	if f.failLoad.Load() {
		return store.Game{}, nil, errors.New("database disk image is malformed (test)")
	}
	return f.SQLite.Load(ctx, id)
}

func TestServerErrorsAreLogged(t *testing.T) {
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "failing.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	fs := &failingStore{SQLite: st}
	var log logBuffer
	ts := limitedServer(t, lenient(Config{Store: fs, Log: log.logger()}))
	g := ts.newGame(t, `{"game":"havannah","start":"me"}`)
	live := ts.dial(t, g.id, g.white, "")
	live.next("state")
	fs.fail.Store(true)

	var e errorBody
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, map[string]any{"ply": 0, "move": "e5"}, &e); code != http.StatusInternalServerError || e.Code != "internal" {
		t.Fatalf("a move on a full disk: %d %+v", code, e)
	}
	log.wait(t, `route="POST /api/games/{id}/moves" status=500 err="database or disk is full (test)"`)
	live.send(map[string]any{"type": "move", "id": 7, "ply": 0, "move": "e5"})
	if m := live.next("error"); m.ID != 7 || m.Code != "internal" {
		t.Fatalf("a live move on a full disk: %+v", m)
	}
	log.wait(t, `msg="live command failed" game=`+g.id+` type=move err="database or disk is full (test)"`)
	// A page that cannot be loaded: the player sees an error page, the
	// log says why.
	fresh := ts.newGameWith(t, `{"game":"dvonn"}`)
	fs.failLoad.Store(true)
	ts.srv.hub.evictIdle(-time.Hour)
	res, err := http.Get(ts.URL + "/g/" + fresh)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusInternalServerError {
		t.Fatalf("a page that cannot be loaded: %d", res.StatusCode)
	}
	log.wait(t, `route="GET /g/{id}" status=500 err="database disk image is malformed (test)"`)
	for _, s := range []string{g.white, g.black, g.invite} {
		if strings.Contains(log.String(), s) {
			t.Fatalf("the log holds a secret:\n%s", log.String())
		}
	}
}

// wait waits until the log holds want: a request is logged after its
// answer has gone.
func (b *logBuffer) wait(t testing.TB, want string) {
	t.Helper()
	for i := 0; !strings.Contains(b.String(), want); i++ {
		if i == 500 {
			t.Fatalf("the log does not hold %s:\n%s", want, b.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// newGameWith creates a game (no one joins) and returns its id.
func (ts *testServer) newGameWith(t testing.TB, body string) string {
	t.Helper()
	var c createResponse
	if code := ts.call(t, "POST", "/api/games", "", body, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	return c.ID
}

func TestLiveRefusesBinaryAndInvalidText(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","start":"me"}`)
	c := ts.dial(t, g.id, g.white, "")
	c.next("state")
	move := []byte(`{"type":"move","id":1,"ply":0,"move":"e5"}`)
	for _, tt := range []struct {
		typ  websocket.MessageType
		data []byte
	}{
		{websocket.MessageBinary, move},
		{websocket.MessageText, []byte(`{"type":"name","id":2,"name":"Ada` + "\xff\xfe" + `"}`)},
		{websocket.MessageText, append([]byte(`{"type":"move","id":3,"ply":0,"move":"e5"}`), 0xc3)},
	} {
		if err := c.conn.Write(t.Context(), tt.typ, tt.data); err != nil {
			t.Fatal(err)
		}
		if m := c.next("error"); m.Code != "bad_request" {
			t.Fatalf("%q: %+v", tt.data, m)
		}
	}
	if s := ts.state(t, g.id, g.white); s.Version != 0 || s.Players.White.Name != "" {
		t.Fatalf("a refused message changed the game: %+v", s)
	}
	// The connection still works.
	c.send(map[string]any{"type": "move", "id": 4, "ply": 0, "move": "e5"})
	if ack := c.next("ack"); ack.ID != 4 || ack.Version != 1 {
		t.Fatalf("after the refusals: %+v", ack)
	}
}

// A page the server fails to make says so in the visitor's language: the
// log has the cause, the visitor only that it failed.
func TestServerErrorPageInTheVisitorsLanguage(t *testing.T) {
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "failing.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	fs := &failingStore{SQLite: st}
	ts := limitedServer(t, lenient(Config{Store: fs}))
	id := ts.newGameWith(t, `{"game":"dvonn"}`)
	fs.failLoad.Store(true)
	ts.srv.hub.evictIdle(-time.Hour)
	res, body := get(t, http.DefaultClient, ts.URL+"/g/"+id, "Accept-Language", "pl")
	want := ts.srv.site.T("pl", "error.internal")
	if res.StatusCode != http.StatusInternalServerError || want == "error.internal" || !strings.Contains(errorSection(body), want) || strings.Contains(body, "went wrong") {
		t.Fatalf("%d, the page does not say %q:\n%s", res.StatusCode, want, regexp.MustCompile(`(?s)<section class="error-page">.*?</section>`).FindString(body))
	}
}
