package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"bretter/games/fanorona"
	bt "bretter/internal/browsertest"
)

// After a player's own move from the keyboard, on every board: the focus
// stays on the cell played, which stays the board's one stop of Tab until
// the focus leaves the board; Tab leaves the board for the next control
// and Shift+Tab comes back to the same stop, during the friend's turn too.
// The friend's move leaves the focus where it is and is announced; the
// board's stop is then the focused cell alone, the arrow keys go from it to
// what may be chosen. Once the focus has left the board, Tab brings it back
// onto a choice, from which the arrow keys reach every other one.

// Havannah, from the last cell in page order: every choice left comes
// before it.
func TestBoardStopHavannah(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	startPair(t, srv, alice, bob, "4")
	checkBoardStop(t, alice, boardRound{
		game: "havannah",
		play: func() {
			focusCell(t, alice, "g7")
			press(t, alice, kb.Enter)
			waitMoves(t, bob, 1)
		},
		played:   "g7",
		reply:    func() { clickCell(t, bob, "d4") },
		announce: "Black plays d4.",
	})

	// The focus away from the board while the friend moves: Tab into the
	// board lands on a choice, the one after the cell played.
	focusCell(t, alice, "a2")
	press(t, alice, kb.Enter)
	waitMoves(t, bob, 3)
	waitFor(t, alice, activeCell, "a2", "the focus kept on the cell played")
	press(t, alice, kb.Tab)
	waitFor(t, alice, `document.activeElement.closest("#board") === null && document.activeElement !== document.body`, true, "Tab past the board")
	clickCell(t, bob, "d5")
	waitStatus(t, alice, "Your turn")
	shiftTab(t, alice)
	waitFor(t, alice, activeCell, "a3", "Shift+Tab back onto the choice after the cell played")
	waitFor(t, alice, boardStops, "a3", "the board's one stop")

	// The arrow keys from the cell played go to the choices beside it.
	press(t, alice, kb.Enter)
	waitMoves(t, bob, 5)
	clickCell(t, bob, "d6")
	waitStatus(t, alice, "Your turn")
	waitFor(t, alice, activeCell, "a3", "the focus kept on the cell played")
	press(t, alice, kb.ArrowLeft)
	waitFor(t, alice, activeCell, "a1", "ArrowLeft from the cell played, over a2")
	press(t, alice, kb.ArrowRight)
	waitFor(t, alice, activeCell, "a4", "ArrowRight over the cells played")
	waitFor(t, alice, boardStops, "a4", "the board's one stop")
	press(t, alice, kb.ArrowRight)
	waitFor(t, alice, activeCell, "b1", "ArrowRight on from the row's end to the next row")

	// From the board itself, which holds the focus when nothing on it can,
	// the arrow keys go to a choice and do not step through the game.
	focused, err := bt.Eval[bool](alice, `(() => { const b = document.querySelector('#board svg'); b.setAttribute('tabindex', '-1'); b.focus(); return document.activeElement === b; })()`)
	must(t, err)
	if !focused {
		t.Fatal("the board cannot take the focus")
	}
	waitFor(t, alice, boardStops, "the board", "the board's one stop")
	press(t, alice, kb.ArrowLeft)
	waitFor(t, alice, activeCell, "a1", "ArrowLeft from the board to its first choice")
	if banner, _ := bt.Eval[string](alice, `document.getElementById("replay-banner").textContent`); banner != "" {
		t.Fatalf("an arrow key on the board stepped through the game: %q", banner)
	}
}

// DVONN, placing a piece on the last space in page order.
func TestBoardStopDVONN(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	newGame(t, alice, srv, "dvonn", nil, "me")
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, alice, "Your turn")
	checkBoardStop(t, alice, boardRound{
		game: "dvonn",
		play: func() {
			focusCell(t, alice, "K5")
			press(t, alice, kb.Enter)
			waitMoves(t, bob, 1)
		},
		played:   "K5",
		reply:    func() { clickCell(t, bob, "A1") },
		announce: "Black places a DVONN piece on A1.",
	})
}

// Fanorona, a turn that ends on e3; the friend's turn leaves the piece
// there unable to move, with pieces to move before and after it in page
// order.
func TestBoardStopFanorona(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	newGame(t, alice, srv, "fanorona", nil, "me")
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, alice, "Your turn")
	friend := &fanoronaPlayer{t: t, st: fanorona.New(), shots: map[string]bool{"take back": true, "escape": true}}
	checkBoardStop(t, alice, boardRound{
		game: "fanorona",
		play: func() {
			focusCell(t, alice, "f2")
			press(t, alice, kb.Enter)
			focusCell(t, alice, "e3")
			press(t, alice, kb.Enter)
			waitMoves(t, bob, 1)
			m, err := friend.st.ParseMove("f2-e3A")
			must(t, err)
			must(t, friend.st.Play(m))
		},
		played:   "e3",
		reply:    func() { friend.play(bob, "d5-d4A-c5W") },
		announce: "Black plays d5-d4A-c5W and captures 4 pieces.",
	})
}

// boardRound is one move of the player and the friend's answer.
type boardRound struct {
	game     string // names the screenshot
	play     func() // the player's move by keyboard, Enter last on played
	played   string
	reply    func() // the friend's move
	announce string // what the live region says of it
}

const (
	// activeCell names the cell with the focus, or says where it is.
	activeCell = `(() => {
		const a = document.activeElement;
		if (!a || a === document.body) return "the page's body";
		return a.dataset.cell ?? (a.closest("#board") ? "the board" : "off the board");
	})()`
	// boardStops lists the board's elements in the order of Tab.
	boardStops = `[...document.querySelectorAll('#board [tabindex="0"], #board svg[tabindex="0"]')].map((el) => el.dataset.cell ?? "the board").join()`
	// control names what has the focus off the board.
	control = `(() => {
		const a = document.activeElement;
		if (!a || a === document.body) return "the page's body";
		if (a.closest("#board")) return "on the board";
		return a.tagName + " " + a.className + " " + a.textContent.trim();
	})()`
)

func checkBoardStop(t *testing.T, me context.Context, r boardRound) {
	t.Helper()
	r.play()
	waitFor(t, me, activeCell, r.played, "the focus kept on the cell played")
	waitFor(t, me, boardStops, r.played, "the board's one stop")

	press(t, me, kb.Tab)
	waitFor(t, me, `document.activeElement.closest("#board") === null && document.activeElement !== document.body`, true, "Tab past the board")
	next, err := bt.Eval[string](me, control)
	must(t, err)
	shiftTab(t, me)
	waitFor(t, me, activeCell, r.played, "Shift+Tab back to the cell played, in the friend's turn")

	r.reply()
	waitStatus(t, me, "Your turn")
	waitFor(t, me, `document.getElementById("announce").textContent`, r.announce, "the friend's move announced")
	waitStill(t, me)
	waitFor(t, me, activeCell, r.played, "the focus left where it was by the friend's move")
	waitFor(t, me, boardStops, r.played, "the board's one stop, where the focus is")
	bt.Screenshot(t, me, r.game+"-focus-after-reply")
	choices := boardChoices(t, me)
	if slices.Contains(choices, r.played) || len(choices) == 0 {
		t.Fatalf("choices %v after the friend's move", choices)
	}

	press(t, me, kb.Tab)
	waitFor(t, me, control, next, "Tab from the cell played to the control after the board")
	shiftTab(t, me)
	waitFor(t, me, `document.activeElement.matches('#board [data-cell][role="button"]')`, true, "Shift+Tab back onto a choice")
	stop, err := bt.Eval[string](me, activeCell)
	must(t, err)
	waitFor(t, me, boardStops, stop, "the board's one stop")
	press(t, me, kb.Tab)
	waitFor(t, me, control, next, "Tab from the stop to the control after the board")
	shiftTab(t, me)
	waitFor(t, me, activeCell, stop, "Shift+Tab back to the same stop")
	arrowsReach(t, me, choices)
}

// boardChoices lists what may be chosen on the board.
func boardChoices(t *testing.T, ctx context.Context) []string {
	t.Helper()
	cells, err := bt.Eval[[]string](ctx, `[...document.querySelectorAll('#board [data-cell][role="button"]')].map((c) => c.dataset.cell)`)
	must(t, err)
	return cells
}

// arrowsReach checks that the arrow keys go from each of choices to
// choices only, and that from any one of them they reach every other.
func arrowsReach(t *testing.T, ctx context.Context, choices []string) {
	t.Helper()
	to := map[string][]string{}
	for _, at := range choices {
		for _, key := range []string{kb.ArrowLeft, kb.ArrowRight, kb.ArrowUp, kb.ArrowDown} {
			focusCell(t, ctx, at)
			press(t, ctx, key)
			got, err := bt.Eval[string](ctx, activeCell)
			must(t, err)
			if !slices.Contains(choices, got) {
				t.Fatalf("an arrow key went from %s to %s, not a choice", at, got)
			}
			to[at] = append(to[at], got)
		}
	}
	for _, from := range choices {
		seen := map[string]bool{from: true}
		for todo := []string{from}; len(todo) > 0; todo = todo[1:] {
			for _, c := range to[todo[0]] {
				if !seen[c] {
					seen[c] = true
					todo = append(todo, c)
				}
			}
		}
		var missed []string
		for _, c := range choices {
			if !seen[c] {
				missed = append(missed, c)
			}
		}
		if len(missed) > 0 {
			t.Fatalf("the arrow keys from %s never reach %s", from, strings.Join(missed, " "))
		}
	}
}

// focusCell gives the focus to a cell of the board, which must take it.
func focusCell(t *testing.T, ctx context.Context, cell string) {
	t.Helper()
	ok, err := bt.Eval[bool](ctx, fmt.Sprintf(`(() => { const c = document.querySelector('#board [data-cell=%q]'); c?.focus(); return c !== null && document.activeElement === c; })()`, cell))
	must(t, err)
	if !ok {
		d, _ := bt.Eval[string](ctx, `[...document.querySelectorAll('#board [tabindex]')].map((c) => (c.dataset.cell ?? c.tagName) + '=' + c.getAttribute('tabindex') + ':' + c.getAttribute('role')).join(' ') + ' active=' + (document.activeElement.dataset?.cell ?? document.activeElement.tagName)`)
		t.Log(d)
		t.Fatalf("cell %s cannot take the focus", cell)
	}
}

func shiftTab(t *testing.T, ctx context.Context) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift))))
}

// A watcher, and a player whose turn it is not and who has never been on
// the board, reach it with Tab too, on every board: the board itself is
// its one stop until a cell takes it, Tab leaves it and Shift+Tab comes
// back to it. The arrow keys go from the board to a cell and on over
// every cell, each named with what stands on it; the cell reached stays
// the stop when Tab leaves the board. Enter on a watcher's cell plays
// nothing and says nothing.
func TestBoardStopWithNothingToChoose(t *testing.T) {
	srv := bt.StartServer(t, "")
	for _, b := range []struct{ create, move, cell, label string }{
		{`{"game":"havannah","options":{"size":4},"start":"me"}`, "d4", "d4", "d4, white stone"},
		{`{"game":"dvonn","start":"me"}`, "K5", "K5", "K5, DVONN piece, last move"},
		{`{"game":"fanorona","start":"me"}`, "f2-e3A", "e3", "e3, white piece"},
	} {
		g := apiPair(t, srv, b.create)
		g.move(t, srv, "white", 0, b.move)
		watcher, white := bt.NewProfile(t), bt.NewProfile(t)
		must(t, bt.Navigate(watcher, srv.URL+"/g/"+g.id))
		must(t, bt.Navigate(white, g.playerURL))
		for _, who := range []struct {
			name string
			ctx  context.Context
			keys string // what the board says of its keys
		}{
			{"a watcher", watcher, "The arrow keys move over the board; as a watcher you cannot play."},
			{"White in Black's turn", white, "The arrow keys go between what you can choose; Enter or Space chooses."},
		} {
			what := func(s string) string { return fmt.Sprintf("%s, %s: %s", b.move, who.name, s) }
			me := who.ctx
			waitMoves(t, me, 1)
			waitFor(t, me, `document.querySelector('#board .board-svg').getAttribute("aria-description") ?? ""`, who.keys, what("the board's description"))
			_, err := bt.Eval[bool](me, `(document.querySelector(".skip-board").focus(), true)`)
			must(t, err)
			press(t, me, kb.Tab)
			waitFor(t, me, activeCell, "the board", what("Tab onto the board"))
			waitFor(t, me, boardStops, "the board", what("the board's one stop"))
			press(t, me, kb.Tab)
			waitFor(t, me, `document.activeElement.closest("#board") === null && document.activeElement !== document.body`, true, what("Tab past the board"))
			next, err := bt.Eval[string](me, control)
			must(t, err)
			shiftTab(t, me)
			waitFor(t, me, activeCell, "the board", what("Shift+Tab back onto the board"))

			labels := sweepBoard(t, me)
			cells, err := bt.Eval[int](me, `document.querySelectorAll("#board [data-cell]").length`)
			must(t, err)
			if len(labels) != cells {
				t.Fatalf("%s: the arrow keys went over %d of %d cells", what(""), len(labels), cells)
			}
			if labels[b.cell] != b.label {
				t.Fatalf("%s: cell %s read as %q, want %q", what(""), b.cell, labels[b.cell], b.label)
			}
			last, err := bt.Eval[string](me, activeCell)
			must(t, err)
			waitFor(t, me, boardStops, last, what("the board's one stop, where the focus is"))
			press(t, me, kb.Tab)
			waitFor(t, me, control, next, what("Tab from the cell to the control after the board"))
			shiftTab(t, me)
			waitFor(t, me, activeCell, last, what("Shift+Tab back to the same cell"))
			if who.ctx == watcher {
				press(t, me, kb.Enter)
				waitFor(t, me, activeCell, last, what("the focus kept after Enter"))
				waitFor(t, me, `document.getElementById("notice").textContent`, "", what("the notice after Enter"))
			}
		}
		if s := apiState(t, srv, g.id); len(s.Moves) != 1 {
			t.Fatalf("%s: moves %v", b.move, s.Moves)
		}
	}
}

// sweepBoard goes over the whole board with the arrow keys from the board
// itself, which has the focus: up and left as far as they go, then right
// along each row and on to the next, as the board is seen. It returns the
// accessible name of every cell it went over, by cell, checking that each
// is named after its cell.
func sweepBoard(t *testing.T, ctx context.Context) map[string]string {
	t.Helper()
	// at names what has the focus: a cell and its accessible name.
	at := func() (cell, name string) {
		s, err := bt.Eval[string](ctx, `(document.activeElement.dataset.cell ?? "not a cell") + "|" + (document.activeElement.getAttribute("aria-label") ?? "")`)
		must(t, err)
		cell, name, _ = strings.Cut(s, "|")
		return cell, name
	}
	cell, name := at()
	for _, key := range []string{kb.ArrowUp, kb.ArrowLeft} {
		for {
			press(t, ctx, key)
			c, n := at()
			if c == cell {
				break
			}
			cell, name = c, n
		}
	}
	labels := map[string]string{}
	for {
		if !strings.HasPrefix(name, cell+",") {
			t.Fatalf("the arrow keys went to %s, named %q", cell, name)
		}
		labels[cell] = name
		press(t, ctx, kb.ArrowRight)
		c, n := at()
		if c == cell {
			return labels
		}
		if _, seen := labels[c]; seen {
			t.Fatalf("ArrowRight came back to %s", c)
		}
		cell, name = c, n
	}
}
