package e2e

import (
	"context"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	bt "bretter/internal/browsertest"
)

// cutter stands between a browser and the server on the loopback and can
// cut the line: every connection through it is closed and new ones are
// refused until it is mended.
type cutter struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	cut   bool
	conns map[net.Conn]struct{}
}

func newCutter(t *testing.T, target string) *cutter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	c := &cutter{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	t.Cleanup(func() {
		ln.Close()
		c.setCut(true)
	})
	go c.serve()
	return c
}

func (c *cutter) URL() string { return "http://" + c.ln.Addr().String() }

func (c *cutter) serve() {
	for {
		in, err := c.ln.Accept()
		if err != nil {
			return
		}
		c.mu.Lock()
		if c.cut {
			c.mu.Unlock()
			in.Close()
			continue
		}
		out, err := net.Dial("tcp", c.target)
		if err != nil {
			c.mu.Unlock()
			in.Close()
			continue
		}
		c.conns[in], c.conns[out] = struct{}{}, struct{}{}
		c.mu.Unlock()
		go func() { io.Copy(out, in); out.Close() }()
		go func() { io.Copy(in, out); in.Close() }()
	}
}

// retarget sends the connections that come next to another server, as
// a site's address stays the same across a restart.
func (c *cutter) retarget(target string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.target = target
}

// setCut cuts the line (closing what is open) or mends it.
func (c *cutter) setCut(cut bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cut = cut
	if cut {
		for conn := range c.conns {
			conn.Close()
		}
		c.conns = map[net.Conn]struct{}{}
	}
}

// A move made while the connection is lost is kept, the page says so,
// and it goes out with its ply once the connection is back; meanwhile the
// page does not claim to know that the friend is online.
func TestMoveWhileReconnecting(t *testing.T) {
	srv := bt.StartServer(t, "")
	line := newCutter(t, strings.TrimPrefix(srv.URL, "http://"))
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)

	// Bob plays through the cutter; Alice directly.
	id := newGame(t, alice, srv, "havannah", map[string]string{"size": "5"}, "friend")
	invite := strings.Replace(inputValue(t, alice, "invite-url"), srv.URL, line.URL(), 1)
	acceptInvitation(t, bob, invite)
	waitStatus(t, bob, "Your turn")
	must(t, bt.WaitText(bob, "#players", "online"))

	line.setCut(true)
	must(t, bt.WaitText(bob, "#connection", "Reconnecting"))
	waitFor(t, bob, `document.getElementById("players").textContent.includes("online")`, false, "the friend's presence no longer claimed")
	clickCell(t, bob, "e5")
	must(t, bt.WaitText(bob, "#status", "Your move e5 goes out as soon as it is back"))
	bt.Screenshot(t, bob, "reconnecting-with-a-move")
	if s := apiState(t, srv, id); len(s.Moves) != 0 {
		t.Fatalf("moves while cut off: %v", s.Moves)
	}

	line.setCut(false)
	waitStatus(t, alice, "Your turn")
	waitStatus(t, bob, "Your friend's turn")
	if s := apiState(t, srv, id); strings.Join(s.Moves, " ") != "e5" {
		t.Fatalf("after reconnecting the moves are %v", s.Moves)
	}
}

// The site's restart costs the player to move nothing. While the page
// has no connection its clocks stop where they stood and are shown as
// not live; once the site is back, the page is back within the grace
// the clocks give after an outage (its wait is short while a clock
// runs), and shows the clocks as they are.
func TestClocksAcrossARestart(t *testing.T) {
	srv := bt.StartServer(t, "")
	line := newCutter(t, strings.TrimPrefix(srv.URL, "http://"))
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":5},"start":"me","clock":{"initial_s":60,"increment_s":0}}`)
	white := bt.NewProfile(t)
	must(t, bt.Navigate(white, strings.Replace(g.playerURL, srv.URL, line.URL(), 1)))
	waitStatus(t, white, "Your turn")
	g.move(t, srv, "white", 0, "e5")
	g.move(t, srv, "black", 1, "d4")
	waitFor(t, white, `document.querySelector("#clocks .clock.white.running") !== null`, true, "White's clock running")
	playerScriptsIn(t, white)

	type clocked struct {
		Clock struct {
			WhiteMS int64 `json:"white_ms"`
		} `json:"clock"`
	}
	before := readState[clocked](t, srv, g.id, "").Clock.WhiteMS
	srv.Stop()
	must(t, bt.WaitText(white, "#connection", "Reconnecting"))
	waitFor(t, white, `document.querySelector("#clocks.stale") !== null && document.querySelector(".bar-clock.white.stale") !== null`, true,
		"the clocks shown as not live")
	const shown = `document.querySelector("#clocks .white .time").textContent`
	first, err := bt.Eval[string](white, shown)
	must(t, err)
	time.Sleep(1500 * time.Millisecond)
	later, err := bt.Eval[string](white, shown)
	must(t, err)
	if first != later {
		t.Fatalf("White's clock ran on without a connection: %s, then %s", first, later)
	}
	bt.Screenshot(t, white, "clocks-offline")

	// Down long enough for the page's waits between tries to grow past
	// what the grace after the outage covers, were they not kept short.
	time.Sleep(15 * time.Second)
	again := bt.StartServer(t, srv.DB)
	line.retarget(strings.TrimPrefix(again.URL, "http://"))
	waitFor(t, white, `document.getElementById("connection").hidden && document.querySelector("#clocks.stale, .bar-clock.stale") === null`, true,
		"the page back with live clocks")
	after := readState[clocked](t, again, g.id, "").Clock.WhiteMS
	// What White may lose: the moment between reading the clock and the
	// stop, not the outage nor the page's way back.
	if after < before-1000 {
		t.Fatalf("White had %d ms before the restart, %d once the page was back", before, after)
	}
	// The page shows the clock as the server has it (to the second, and
	// the moment it takes to read both).
	page, err := bt.Eval[int64](white, `(() => { const [m, s] = `+shown+`.split(":").map(Number); return m * 60 + s; })()`)
	must(t, err)
	if d := page - after/1000; d < -2 || d > 2 {
		t.Fatalf("the page shows White with %d s, the server %d ms", page, after)
	}
}

// playerScriptsIn waits until the scripts a player's page loads after
// the board are in, before the line goes: a page that had to fetch one
// then would fail.
func playerScriptsIn(t *testing.T, ctx context.Context) {
	t.Helper()
	_, err := bt.Eval[bool](ctx, `Promise.all(["actions.js", "chat.js", "notices.js", "boards/arrows.js", "clocks.js"].map((s) =>
		import(new URL(s, document.querySelector("script[type=module]").src)))).then(() => true)`)
	must(t, err)
}

// holdWaits makes the page's tries to reconnect go at once, and notes
// how long the page meant to wait before each: the first `fast` of them,
// after which the next try waits until something calls it at once.
const holdWaits = `(() => {
	window.waits = [];
	const real = window.setTimeout;
	window.setTimeout = (f, ms, ...rest) => {
		if (f.name !== "connect") return real(f, ms, ...rest);
		waits.push(ms);
		return waits.length <= 12 ? real(f, 0) : real(() => {}, 2 ** 30);
	};
	return true;
})()`

// reconnectWaits cuts the line of a page that is connected through it,
// lets it try to reconnect a dozen times and returns the waits it meant
// to take. The page is left trying again only when told to.
func reconnectWaits(t *testing.T, ctx context.Context, line *cutter) []float64 {
	t.Helper()
	playerScriptsIn(t, ctx)
	_, err := bt.Eval[bool](ctx, holdWaits)
	must(t, err)
	line.setCut(true)
	waitFor(t, ctx, `waits.length`, 13, "tries to reconnect")
	waits, err := bt.Eval[[]float64](ctx, `waits`)
	must(t, err)
	line.setCut(false)
	return waits
}

// Without a live clock a page that lost the site waits longer and longer
// between tries, up to half a minute, each wait partly random so that the
// pages do not all come back at once; it tries at once when the device
// says it is back online.
func TestReconnectWaitsWithoutALiveClock(t *testing.T) {
	srv := bt.StartServer(t, "")
	line := newCutter(t, strings.TrimPrefix(srv.URL, "http://"))
	for _, clock := range []string{"", `,"clock":{"days":3}`} {
		g := apiPair(t, srv, `{"game":"havannah","options":{"size":5},"start":"me"`+clock+`}`)
		white := bt.NewProfile(t)
		must(t, bt.Navigate(white, strings.Replace(g.playerURL, srv.URL, line.URL(), 1)))
		waitStatus(t, white, "Your turn")
		waits := reconnectWaits(t, white, line)
		if waits[0] > 500 {
			t.Fatalf("%q: the first wait is %v ms", clock, waits[0])
		}
		// From the eighth try on, 500 ms doubled is past half a minute.
		late := waits[8:]
		for _, w := range late {
			if w < 15000 || w > 30000 {
				t.Fatalf("%q: a late wait of %v ms, not between 15 and 30 s: %v", clock, w, waits)
			}
		}
		if slices.Min(late) == slices.Max(late) {
			t.Fatalf("%q: the late waits are all the same: %v", clock, waits)
		}
		_, err := bt.Eval[bool](white, `dispatchEvent(new Event("online"))`)
		must(t, err)
		waitFor(t, white, `document.getElementById("connection").hidden`, true, "the page back at once when online")
	}
}

// In a game on a live clock a page never waits more than two seconds
// between tries, and tries at once when it is back on screen.
func TestReconnectWaitsWithALiveClock(t *testing.T) {
	srv := bt.StartServer(t, "")
	line := newCutter(t, strings.TrimPrefix(srv.URL, "http://"))
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":5},"start":"me","clock":{"initial_s":600,"increment_s":0}}`)
	white := bt.NewProfile(t)
	must(t, bt.Navigate(white, strings.Replace(g.playerURL, srv.URL, line.URL(), 1)))
	waitStatus(t, white, "Your turn")
	waits := reconnectWaits(t, white, line)
	if slices.Max(waits) > 2000 {
		t.Fatalf("a wait longer than 2 s: %v", waits)
	}
	_, err := bt.Eval[bool](white, `document.dispatchEvent(new Event("visibilitychange", { bubbles: true }))`)
	must(t, err)
	waitFor(t, white, `document.getElementById("connection").hidden`, true, "the page back at once when on screen")
}
