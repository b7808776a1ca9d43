package server

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"bretter/ai"
	"bretter/internal/store"
)

func TestChatReachesPlayersOnly(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"fanorona"}`)
	white, black, watcher := ts.dial(t, g.id, g.white, ""), ts.dial(t, g.id, g.black, ""), ts.dial(t, g.id, "", "")
	white.next("state")
	black.next("state")
	watcher.next("state")
	white.send(map[string]any{"type": "chat", "id": 1, "text": "  <script>alert(1)</script> good luck  "})
	white.next("ack")
	black.next("chat")
	var line struct{ Seq int }
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/chat", g.black, map[string]string{"text": "thanks, Łukasz 😀"}, &line); code != http.StatusOK || line.Seq != 2 {
		t.Fatalf("chat over the API: %d %+v", code, line)
	}
	// The watcher got nothing of it: before the move that follows, it
	// sees at most who is online.
	ts.moveAt(t, g, 0, ts.state(t, g.id, g.white).Legal[0])
	for m := watcher.read(); m.Type != "event"; m = watcher.read() {
		if m.Type != "presence" {
			t.Fatalf("the watcher got a %q message", m.Type)
		}
	}
	if s := ts.state(t, g.id, ""); len(s.Chat) != 0 {
		t.Fatalf("a watcher reads the chat: %+v", s.Chat)
	}
	s := ts.state(t, g.id, g.black)
	if len(s.Chat) != 2 || s.Chat[0].Text != "<script>alert(1)</script> good luck" || s.Chat[0].Seat != "white" || s.Chat[1].Seat != "black" {
		t.Fatalf("the players' chat: %+v", s.Chat)
	}
	if s := restartOn(t, ts).state(t, g.id, g.white); len(s.Chat) != 2 {
		t.Errorf("after a restart: %+v", s.Chat)
	}
}

// A chat line's time is the one the store keeps: the answer, the live
// message and the state read again after a restart agree.
func TestChatLineTimeIsTheStoredOne(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"dvonn"}`)
	black := ts.dial(t, g.id, g.black, "")
	black.next("state")
	at := time.Date(2026, 5, 4, 12, 0, 0, 123456789, time.UTC)
	ts.srv.hub.now = func() time.Time { return at }
	var said store.ChatLine
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/chat", g.white, map[string]string{"text": "hello"}, &said); code != http.StatusOK {
		t.Fatalf("chat: %d", code)
	}
	var heard struct{ Line store.ChatLine }
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	for heard.Line.Seq == 0 {
		_, data, err := black.conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		json.Unmarshal(data, &heard)
	}
	kept := restartOn(t, ts).state(t, g.id, g.black).Chat
	if len(kept) != 1 || !kept[0].At.Equal(said.At) || !heard.Line.At.Equal(said.At) {
		t.Fatalf("answered at %v, sent at %v, kept at %+v", said.At, heard.Line.At, kept)
	}
}

// The computer does not chat: a line in a game against it is refused,
// over the API and the live protocol, and nothing is kept.
func TestNoChatWithTheComputer(t *testing.T) {
	ts := newTestServer(t)
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"opponent":"computer","level":1}`, &c)
	var e errorBody
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/chat", c.Secret, map[string]string{"text": "hello"}, &e); code != http.StatusConflict || e.Code != "no_chat" {
		t.Fatalf("chat over the API: %d %+v", code, e)
	}
	page := ts.dial(t, c.ID, c.Secret, "")
	page.next("state")
	page.send(map[string]any{"type": "chat", "id": 1, "text": "hello"})
	if m := page.next("error"); m.Code != "no_chat" || m.ID != 1 {
		t.Fatalf("chat over the live protocol: %+v", m)
	}
	if s := restartOn(t, ts).state(t, c.ID, c.Secret); len(s.Chat) != 0 {
		t.Fatalf("kept: %+v", s.Chat)
	}
}

func TestChatRefusesBadLines(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"fanorona"}`)
	for _, tt := range []struct {
		secret, text string
		code         int
	}{
		{g.white, "   ", http.StatusBadRequest},
		{g.white, strings.Repeat("ż", 501), http.StatusBadRequest},
		{g.white, "line\nbreak", http.StatusBadRequest},
		{g.white, "not \u202ehere", http.StatusBadRequest},
		{g.white, "\u200b \ufeff", http.StatusBadRequest},
		{"", "hello", http.StatusForbidden},
		{"wrong", "hello", http.StatusForbidden},
		{g.white, strings.Repeat("ż", 500), http.StatusOK},
	} {
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/chat", tt.secret, map[string]string{"text": tt.text}, nil); code != tt.code {
			t.Errorf("chat %.20q: %d, want %d", tt.text, code, tt.code)
		}
	}
	if s := ts.state(t, g.id, g.white); len(s.Chat) != 1 {
		t.Errorf("%d lines stored, want the one good one", len(s.Chat))
	}
}

func TestChatIsRateLimited(t *testing.T) {
	ts := newTestServer(t)
	ts.srv.chats = newLimiter(30.0/60, 5) // the default
	g := ts.newGame(t, `{"game":"fanorona"}`)
	limited := false
	for i := range 20 {
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/chat", g.white, map[string]string{"text": "spam"}, nil); code == http.StatusTooManyRequests {
			limited = i >= 5
			break
		}
	}
	if !limited {
		t.Error("twenty chat lines at once were all taken, or the first few refused")
	}
}

// A chat line or a name that a person wrote and the server refuses comes
// back with reasons in the site's words, which the player's page has in
// its catalogue: its English is the server's, not the player's language.
func TestBadLinesRefusedInTheSitesWords(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"fanorona"}`)
	c := ts.browser(t)
	get(t, c, ts.URL+playerPath(g.id, g.white))
	_, page := get(t, c, ts.URL+watchPath(g.id), "Accept-Language", "pl")
	m := regexp.MustCompile(`<script type="application/json" id="catalog">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the player's page has no catalogue")
	}
	var catalog map[string]any
	if err := json.Unmarshal([]byte(m[1]), &catalog); err != nil {
		t.Fatal(err)
	}
	white := ts.dial(t, g.id, g.white, "")
	white.next("state")
	for i, msg := range []map[string]any{
		{"type": "chat", "text": "copied\tfrom a table"},
		{"type": "chat", "text": "\u0085"}, // a space only to the server
		{"type": "chat", "text": strings.Repeat("ż", 501)},
		{"type": "name", "name": "Ada\tLovelace"},
		{"type": "name", "name": strings.Repeat("ż", 21)},
		{"type": "name", "name": computerName(ai.MaxLevel)},
	} {
		msg["id"] = i + 1
		white.send(msg)
		e := white.next("error")
		if e.Code != "bad_request" || len(e.Reasons) == 0 {
			t.Errorf("message %d (%s): %s %q, reasons %+v", i+1, msg["type"], e.Code, e.Error, e.Reasons)
			continue
		}
		for _, r := range e.Reasons {
			keys := []string{r.Key}
			for _, a := range r.Args {
				if a.Key != "" {
					keys = append(keys, a.Key)
				}
			}
			for _, k := range keys {
				if _, ok := catalog[k]; !ok {
					t.Errorf("message %d (%s): the player's page has no message %s", i+1, msg["type"], k)
				}
			}
		}
	}
	if s := ts.state(t, g.id, g.white); len(s.Chat) != 0 || s.Players.White.Name != "" {
		t.Errorf("a refused line was kept: %+v %+v", s.Chat, s.Players)
	}
}
