package server

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"bretter/internal/web"
)

// metric returns the value of a metric without labels from /metrics.
func (ts *testServer) metric(t testing.TB, name string) float64 {
	t.Helper()
	res, err := http.Get(ts.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %d %s", res.StatusCode, body)
	}
	for line := range strings.Lines(string(body)) {
		if value, ok := strings.CutPrefix(strings.TrimSpace(line), name+" "); ok {
			v, err := strconv.ParseFloat(value, 64)
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			return v
		}
	}
	t.Fatalf("/metrics has no %s:\n%s", name, body)
	return 0
}

func TestMetrics(t *testing.T) {
	ts := newTestServer(t)
	for _, name := range []string{"bretter_moves_total", "bretter_live_sockets", "bretter_games_in_memory",
		"bretter_store_append_seconds_count", "bretter_move_seconds_count", "bretter_searches_queued", "bretter_bus_lag_seconds_count"} {
		if v := ts.metric(t, name); v != 0 {
			t.Errorf("%s is %v on a new server", name, v)
		}
	}
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"start":"me"}`)
	ts.play(t, g, "e5 d4")
	if v := ts.metric(t, "bretter_moves_total"); v != 2 {
		t.Errorf("after two moves, %v moves counted", v)
	}
	if v := ts.metric(t, "bretter_store_append_seconds_count"); v != 2 {
		t.Errorf("after two moves, %v appends timed", v)
	}
	if v := ts.metric(t, "bretter_move_seconds_count"); v != 2 {
		t.Errorf("after two moves, %v moves timed", v)
	}
	// On SQLite each move was stored alone: a transaction of one append
	// each.
	if _, batched := ts.store.(commitObserver); batched {
		if n, sum := ts.metric(t, "bretter_store_commit_seconds_count"), ts.metric(t, "bretter_store_commit_appends_sum"); n != 2 || sum != 2 {
			t.Errorf("after two moves, %v transactions timed, of %v appends", n, sum)
		}
	}
	if v := ts.metric(t, "bretter_games_in_memory"); v != 1 {
		t.Errorf("%v games in memory", v)
	}
	// A refused move is not counted.
	ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, `{"ply":0,"move":"c3"}`, nil)
	c := ts.dial(t, g.id, g.white, "")
	c.next("state")
	if v := ts.metric(t, "bretter_live_sockets"); v != 1 {
		t.Errorf("%v live sockets with one page open", v)
	}
	if v := ts.metric(t, "bretter_moves_total"); v != 2 {
		t.Errorf("after a refused move, %v moves counted", v)
	}
	if v := ts.metric(t, "bretter_move_seconds_count"); v != 2 {
		t.Errorf("after a refused move, %v moves timed", v)
	}
	// A move sent over the live page is timed from its message's arrival.
	c.send(map[string]any{"type": "move", "id": 1, "ply": 2, "move": "c3"})
	c.next("ack")
	if n, sum := ts.metric(t, "bretter_move_seconds_count"), ts.metric(t, "bretter_move_seconds_sum"); n != 3 || sum <= 0 {
		t.Errorf("after a move on the live page, %v moves timed, %vs in all", n, sum)
	}
	ts.srv.ObserveBusLag(3e6)
	if v := ts.metric(t, "bretter_bus_lag_seconds_sum"); v != 0.003 {
		t.Errorf("bus lag sum %v after one lag of 3ms", v)
	}
}

// /healthz answers while the process runs; /readyz only while the store
// answers too, and every other check given.
func TestHealthAndReadiness(t *testing.T) {
	ts := newTestServer(t)
	get := func(path string) int {
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := get("/readyz"); code != http.StatusOK {
		t.Fatalf("/readyz: %d", code)
	}
	ts.store.Close()
	if code := get("/readyz"); code != http.StatusServiceUnavailable {
		t.Fatalf("/readyz with the store closed: %d", code)
	}
	if code := get("/healthz"); code != http.StatusOK {
		t.Fatalf("/healthz with the store closed: %d", code)
	}

	site, _ := web.New(testGames)
	busDown := httptest.NewServer(New(Config{Store: openTestStore(t), Games: testGames, Site: site, Log: slog.New(slog.DiscardHandler),
		Ready: map[string]func(context.Context) error{"bus": func(context.Context) error { return errors.New("no bus") }}}))
	defer busDown.Close()
	res, err := http.Get(busDown.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "bus") {
		t.Fatalf("/readyz with a failing check: %d %s", res.StatusCode, body)
	}
}

// Games waiting for the computer are counted until a search takes them.
func TestSearchesQueuedMetric(t *testing.T) {
	h := newHub(nil, nil, slog.New(slog.DiscardHandler))
	// Thinkers with nobody to search: the queue stays as it is.
	h.thinkers = newThinkers(0, nil, h.log)
	m := newMetrics(h, nil)
	queued := func() float64 {
		families, err := m.registry.Gather()
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range families {
			if f.GetName() == "bretter_searches_queued" {
				return f.GetMetric()[0].GetGauge().GetValue()
			}
		}
		t.Fatal("no bretter_searches_queued")
		return 0
	}
	h.thinkers.add("aaaaaaaaaa", "198.51.100.1")
	h.thinkers.add("bbbbbbbbbb", "198.51.100.2")
	h.thinkers.add("aaaaaaaaaa", "198.51.100.2")
	if v := queued(); v != 2 {
		t.Fatalf("%v searches queued, want 2", v)
	}
}
