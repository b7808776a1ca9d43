package server

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"bretter/ai"
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
		// Marks and joiners belong to scripts and emoji; overrides,
		// embeddings and isolates turn the words round them, even in a
		// notice where the page cannot isolate the name.
		{g.black, "\u202eBob", http.StatusBadRequest},
		{g.black, "Bob\u2067", http.StatusBadRequest},
		{g.black, "\u200b\u2060", http.StatusBadRequest},
		{g.black, "\u3164", http.StatusBadRequest},
		{g.black, "\u2800\u2800", http.StatusBadRequest},
		{g.black, "שלום\u200f", http.StatusOK},
		{g.black, "👩\u200d💻 ن\u200cی", http.StatusOK},
		// What a record calls the computer is the computer's: an import
		// of the record would show the person as the computer. Any
		// other level, or other letters, names nobody but a person.
		{g.black, " bretter level 3 ", http.StatusBadRequest},
		{g.black, computerName(ai.MinLevel), http.StatusBadRequest},
		{g.black, computerName(ai.MaxLevel + 1), http.StatusOK},
		{g.black, "Bretter level 3", http.StatusOK},
		{g.black, "bretter level 03", http.StatusOK},
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

// A name given while the friend has yet to join leaves the game waiting,
// also once it is loaded again; a name may still be given once the game
// is over, for its record.
func TestNameBeforeAndAfterTheGame(t *testing.T) {
	ts := newTestServer(t)
	var c createResponse
	if code := ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"start":"me"}`, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/name", c.Secret, map[string]string{"name": "Ada"}, nil); code != http.StatusOK {
		t.Fatalf("name: %d", code)
	}
	again := restartOn(t, ts)
	if s := again.state(t, c.ID, c.Secret); s.Status != "waiting" || s.Players.White.Name != "Ada" {
		t.Fatalf("after a restart: status %q, players %+v", s.Status, s.Players)
	}
	var e errorBody
	if code := again.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, map[string]any{"ply": 0, "move": "a1"}, &e); code != http.StatusConflict || e.Code != "waiting" {
		t.Fatalf("a move before the friend joined: %d %+v", code, e)
	}

	g := finished(t, again)
	var v struct{ Version int }
	if code := again.call(t, "POST", "/api/games/"+g.id+"/name", g.black, map[string]string{"name": "Bob"}, &v); code != http.StatusOK {
		t.Fatalf("a name after the end: %d", code)
	}
	s := restartOn(t, again).state(t, g.id, "")
	if s.Status != "over" || s.Result == nil || s.Result.Winner != "white" || s.Players.Black.Name != "Bob" || s.Version != v.Version {
		t.Fatalf("after the end: status %q, result %+v, players %+v, version %d (named at %d)", s.Status, s.Result, s.Players, s.Version, v.Version)
	}
	res, err := http.Get(again.URL + "/api/games/" + g.id + "/record")
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := io.ReadAll(res.Body)
	res.Body.Close()
	// Little Golem's layout: the second player, Black here, is PW.
	if !strings.Contains(string(rec), "PW[Bob]") || !strings.Contains(string(rec), "RE[B]") {
		t.Errorf("the record:\n%s", rec)
	}
}
