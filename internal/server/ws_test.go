package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// client is one live connection, as a page would hold it.
type client struct {
	t    testing.TB
	conn *websocket.Conn
}

func (ts *testServer) dial(t testing.TB, id, secret, query string) *client {
	t.Helper()
	h := http.Header{}
	if secret != "" {
		h.Set("Authorization", "Bearer "+secret)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/games/"+id+"/ws"+query,
		&websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return &client{t: t, conn: conn}
}

// message is any message from the server.
type message struct {
	Type    string          `json:"type"`
	Version int             `json:"version"`
	State   *Snapshot       `json:"state"`
	Event   json.RawMessage `json:"event"`
	Change  *Change         `json:"change"`
	Legal   []string        `json:"legal"`
	ID      int64           `json:"id"`
	Code    string          `json:"code"`
	Error   string          `json:"error"`
	Reasons []reason        `json:"reasons"`
	Next    string          `json:"next"`
	Game    string          `json:"game"`
	Players map[string]Presence
}

func (c *client) read() message {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 5*time.Second)
	defer cancel()
	_, data, err := c.conn.Read(ctx)
	if err != nil {
		c.t.Fatal(err)
	}
	var m message
	if err := json.Unmarshal(data, &m); err != nil {
		c.t.Fatal(err)
	}
	return m
}

// next reads until a message of the given type arrives.
func (c *client) next(kind string) message {
	c.t.Helper()
	for {
		if m := c.read(); m.Type == kind {
			return m
		}
	}
}

// presence reads until seat is shown online (or away).
func (c *client) presence(seat string, online bool) Presence {
	c.t.Helper()
	for {
		if p := c.next("presence").Players[seat]; p.Online == online {
			return p
		}
	}
}

// rawText is a message sent as it is written, not encoded as JSON.
type rawText string

func (c *client) send(v any) {
	c.t.Helper()
	data, _ := json.Marshal(v)
	if raw, ok := v.(rawText); ok {
		data = []byte(raw)
	}
	if err := c.conn.Write(c.t.Context(), websocket.MessageText, data); err != nil {
		c.t.Fatal(err)
	}
}

func TestLiveGame(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"start":"me"}`)
	watcher := ts.dial(t, g.id, "", "")
	first := watcher.next("state")
	if first.Version != 0 || first.State.Seat != "" || first.State.Legal != nil || first.State.Status != "playing" {
		t.Fatalf("watcher's first state: %+v", first.State)
	}
	white := ts.dial(t, g.id, g.white, "")
	if s := white.next("state").State; s.Seat != "white" || len(s.Legal) != 61 {
		t.Fatalf("white's first state: seat %q, %d legal moves", s.Seat, len(s.Legal))
	}
	black := ts.dial(t, g.id, g.black, "")
	black.next("state")
	white.presence("black", true)

	white.send(map[string]any{"type": "move", "id": 7, "ply": 0, "move": "e5"})
	ev := white.next("event")
	if ack := white.next("ack"); ack.ID != 7 || ack.Version != 1 {
		t.Fatalf("ack %+v", ack)
	}
	if ev.Version != 1 || ev.Change == nil || ev.Legal != nil {
		t.Fatalf("white's event: %+v", ev)
	}
	bev := black.next("event")
	if bev.Version != 1 || !strings.Contains(string(bev.Event), `"move":"e5"`) || len(bev.Legal) != 60 {
		t.Fatalf("black's event: %+v", bev)
	}
	if wev := watcher.next("event"); wev.Version != 1 || wev.Legal != nil {
		t.Fatalf("watcher's event: %+v", wev)
	}

	// Errors answer the message and change nothing.
	for _, tt := range []struct {
		msg  any
		code string
	}{
		{map[string]any{"type": "move", "id": 8, "ply": 1, "move": "e5"}, "illegal"},
		{map[string]any{"type": "move", "id": 9, "ply": 0, "move": "a1"}, "stale"},
		{map[string]any{"type": "move", "id": 10, "ply": 1}, "bad_request"},
		{map[string]any{"type": "dance", "id": 11}, "bad_request"},
		{map[string]any{"type": "move", "id": 12, "ply": 1, "move": "a1", "extra": true}, "bad_request"},
		{"not an object", "bad_request"},
		{rawText(`{"type":"move","id":15,"ply":1,"move":"a1"}]`), "bad_request"},
		{rawText(`{"type":"resign","id":16}}`), "bad_request"},
		// encoding/json would take these as the move a1, or a
		// resignation.
		{map[string]any{"Type": "move", "id": 17, "ply": 1, "move": "a1"}, "bad_request"},
		{map[string]any{"type": "move", "id": 18, "ply": 1, "MOVE": "a1"}, "bad_request"},
		{rawText(`{"type":"move","type":"resign","id":19}`), "bad_request"},
		// The refusal answers the message's "id", not a member written
		// in other letters.
		{rawText(`{"type":"resign","id":25,"Id":3}`), "bad_request"},
		{rawText(`{"type":"resign","Id":3,"id":26}`), "bad_request"},
		// A member of another type of message is no part of this one.
		{map[string]any{"type": "move", "id": 20, "ply": 1, "move": "a1", "options": map[string]int{"bogus": 1}}, "bad_request"},
		{map[string]any{"type": "resign", "id": 21, "kind": "draw"}, "bad_request"},
		{map[string]any{"type": "shown", "id": 22}, "bad_request"},
		{map[string]any{"type": "shown", "id": 23, "shown": "yes"}, "bad_request"},
		{map[string]any{"type": "shown", "id": 24, "shown": true, "move": "a1"}, "bad_request"},
	} {
		black.send(tt.msg)
		e := black.next("error")
		if e.Code != tt.code || e.Error == "" {
			t.Fatalf("%v: got %+v, want %s", tt.msg, e, tt.code)
		}
		// The refusal names the message it answers, if it has an id.
		want := int64(0)
		switch m := tt.msg.(type) {
		case map[string]any:
			want = int64(m["id"].(int))
		case rawText:
			fmt.Sscanf(string(m)[strings.Index(string(m), `"id":`)+5:], "%d", &want)
		}
		if e.ID != want {
			t.Fatalf("%v: the refusal answers id %d, want %d", tt.msg, e.ID, want)
		}
		// Only the rules' refusals come with reasons to translate.
		if (tt.code == "illegal") != (len(e.Reasons) == 2 && e.Reasons[1].Key == "why.havannah.taken") {
			t.Fatalf("%v: reasons %+v", tt.msg, e.Reasons)
		}
	}
	watcher.send(map[string]any{"type": "move", "id": 1, "ply": 1, "move": "a1"})
	if e := watcher.next("error"); e.Code != "forbidden" {
		t.Fatalf("a watcher's move: %+v", e)
	}
	watcher.send(map[string]any{"type": "shown", "id": 2, "shown": true})
	if e := watcher.next("error"); e.Code != "forbidden" || e.ID != 2 {
		t.Fatalf("a watcher saying it is on screen: %+v", e)
	}
	white.send(map[string]any{"type": "move", "id": 13, "ply": 1, "move": "a1"})
	if e := white.next("error"); e.Code != "not_your_turn" {
		t.Fatalf("white out of turn: %+v", e)
	}
	if s := ts.state(t, g.id, ""); s.Version != 1 {
		t.Fatalf("errors changed the game: version %d", s.Version)
	}

	// A page that missed events resumes from its version.
	black.send(map[string]any{"type": "move", "id": 14, "ply": 1, "move": "a1"})
	black.next("ack")
	// The watchers already there are told of the move before the late page
	// comes. A page that joins while they are being told may get an event
	// its catching up brought already, which it ignores by its version, and
	// which would come between the messages read below.
	for ev := watcher.next("event"); ev.Version < 2; ev = watcher.next("event") {
	}
	late := ts.dial(t, g.id, "", "?after=0")
	if m := late.read(); m.Type != "event" || m.Version != 1 || m.State != nil {
		t.Fatalf("resume, first: %+v", m)
	}
	if m := late.read(); m.Type != "event" || m.Version != 2 {
		t.Fatalf("resume, second: %+v", m)
	}
	if m := late.read(); m.Type != "state" || m.Version != 2 {
		t.Fatalf("resume, then: %+v", m)
	}
	late.send(map[string]any{"type": "resync", "after": 1})
	if m := late.read(); m.Type != "event" || m.Version != 2 {
		t.Fatalf("resync: %+v", m)
	}
	if m := late.read(); m.Type != "state" {
		t.Fatalf("resync, then: %+v", m)
	}

	// Leaving shows as away.
	black.conn.Close(websocket.StatusNormalClosure, "")
	if p := white.presence("black", false); p.Since == nil {
		t.Fatal("away without a time")
	}

	// Resigning ends the game for every page.
	white.send(map[string]any{"type": "resign", "id": 15})
	ev = watcher.next("event")
	for ev.Version < 3 {
		ev = watcher.next("event")
	}
	if ev.Change.Status != "over" || ev.Change.Result.Reason != "resign" || ev.Change.Result.Winner != "black" {
		t.Fatalf("after resigning: %+v", ev.Change)
	}
	// The first rematch is an offer that every page sees; the second
	// starts the new game.
	white.send(map[string]any{"type": "rematch", "id": 16, "start": "me"})
	ev = watcher.next("event")
	if !strings.Contains(string(ev.Event), `"kind":"rematch"`) || ev.Change.Offer == nil || ev.Change.Offer.Terms.White != "white" {
		t.Fatalf("the offer of a new game: %+v %+v", ev.Event, ev.Change.Offer)
	}
	ack := white.next("ack")
	for ack.ID != 16 {
		ack = white.next("ack")
	}
	if ack.Next != "" || ack.Version != ev.Version {
		t.Fatalf("offer: ack %+v", ack)
	}
	var started struct{ ID string }
	ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.black, nil, &started)
	if next := watcher.next("next"); started.ID == "" || next.Game != started.ID {
		t.Fatalf("rematch: %+v, watchers told %+v", started, next)
	}
	// The game named is the one the store links, and each player holds
	// the colour the terms gave: White asked to start again.
	if old := ts.state(t, g.id, ""); old.Next != started.ID {
		t.Fatalf("rematch: the old game names %q as its next, the answer %q", old.Next, started.ID)
	}
	for secret, seat := range map[string]string{g.white: "white", g.black: "black"} {
		if s := ts.state(t, started.ID, secret); s.ID != started.ID || s.Seat != seat || s.Game != "havannah" || len(s.Moves) != 0 {
			t.Fatalf("rematch: the next game is %+v, want the player seated as %s", s, seat)
		}
	}
}

func TestLiveRefusals(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","start":"me"}`)
	url := "ws" + strings.TrimPrefix(ts.URL, "http") + "/api/games/"
	for _, tt := range []struct {
		name, path string
		header     http.Header
		status     int
	}{
		{"foreign origin", g.id + "/ws", http.Header{"Origin": {"https://evil.example"}}, http.StatusForbidden},
		{"unknown game", "zzzzzzzzzz/ws", nil, http.StatusNotFound},
		{"wrong secret", g.id + "/ws", http.Header{"Authorization": {"Bearer nope"}}, http.StatusForbidden},
		{"bad version", g.id + "/ws?after=x", nil, http.StatusBadRequest},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, res, err := websocket.Dial(t.Context(), url+tt.path, &websocket.DialOptions{HTTPHeader: tt.header})
			if err == nil || res == nil || res.StatusCode != tt.status {
				t.Fatalf("got %v, %v; want status %d", res, err, tt.status)
			}
		})
	}
	// A message over the size limit closes the connection.
	c := ts.dial(t, g.id, g.white, "")
	c.next("state")
	c.send(map[string]any{"type": "move", "id": 1, "ply": 0, "move": strings.Repeat("x", maxMessage)})
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	for {
		if _, _, err := c.conn.Read(ctx); err != nil {
			if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
				t.Fatalf("oversized message closed the connection with %v", err)
			}
			break
		}
	}
}
