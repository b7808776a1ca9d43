package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	bt "bretter/internal/browsertest"
)

// In German, whose words run long, nothing in the side panel reaches past
// its edge on a desktop screen, the clocks of a slow game included.
func TestGermanPanelFits(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	germanGame(t, srv, alice, bob, map[string]string{"size": "5", "clock": "d1"}, "a1", "e5")
	waitFor(t, alice, `document.querySelector("#clocks .clock.white.running") !== null`, true, "White's clock running")
	// The move is due at a moment in the reader's time, a day from the
	// last move: in the panel in full, in a phone's bar short.
	due, err := bt.Eval[[]string](alice, `(() => {
		const due = `+dueIs+`;
		const panel = document.querySelector("#clocks .white .due")?.textContent;
		const bar = document.querySelector(".player-bar .bar-clock.white")?.textContent;
		const out = [];
		if (!due(panel, "Zug bis ", false)) out.push("panel " + panel);
		if (!due(bar, "bis ", true)) out.push("bar " + bar);
		if (document.querySelector("#clocks .black .due")) out.push("Black, not to move, has a due moment");
		return out;
	})()`)
	must(t, err)
	if len(due) > 0 {
		t.Fatalf("the due moment of a slow game's move: %q", due)
	}
	// On a phone the bar beside the board has room for it, and for who
	// plays, whole.
	must(t, chromedp.Do(bob, chromedp.EmulateViewport(360, 740, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))))
	waitFor(t, bob, `document.querySelector(".player-bar .bar-clock.white")?.textContent.startsWith("bis ") ?? false`, true, "the due moment in Black's bar")
	cramped, err := bt.Eval[[]string](bob, `[...document.querySelectorAll(".player-bar")].filter((bar) => {
		const clock = bar.querySelector(".bar-clock").getBoundingClientRect(), r = bar.getBoundingClientRect(), who = bar.querySelector(".who"), name = document.createRange();
		name.selectNodeContents(who.lastChild);
		return bar.scrollWidth > bar.clientWidth || clock.right > r.right || clock.height > 1.6 * parseFloat(getComputedStyle(bar).fontSize) * 1.2 || name.getBoundingClientRect().width > who.clientWidth + 1;
	}).map((bar) => bar.textContent)`)
	must(t, err)
	bt.Screenshot(t, bob, "german-phone-slow")
	if len(cramped) > 0 {
		t.Fatalf("bars with no room for their clock: %q", cramped)
	}
	must(t, bt.Click(alice, "#settings summary"))
	must(t, bt.Click(alice, "#share summary"))
	over, err := bt.Eval[[]string](alice, `(() => {
		const panel = document.querySelector(".panel").getBoundingClientRect();
		const out = [];
		for (const el of document.querySelectorAll(".panel button, .panel input, .panel select, .panel label, .panel summary")) {
			const r = el.getBoundingClientRect();
			if (r.width === 0) continue;
			if (r.right > panel.right - 1 || r.left < panel.left) out.push((el.id || el.className || el.tagName) + " " + (el.textContent || "").trim().slice(0, 30) + " " + Math.round(r.right) + ">" + Math.round(panel.right));
		}
		return out;
	})()`)
	must(t, err)
	// A clock of days shows its time in words, on the line of its colour
	// or below, never run into it.
	clocks, err := bt.Eval[[]string](alice, `[...document.querySelectorAll("#clocks .clock")].filter((row) => {
		const who = row.querySelector(".who").getBoundingClientRect(), time = row.querySelector(".time").getBoundingClientRect();
		return time.top < who.bottom && time.left < who.right + 4 || time.height > 1.5 * who.height || time.right > row.getBoundingClientRect().right;
	}).map((row) => row.textContent)`)
	must(t, err)
	if len(clocks) > 0 {
		t.Fatalf("clocks whose time runs into the colour or wraps: %q", clocks)
	}
	// The chat's empty field says what it is for in full.
	fits, err := bt.Eval[bool](alice, `(() => {
		const input = document.getElementById("chat-input"), style = getComputedStyle(input);
		const pen = document.createElement("canvas").getContext("2d");
		pen.font = style.font;
		return pen.measureText(input.placeholder).width <= input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
	})()`)
	must(t, err)
	if !fits {
		t.Fatal("the chat field's placeholder is cut off")
	}
	bt.Screenshot(t, alice, "german-desktop")
	if len(over) > 0 {
		t.Fatalf("reaching past the panel's edge: %q", over)
	}
	// The list of one's games tells both players the moment too.
	for _, who := range []context.Context{alice, bob} {
		must(t, bt.Navigate(who, srv.URL+"/my"))
		waitFor(t, who, `document.querySelector(".my-game .due:not([hidden])") !== null`, true, "the due moment on the list of games")
		line, err := bt.Eval[string](who, `document.querySelector(".my-game .due").textContent`)
		must(t, err)
		if ok, err := bt.Eval[bool](who, fmt.Sprintf(`(%s)(%q, " · Zug bis ", false)`, dueIs, line)); err != nil || !ok {
			t.Fatalf("the list of games says %q: %v", line, err)
		}
	}
}

// dueIs is a script's function that tells whether text is prefix and the
// moment a day from now, in German, in full or short: a slow game's move
// of a day, just made. (The minute may have turned since.)
const dueIs = `(text, prefix, short) => {
	const at = new Intl.DateTimeFormat("de", short ? { weekday: "short", hour: "2-digit", minute: "2-digit" }
		: { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
	const then = Date.now() + 86400000;
	return text === prefix + at.format(then) || text === prefix + at.format(then - 60000);
}`

// A move the server refuses (the page offers only legal ones, so this
// takes another page of the same player, or a race) is told in the page's
// language, down to the rules' reason.
func TestRefusedMoveInGerman(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	// Every socket the page opens is kept where the test can reach it.
	_, err := cdp.Call(alice, chromedp.FromContext(alice).Target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `{ const Real = WebSocket; window.WebSocket = class extends Real { constructor(...a) { super(...a); (window.sockets ??= []).push(this); } }; }`,
	})
	must(t, err)
	id := germanGame(t, srv, alice, bob, map[string]string{"size": "5"}, "e5", "d4")
	// Alice's other page, a step behind, plays e5 again: what the server
	// answers is what her page gets.
	link := inputValue(t, alice, "player-url")
	req, err := http.NewRequest("POST", srv.URL+"/api/games/"+id+"/moves", strings.NewReader(`{"ply":2,"move":"e5"}`))
	must(t, err)
	req.Header.Set("Authorization", "Bearer "+link[strings.LastIndex(link, "/")+1:])
	res, err := http.DefaultClient.Do(req)
	must(t, err)
	defer res.Body.Close()
	var refused struct {
		Error, Code string
		Reasons     json.RawMessage
	}
	must(t, json.NewDecoder(res.Body).Decode(&refused))
	if refused.Code != "illegal" || len(refused.Reasons) == 0 {
		t.Fatalf("the server answered %d %+v", res.StatusCode, refused)
	}
	reply, _ := json.Marshal(map[string]any{"type": "error", "id": 999, "code": refused.Code, "error": refused.Error, "reasons": refused.Reasons})
	_, err = bt.Eval[bool](alice, fmt.Sprintf(`window.sockets.at(-1).dispatchEvent(new MessageEvent("message", { data: %q })), true`, reply))
	must(t, err)
	must(t, bt.WaitText(alice, "#notice", "Dieser Zug ist nicht erlaubt: unerlaubter Zug e5: das Feld ist besetzt"))
}

// A message of the player's that the server failed to carry out (its
// store failed) is told in the page's language, not in the server's
// English.
func TestServerFailureInGerman(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	_, err := cdp.Call(p, chromedp.FromContext(p).Target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `{ const Real = WebSocket; window.WebSocket = class extends Real { constructor(...a) { super(...a); (window.sockets ??= []).push(this); } }; }`,
	})
	must(t, err)
	must(t, bt.Navigate(p, srv.URL+"/havannah?lang=de"))
	must(t, bt.Click(p, `form.new-game input[name=opponent][value=computer]`))
	must(t, bt.Click(p, `form.new-game button[type=submit]`))
	waitFor(t, p, `document.querySelector("#actions button.resign") !== null`, true, "the players' controls")
	// What the server answers a move when its disk is full.
	reply := `{"type":"error","id":999,"code":"internal","error":"something went wrong on the server"}`
	_, err = bt.Eval[bool](p, fmt.Sprintf(`window.sockets.at(-1).dispatchEvent(new MessageEvent("message", { data: %q })), true`, reply))
	must(t, err)
	must(t, bt.WaitText(p, "#notice", "Auf dem Server ist etwas schiefgegangen. Bitte gleich noch einmal versuchen."))
}

// germanGame starts a Havannah game with options between alice (White)
// and bob, both reading German, and plays White's first move and Black's.
func germanGame(t *testing.T, srv *bt.Server, alice, bob context.Context, options map[string]string, white, black string) string {
	t.Helper()
	must(t, bt.Navigate(alice, srv.URL+"/?lang=de"))
	must(t, bt.Navigate(bob, srv.URL+"/?lang=de"))
	id := newGame(t, alice, srv, "havannah", options, "me")
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, bob, "Dein Gegenüber ist am Zug") // the friend's page, once it has joined and reloaded
	waitStatus(t, alice, "Du bist am Zug")
	clickCell(t, alice, white)
	waitMoves(t, bob, 1)
	clickCell(t, bob, black)
	waitMoves(t, alice, 2)
	return id
}

// The terms of a new game write its clock's time in whole minutes and
// seconds, with the language's units.
func TestGermanRematchTerms(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	id := germanGame(t, srv, alice, bob, map[string]string{"size": "4"}, "a1", "b2")
	secret := secretOf(t, inputValue(t, alice, "player-url"))
	for _, step := range []struct{ path, body string }{{"resign", "{}"}, {"rematch", `{"clock":{"initial_s":90,"increment_s":0}}`}} {
		if code, err := post(t, srv.URL+"/api/games/"+id+"/"+step.path, secret, step.body, nil); err != nil || code >= 300 {
			t.Fatalf("%s: %d %v", step.path, code, err)
		}
	}
	must(t, bt.WaitText(bob, "#actions", "1 Min. 30 s + 0 s pro Zug"))
}

// A swap is announced in the page's language, as the list of moves
// writes it, not as the notation's word.
func TestGermanSwapAnnounced(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	must(t, bt.Navigate(alice, srv.URL+"/?lang=de"))
	must(t, bt.Navigate(bob, srv.URL+"/?lang=de"))
	newGame(t, alice, srv, "havannah", map[string]string{"size": "4", "swap": "1"}, "me")
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, alice, "Du bist am Zug")
	clickCell(t, alice, "a1")
	waitMoves(t, bob, 1)
	must(t, bt.Click(bob, "#actions button.swap"))
	waitMoves(t, alice, 2)
	must(t, bt.WaitText(alice, "#announce", "Schwarz spielt Tausch."))
}

// A record the server refuses without saying why in the site's words (too
// large, or one too many a minute) is refused in the page's language, not
// in the server's English.
func TestImportRefusalsInGermanAndPolish(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	large := `[Game "DVONN"]` + "\n" + strings.Repeat(" ", 300<<10)
	for _, lang := range []struct{ code, want string }{
		{"de", "Diese Partie lässt sich nicht zeigen: sie ist größer als 256 KiB"},
		{"pl", "Tego zapisu nie da się pokazać: jest większy niż 256 KiB"},
	} {
		must(t, bt.Navigate(p, srv.URL+"/import?lang="+lang.code))
		waitFor(t, p, `document.querySelector("#import-form button[type=submit]").disabled`, false, "the import form ready")
		setValue(t, p, "#record-text", large)
		must(t, bt.Click(p, `#import-form button[type=submit]`))
		waitFor(t, p, `document.getElementById("import-error").textContent`, lang.want, "the refusal of a record too large")
	}

	// The records a minute are used up from the page, then one more is
	// sent with the form.
	_, err := bt.Eval[bool](p, `(async () => {
		for (;;) {
			const res = await fetch("/api/records", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text: '[Game "DVONN"]' }) });
			if (res.status === 429) break;
		}
		document.getElementById("record-text").value = '[Game "DVONN"]';
		document.getElementById("import-form").requestSubmit();
		return true;
	})()`)
	must(t, err)
	waitFor(t, p, `document.getElementById("import-error").textContent`, "Tego zapisu nie da się pokazać: Za dużo zapytań. Poczekaj chwilę.", "the refusal of one record too many")
}

// A record sent while the site cannot be reached is not refused: the page
// says, in its language, that it did not go out.
func TestImportOfflineInGerman(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	must(t, bt.Navigate(p, srv.URL+"/import?lang=de"))
	waitFor(t, p, `document.querySelector("#import-form button[type=submit]").disabled`, false, "the import form ready")
	setValue(t, p, "#record-text", `[Game "DVONN"]`)
	srv.Stop()
	must(t, bt.Click(p, `#import-form button[type=submit]`))
	waitFor(t, p, `document.getElementById("import-error").textContent`,
		"Nicht gesendet: Die Verbindung ist unterbrochen. Versuche es erneut, sobald sie wieder steht.", "what the page says offline")
}

// An invitation that cannot reach the site, after trying for a while,
// says so in the page's language, not in the browser's words.
func TestInvitationOfflineInGerman(t *testing.T) {
	srv := bt.StartServer(t, "")
	var c struct {
		InviteURL string `json:"invite_url"`
	}
	if code, err := post(t, srv.URL+"/api/games", "", `{"game":"havannah","options":{"size":4},"start":"me"}`, &c); code != http.StatusCreated || err != nil {
		t.Fatalf("create: %d %v", code, err)
	}
	bob := bt.NewProfile(t)
	must(t, bt.Navigate(bob, c.InviteURL+"?lang=de"))
	waitFor(t, bob, `!document.getElementById("take-seat").hidden`, true, "the button to take the seat")
	srv.Stop()
	must(t, bt.Click(bob, "#take-seat"))
	// The page tries five times over some 15 s before it gives up; the
	// deadline only ends a test that hangs.
	const want = "Nicht gesendet: Die Verbindung ist unterbrochen."
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		got, err := bt.Eval[string](bob, `document.getElementById("notice").textContent`)
		must(t, err)
		if strings.Contains(got, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the invitation offline says %q, want %q", got, want)
		}
	}
}
