package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"bretter/games/dvonn"
	bt "bretter/internal/browsertest"
)

// A DVONN piece is slid into place and a stack carried to where it lands,
// with the mouse; a slide that ends where nothing can land changes nothing.
func TestDragDVONN(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice := bt.NewProfile(t)
	g := apiPair(t, srv, `{"game":"dvonn","start":"me"}`)
	must(t, bt.Navigate(alice, g.playerURL))
	waitStatus(t, alice, "Your turn")

	// From one free space to another: the piece goes where the mouse lets
	// go, and only there.
	drag(t, alice, mouse, "A1", "C3", func() {
		if got := classes(t, alice, "C3"); !strings.Contains(got, "aimed") {
			t.Errorf("C3 under the pointer has the classes %q", got)
		}
	})
	waitMoves(t, alice, 1)
	if s := apiState(t, srv, g.id); strings.Join(s.Moves, " ") != "C3" {
		t.Fatalf("after sliding from A1 to C3 the moves are %v", s.Moves)
	}

	// The rest of the board fills through the API.
	s := dvonn.New()
	play(t, s, "C3")
	for s.Placing() {
		move := s.FormatMove(s.Legal(nil)[0])
		g.move(t, srv, s.ToMove().String(), s.Ply(), move)
		play(t, s, move)
	}
	waitMoves(t, alice, s.Ply())
	waitStatus(t, alice, "Your turn")

	var from, to, other, wrong string
	targets := map[string]bool{}
	for _, m := range s.Legal(nil) {
		text := s.FormatMove(m)
		if from == "" {
			from, to = text[:2], text[2:]
		}
		if text[:2] == from {
			targets[text[2:]] = true
		} else if other == "" {
			other = text[:2]
		}
	}
	for _, st := range s.View().(dvonn.View).Stacks {
		if st.Space != from && st.Space != other && !targets[st.Space] {
			wrong = st.Space
			break
		}
	}

	// A stack chosen by a click stays chosen when another is slid to a
	// space where it cannot land.
	clickCell(t, alice, other)
	drag(t, alice, mouse, from, wrong, func() {
		if got := classes(t, alice, from); !strings.Contains(got, "selected") {
			t.Errorf("the carried stack %s has the classes %q", from, got)
		}
		if got := classes(t, alice, wrong); strings.Contains(got, "aimed") {
			t.Errorf("%s, where %s cannot land, is marked: %q", wrong, from, got)
		}
	})
	if got := classes(t, alice, other); !strings.Contains(got, "selected") {
		t.Errorf("after a slide to nowhere %s has the classes %q", other, got)
	}
	if got := classes(t, alice, from); strings.Contains(got, "selected") {
		t.Errorf("after a slide to nowhere the carried %s is still chosen: %q", from, got)
	}

	drag(t, alice, mouse, from, to, func() {
		if got := classes(t, alice, to); !strings.Contains(got, "target") || !strings.Contains(got, "aimed") {
			t.Errorf("the landing space %s under the pointer has the classes %q", to, got)
		}
	})
	waitMoves(t, alice, s.Ply()+1)
	if m := apiState(t, srv, g.id).Moves; m[len(m)-1] != from+to {
		t.Fatalf("after carrying %s to %s the last move is %s", from, to, m[len(m)-1])
	}
}

// A Fanorona capture is slid out with the mouse, including the question
// of which line to take; on a phone a capture chain is slid out step by
// step with a finger, then confirmed.
func TestDragFanorona(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice := bt.NewProfile(t)
	bob := bt.NewProfile(t, bt.Phone)
	g := apiPair(t, srv, `{"game":"fanorona","start":"me"}`)
	must(t, bt.Navigate(alice, g.playerURL))
	must(t, bt.Navigate(bob, g.otherURL))
	waitStatus(t, bob, "Your friend's turn")
	waitStatus(t, alice, "Your turn")

	// d2 is picked by a click; sliding d3 to where it cannot go leaves d2
	// picked.
	clickCell(t, alice, "d2")
	drag(t, alice, mouse, "d3", "a5", func() {
		if got := classes(t, alice, "d3"); !strings.Contains(got, "picked") {
			t.Errorf("the carried piece d3 has the classes %q", got)
		}
	})
	if got := classes(t, alice, "d2"); !strings.Contains(got, "picked") {
		t.Errorf("after a slide to nowhere d2 has the classes %q", got)
	}
	// d3 to e3 captures by approach or by withdrawal: the page asks.
	drag(t, alice, mouse, "d3", "e3", func() {
		if got := classes(t, alice, "e3"); !strings.Contains(got, "aimed") {
			t.Errorf("the landing point e3 under the pointer has the classes %q", got)
		}
		if got := classes(t, alice, "f3"); !strings.Contains(got, "threat") {
			t.Errorf("f3, which the step can capture, has the classes %q", got)
		}
	})
	must(t, bt.Click(alice, ".fanorona-buttons button.way-W"))
	waitMoves(t, bob, 1)

	// Black's chain b4-c3A-d3W-d2A, one slide a step, the second step
	// answered on the buttons.
	waitStatus(t, bob, "Your turn")
	waitStill(t, bob)
	drag(t, bob, touch, "b4", "c3", func() {
		if got := classes(t, bob, "c3"); !strings.Contains(got, "aimed") {
			t.Errorf("the landing point c3 under the finger has the classes %q", got)
		}
	})
	if got := classes(t, bob, "c3"); !strings.Contains(got, "picked") {
		t.Fatalf("after the first step the piece on c3 has the classes %q", got)
	}
	drag(t, bob, touch, "c3", "d3", nil)
	must(t, bt.Tap(bob, ".fanorona-buttons button.way-W"))
	drag(t, bob, touch, "d3", "d2", nil)
	must(t, bt.WaitText(bob, "#pending-text", "b4-c3A-d3W-d2A"))
	must(t, bt.Tap(bob, "#pending-yes"))
	waitMoves(t, alice, 2)
	if s := apiState(t, srv, g.id); strings.Join(s.Moves, " ") != "d3-e3W b4-c3A-d3W-d2A" {
		t.Fatalf("the moves are %v", s.Moves)
	}
}

// pair is a game between two seats made through the API.
type pair struct {
	id                  string
	playerURL, otherURL string            // the creator's seat, then the friend's
	secrets             map[string]string // by colour
}

// apiPair creates a game as body asks, its creator playing White, and
// seats a friend, both through the API.
func apiPair(t *testing.T, srv *bt.Server, body string) pair {
	t.Helper()
	var c struct {
		ID        string `json:"id"`
		Secret    string `json:"secret"`
		PlayerURL string `json:"player_url"`
		InviteURL string `json:"invite_url"`
	}
	if code, err := post(t, srv.URL+"/api/games", "", body, &c); code != http.StatusCreated || err != nil {
		t.Fatalf("create: %d %v", code, err)
	}
	var j struct {
		Secret    string `json:"secret"`
		PlayerURL string `json:"player_url"`
	}
	invite := c.InviteURL[strings.LastIndex(c.InviteURL, "/")+1:]
	if code, err := post(t, srv.URL+"/api/games/"+c.ID+"/join", "", fmt.Sprintf(`{"invite":%q}`, invite), &j); code != http.StatusOK || err != nil {
		t.Fatalf("join: %d %v", code, err)
	}
	return pair{id: c.ID, playerURL: c.PlayerURL, otherURL: j.PlayerURL, secrets: map[string]string{"white": c.Secret, "black": j.Secret}}
}

// move plays a move through the API for the given colour, waiting out the
// server's limit on moves a second.
func (g pair) move(t *testing.T, srv *bt.Server, colour string, ply int, move string) {
	t.Helper()
	for start := time.Now(); ; {
		code, err := post(t, srv.URL+"/api/games/"+g.id+"/moves", g.secrets[colour], fmt.Sprintf(`{"ply":%d,"move":%q}`, ply, move), nil)
		must(t, err)
		if code == http.StatusOK {
			return
		}
		if code != http.StatusTooManyRequests || time.Since(start) > bt.Timeout {
			t.Fatalf("%s plays %s at ply %d: %d", colour, move, ply, code)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// classes reads the class attribute of a board's point or space.
func classes(t *testing.T, ctx context.Context, name string) string {
	t.Helper()
	s, err := bt.Eval[string](ctx, fmt.Sprintf(`document.querySelector('#board [data-cell=%q]').getAttribute('class')`, name))
	must(t, err)
	return s
}

// pointer is a mouse or a finger: it presses at a point of the screen,
// moves while pressed and lets go.
type pointer struct {
	press, move, release func(x, y float64) chromedp.Action[chromedp.Void]
}

var mouse = pointer{
	press: func(x, y float64) chromedp.Action[chromedp.Void] {
		return chromedp.Steps(
			chromedp.MouseEvent(chromedp.MouseMoved, x, y),
			chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		)
	},
	move: func(x, y float64) chromedp.Action[chromedp.Void] {
		return chromedp.MouseEvent(chromedp.MouseMoved, x, y, chromedp.ButtonLeft)
	},
	release: func(x, y float64) chromedp.Action[chromedp.Void] {
		return chromedp.MouseEvent(chromedp.MouseReleased, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1))
	},
}

// touch needs a Phone profile, whose screen takes touches.
var touch = pointer{
	press: func(x, y float64) chromedp.Action[chromedp.Void] {
		return touchEvent(input.DispatchTouchEventTypeTouchStart, x, y)
	},
	move: func(x, y float64) chromedp.Action[chromedp.Void] {
		return touchEvent(input.DispatchTouchEventTypeTouchMove, x, y)
	},
	release: func(x, y float64) chromedp.Action[chromedp.Void] {
		return touchEvent(input.DispatchTouchEventTypeTouchEnd, x, y)
	},
}

// touchEvent puts one finger down at, or moves it to, x, y; a finger that
// lets go is no longer a touch point.
func touchEvent(typ input.DispatchTouchEventType, x, y float64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		points := []*input.TouchPoint{{X: x, Y: y}}
		if typ == input.DispatchTouchEventTypeTouchEnd {
			points = []*input.TouchPoint{}
		}
		_, err := cdp.Call(ctx, t, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: points})
		return err
	})
}

// drag presses on the board's point or space from, slides in a few steps
// to to, calls during (if not nil) while still pressed there, and lets go.
func drag(t *testing.T, ctx context.Context, p pointer, from, to string, during func()) {
	t.Helper()
	x0, y0 := centre(t, ctx, fmt.Sprintf(`#board [data-cell=%q] .hit`, from))
	x1, y1 := centre(t, ctx, fmt.Sprintf(`#board [data-cell=%q] .hit`, to))
	acts := []chromedp.Action[chromedp.Void]{p.press(x0, y0)}
	const steps = 4
	for k := 1; k <= steps; k++ {
		f := float64(k) / steps
		acts = append(acts, p.move(x0+f*(x1-x0), y0+f*(y1-y0)))
	}
	must(t, chromedp.Do(ctx, acts...))
	if during != nil {
		during()
	}
	// Let go at once, still at speed: the next tap must still count.
	must(t, chromedp.Do(ctx, p.release(x1, y1)))
}
