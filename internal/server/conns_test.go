package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"bretter/internal/store"
	"bretter/internal/web"
)

// limitedServer is a server with cfg's limits (the defaults where cfg
// has none), behind Server.Listener, as bretter serve runs it; on a
// store of its own unless cfg has one.
func limitedServer(t testing.TB, cfg Config) *testServer {
	t.Helper()
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "limits.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	site, err := web.New(testGames)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Store == nil {
		cfg.Store = st
	}
	cfg.Games, cfg.Site = testGames, site
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv := New(cfg)
	ts := httptest.NewUnstartedServer(srv)
	ts.Listener = srv.Listener(ts.Listener)
	ts.Start()
	t.Cleanup(ts.Close)
	return &testServer{Server: ts, srv: srv, store: st}
}

// dialFrom opens a TCP connection to ts from the loopback address from.
func dialFrom(t testing.TB, ts *testServer, from string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// clientFrom is an HTTP client whose connections come from from.
func clientFrom(from string) *http.Client {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

// ask sends raw on c and reads one answer; a connection the server closed
// is an error.
func ask(c net.Conn, raw string) (*http.Response, *bufio.Reader, error) {
	c.SetDeadline(time.Now().Add(10 * time.Second)) // only against a hang
	if _, err := io.WriteString(c, raw); err != nil {
		return nil, nil, err
	}
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		return nil, nil, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res, br, nil
}

// closedByServer reports whether the server ends c (rather than the
// guard against a hang).
func closedByServer(c net.Conn, br *bufio.Reader) bool {
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, err := io.Copy(io.Discard, br)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

func TestLiveRouteAnswersOtherRequestsAtOnce(t *testing.T) {
	// The deadlines are long: the server closes these connections at
	// once, not when the deadlines are up.
	ts := limitedServer(t, Config{ReadTimeout: time.Minute, WriteTimeout: time.Minute})
	g := ts.newGame(t, `{"game":"havannah"}`)
	path := "/api/games/" + g.id + "/ws"
	for _, tt := range []struct {
		name, raw string
		status    int
	}{
		{"plain GET", "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n", http.StatusUpgradeRequired},
		{"GET with a body that never comes", "GET " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nab", http.StatusUpgradeRequired},
		{"POST with a body that never comes", "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nab", http.StatusUpgradeRequired},
		{"an upgrade by POST", "POST " + path + " HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n", http.StatusUpgradeRequired},
		{"upgrade to something else", "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: h2c\r\nContent-Length: 1000\r\n\r\n", http.StatusUpgradeRequired},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := dialFrom(t, ts, "127.0.0.1")
			res, br, err := ask(c, tt.raw)
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.status)
			}
			if !closedByServer(c, br) {
				t.Fatal("the server kept the connection open")
			}
		})
	}
	// A real upgrade stays open past the deadlines of an ordinary request,
	// short here so that the test need not wait long.
	ts = limitedServer(t, Config{ReadTimeout: 300 * time.Millisecond, WriteTimeout: 300 * time.Millisecond})
	g = ts.newGame(t, `{"game":"havannah"}`)
	live := ts.dial(t, g.id, g.white, "")
	live.next("state")
	time.Sleep(600 * time.Millisecond) // past both deadlines
	live.send(map[string]any{"type": "move", "id": 1, "ply": 0, "move": "e5"})
	if ack := live.next("ack"); ack.Version != 1 {
		t.Fatalf("the live connection after the deadlines: %+v", ack)
	}
}

func TestSlowBodyIsCutOff(t *testing.T) {
	ts := limitedServer(t, Config{ReadTimeout: 300 * time.Millisecond})
	c := dialFrom(t, ts, "127.0.0.1")
	res, br, err := ask(c, "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"game\":")
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		t.Fatal("a body that stopped coming held the connection")
	case err != nil: // closed without an answer
	case res.StatusCode != http.StatusBadRequest:
		t.Fatalf("a body that stopped coming: %d", res.StatusCode)
	case !closedByServer(c, br):
		t.Fatal("the connection stayed open")
	}
}

func TestAnswersNotReadAreCutOff(t *testing.T) {
	ts := limitedServer(t, Config{WriteTimeout: 300 * time.Millisecond})
	c := dialFrom(t, ts, "127.0.0.1")
	const n = 2000 // answers of 18 KB: far more than the sockets hold
	req := "GET " + ts.srv.site.StaticPrefix() + "js/game.js HTTP/1.1\r\nHost: x\r\n\r\n"
	if _, err := io.WriteString(c, strings.Repeat(req, n)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // the client reads nothing, past the write deadline
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	got := 0
	var err error
	for ; got < n && err == nil; got++ {
		var res *http.Response
		if res, err = http.ReadResponse(br, nil); err == nil {
			_, err = io.Copy(io.Discard, res.Body)
		}
	}
	if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("reading the answers: %v", err)
	}
	if got == n {
		t.Fatalf("all %d answers were written to a client that read none for a second", n)
	}
}

func TestConnectionsPerAddress(t *testing.T) {
	const max = 20
	ts := limitedServer(t, Config{ConnsPerAddress: max})
	health := "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
	var held []net.Conn
	answered, dropped := 0, 0
	for range 3 * max {
		c := dialFrom(t, ts, "127.0.0.1")
		if _, _, err := ask(c, health); err != nil {
			dropped++
			continue
		}
		answered++
		held = append(held, c)
	}
	if answered != max || dropped != 2*max {
		t.Fatalf("one address: %d connections answered, %d dropped; want %d and %d", answered, dropped, max, 2*max)
	}
	// Another address is served meanwhile: pages and new games.
	other := clientFrom("127.0.0.2")
	for _, path := range []string{"/", "/havannah"} {
		res, err := other.Get(ts.URL + path)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s from another address: %v %v", path, res, err)
		}
		res.Body.Close()
	}
	res, err := other.Post(ts.URL+"/api/games", "application/json", strings.NewReader(`{"game":"dvonn"}`))
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("POST /api/games from another address: %v %v", res, err)
	}
	res.Body.Close()
	// A connection closed frees its place.
	held[0].Close()
	for i := 0; ; i++ {
		c := dialFrom(t, ts, "127.0.0.1")
		if _, _, err := ask(c, health); err == nil {
			break
		}
		if i == 100 {
			t.Fatal("a closed connection never gave its place back")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestLiveConnectionsCountAgainstTheAddress(t *testing.T) {
	const max = 5
	ts := limitedServer(t, Config{ConnsPerAddress: max})
	// The game is made from another address, whose connection stays open.
	res, err := clientFrom("127.0.0.2").Post(ts.URL+"/api/games", "application/json", strings.NewReader(`{"game":"havannah"}`))
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %v %v", res, err)
	}
	var g createResponse
	json.NewDecoder(res.Body).Decode(&g)
	res.Body.Close()
	for range max {
		ts.dial(t, g.ID, "", "").next("state")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	url := "ws" + strings.TrimPrefix(ts.URL, "http") + "/api/games/" + g.ID + "/ws"
	if c, _, err := websocket.Dial(ctx, url, nil); err == nil {
		c.CloseNow()
		t.Fatalf("a live connection beyond the %d of the address was taken", max)
	}
}

// Beyond the instance's bound on live connections a new one is told to
// come back later, and pages and /healthz still answer.
func TestLiveConnectionsOfTheInstanceAreBounded(t *testing.T) {
	const max = 3
	ts := limitedServer(t, Config{MaxLive: max})
	g := ts.newGame(t, `{"game":"havannah"}`)
	var pages []*client
	for i := range max {
		pages = append(pages, ts.dial(t, g.id, "", ""))
		pages[i].next("state")
	}
	url := "ws" + strings.TrimPrefix(ts.URL, "http") + "/api/games/" + g.id + "/ws"
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	c, res, err := websocket.Dial(ctx, url, nil)
	if err == nil {
		c.CloseNow()
		t.Fatalf("a live connection beyond the instance's %d was taken", max)
	}
	if res == nil || res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("beyond the bound: %v, want 503 with Retry-After", res)
	}
	for _, path := range []string{"/healthz", "/g/" + g.id, "/api/games/" + g.id} {
		if res, err := http.Get(ts.URL + path); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("%s while full: %v %v", path, res, err)
		} else {
			res.Body.Close()
		}
	}
	// A page that leaves makes room.
	pages[0].conn.Close(websocket.StatusNormalClosure, "")
	for start := time.Now(); ; {
		c, _, err := websocket.Dial(ctx, url, nil)
		if err == nil {
			c.CloseNow()
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("no room after a page left: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
