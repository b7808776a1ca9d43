package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"

	bt "bretter/internal/browsertest"
)

// cellSeen is the size of a board's cell on the screen, and whether a
// finger put on its middle would land on it: in view, not under another
// element, not scrolled out of the board's frame.
type cellSeen struct {
	Width, Height float64
	Seen          bool
}

func seeCell(t *testing.T, ctx context.Context, name string) cellSeen {
	t.Helper()
	c, err := bt.Eval[cellSeen](ctx, fmt.Sprintf(`(() => {
		const g = document.querySelector('#board [data-cell=%q]'), r = g.querySelector('polygon').getBoundingClientRect();
		const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		return {Width: r.width, Height: r.height, Seen: !!at && g.contains(at)};
	})()`, name))
	must(t, err)
	return c
}

// tapCell taps the board's cell name with a finger, and again when the
// first tap zoomed the board in, its cells too small for a finger.
func tapCell(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	sel := fmt.Sprintf(`#board [data-cell=%q]`, name)
	must(t, bt.Tap(ctx, sel))
	zoomed, err := bt.Eval[bool](ctx, `document.getElementById("board").classList.contains("zoomed")`)
	must(t, err)
	if zoomed {
		must(t, bt.Tap(ctx, sel))
	}
}

// A side-10 Havannah board on a 360 px phone draws its cells under 18 px
// wide, smaller than a finger's target should be (24 px, WCAG 2.5.8): the
// first tap zooms in on where it landed, within the board's frame, and
// the tap that chooses a cell is on a cell at least 24 px across. The
// zoom ends with the move, with a tap beside the board or with its
// button; a move chosen with the keyboard, and a click of a mouse on as
// small a board, choose at once, as they did.
func TestBigBoardZoomsForAFinger(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice := bt.NewProfile(t, bt.Phone, bt.Size(360, 740))
	bob := bt.NewProfile(t, bt.Size(360, 740)) // a mouse, in a window as narrow
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":10},"start":"me"}`)
	must(t, bt.Navigate(alice, g.playerURL))
	must(t, bt.Navigate(bob, g.otherURL))
	waitStatus(t, alice, "Your turn")
	frame := rectOf(t, alice, "#board")

	// Tapped until the cell is chosen, which asks for a confirmation on a
	// touch screen.
	const target = "e7"
	var tapped cellSeen
	for taps := 0; taps < 3; taps++ {
		if taps == 2 {
			t.Fatalf("two taps on %s chose nothing", target)
		}
		tapped = seeCell(t, alice, target)
		if !tapped.Seen {
			t.Fatalf("after %d taps %s is not where a finger would tap it", taps, target)
		}
		must(t, bt.Tap(alice, fmt.Sprintf(`#board [data-cell=%q]`, target)))
		chosen, err := bt.Eval[bool](alice, `!document.getElementById("pending").hidden`)
		must(t, err)
		if chosen {
			break
		}
		// The board zoomed in its frame, which keeps its place on the
		// page and pans, with a button back to the whole board.
		must(t, bt.WaitText(alice, "#board button", "Whole board"))
		if now := rectOf(t, alice, "#board"); now != frame {
			t.Fatalf("zoomed in, the board's frame went from %+v to %+v", frame, now)
		}
		waitFor(t, alice, `(() => { const b = document.getElementById("board"); return b.scrollWidth > b.clientWidth && b.scrollHeight > b.clientHeight; })()`, true, "the zoomed board pans")
		screenSized(t, alice, "phone-zoomed-screen")
	}
	if tapped.Width < 24 || tapped.Height < 24 {
		t.Fatalf("the tap that chose %s was on a cell %.1f×%.1f px", target, tapped.Width, tapped.Height)
	}
	must(t, bt.WaitText(alice, "#pending-text", target))
	must(t, bt.Tap(alice, "#pending-yes"))
	waitMoves(t, bob, 1)
	waitFor(t, alice, `document.querySelector("#board button") === null && document.querySelector("#board svg").getBoundingClientRect().width`, frame.Width, "the whole board again after the move")

	// A mouse clicks as small a cell and plays it at once.
	waitStatus(t, bob, "Your turn")
	if c := seeCell(t, bob, "j10"); c.Width >= 24 {
		t.Fatalf("the mouse's board has cells %.1f px wide: not small", c.Width)
	}
	clickCell(t, bob, "j10")
	waitMoves(t, alice, 2)
	if s := apiState(t, srv, g.id); strings.Join(s.Moves, " ") != "e7 j10" {
		t.Fatalf("the moves are %v", s.Moves)
	}

	// Zoomed again, a tap beside the board shows the whole board; so does
	// the button, and Escape on the board.
	waitStatus(t, alice, "Your turn")
	zoomIn := func() {
		t.Helper()
		must(t, bt.Tap(alice, `#board [data-cell="k12"]`))
		must(t, bt.WaitText(alice, "#board button", "Whole board"))
	}
	zoomedOut := func(how string) {
		t.Helper()
		waitFor(t, alice, `document.querySelector("#board button") === null && document.getElementById("pending").hidden`, true, how)
	}
	zoomIn()
	must(t, bt.Tap(alice, "#bar-top"))
	zoomedOut("a tap beside the board zooms out")
	zoomIn()
	must(t, bt.Tap(alice, "#board button"))
	zoomedOut("the button zooms out")
	// By keyboard: the button is reached and pressed, and the focus goes
	// back to the board, not to the top of the page.
	zoomIn()
	_, err := bt.Eval[bool](alice, `(document.querySelector("#board button").focus(), true)`)
	must(t, err)
	press(t, alice, kb.Enter)
	zoomedOut("Enter on the button zooms out")
	waitFor(t, alice, `document.activeElement.closest("#board svg") !== null`, true, "the focus back on the board")
	zoomIn()
	_, err = bt.Eval[bool](alice, `(document.querySelector('#board [data-cell="k12"]').focus(), true)`)
	must(t, err)
	press(t, alice, kb.Escape)
	zoomedOut("Escape zooms out")

	// A cell chosen with the keyboard is chosen at once.
	press(t, alice, kb.Enter)
	must(t, bt.WaitText(alice, "#pending-text", "k12"))
	waitFor(t, alice, `document.querySelector("#board button") === null`, true, "no zoom for the keyboard")
}
