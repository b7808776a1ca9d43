package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"bretter/game"
	"bretter/games/dvonn"
	"bretter/games/fanorona"
	bt "bretter/internal/browsertest"
)

// press sends keys to the page as a keyboard would.
func press(t *testing.T, ctx context.Context, keys string) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(keys)))
}

// typeInto focuses a field and types into it, key by key.
func typeInto(t *testing.T, ctx context.Context, selector, text string) {
	t.Helper()
	must(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(selector)), chromedp.KeyEvent(text)))
}

// A move written out and sent is played at once, even where moves on the
// board wait for a confirmation (a touch screen's default).
func TestTypedMoveNeedsNoConfirmation(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t, bt.Phone), bt.NewProfile(t)
	startPair(t, srv, alice, bob, "5")
	if on, err := bt.Eval[bool](alice, `document.querySelector("[data-setting=confirm]").checked`); err != nil || !on {
		t.Fatalf("a phone's moves on the board are not confirmed: %v", err)
	}
	must(t, bt.Click(alice, "#move-entry summary")) // folded on a phone
	typeInto(t, alice, "#move-input", "e5"+kb.Enter)
	waitMoves(t, bob, 1)
	if shown, err := bt.Eval[bool](alice, `!document.getElementById("pending").hidden`); err != nil || shown {
		t.Fatalf("the typed move asked to be confirmed: %v", err)
	}
}

// setValue puts text into a form field.
func setValue(t *testing.T, ctx context.Context, selector, value string) {
	t.Helper()
	_, err := bt.Eval[bool](ctx, fmt.Sprintf(`(document.querySelector(%q).value = %q) !== null`, selector, value))
	must(t, err)
}

// waitStones waits until the board shows n stones.
func waitStones(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	waitFor(t, ctx, `document.querySelectorAll("#board .cell.white, #board .cell.black").length`, n, "stones on the board")
}

// startPair creates a Havannah game of the given side and seats a friend.
func startPair(t *testing.T, srv *bt.Server, alice, bob context.Context, size string) string {
	t.Helper()
	id := newGame(t, alice, srv, "havannah", map[string]string{"size": size}, "me")
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, bob, "Your friend's turn")
	waitStatus(t, alice, "Your turn")
	return id
}

// A game played from the keyboard alone: moves typed in the notation,
// the rules' reason for an illegal one, the position stepped through with the arrow
// keys, every cell named for screen readers and each move announced.
func TestKeyboardReplayAndScreenReaders(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	id := startPair(t, srv, alice, bob, "5")

	typeInto(t, alice, "#move-input", "e5"+kb.Enter)
	waitMoves(t, bob, 1)
	must(t, bt.WaitText(bob, "#announce", "White plays e5"))
	typeInto(t, bob, "#move-input", "E5"+kb.Enter)
	must(t, bt.WaitText(bob, "#notice", "That move is not allowed: illegal move e5: the cell is taken"))
	setValue(t, bob, "#move-input", "")
	typeInto(t, bob, "#move-input", "D4"+kb.Enter)
	waitMoves(t, alice, 2)
	must(t, bt.WaitText(alice, "#announce", "Black plays d4"))
	typeInto(t, alice, "#move-input", "f6"+kb.Enter)
	waitMoves(t, bob, 3)

	// Every cell has a name, and the status is a live region.
	unnamed, err := bt.Eval[int](bob, `[...document.querySelectorAll("#board [data-cell]")].filter(c => !(c.getAttribute("aria-label") || "").trim()).length`)
	must(t, err)
	cells, err := bt.Eval[int](bob, `document.querySelectorAll("#board [data-cell]").length`)
	must(t, err)
	if cells != 61 || unnamed != 0 {
		t.Fatalf("%d cells, %d without an accessible name", cells, unnamed)
	}
	label, err := bt.Eval[string](bob, `document.querySelector('#board [data-cell="e5"]').getAttribute("aria-label")`)
	must(t, err)
	if label != "e5, white stone" {
		t.Fatalf("e5 is called %q", label)
	}
	live, err := bt.Eval[string](bob, `document.getElementById("status").getAttribute("aria-live") + " " + document.getElementById("announce").getAttribute("aria-live")`)
	must(t, err)
	if live != "polite polite" {
		t.Fatalf("live regions: %q", live)
	}

	// Stepping through the game with the keys, the arrows from anywhere,
	// Home and End among the replay's buttons; the live game is one key
	// away.
	must(t, chromedp.Do(bob, chromedp.Click(chromedp.CSS("h1.game-title"))))
	press(t, bob, kb.ArrowLeft)
	must(t, bt.WaitText(bob, "#replay-banner", "Viewing move 2 of 3"))
	waitStones(t, bob, 2)
	_, err = bt.Eval[bool](bob, `(document.querySelector('#replay button[data-step="prev"]').focus(), true)`)
	must(t, err)
	press(t, bob, kb.Home)
	must(t, bt.WaitText(bob, "#replay-banner", "Viewing move 0 of 3"))
	waitStones(t, bob, 0)
	press(t, bob, kb.ArrowRight)
	must(t, bt.WaitText(bob, "#replay-banner", "Viewing move 1 of 3"))
	// Typing out of turn is refused with a reason.
	typeInto(t, alice, "#move-input", "a1"+kb.Enter)
	must(t, bt.WaitText(alice, "#notice", "It is not your turn"))
	setValue(t, alice, "#move-input", "")
	press(t, bob, kb.End)
	must(t, bt.WaitText(bob, "#replay-banner", ""))
	waitStones(t, bob, 3)
	// A click on a move shows the position after it.
	must(t, bt.Click(bob, `#moves button[data-ply="2"]`))
	must(t, bt.WaitText(bob, "#replay-banner", "Viewing move 2 of 3"))
	press(t, bob, kb.Escape)
	bt.Screenshot(t, bob, "havannah-desktop-keyboard")
	if s := apiState(t, srv, id); strings.Join(s.Moves, " ") != "e5 d4 f6" {
		t.Fatalf("moves %v", s.Moves)
	}
}

// On a phone the board fills the width and is never cut off, a tap on a
// cell chooses a move (on a board of side 8, the first zooms in) and a
// tap on the confirmation plays it.
func TestPhone(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice := bt.NewProfile(t, bt.Phone)
	bob := bt.NewProfile(t, bt.Phone)
	startPair(t, srv, alice, bob, "8")

	box, err := bt.Eval[[]float64](alice, `(() => { const r = document.querySelector("#board svg").getBoundingClientRect(); return [r.left, r.right, r.width, window.innerWidth, document.documentElement.scrollWidth]; })()`)
	must(t, err)
	left, right, width, inner, scroll := box[0], box[1], box[2], box[3], box[4]
	if left < 0 || right > inner || width < 0.9*inner || scroll > inner {
		t.Fatalf("board from %.0f to %.0f (%.0f wide) in a %.0f wide screen, page %.0f wide", left, right, width, inner, scroll)
	}
	// Turned sideways, the board still fits the screen whole.
	must(t, chromedp.Do(bob, chromedp.EmulateViewport(844, 390, chromedp.EmulateLandscape, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3))))
	box, err = bt.Eval[[]float64](bob, `(() => { const r = document.querySelector("#board svg").getBoundingClientRect(); return [r.left, r.right, r.width, r.height, window.innerWidth, window.innerHeight, document.documentElement.scrollWidth]; })()`)
	must(t, err)
	if box[0] < 0 || box[1] > box[4] || box[3] > box[5] || box[6] > box[4] || box[3] < 0.6*box[5] {
		t.Fatalf("landscape: board %.0f×%.0f from x %.0f to %.0f in a %.0f×%.0f screen, page %.0f wide", box[2], box[3], box[0], box[1], box[4], box[5], box[6])
	}
	bt.Screenshot(t, bob, "havannah-phone-landscape")
	must(t, chromedp.Do(bob, chromedp.EmulateViewport(390, 844, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3))))
	checked, err := bt.Eval[bool](alice, `document.querySelector('input[data-setting="confirm"]').checked`)
	must(t, err)
	if !checked {
		t.Fatal("confirming moves is not on by default on a touch screen")
	}
	tapCell(t, alice, "h8")
	must(t, bt.WaitText(alice, "#pending-text", "Play h8?"))
	bt.Screenshot(t, alice, "havannah-phone-confirm")
	must(t, bt.Tap(alice, "#pending-yes"))
	waitMoves(t, bob, 1)
	tapCell(t, bob, "g7")
	must(t, bt.Tap(bob, "#pending-no"))
	tapCell(t, bob, "g8")
	must(t, bt.Tap(bob, "#pending-yes"))
	waitMoves(t, alice, 2)
	if s, _ := bt.Eval[string](alice, `[...document.querySelectorAll("#moves button")].map(b => b.textContent).join(" ")`); s != "h8 g8" {
		t.Fatalf("moves after tapping: %q", s)
	}
	bt.Screenshot(t, bob, "havannah-phone-game")
}

// German and English are switchable on every page, and the choice stays.
func TestLanguageSwitch(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	must(t, bt.Navigate(p, srv.URL+"/"))
	must(t, bt.WaitText(p, "h1", "All boards"))
	must(t, bt.Click(p, `.langs a[hreflang="de"]`))
	must(t, bt.WaitText(p, "h1", "Alle Bretter"))
	must(t, bt.Click(p, `.board-card a[href="/havannah"]`))
	must(t, bt.WaitText(p, ".rules", "Wie man gewinnt"))
	lang, err := bt.Eval[string](p, `document.documentElement.lang`)
	must(t, err)
	if lang != "de" {
		t.Fatalf("html lang %q", lang)
	}
	newGame(t, p, srv, "havannah", map[string]string{"size": "4"}, "me")
	waitStatus(t, p, "Warten, bis dein Gegenüber die Einladung öffnet")
	must(t, bt.Click(p, `.langs a[hreflang="en"]`))
	waitStatus(t, p, "Waiting for your friend")
}

// A record with a wrong move is refused with the move and the reason; a
// good one replays.
func TestImportRecord(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	openImport(t, p, srv)
	// Nothing to replay yet: no empty replay bar or list of moves.
	waitFor(t, p, `getComputedStyle(document.getElementById("viewer")).display`, "none", "no game shown before one is read")
	bad := `(;FF[4]SZ[5];W[E5];B[D4];W[E5])`
	setValue(t, p, "#record-text", bad)
	must(t, bt.Click(p, `#import-form button[type=submit]`))
	must(t, bt.WaitText(p, "#import-error", "move 3 W[E5]: illegal move e5: the cell is taken"))

	good := fmt.Sprintf("(;FF[4]PB[anna]PW[ben]SZ[5]RE[B]%s)", ";W[E5];B[D4];W[F6];B[resign]")
	setValue(t, p, "#record-text", good)
	must(t, bt.Click(p, `#import-form button[type=submit]`))
	must(t, bt.WaitText(p, "#viewer-result", "Black resigned: White wins"))
	must(t, bt.WaitText(p, "#replay-banner", "Final position (3 moves)"))
	waitStones(t, p, 3)
	press(t, p, kb.ArrowLeft)
	must(t, bt.WaitText(p, "#replay-banner", "Viewing move 2 of 3"))
	waitStones(t, p, 2)
	bt.Screenshot(t, p, "import-desktop")

	// A DVONN game ends by the score, which the result says.
	setValue(t, p, "#record-text", finishedDVONNRecord(t))
	must(t, bt.Click(p, `#import-form button[type=submit]`))
	waitFor(t, p, `/\d+.*\d+/.test(document.getElementById("viewer-result").textContent) && !document.getElementById("viewer-result").textContent.includes("{")`, true, "the DVONN score in the result")

	// A refused record takes the game shown before away.
	setValue(t, p, "#record-text", bad)
	must(t, bt.Click(p, `#import-form button[type=submit]`))
	must(t, bt.WaitText(p, "#import-error", "move 3 W[E5]"))
	waitFor(t, p, `getComputedStyle(document.getElementById("viewer")).display`, "none", "the earlier game hidden")

	// Long Fanorona turns get a line each, their numbers beside them.
	setValue(t, p, "#record-text", longFanoronaRecord(t))
	must(t, bt.Click(p, `#import-form button[type=submit]`))
	waitFor(t, p, `document.getElementById("viewer").hidden`, false, "the Fanorona game shown")
	offside, err := bt.Eval[int](p, `[...document.querySelectorAll("#moves li")].filter((li) => {
		const b = li.querySelector("button").getBoundingClientRect();
		const l = li.getBoundingClientRect();
		return Math.abs(b.top - l.top) > 2 || b.height > 30 || l.left !== document.querySelector("#moves li").getBoundingClientRect().left;
	}).length`)
	must(t, err)
	if offside != 0 {
		bt.Screenshot(t, p, "import-fanorona")
		t.Fatalf("%d moves wrap or stand apart from their numbers", offside)
	}

	// In German the refusal is German throughout: where, the kind of
	// refusal and why.
	must(t, bt.Navigate(p, srv.URL+"/import?lang=de"))
	waitFor(t, p, `document.querySelector("#import-form button[type=submit]").disabled`, false, "the import form ready")
	for record, want := range map[string]string{
		bad:                             "Diese Partie lässt sich nicht zeigen: Zug 3 W[E5]: unerlaubter Zug e5: das Feld ist besetzt",
		"[Game \"fanorona\"]\n1. a2-z9": `Zug 1 (a2-z9): falsch geschriebener Zug "a2-z9": "z9" ist kein Punkt von a1 bis i5`,
	} {
		setValue(t, p, "#record-text", record)
		must(t, bt.Click(p, `#import-form button[type=submit]`))
		must(t, bt.WaitText(p, "#import-error", want))
	}
}

// A record the site wrote names its computer player in English; the
// import page names it in the reader's words, as the game's page does,
// and shows any other name as written.
func TestImportedRecordNamesTheComputerInTheReadersWords(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	for lang, want := range map[string]string{
		"de": "Weiß: <b>ben</b> · Schwarz: bretter, Stufe 3",
		"pl": "Białe: <b>ben</b> · Czarne: bretter, poziom 3",
	} {
		must(t, bt.Navigate(p, srv.URL+"/import?lang="+lang))
		waitFor(t, p, `document.querySelector("#import-form button[type=submit]").disabled`, false, "the import form ready")
		setValue(t, p, "#record-text", "[Game \"dvonn\"]\n[White \"<b>ben</b>\"]\n[Black \"bretter level 3\"]\n1. F5")
		must(t, bt.Click(p, `#import-form button[type=submit]`))
		waitFor(t, p, `document.getElementById("viewer-players").textContent`, want, lang+": the players")
		waitFor(t, p, `document.querySelector("#viewer-players b") === null`, true, lang+": a name as text")
		// A name only near the computer's is a person's.
		setValue(t, p, "#record-text", "[Game \"dvonn\"]\n[White \"bretter level 9\"]\n1. F5")
		must(t, bt.Click(p, `#import-form button[type=submit]`))
		waitFor(t, p, `document.getElementById("viewer-players").textContent`, strings.SplitN(want, ":", 2)[0]+": bretter level 9", lang+": a name as written")
	}
}

// longFanoronaRecord is a record of random Fanorona play up to its first
// turn of three captures or more.
func longFanoronaRecord(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		s := fanorona.New()
		var moves []string
		for !s.Outcome().Over && len(moves) < 200 {
			legal := s.Legal(nil)
			m := legal[rng.IntN(len(legal))]
			text := s.FormatMove(m)
			if err := s.Play(m); err != nil {
				t.Fatal(err)
			}
			moves = append(moves, text)
			if strings.Count(text, "-") >= 3 {
				return game.Record{Game: "fanorona", Moves: moves}.Text()
			}
		}
	}
	t.Fatal("no long turn in 200 random games")
	return ""
}

// finishedDVONNRecord is the record of a random DVONN game played to its
// end.
func finishedDVONNRecord(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	s := dvonn.New()
	var moves []string
	for !s.Outcome().Over {
		legal := s.Legal(nil)
		m := legal[rng.IntN(len(legal))]
		moves = append(moves, s.FormatMove(m))
		if err := s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return game.Record{Game: "dvonn", Moves: moves}.Text()
}

// centre is where an element sits on the screen.
func centre(t *testing.T, ctx context.Context, selector string) (float64, float64) {
	t.Helper()
	xy, err := bt.Eval[[]float64](ctx, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.x + r.width/2, r.y + r.height/2]; })()`, selector))
	must(t, err)
	return xy[0], xy[1]
}

// A stone can be slid into place: press on one cell, move, release on
// another.
func TestDragToPlace(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	startPair(t, srv, alice, bob, "5")
	x0, y0 := centre(t, alice, `#board [data-cell="a1"]`)
	x1, y1 := centre(t, alice, `#board [data-cell="e5"]`)
	must(t, chromedp.Do(alice,
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x0, y0),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, x0, y0, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, (x0+x1)/2, (y0+y1)/2, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x1, y1, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, x1, y1, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	))
	waitMoves(t, bob, 1)
	if s, _ := bt.Eval[string](bob, `[...document.querySelectorAll("#moves button")].map(b => b.textContent).join(" ")`); s != "e5" {
		t.Fatalf("after sliding to e5 the moves are %q", s)
	}
}

// A record without a move (a game called off before its first one) shows
// its start position.
func TestImportARecordWithoutMoves(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	openImport(t, p, srv)
	setValue(t, p, "#record-text", `[Game "DVONN"]`)
	must(t, bt.Click(p, `#import-form button[type=submit]`))
	must(t, bt.WaitText(p, "#replay-banner", "Final position (0 moves)"))
	waitFor(t, p, `document.querySelectorAll("#board [data-cell]").length`, 49, "the spaces of the board")
	waitFor(t, p, `document.querySelectorAll("#moves li").length`, 0, "moves in the list")
	if msg, _ := bt.Eval[string](p, `document.getElementById("import-error").textContent`); msg != "" {
		t.Fatalf("the record is refused: %q", msg)
	}

	// The record of a game called off before the first move.
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	if code, err := post(t, srv.URL+"/api/games/"+g.id+"/offer", g.secrets["white"], `{"kind":"abort"}`, nil); err != nil || code != http.StatusOK {
		t.Fatalf("the game called off: %d %v", code, err)
	}
	res, err := http.Get(srv.URL + "/api/games/" + g.id + "/record")
	must(t, err)
	record, err := io.ReadAll(res.Body)
	res.Body.Close()
	must(t, err)
	setValue(t, p, "#record-text", string(record))
	must(t, bt.Click(p, `#import-form button[type=submit]`))
	waitFor(t, p, `document.querySelectorAll("#board [data-cell]").length`, 37, "the cells of the board")
	must(t, bt.WaitText(p, "#replay-banner", "Final position (0 moves)"))
	if msg, _ := bt.Eval[string](p, `document.getElementById("import-error").textContent`); msg != "" {
		t.Fatalf("the record %q is refused: %q", record, msg)
	}
}

// Back from a past position to the live game, by key or button, a screen
// reader is told so in the page's language, and the words stay.
func TestReplayTellsTheLivePosition(t *testing.T) {
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	g.move(t, srv, "white", 0, "a1")
	g.move(t, srv, "black", 1, "b2")
	p := bt.NewProfile(t)
	must(t, bt.Navigate(p, srv.URL+"/g/"+g.id+"?lang=de"))
	waitMoves(t, p, 2)
	must(t, chromedp.Do(p, chromedp.Click(chromedp.CSS("h1.game-title"))))
	for _, back := range []func(){
		func() {
			_, err := bt.Eval[bool](p, `(document.querySelector('#replay button[data-step="first"]').focus(), true)`)
			must(t, err)
			press(t, p, kb.End)
		},
		func() { press(t, p, kb.Escape) },
		func() { must(t, bt.Click(p, `#replay button[data-step="last"]`)) },
	} {
		press(t, p, kb.ArrowLeft)
		must(t, bt.WaitText(p, "#replay-banner", "1 von 2"))
		back()
		waitStones(t, p, 2)
		waitFor(t, p, `document.getElementById("replay-banner").textContent`, "Aktuelle Stellung", "the banner back at the live game")
	}
	g.move(t, srv, "white", 2, "c3")
	waitMoves(t, p, 3)
	waitFor(t, p, `document.getElementById("replay-banner").textContent`, "Aktuelle Stellung", "the banner after a move at the live game")
}

// Home and End scroll the page to its top and end, wherever the focus is
// but among the replay's buttons and in the list of moves: there they go
// to the first and the last move, and the page stays where it is.
func TestReplayLeavesHomeAndEndToThePage(t *testing.T) {
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	g.move(t, srv, "white", 0, "a1")
	g.move(t, srv, "black", 1, "b2")
	p := bt.NewProfile(t)
	must(t, bt.Navigate(p, g.playerURL))
	waitMoves(t, p, 2)
	waitFor(t, p, `document.querySelector("#actions button.resign") !== null`, true, "the player's controls")
	// A page longer than the screen, whatever the screen. A key is pressed
	// once the page has come to rest (one pressed while it still glides
	// may go unheeded); the last one tells whether a script took it.
	_, err := bt.Eval[bool](p, `(document.body.style.minHeight = "300vh", addEventListener("scrollend", () => window.rest = true), addEventListener("keydown", (e) => window.taken = e.defaultPrevented), true)`)
	must(t, err)
	scrolls := func(key, to, what string) {
		t.Helper()
		_, err := bt.Eval[bool](p, `window.rest = false`)
		must(t, err)
		press(t, p, key)
		waitFor(t, p, `window.rest && `+to, true, what)
	}
	const top, end = `scrollY === 0`, `scrollY > 0 && scrollY + innerHeight >= document.documentElement.scrollHeight - 1`
	viewing := `document.getElementById("replay-banner").classList.contains("viewing")`

	must(t, chromedp.Do(p, chromedp.Click(chromedp.CSS("h1.game-title"))))
	scrolls(kb.End, end, "the page scrolled to its end by End")
	scrolls(kb.Home, top, "the page scrolled to its top by Home")
	// So on a button that is not the replay's.
	_, err = bt.Eval[bool](p, `(document.querySelector("#actions button.resign").focus(), true)`)
	must(t, err)
	scrolls(kb.End, end, "the page scrolled to its end by End on the button to resign")
	scrolls(kb.Home, top, "the page scrolled to its top by Home on the button to resign")
	if v, err := bt.Eval[bool](p, viewing); err != nil || v {
		t.Fatalf("Home and End outside the replay stepped through the game (%v)", err)
	}

	_, err = bt.Eval[bool](p, `(document.querySelector('#replay button[data-step="next"]').focus(), true)`)
	must(t, err)
	press(t, p, kb.Home)
	must(t, bt.WaitText(p, "#replay-banner", "Viewing move 0 of 2"))
	waitFor(t, p, `window.taken`, true, "Home taken by the replay")
	_, err = bt.Eval[bool](p, `(document.querySelector('#moves button[data-ply="1"]').focus(), true)`)
	must(t, err)
	press(t, p, kb.End)
	waitFor(t, p, viewing, false, "the live game by End in the list of moves")
	waitFor(t, p, `window.taken`, true, "End taken by the list of moves")
	press(t, p, kb.Home)
	must(t, bt.WaitText(p, "#replay-banner", "Viewing move 0 of 2"))
	if y, err := bt.Eval[float64](p, `scrollY`); err != nil || y != 0 {
		t.Errorf("the page scrolled to %.0f (%v)", y, err)
	}
}

// Stepping through a long finished game, the move on the board is in view
// in the list of moves, which scrolls to it (the page does not), on a
// desktop and in a phone's strip.
func TestReplayScrollsTheMovesToTheMove(t *testing.T) {
	srv := bt.StartServer(t, "")
	var moves []string
	for _, row := range []struct {
		name string
		n    int
	}{{"d", 11}, {"f", 13}, {"h", 2}} {
		for c := 1; c <= row.n; c++ {
			moves = append(moves, fmt.Sprintf("%s%d", row.name, c))
		}
	}
	list, _ := json.Marshal(moves)
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":8},"start":"me","moves":`+string(list)+`}`)
	if code, err := post(t, srv.URL+"/api/games/"+g.id+"/resign", g.secrets["black"], `{}`, nil); err != nil || code != http.StatusOK {
		t.Fatalf("resign: %d %v", code, err)
	}
	for _, c := range []struct {
		list string
		opts []bt.Option
	}{{"moves", nil}, {"strip", []bt.Option{bt.Phone}}} {
		p := bt.NewProfile(t, c.opts...)
		must(t, bt.Navigate(p, srv.URL+"/g/"+g.id))
		waitMoves(t, p, 26)
		waitStatus(t, p, "White wins")
		inView := fmt.Sprintf(`(() => {
			const list = document.getElementById(%q), r = list.querySelector('button[data-ply="3"]').getBoundingClientRect(), l = list.getBoundingClientRect();
			return r.top >= l.top - 1 && r.bottom <= l.bottom + 1 && r.left >= l.left - 1 && r.right <= l.right + 1;
		})()`, c.list)
		if at, err := bt.Eval[bool](p, inView); err != nil || at {
			t.Fatalf("%s: move 3 is in view before stepping (%v): the game is too short for this test", c.list, err)
		}
		scrolled, err := bt.Eval[float64](p, `scrollY`)
		must(t, err)
		steps := []string{"first", "next", "next", "next"}
		for _, step := range steps {
			must(t, bt.Click(p, fmt.Sprintf(`#replay button[data-step=%q]`, step)))
		}
		must(t, bt.WaitText(p, "#replay-banner", "Viewing move 3 of 26"))
		waitFor(t, p, fmt.Sprintf(`document.querySelector('#%s button[aria-current]')?.dataset.ply`, c.list), "3", c.list+": move 3 marked")
		waitFor(t, p, inView, true, c.list+": move 3 in view")
		if now, err := bt.Eval[float64](p, `scrollY`); err != nil || now != scrolled {
			t.Errorf("%s: the page scrolled from %.0f to %.0f (%v)", c.list, scrolled, now, err)
		}
	}
}

// A record that names its players shows who played, in the page's
// language; a name is shown as the text it is, and a player the record
// does not know ("?") is left out.
func TestImportShowsThePlayers(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	for _, c := range []struct{ lang, record, want string }{
		{"en", "[Game \"havannah\"]\n[Options \"size=4\"]\n[White \"<img src=x onerror=alert(1)>\"]\n[Black \"Anna\"]\n\n1. a1\n", "White: <img src=x onerror=alert(1)> · Black: Anna"},
		// Little Golem's PB is the player who moves first.
		{"de", "(;FF[4]PB[anna]PW[ben]SZ[5];W[E5];B[D4])", "Weiß: anna · Schwarz: ben"},
		{"pl", "[Game \"dvonn\"]\n[White \"?\"]\n[Black \"Ola\"]\n", "Czarne: Ola"},
		{"en", "[Game \"dvonn\"]\n[White \"?\"]\n[Black \"?\"]\n", ""},
	} {
		must(t, bt.Navigate(p, srv.URL+"/import?lang="+c.lang))
		waitFor(t, p, `document.querySelector("#import-form button[type=submit]").disabled`, false, "the import form ready")
		setValue(t, p, "#record-text", c.record)
		must(t, bt.Click(p, `#import-form button[type=submit]`))
		waitFor(t, p, `document.getElementById("viewer").hidden`, false, "the game shown")
		type line struct {
			Text     string
			Shown    bool
			Elements []string
		}
		got, err := bt.Eval[line](p, `(() => {
			const el = document.getElementById("viewer-players");
			return {Text: el.textContent, Shown: !!el.offsetParent, Elements: [...el.querySelectorAll("*")].map((e) => e.tagName)};
		})()`)
		must(t, err)
		if got.Text != c.want || got.Shown != (c.want != "") {
			t.Errorf("%s: the players read %q (shown %v), want %q", c.lang, got.Text, got.Shown, c.want)
		}
		for _, tag := range got.Elements {
			if tag != "BDI" {
				t.Errorf("%s: a name made a %s element", c.lang, tag)
			}
		}
	}

	// A record of a game begun from given moves says that its players
	// played only the moves after them; a record without any says nothing
	// of it.
	must(t, bt.Navigate(p, srv.URL+"/import?lang=pl"))
	waitFor(t, p, `document.querySelector("#import-form button[type=submit]").disabled`, false, "the import form ready")
	given := `(() => { const el = document.getElementById("viewer-given"); return el.offsetParent ? el.textContent : ""; })()`
	for _, c := range []struct{ record, want string }{
		{"[Game \"havannah\"]\n[Options \"size=4\"]\n[White \"Ola\"]\n[Given \"2\"]\n\n1. a1\n2. a2\n3. a3\n",
			"Pierwsze 2 ruchy były dane z góry, nie zagrano ich w tej partii: zaczęła się od pozycji po nich, a jej gracze grali od ruchu 3."},
		{"[Game \"havannah\"]\n[Options \"size=4\"]\n[White \"Ada\"]\n\n1. a1\n2. a2\n", ""},
	} {
		setValue(t, p, "#record-text", c.record)
		must(t, bt.Click(p, `#import-form button[type=submit]`))
		waitFor(t, p, `document.getElementById("moves").children.length`, strings.Count(c.record, ". "), "the moves listed")
		waitFor(t, p, given, c.want, "what the page says of given moves")
	}
}
