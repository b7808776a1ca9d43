package server

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// FuzzRequestBodies sends arbitrary bodies to every endpoint that reads
// one. Whatever arrives, the answer is a clear JSON error or a success,
// never a server failure, and a refused move changes nothing.
func FuzzRequestBodies(f *testing.F) {
	for _, seed := range []string{
		`{"game":"havannah","options":{"size":8,"swap":false},"start":"random"}`,
		`{"game":"dvonn"}`, `{"game":"fanorona","options":null,"start":"friend"}`,
		`{"ply":0,"move":"e5"}`, `{"ply":-1,"move":"e5"}`, `{"ply":1e9,"move":"swap"}`,
		`{"invite":""}`, `null`, `[]`, `{"ply":0,"move":"\u0000"}`, "\xff\xfe", `{"options":{"size":1e400}}`,
	} {
		f.Add(seed)
	}
	ts := newTestServer(f)
	g := ts.newGame(f, `{"game":"havannah","options":{"size":5},"start":"me"}`)
	f.Fuzz(func(t *testing.T, body string) {
		for _, path := range []string{"/api/games", "/api/games/" + g.id + "/moves", "/api/games/" + g.id + "/join"} {
			before := ts.srv.versionOf(t, g.id)
			req := httptest.NewRequest("POST", path, strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+g.white)
			rec := httptest.NewRecorder()
			ts.srv.ServeHTTP(rec, req)
			res := rec.Result()
			data, _ := io.ReadAll(res.Body)
			if res.StatusCode >= 500 {
				t.Fatalf("POST %s %q: %d %s", path, body, res.StatusCode, data)
			}
			if res.StatusCode >= 400 {
				var e errorBody
				if err := json.Unmarshal(data, &e); err != nil || e.Error == "" || e.Code == "" {
					t.Fatalf("POST %s %q: %d with an unclear error %s", path, body, res.StatusCode, data)
				}
				if after := ts.srv.versionOf(t, g.id); after != before {
					t.Fatalf("a refused request moved the game from version %d to %d", before, after)
				}
			}
		}
	})
}

// FuzzLiveMessages feeds arbitrary WebSocket messages to the handler:
// each gets an ack or a clear error, and only an ack changes the game.
func FuzzLiveMessages(f *testing.F) {
	for _, seed := range []string{
		`{"type":"move","id":1,"ply":0,"move":"e5"}`, `{"type":"resync","after":0}`, `{"type":"resign"}`,
		`{"type":"rematch","id":3}`, `{"type":"move","ply":0}`, `{}`, `"x"`, `{"type":"move","ply":0,"move":"e5","id":1e30}`,
	} {
		f.Add(seed)
	}
	ts := newTestServer(f)
	g := ts.newGame(f, `{"game":"havannah","options":{"size":5},"start":"me"}`)
	req := httptest.NewRequest("GET", "/", nil)
	sub, err := ts.srv.hub.subscribe(f.Context(), g.id, g.white, -1)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		// Resigning would end the fuzzing game at once; leave that to
		// the tests.
		if strings.Contains(msg, "resign") {
			return
		}
		before := ts.srv.versionOf(t, g.id)
		rep, ok := ts.srv.handleMessage(t.Context(), clientKey(req), g.id, g.white, sub, []byte(msg), time.Now())
		sub.take()
		after := ts.srv.versionOf(t, g.id)
		if !ok {
			return
		}
		switch rep.Type {
		case "ack":
		case "error":
			if rep.Code == "" || rep.Error == "" || rep.Code == "internal" {
				t.Fatalf("%q: unclear error %+v", msg, rep)
			}
			if after != before {
				t.Fatalf("%q was refused but moved the game", msg)
			}
		default:
			t.Fatalf("%q: reply %+v", msg, rep)
		}
	})
}

// versionOf reads a game's version straight from the hub.
func (s *Server) versionOf(t testing.TB, id string) int {
	v, err := within(t.Context(), s.hub, id, func(g *liveGame) (int, error) { return len(g.events), nil })
	if err != nil {
		t.Fatal(err)
	}
	return v
}
