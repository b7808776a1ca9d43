package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"dvonn"}`)
	for _, tt := range []struct {
		secret, name string
		code         int
	}{
		{g.white, "  Zoë <b>&amp;</b>  ", http.StatusOK},
		{g.black, "Łukasz 王 😀", http.StatusOK},
		{g.black, strings.Repeat("ą", 20), http.StatusOK},
		{g.black, strings.Repeat("ą", 21), http.StatusBadRequest},
		{g.black, "two\nlines", http.StatusBadRequest},
		{g.black, "bell\a", http.StatusBadRequest},
		{"", "nobody", http.StatusForbidden},
		{"wrong", "nobody", http.StatusForbidden},
	} {
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/name", tt.secret, map[string]string{"name": tt.name}, nil); code != tt.code {
			t.Errorf("name %q: %d, want %d", tt.name, code, tt.code)
		}
	}
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/name", g.black, `{"name":42}`, nil); code != http.StatusBadRequest {
		t.Errorf("a number as a name: %d", code)
	}
	ts.call(t, "POST", "/api/games/"+g.id+"/name", g.black, map[string]string{"name": "Łukasz"}, nil)
	s := ts.state(t, g.id, "")
	if w, b := s.Players.White.Name, s.Players.Black.Name; w != "Zoë <b>&amp;</b>" || b != "Łukasz" {
		t.Fatalf("names as watchers see them: %q, %q", w, b)
	}
	before := s.Version
	ts.call(t, "POST", "/api/games/"+g.id+"/name", g.black, map[string]string{"name": "Łukasz"}, nil)
	if s := ts.state(t, g.id, ""); s.Version != before {
		t.Errorf("the same name again made an event")
	}
	res, err := http.Get(ts.URL + "/api/games/" + g.id + "/record")
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(rec), `[White "Zoë <b>&amp;</b>"]`) || !strings.Contains(string(rec), `[Black "Łukasz"]`) {
		t.Errorf("the record:\n%s", rec)
	}
	again := restartOn(t, ts)
	if s := again.state(t, g.id, ""); s.Players.Black.Name != "Łukasz" {
		t.Errorf("after a restart: %+v", s.Players)
	}
}
