package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// Every limit refuses once its budget is spent. Time stands still in
// these tests, so that no budget fills up again meanwhile.

// frozen gives ts's server a clock that does not move.
func frozen(ts *testServer) {
	at := time.UnixMilli(1_790_000_000_000)
	ts.srv.hub.now = func() time.Time { return at }
}

// lenient is the test server's generous limits, with some of them
// replaced.
func lenient(cfg Config) Config {
	def := Config{CreatesPerMinute: 60000, MovesPerSecond: 100000, ConnsPerClient: 1000, ChatsPerMinute: 60000,
		LivesPerMinute: 600000, ReadsPerSecond: 100000, ImportsPerMinute: 60000, ConnsPerAddress: 10000}
	for _, f := range []struct{ v, d *float64 }{{&cfg.CreatesPerMinute, &def.CreatesPerMinute}, {&cfg.MovesPerSecond, &def.MovesPerSecond},
		{&cfg.ChatsPerMinute, &def.ChatsPerMinute}, {&cfg.LivesPerMinute, &def.LivesPerMinute},
		{&cfg.ReadsPerSecond, &def.ReadsPerSecond}, {&cfg.ImportsPerMinute, &def.ImportsPerMinute}} {
		if *f.v == 0 {
			*f.v = *f.d
		}
	}
	if cfg.ConnsPerClient == 0 {
		cfg.ConnsPerClient = def.ConnsPerClient
	}
	if cfg.ConnsPerAddress == 0 {
		cfg.ConnsPerAddress = def.ConnsPerAddress
	}
	return cfg
}

// refusedAfter checks that try succeeds n times and is then refused with
// 429.
func refusedAfter(t *testing.T, n int, try func(i int) int) {
	t.Helper()
	for i := range n {
		if code := try(i); code == http.StatusTooManyRequests {
			t.Fatalf("refused at %d of %d", i+1, n)
		}
	}
	if code := try(n); code != http.StatusTooManyRequests {
		t.Fatalf("after %d: %d, want 429", n, code)
	}
}

func TestCreateLimit(t *testing.T) {
	// 3 a minute saves up a burst of 1, for the API and the form alike.
	ts := limitedServer(t, lenient(Config{CreatesPerMinute: 3}))
	frozen(ts)
	refusedAfter(t, 1, func(int) int { return ts.call(t, "POST", "/api/games", "", `{"game":"havannah"}`, nil) })
	res, err := http.PostForm(ts.URL+"/games", url.Values{"game": {"havannah"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the form after the API's budget: %d", res.StatusCode)
	}
}

// A new game refused for what it asks costs a tenth of one: a player who
// mistypes, in the API or the start form, can still start games, while
// a flood of bad requests is still refused in the end.
func TestMistakesCostATenthOfANewGame(t *testing.T) {
	ts := limitedServer(t, lenient(Config{CreatesPerMinute: 30})) // a burst of 10
	frozen(ts)
	form := func(f url.Values) int {
		res, err := http.PostForm(ts.URL+"/games", f)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, tt := range []struct {
		name string
		try  func() int
		want int
	}{
		{"an unknown game", func() int { return ts.call(t, "POST", "/api/games", "", `{"game":"havanah"}`, nil) }, http.StatusBadRequest},
		{"a bad option", func() int {
			return ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":99}}`, nil)
		}, http.StatusBadRequest},
		{"a malformed body", func() int { return ts.call(t, "POST", "/api/games", "", `{"game":`, nil) }, http.StatusBadRequest},
		{"an illegal move", func() int {
			return ts.call(t, "POST", "/api/games", "", `{"game":"havannah","moves":["zz99"]}`, nil)
		}, http.StatusUnprocessableEntity},
		{"a clock typed wrong in the form", func() int {
			return form(url.Values{"game": {"havannah"}, "clock": {"custom"}, "clock_minutes": {"five"}})
		}, http.StatusBadRequest},
	} {
		if code := tt.try(); code != tt.want {
			t.Fatalf("%s: %d, want %d", tt.name, code, tt.want)
		}
	}
	// Nine and a half new games are left.
	refusedAfter(t, 9, func(int) int { return ts.call(t, "POST", "/api/games", "", `{"game":"havannah"}`, nil) })

	// An address that floods: ten bad requests cost what a new game
	// does, so some ninety spend the burst of ten.
	ts = limitedServer(t, lenient(Config{CreatesPerMinute: 30}))
	frozen(ts)
	for i := range 95 {
		code := ts.call(t, "POST", "/api/games", "", `{"game":"havanah"}`, nil)
		switch {
		case code == http.StatusTooManyRequests && i < 89:
			t.Fatalf("refused for coming too often after %d", i)
		case code == http.StatusTooManyRequests:
			return
		case code != http.StatusBadRequest:
			t.Fatalf("a bad request: %d", code)
		}
	}
	t.Fatal("a flood of bad requests is never refused for coming too often")
}

func TestMoveLimit(t *testing.T) {
	moves := []string{"e5", "d4", "f6", "c3"}
	t.Run("api", func(t *testing.T) {
		ts := limitedServer(t, lenient(Config{MovesPerSecond: 1.5})) // a burst of 3
		frozen(ts)
		g := ts.newGame(t, `{"game":"havannah","start":"me"}`) // the friend's taking the seat is charged
		refusedAfter(t, 2, func(i int) int {
			secret := g.white
			if i%2 == 1 {
				secret = g.black
			}
			return ts.call(t, "POST", "/api/games/"+g.id+"/moves", secret, map[string]any{"ply": i, "move": moves[i]}, nil)
		})
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/name", g.white, `{"name":"Ada"}`, nil); code != http.StatusTooManyRequests {
			t.Fatalf("a name after the moves' budget: %d", code)
		}
	})
	// live is a player's connection to a game on a site that takes one
	// and a half messages a second, in a burst of 3 (one spent on the
	// friend's taking the seat), its clock stopped.
	live := func(t *testing.T) *client {
		ts := limitedServer(t, lenient(Config{MovesPerSecond: 1.5}))
		frozen(ts)
		g := ts.newGame(t, `{"game":"havannah","start":"me"}`)
		c := ts.dial(t, g.id, g.white, "")
		c.next("state")
		return c
	}
	t.Run("live", func(t *testing.T) {
		c := live(t)
		for i := range 3 { // two left of the burst
			c.send(map[string]any{"type": "name", "id": i + 1, "name": "Ada"})
			m := c.read()
			for m.Type != "ack" && m.Type != "error" {
				m = c.read()
			}
			if refused := m.Code == "rate"; refused != (i == 2) {
				t.Fatalf("message %d: %+v", i+1, m)
			}
		}
	})
	t.Run("live, unreadable", func(t *testing.T) {
		c := live(t)
		// Messages the site cannot read cost it work too, and count.
		for i, frame := range []string{`{"type":`, "\xff", `{"type":`} {
			typ := websocket.MessageText
			if i == 1 {
				typ = websocket.MessageBinary
			}
			if err := c.conn.Write(t.Context(), typ, []byte(frame)); err != nil {
				t.Fatal(err)
			}
			if m := c.next("error"); (m.Code == "rate") != (i == 2) {
				t.Fatalf("unreadable message %d: %+v", i+1, m)
			}
		}
	})
}

// Every request that changes a game is charged to the moves' budget,
// whether or not it is then carried out.
func TestEveryChangeIsCharged(t *testing.T) {
	ts := limitedServer(t, lenient(Config{MovesPerSecond: 1.5})) // a burst of 3
	frozen(ts)
	g := ts.newGame(t, `{"game":"havannah","start":"me"}`) // the friend's taking the seat is charged
	refusedAfter(t, 2, func(int) int {
		return ts.call(t, "POST", "/api/games/"+g.id+"/join", "", `{"token":"wrong"}`, nil)
	})
	for _, r := range []struct{ method, path, body string }{
		{"POST", "/resign", ""},
		{"POST", "/rematch", ""},
		{"DELETE", "/rematch", ""},
		{"POST", "/offer", `{"kind":"draw"}`},
		{"POST", "/answer", `{"kind":"draw","accept":true}`},
		{"POST", "/name", `{"name":"Ada"}`},
		{"POST", "/push", `{"subscription":{"endpoint":"https://fcm.googleapis.com/fcm/send/x","keys":{"p256dh":"k","auth":"a"}}}`},
		{"DELETE", "/push", `{"endpoint":"https://fcm.googleapis.com/fcm/send/x"}`},
	} {
		if code := ts.call(t, r.method, "/api/games/"+g.id+r.path, g.white, r.body, nil); code != http.StatusTooManyRequests {
			t.Errorf("%s %s after the budget: %d", r.method, r.path, code)
		}
	}
	res, err := http.Post(ts.URL+"/g/"+g.id+"/seat/"+g.white, "application/x-www-form-urlencoded", nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests {
		t.Errorf("taking a seat by its link after the budget: %d", res.StatusCode)
	}
}

func TestChatLimit(t *testing.T) {
	ts := limitedServer(t, lenient(Config{ChatsPerMinute: 6})) // a burst of 1
	frozen(ts)
	g := ts.newGame(t, `{"game":"havannah"}`)
	refusedAfter(t, 1, func(int) int {
		return ts.call(t, "POST", "/api/games/"+g.id+"/chat", g.white, `{"text":"hi"}`, nil)
	})
	c := ts.dial(t, g.id, g.black, "")
	c.next("state")
	c.send(map[string]any{"type": "chat", "id": 1, "text": "hi"})
	if m := c.next("error"); m.Code != "rate" {
		t.Fatalf("a live chat line after the budget: %+v", m)
	}
}

func TestLiveLimits(t *testing.T) {
	open := func(ts *testServer, id string) (*websocket.Conn, int) {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		c, res, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/games/"+id+"/ws", nil)
		if err != nil {
			if res == nil {
				t.Fatal(err)
			}
			return nil, res.StatusCode
		}
		t.Cleanup(func() { c.CloseNow() })
		return c, http.StatusSwitchingProtocols
	}
	t.Run("opened", func(t *testing.T) {
		ts := limitedServer(t, lenient(Config{LivesPerMinute: 3})) // a burst of 3
		frozen(ts)
		g := ts.newGame(t, `{"game":"havannah"}`)
		refusedAfter(t, 3, func(int) int {
			c, code := open(ts, g.id)
			if c != nil {
				c.CloseNow()
			}
			return code
		})
	})
	t.Run("open at once", func(t *testing.T) {
		ts := limitedServer(t, lenient(Config{ConnsPerClient: 2}))
		g := ts.newGame(t, `{"game":"havannah"}`)
		refusedAfter(t, 2, func(int) int { _, code := open(ts, g.id); return code })
	})
}

func TestReadLimit(t *testing.T) {
	ts := limitedServer(t, lenient(Config{ReadsPerSecond: 1})) // a burst of 6
	g := ts.newGame(t, `{"game":"havannah"}`)
	frozen(ts)
	paths := []string{"/", "/havannah", "/g/" + g.id, "/api/games/" + g.id, "/api/games/" + g.id + "/positions", "/import", "/api/games/" + g.id}
	get := func(path string) int {
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	refusedAfter(t, 6, func(i int) int { return get(paths[i]) })
	// The site's files, the service worker and the health check are not
	// counted.
	for _, path := range []string{ts.srv.site.StaticPrefix() + "js/game.js", "/sw.js", "/healthz"} {
		if code := get(path); code != http.StatusOK {
			t.Fatalf("GET %s after the reads' budget: %d", path, code)
		}
	}
}

// A request that no route takes, whatever its method, is answered with a
// page, and counts as a read.
func TestUnknownRequestsAreReads(t *testing.T) {
	ts := limitedServer(t, lenient(Config{ReadsPerSecond: 1})) // a burst of 6
	frozen(ts)
	reqs := [][2]string{{"POST", "/nothing/here"}, {"DELETE", "/"}, {"PUT", "/api/games"}, {"POST", "/api/nothing"}, {"PATCH", "/import"}, {"POST", "/x"}, {"POST", "/x"}}
	refusedAfter(t, 6, func(i int) int {
		req, _ := http.NewRequest(reqs[i][0], ts.URL+reqs[i][1], nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	})
}

func TestImportLimit(t *testing.T) {
	ts := limitedServer(t, lenient(Config{ImportsPerMinute: 3})) // a burst of 1
	frozen(ts)
	record := `{"text":"[Game \"dvonn\"]\n"}`
	refusedAfter(t, 1, func(int) int { return ts.call(t, "POST", "/api/records", "", record, nil) })
}

func TestLimiterFillsUpAgain(t *testing.T) {
	l := newLimiter(2, 3) // 2 a second, 3 saved up
	at := time.UnixMilli(1_790_000_000_000)
	for i := range 3 {
		if !l.allow("a", at) {
			t.Fatalf("refused at %d of the burst", i+1)
		}
	}
	if l.allow("a", at) {
		t.Fatal("the burst was exceeded")
	}
	if !l.allow("b", at) {
		t.Fatal("another address was refused")
	}
	if l.allow("a", at.Add(400*time.Millisecond)) {
		t.Fatal("a token came back before its time")
	}
	if !l.allow("a", at.Add(500*time.Millisecond)) {
		t.Fatal("no token came back after half a second")
	}
}
