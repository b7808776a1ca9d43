package e2e

import (
	"io"
	"net"
	"strings"
	"sync"
	"testing"

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
