package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bt "bretter/internal/browsertest"
	"github.com/chromedp/chromedp"
)

// rect is where an element is on the screen, in CSS pixels.
type rect struct{ Top, Bottom, Left, Right, Width float64 }

func rectOf(t *testing.T, ctx context.Context, selector string) rect {
	t.Helper()
	r, err := bt.Eval[rect](ctx, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return {Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right, Width: r.width}; })()`, selector))
	must(t, err)
	return r
}

type screen struct{ Width, Height, ScrollY float64 }

func screenOf(t *testing.T, ctx context.Context) screen {
	t.Helper()
	s, err := bt.Eval[screen](ctx, `({Width: window.innerWidth, Height: window.innerHeight, ScrollY: window.scrollY})`)
	must(t, err)
	return s
}

// A friend on a phone: the invitation comes first; once the game runs the
// board is whole on the screen with the players right above and below it,
// the actions sit in a bar at the bottom, typing a move is folded away,
// and the opponent's moves never move the page.
func TestPhoneLayout(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice := bt.NewProfile(t, bt.Phone)
	bob := bt.NewProfile(t)

	newGame(t, alice, srv, "havannah", map[string]string{"size": "6"}, "me")
	waitStatus(t, alice, "Waiting for your friend")
	must(t, bt.WaitText(alice, "#bar-top", "Black · Seat free"))
	inv, sc := rectOf(t, alice, "#invite-url"), screenOf(t, alice)
	if inv.Top < 0 || inv.Bottom > sc.Height/2 || sc.ScrollY != 0 {
		t.Fatalf("the invitation is at %.0f–%.0f of a %.0f high screen (scrolled %.0f): not the first thing", inv.Top, inv.Bottom, sc.Height, sc.ScrollY)
	}
	screenSized(t, alice, "phone-invite-screen")
	bt.Screenshot(t, alice, "phone-invite")
	// For a friend sitting next to her: the invitation as a QR code.
	must(t, bt.Tap(alice, "#invite .invite-qr summary"))
	if w := rectOf(t, alice, "#invite svg.qr").Width; w < 150 {
		t.Fatalf("the QR code is %.0f px wide", w)
	}
	screenSized(t, alice, "phone-invite-qr")

	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, bob, "Your friend's turn") // the friend's page, once it has joined and reloaded
	waitStatus(t, alice, "Your turn")
	waitFor(t, alice, `document.getElementById("invite") === null`, true, "the used invitation gone")
	waitFor(t, alice, `document.getElementById("move-entry").open`, false, "typing a move folded away")

	board := rectOf(t, alice, "#board svg")
	top, bottom, bar := rectOf(t, alice, "#bar-top"), rectOf(t, alice, "#bar-bottom"), rectOf(t, alice, "#action-bar")
	sc = screenOf(t, alice)
	if board.Top < 0 || board.Bottom > bar.Top || board.Left < 0 || board.Right > sc.Width || board.Width < 0.9*sc.Width {
		t.Fatalf("board %+v is not whole above the action bar at %.0f on a %.0f×%.0f screen", board, bar.Top, sc.Width, sc.Height)
	}
	if gap := board.Top - top.Bottom; gap < -1 || gap > 12 {
		t.Fatalf("the player above ends %.0f px from the board", gap)
	}
	if gap := bottom.Top - board.Bottom; gap < -1 || gap > 12 {
		t.Fatalf("the player below starts %.0f px from the board", gap)
	}
	if math.Abs(bar.Bottom-sc.Height) > 1 {
		t.Fatalf("the action bar ends at %.0f, the screen at %.0f", bar.Bottom, sc.Height)
	}
	must(t, bt.WaitText(alice, "#bar-bottom", "White · You"))
	must(t, bt.WaitText(alice, "#bar-bottom", "to move"))
	must(t, bt.WaitText(alice, "#bar-top", "Black · Your friend"))
	// The panel's players and clocks are not shown on a phone: the bars
	// say it all, to screen readers too.
	waitFor(t, alice, `["#bar-top", "#bar-bottom"].every((q) => !document.querySelector(q).closest("[aria-hidden=true]")) && getComputedStyle(document.querySelector(".panel > .players")).display === "none"`, true, "the bars read out")
	must(t, bt.WaitText(alice, "#action-bar", "Resign"))

	// Whole turns: Alice taps and confirms, Bob clicks on his desktop.
	moves := strings.Fields("a1 f6 b2 f7 c3 f8 d4 f9")
	for i := 0; i < len(moves); i += 2 {
		must(t, bt.Tap(alice, fmt.Sprintf(`#board [data-cell=%q]`, moves[i])))
		must(t, bt.Tap(alice, "#pending-yes"))
		waitStatus(t, bob, "Your turn")
		clickCell(t, bob, moves[i+1])
		waitMoves(t, alice, i+2)
		waitStatus(t, alice, "Your turn")
		if now, s := rectOf(t, alice, "#board svg"), screenOf(t, alice); s.ScrollY != 0 || now.Top != board.Top {
			t.Fatalf("after Bob's move %s the page scrolled to %.0f and the board moved from %.0f to %.0f", moves[i+1], s.ScrollY, board.Top, now.Top)
		}
	}
	strip := rectOf(t, alice, "#strip")
	if strip.Bottom-strip.Top > 40 {
		t.Fatalf("the move strip is %.0f px high: more than one line", strip.Bottom-strip.Top)
	}
	must(t, bt.WaitText(alice, "#strip li.latest", "f9"))

	// Turned round, the board is seen from Black's side, and the players
	// change places with it; the writing stays upright.
	must(t, bt.Tap(alice, "#flip"))
	waitFor(t, alice, `getComputedStyle(document.querySelector("#board svg")).transform`, "matrix(-1, 0, 0, -1, 0, 0)", "the board turned round")
	must(t, bt.WaitText(alice, "#bar-top", "White · You"))
	must(t, bt.WaitText(alice, "#bar-bottom", "Black · Your friend"))
	waitFor(t, alice, `document.getElementById("flip").getAttribute("aria-pressed")`, "true", "the turn button pressed")
	screenSized(t, alice, "phone-flipped-screen")
	must(t, bt.Tap(alice, "#flip"))
	must(t, bt.WaitText(alice, "#bar-bottom", "White · You"))
	if s := screenOf(t, alice); s.Width != 390 {
		t.Fatalf("after %d moves the page is laid out %.0f px wide on a 390 px screen", len(moves), s.Width)
	}
	screenSized(t, alice, "phone-layout-screen")
	bt.Screenshot(t, alice, "phone-layout")
}

// screenSized saves what the screen shows, without the rest of the page,
// beside the full-page screenshots.
func screenSized(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	must(t, err)
	dir := os.Getenv("BRETTER_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "testdata", "artifacts")
	}
	dir = filepath.Join(dir, "screenshots")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644))
}

// On a phone every link of the site's header is in view, in the longest
// language, and the page is no wider than the screen.
func TestPhoneHeaderShowsEveryLink(t *testing.T) {
	srv := bt.StartServer(t, "")
	phone := bt.NewProfile(t, bt.Phone)
	res, err := http.Post(srv.URL+"/api/games", "application/json", strings.NewReader(`{"game":"fanorona"}`))
	must(t, err)
	var created struct{ ID string }
	must(t, json.NewDecoder(res.Body).Decode(&created))
	res.Body.Close()
	for _, page := range []string{"/?lang=de", "/my", "/import", "/dvonn", "/g/" + created.ID} {
		must(t, bt.Navigate(phone, srv.URL+page))
		must(t, bt.WaitText(phone, "header.top nav", "Partie nachspielen"))
		sc := screenOf(t, phone)
		links, err := bt.Eval[[]rect](phone, `[...document.querySelectorAll("header.top nav a, header.top .langs a")].map((a) => { const r = a.getBoundingClientRect(); return {Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right, Width: r.width}; })`)
		must(t, err)
		for i, r := range links {
			if r.Left < 0 || r.Right > sc.Width || r.Width == 0 {
				t.Fatalf("%s: header link %d is at %.0f–%.0f on a %.0f px screen", page, i, r.Left, r.Right, sc.Width)
			}
		}
		if w, _ := bt.Eval[float64](phone, `document.documentElement.scrollWidth`); w > sc.Width {
			t.Fatalf("%s is %.0f px wide on a %.0f px screen", page, w, sc.Width)
		}
	}
}

// On a small phone the action bar wraps to several rows: the move to
// confirm still shows above it, where a tap reaches it, and the end of the
// page scrolls out from under it, in the longer German too.
func TestSmallPhoneKeepsThePageAboveTheBar(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t, bt.Phone), bt.NewProfile(t)
	id := startPair(t, srv, alice, bob, "8")
	small := func(w, h int64) {
		must(t, chromedp.Do(alice, chromedp.EmulateViewport(w, h, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))))
	}
	// reachable says where a tap on the element's middle lands, if not on
	// it, with the page as it is or scrolled to its end.
	reachable := func(selector string, toEnd bool) string {
		t.Helper()
		got, err := bt.Eval[string](alice, fmt.Sprintf(`(() => {
			if (%t) window.scrollTo(0, document.documentElement.scrollHeight);
			const el = document.querySelector(%q), r = el.getBoundingClientRect();
			const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			return el.contains(hit) ? "" : (hit ? hit.id || hit.className || hit.tagName : "off the screen") + " at " + Math.round(r.top);
		})()`, toEnd, selector))
		must(t, err)
		return got
	}

	small(375, 667)
	tapCell(t, alice, "h8")
	must(t, bt.WaitText(alice, "#pending-text", "Play h8?"))
	if hit := reachable("#pending-yes", false); hit != "" {
		t.Fatalf("a tap on the confirmation reaches %s", hit)
	}
	must(t, bt.Tap(alice, "#pending-yes"))
	waitMoves(t, bob, 1)
	if shown, _ := bt.Eval[string](alice, `getComputedStyle(document.getElementById("notices-off")).display`); shown != "none" {
		t.Fatalf("the button to stop notices shows (display %q) before any were asked for", shown)
	}

	for _, lang := range []string{"en", "de"} {
		must(t, bt.Navigate(alice, srv.URL+"/g/"+id+"?lang="+lang))
		small(360, 740)
		waitFor(t, alice, `document.querySelector("#actions button") !== null`, true, "the player's actions in the bar")
		waitFor(t, alice, `getComputedStyle(document.documentElement).getPropertyValue("--bar-height") === document.getElementById("action-bar").offsetHeight + "px"`, true, "the room kept for the bar as tall as the bar")
		for _, sel := range []string{".record-link a", "#settings summary", "#share summary"} {
			if hit := reachable(sel, true); hit != "" {
				t.Fatalf("%s, scrolled to the end: a tap on %s reaches %s", lang, sel, hit)
			}
		}
	}

	// The form that starts a game fits too, its choices inside their boxes.
	must(t, bt.Navigate(alice, srv.URL+"/havannah?lang=de"))
	out, err := bt.Eval[[]string](alice, `[...document.querySelectorAll(".new-game select, .new-game input")].filter((el) => {
		const r = el.getBoundingClientRect(), box = el.closest("fieldset, form").getBoundingClientRect();
		return r.right > box.right || r.right > innerWidth;
	}).map((el) => el.name).concat(document.documentElement.scrollWidth > innerWidth ? ["the page"] : [])`)
	must(t, err)
	if len(out) > 0 {
		t.Fatalf("wider than their box or the screen: %v", out)
	}
	// What belongs to one choice shows only with it.
	shown := func() string {
		t.Helper()
		s, err := bt.Eval[string](alice, `[...document.querySelectorAll(".new-game .level, .new-game .custom")].filter((el) => el.offsetParent !== null).map((el) => el.className).join(" ")`)
		must(t, err)
		return s
	}
	if s := shown(); s != "" {
		t.Fatalf("with a friend and no clock the form shows %q", s)
	}
	must(t, bt.Tap(alice, `.new-game input[name=opponent][value=computer]`))
	_, err = bt.Eval[bool](alice, `(() => { const s = document.querySelector(".new-game [name=clock]"); s.value = "custom"; s.dispatchEvent(new Event("change", { bubbles: true })); return true; })()`)
	must(t, err)
	if s := shown(); s != "level custom custom" {
		t.Fatalf("against the computer with a time of one's own the form shows %q", s)
	}
}

// On a phone the import page keeps its text off the screen's edges, as
// every page but a game's does.
func TestPhoneImportPage(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t, bt.Phone)
	openImport(t, p, srv)
	sc := screenOf(t, p)
	for _, q := range []string{"main h1", "#record-text"} {
		if r := rectOf(t, p, q); r.Left < 4 || r.Right > sc.Width-4 {
			t.Errorf("%s spans %.0f–%.0f of a %.0f wide screen", q, r.Left, r.Right, sc.Width)
		}
	}
}

// On the smallest phones still sold, 320 px wide, no page but a game's
// is wider than the screen, in any language: the forms' fields shrink
// to the screen instead of setting its width.
func TestNarrowPhonePagesFit(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t, bt.Phone, bt.Size(320, 568))
	newGame(t, p, srv, "fanorona", nil, "me")
	invite := inputValue(t, p, "invite-url")
	friend := bt.NewProfile(t, bt.Phone, bt.Size(320, 568))
	for _, lang := range []string{"en", "de", "pl"} {
		for _, page := range []string{"/", "/havannah", "/dvonn", "/fanorona", "/my", "/import", invite} {
			ctx, u := p, srv.URL+page
			if page == invite {
				ctx, u = friend, page
			}
			must(t, bt.Navigate(ctx, u+"?lang="+lang))
			wide, err := bt.Eval[[]string](ctx, `[...document.querySelectorAll("body *")].filter((el) => el.getBoundingClientRect().right > 320.5).map((el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : "")).slice(0, 5)`)
			must(t, err)
			if w, err := bt.Eval[float64](ctx, `document.documentElement.scrollWidth`); err != nil || w > 320 {
				t.Errorf("%s in %s is %.0f px wide on a 320 px screen (%v): %v", page, lang, w, err, wide)
			}
		}
	}
}

// In a slow game the bar above the board says when the friend's move is
// due, and still has room for who the friend is: on a small phone, in
// every language, the name is not cut off.
func TestPhoneBarKeepsTheNameBesideTheDueDate(t *testing.T) {
	srv := bt.StartServer(t, "")
	var c struct {
		ID, Secret string
		InviteURL  string `json:"invite_url"`
	}
	if code, err := post(t, srv.URL+"/api/games", "", `{"game":"fanorona","start":"me","clock":{"days":14}}`, &c); err != nil || code != http.StatusCreated {
		t.Fatalf("creating a game: %d %v", code, err)
	}
	var j struct{ Secret string }
	if code, err := post(t, srv.URL+"/api/games/"+c.ID+"/join", "", fmt.Sprintf(`{"invite":%q}`, c.InviteURL[strings.LastIndex(c.InviteURL, "/")+1:]), &j); err != nil || code != http.StatusOK {
		t.Fatalf("joining: %d %v", code, err)
	}
	// Both first moves start the clocks; then White's, so that the
	// friend's move is due.
	type state struct {
		Moves  []string `json:"moves"`
		ToMove string   `json:"to_move"`
		Legal  []string `json:"legal"`
	}
	for {
		s := readState[state](t, srv, c.ID, "")
		if len(s.Moves) >= 3 && s.ToMove == "black" {
			break
		}
		secret := c.Secret
		if s.ToMove == "black" {
			secret = j.Secret
		}
		s = readState[state](t, srv, c.ID, secret)
		if code, err := post(t, srv.URL+"/api/games/"+c.ID+"/moves", secret, fmt.Sprintf(`{"ply":%d,"move":%q}`, len(s.Moves), s.Legal[0]), nil); err != nil || code != http.StatusOK {
			t.Fatalf("move %d %s: %d %v", len(s.Moves)+1, s.Legal[0], code, err)
		}
	}

	alice := bt.NewProfile(t, bt.Phone)
	must(t, bt.Navigate(alice, srv.URL+"/g/"+c.ID+"/seat/"+c.Secret))
	for _, size := range [][2]int64{{360, 640}, {320, 568}} {
		must(t, chromedp.Do(alice, chromedp.EmulateViewport(size[0], size[1], chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))))
		for _, lang := range []string{"en", "de", "pl"} {
			must(t, bt.Navigate(alice, srv.URL+"/g/"+c.ID+"?lang="+lang))
			waitFor(t, alice, `document.querySelector("#bar-top .bar-clock.running")?.textContent.length > 0`, true, "the date the friend's move is due")
			type bar struct {
				Name, Due          string
				Cut                bool
				Right, Width, Page float64
				Top, Bottom        float64
			}
			b, err := bt.Eval[bar](alice, `(() => {
				const who = document.querySelector("#bar-top .who"), due = document.querySelector("#bar-top .bar-clock");
				const last = [...document.querySelectorAll("#bar-top > *")].reduce((m, el) => Math.max(m, el.getBoundingClientRect().right), 0);
				return {Name: who.textContent, Due: due.textContent, Cut: who.scrollWidth > who.clientWidth, Right: last, Width: innerWidth, Page: document.documentElement.scrollWidth,
					Top: document.getElementById("bar-top").offsetHeight, Bottom: document.getElementById("bar-bottom").offsetHeight};
			})()`)
			must(t, err)
			if b.Cut || b.Right > b.Width || b.Page > b.Width {
				t.Errorf("%dx%d, %s: the bar above reads %q cut off (%v) beside %q, ends at %.0f on a %.0f px screen, the page %.0f px wide", size[0], size[1], lang, b.Name, b.Cut, b.Due, b.Right, b.Width, b.Page)
			}
			// The player's own bar, with the time left, is as tall: the
			// board stays where it is when the turn passes.
			if b.Top != b.Bottom {
				t.Errorf("%dx%d, %s: the bars are %.0f and %.0f px high", size[0], size[1], lang, b.Top, b.Bottom)
			}
		}
	}
}
