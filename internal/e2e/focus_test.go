package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"

	bt "bretter/internal/browsertest"
)

// The board from the keyboard: the board is one stop of Tab, on a cell
// that may be played; the arrow keys go between those cells, and Enter
// plays one; the focus stays on the board after the move, and the arrow
// keys do not step through the game while a cell has the focus. On
// Fanorona's board too, one point that can be played is the tab stop.
func TestBoardKeyboardFocus(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	id := startPair(t, srv, alice, bob, "4")

	_, err := bt.Eval[bool](alice, `(document.querySelector(".langs a:last-child").focus(), true)`)
	must(t, err)
	// First a way past the board's cells, straight to the actions.
	press(t, alice, kb.Tab)
	waitFor(t, alice, `document.activeElement.textContent`, "Skip the board, to the actions", "the link past the board focused by Tab")
	press(t, alice, kb.Enter)
	press(t, alice, kb.Tab)
	waitFor(t, alice, `document.activeElement.closest("#action-bar") !== null`, true, "the actions reached past the board")
	_, err = bt.Eval[bool](alice, `(document.querySelector(".langs a:last-child").focus(), true)`)
	must(t, err)
	press(t, alice, kb.Tab)
	press(t, alice, kb.Tab)
	waitFor(t, alice, `document.activeElement.dataset.cell ?? ""`, "a1", "the first cell focused by Tab")
	stops, err := bt.Eval[int](alice, `document.querySelectorAll('#board [tabindex="0"]').length`)
	must(t, err)
	if stops != 1 {
		t.Fatalf("the board has %d stops of Tab", stops)
	}
	press(t, alice, kb.Tab)
	waitFor(t, alice, `document.activeElement.closest("#board") === null`, true, "Tab past the board from its cell")
	_, err = bt.Eval[bool](alice, `(document.querySelector('#board [data-cell="a1"]').focus(), true)`)
	must(t, err)
	press(t, alice, kb.ArrowRight)
	waitFor(t, alice, `document.activeElement.dataset.cell ?? ""`, "a2", "the next cell by ArrowRight")
	waitFor(t, alice, `[...document.querySelectorAll('#board [tabindex="0"]')].map((c) => c.dataset.cell).join()`, "a2", "the stop of Tab moved along")
	press(t, alice, kb.Enter)
	waitMoves(t, bob, 1)
	waitFor(t, alice, `document.activeElement.dataset.cell ?? ""`, "a2", "the focus kept on the cell played")
	if y, _ := bt.Eval[float64](alice, `window.scrollY`); y != 0 {
		t.Fatalf("the page scrolled to %.0f", y)
	}
	// With nothing to choose in the friend's turn, the arrow keys go over
	// every cell.
	press(t, alice, kb.ArrowLeft)
	waitFor(t, alice, `document.activeElement.dataset.cell ?? ""`, "a1", "ArrowLeft in the friend's turn")
	press(t, alice, kb.Home)
	if banner, _ := bt.Eval[string](alice, `document.getElementById("replay-banner").textContent`); banner != "" {
		t.Fatalf("keys on a board cell stepped through the game: %q", banner)
	}
	press(t, alice, kb.ArrowRight)
	waitFor(t, alice, `document.activeElement.dataset.cell ?? ""`, "a2", "ArrowRight back to the cell played")
	// Once it is her turn again, Tab leaves the board from the cell she
	// played, and Shift+Tab comes back to the choice after it.
	clickCell(t, bob, "d4")
	waitStatus(t, alice, "Your turn")
	press(t, alice, kb.Tab)
	waitFor(t, alice, `document.activeElement.closest("#board") === null`, true, "Tab past the board from the cell played")
	shiftTab(t, alice)
	waitFor(t, alice, `document.activeElement.dataset.cell ?? ""`, "a3", "the cell after the one played")
	// The arrow keys go to the nearest cell she may play in their
	// direction, over the taken ones; the board says so to a screen
	// reader.
	waitFor(t, alice, `document.querySelector('#board .board-svg').getAttribute("aria-description") ?? ""`,
		"The arrow keys go between what you can choose; Enter or Space chooses.", "the board's description")
	press(t, alice, kb.ArrowLeft)
	waitFor(t, alice, `document.activeElement.dataset.cell ?? ""`, "a1", "ArrowLeft from a3, over a2")
	press(t, alice, kb.ArrowRight)
	waitFor(t, alice, `document.activeElement.dataset.cell ?? ""`, "a3", "ArrowRight from a1, over a2")
	press(t, alice, kb.ArrowDown)
	waitFor(t, alice, `document.activeElement.dataset.cell`, "b3", "ArrowDown from a3 to a neighbour in row b")
	press(t, alice, kb.ArrowUp)
	waitFor(t, alice, `document.activeElement.dataset.cell?.[0] ?? ""`, "a", "ArrowUp back to row a")
	if y, _ := bt.Eval[float64](alice, `window.scrollY`); y != 0 {
		t.Fatalf("the arrow keys scrolled the page to %.0f", y)
	}
	if s := apiState(t, srv, id); len(s.Moves) != 2 {
		t.Fatalf("moves %v", s.Moves)
	}

	carol, dave := bt.NewProfile(t), bt.NewProfile(t)
	newGame(t, carol, srv, "fanorona", nil, "me")
	acceptInvitation(t, dave, inputValue(t, carol, "invite-url"))
	waitStatus(t, carol, "Your turn")
	stops, err = bt.Eval[int](carol, `document.querySelectorAll('#board .pt[tabindex="0"]').length`)
	must(t, err)
	if stops != 1 {
		t.Fatalf("%d of 45 points are tab stops", stops)
	}
	const movable = 1
	// What Tab visits is what counts: a browser may make a point a tab
	// stop without its tabindex saying so.
	_, err = bt.Eval[bool](carol, `(document.querySelector(".langs a:last-child").focus(), true)`)
	must(t, err)
	press(t, carol, kb.Tab) // the link past the board
	for k := range movable + 1 {
		press(t, carol, kb.Tab)
		focused, err := bt.Eval[string](carol, `(() => {
			const a = document.activeElement;
			if (!a.closest('#board .pt')) return 'off the board';
			return a.classList.contains('movable') ? 'a movable piece' : 'point ' + a.dataset.cell;
		})()`)
		must(t, err)
		want := "a movable piece"
		if k == movable {
			want = "off the board"
		}
		if focused != want {
			t.Fatalf("Tab %d reached %s, want %s", k+1, focused, want)
		}
	}
	// The arrow keys go from a movable piece to another, never to a point
	// that cannot be chosen.
	_, err = bt.Eval[bool](carol, `(document.querySelector('#board .pt.movable').focus(), true)`)
	must(t, err)
	for _, key := range []string{kb.ArrowRight, kb.ArrowLeft, kb.ArrowDown, kb.ArrowUp} {
		before, _ := bt.Eval[string](carol, `document.activeElement.dataset.cell`)
		press(t, carol, key)
		after, err := bt.Eval[string](carol, `document.activeElement.classList.contains("movable") ? document.activeElement.dataset.cell : "not a movable piece"`)
		must(t, err)
		if after == "not a movable piece" {
			t.Fatalf("an arrow key went from %s to %s", before, after)
		}
	}
}

// A Fanorona step that captures both ways waits, after Enter, for the
// line to be chosen; once the turn is sent, the focus stays on the board
// rather than falling to the top of the page.
func TestFanoronaByKeyboard(t *testing.T) {
	srv := bt.StartServer(t, "")
	carol, dave := bt.NewProfile(t), bt.NewProfile(t)
	id := newGame(t, carol, srv, "fanorona", nil, "me")
	acceptInvitation(t, dave, inputValue(t, carol, "invite-url"))
	waitStatus(t, carol, "Your turn")
	focus := func(sel string) {
		t.Helper()
		ok, err := bt.Eval[bool](carol, fmt.Sprintf(`(() => { const el = document.querySelector(%q); el?.focus(); return el !== null && document.activeElement === el; })()`, sel))
		must(t, err)
		if !ok {
			t.Fatalf("%s cannot take the focus", sel)
		}
	}
	focus(`#board [data-cell="d3"]`)
	press(t, carol, kb.Enter)
	focus(`#board [data-cell="e3"]`)
	press(t, carol, kb.Enter)
	waitFor(t, carol, `document.querySelector("#board button.way-W") !== null`, true, "the question of which line to take")
	time.Sleep(300 * time.Millisecond) // a move sent by the same Enter would be on its way
	if s := apiState(t, srv, id); len(s.Moves) != 0 {
		t.Fatalf("Enter on the landing point played %v without asking which line", s.Moves)
	}
	focus(`#board button.way-W`)
	press(t, carol, kb.Enter)
	waitMoves(t, dave, 1)
	if s := apiState(t, srv, id); strings.Join(s.Moves, " ") != "d3-e3W" {
		t.Fatalf("moves %v, want d3-e3W", s.Moves)
	}
	waitFor(t, carol, `document.activeElement.closest("#board") !== null`, true, "the focus kept on the board once the turn is sent")
}

// A move confirmed from the keyboard leaves the focus where the move was
// chosen, not at the top of the page once the question hides.
func TestConfirmByKeyboard(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	startPair(t, srv, alice, bob, "4")
	askToConfirmA2(t, alice)
	press(t, alice, kb.Enter)
	waitMoves(t, bob, 1)
	waitFor(t, alice, `document.activeElement.dataset.cell ?? document.activeElement.tagName`, "a2", "the focus back on the cell played")
}

// Escape answers the confirmation of a move as its Cancel button does:
// nothing is played, and the focus goes back to the cell.
func TestConfirmCancelledByEscape(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	id := startPair(t, srv, alice, bob, "4")
	askToConfirmA2(t, alice)
	press(t, alice, kb.Escape)
	waitFor(t, alice, `document.getElementById("pending").hidden`, true, "the confirmation put away")
	waitFor(t, alice, `document.activeElement.dataset.cell ?? document.activeElement.tagName`, "a2", "the focus back on the cell")
	if s := apiState(t, srv, id); len(s.Moves) != 0 {
		t.Fatalf("Escape played %v", s.Moves)
	}
	// The cell is chosen again, and played this time.
	press(t, alice, kb.Enter)
	waitFor(t, alice, `document.activeElement.id`, "pending-yes", "the confirmation focused again")
	press(t, alice, kb.Enter)
	waitMoves(t, bob, 1)

	// With moves to step through, Escape answers the question and only
	// that: the replay's banner does not speak up.
	clickCell(t, bob, "d4")
	waitMoves(t, alice, 2)
	focusCell(t, alice, "a3")
	press(t, alice, kb.Enter)
	waitFor(t, alice, `document.activeElement.id`, "pending-yes", "the confirmation focused")
	press(t, alice, kb.Escape)
	waitFor(t, alice, `document.activeElement.dataset.cell ?? document.activeElement.tagName`, "a3", "the focus back on the cell")
	if banner, err := bt.Eval[string](alice, `document.getElementById("replay-banner").textContent`); err != nil || banner != "" {
		t.Errorf("after Escape the replay's banner says %q (%v)", banner, err)
	}
}

// The action buttons are made anew as the game changes: the one that had
// the focus keeps it when the friend moves, and when it goes away itself
// (a draw offered) the focus stays among the actions, not at the top of
// the page.
func TestActionsKeepTheFocus(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	startPair(t, srv, alice, bob, "4")
	clickCell(t, alice, "a1")
	waitMoves(t, bob, 1)
	_, err := bt.Eval[bool](alice, `(document.querySelector("#actions button.offer-draw").focus(), true)`)
	must(t, err)
	clickCell(t, bob, "d4")
	waitMoves(t, alice, 2)
	waitFor(t, alice, `document.activeElement.className`, "offer-draw", "the focus kept on the button")
	waitFor(t, alice, `document.activeElement.hasAttribute("tabindex")`, false, "the button still in the order of Tab")
	press(t, alice, kb.Enter)
	must(t, bt.WaitText(bob, "#notice", "Your friend offers a draw."))
	waitFor(t, alice, `document.getElementById("actions").contains(document.activeElement)`, true, "the focus among the actions")

	// Choosing the terms of a new game, the focus stays in the form when
	// the friend's offer of one arrives: a key meant for it must not
	// answer the offer.
	must(t, bt.Click(bob, "#actions button.accept"))
	// The terms are in the page from the start, hidden: wait until the
	// game's end has put them among the actions.
	waitFor(t, alice, `document.querySelector("#actions #rematch-terms:not([hidden]) select[name=clock]") !== null`, true, "the terms of a new game")
	_, err = bt.Eval[bool](alice, `(document.getElementById("rematch-terms").open = true, document.querySelector("#rematch-terms select[name=clock]").focus(), true)`)
	must(t, err)
	waitFor(t, alice, `document.activeElement.name`, "clock", "the focus in the terms")
	must(t, bt.Click(bob, "#actions button.rematch"))
	must(t, bt.WaitText(alice, "#actions", "Your friend"))
	waitFor(t, alice, `document.activeElement.name`, "clock", "the focus kept in the terms")
}

// The move lists are written anew with every event: a move's button that
// had the focus keeps it, in the list beside the board on a desktop and in
// the strip under it on a phone, rather than let it fall to the top of
// the page.
func TestMoveListKeepsTheFocus(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t, bt.Phone)
	startPair(t, srv, alice, bob, "4")
	const where = `document.activeElement.closest("ol")?.id ?? document.activeElement.tagName`
	focusMove := func(ctx context.Context, list string) {
		t.Helper()
		_, err := bt.Eval[bool](ctx, fmt.Sprintf(`(document.querySelector('#%s button[data-ply="1"]').focus(), true)`, list))
		must(t, err)
		waitFor(t, ctx, where, list, "the move's button focused")
	}
	kept := func(ctx context.Context, list string) {
		t.Helper()
		waitFor(t, ctx, where, list, "the focus kept in the list")
		waitFor(t, ctx, `document.activeElement.dataset.ply ?? ""`, "1", "the focus kept on the move's button")
	}

	clickCell(t, alice, "a1")
	waitMoves(t, bob, 1)
	waitStatus(t, alice, "Your friend's turn")
	focusMove(alice, "moves")
	must(t, bt.Tap(bob, `#board [data-cell="d4"]`))
	must(t, bt.Tap(bob, "#pending-yes"))
	waitMoves(t, alice, 2)
	kept(alice, "moves")

	waitStatus(t, bob, "Your friend's turn")
	focusMove(bob, "strip")
	clickCell(t, alice, "a2")
	waitMoves(t, bob, 3)
	kept(bob, "strip")
}

// askToConfirmA2 turns the confirmation of moves on in the page of the
// player to move, chooses a2 from the keyboard and waits for the
// question to take the focus.
func askToConfirmA2(t *testing.T, ctx context.Context) {
	t.Helper()
	_, err := bt.Eval[bool](ctx, `(document.querySelector("[data-setting=confirm]").click(), true)`)
	must(t, err)
	focusCell(t, ctx, "a2")
	press(t, ctx, kb.Enter)
	waitFor(t, ctx, `document.activeElement.id`, "pending-yes", "the confirmation focused")
}
