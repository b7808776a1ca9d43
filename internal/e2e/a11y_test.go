package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	bt "bretter/internal/browsertest"
)

// What a screen reader is told of a game against the computer: who may
// start, as the form asks, is the computer, not a friend; on the game
// page the marks beside the players (who is to move, who is here) are
// drawn for the eyes only, the question before resigning names its dialog, which
// is all a reader says when the dialog takes the focus, and the end of a
// game that is over is its final position.
func TestWhatAScreenReaderIsTold(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	must(t, bt.Navigate(p, srv.URL+"/havannah"))
	must(t, bt.Click(p, `form.new-game input[name=opponent][value=computer]`))
	var radios []string
	for _, n := range axNodes(t, p) {
		if n.role == "radio" {
			radios = append(radios, n.name)
		}
	}
	slices.Sort(radios) // in the order the tree lists them, not the page's
	if got := strings.Join(radios, ", "); got != "A friend (send a link), Me, Random, The computer, The computer" {
		t.Errorf("against the computer the start form offers %s", got)
	}
	_, err := bt.Eval[bool](p, `(document.querySelector("form.new-game [name=size]").value = "4") !== ""`)
	must(t, err)
	must(t, bt.Click(p, `form.new-game button[type=submit]`))
	must(t, bt.WaitText(p, "#status", "Your turn"))
	for _, n := range axNodes(t, p) {
		// (The page's title marks the viewer's turn in a row of tabs.)
		if n.role != "RootWebArea" && strings.ContainsAny(n.name, "◀●○") {
			t.Errorf("a screen reader is told %s %q", n.role, n.name)
		}
	}

	must(t, bt.Click(p, "#actions button.resign"))
	waitFor(t, p, `document.getElementById("confirm").open`, true, "the question before resigning")
	var dialogs []string
	for _, n := range axNodes(t, p) {
		if n.role == "dialog" {
			dialogs = append(dialogs, n.name)
		}
	}
	if len(dialogs) != 1 || dialogs[0] != "Do you really want to resign this game?" {
		t.Errorf("the dialogs are named %q", dialogs)
	}

	// Over, the game has no position in play to step back to.
	must(t, bt.Click(p, `#confirm button[value=yes]`))
	must(t, bt.WaitText(p, "#status", "You lost"))
	must(t, bt.Click(p, `#replay button[data-step=first]`))
	must(t, bt.Click(p, `#replay button[data-step=last]`))
	must(t, bt.WaitText(p, "#replay-banner", "Final position (0 moves)"))
}

type axNode struct{ role, name string }

// axNodes is the page's accessibility tree as Chromium gives it to a
// screen reader, each node that is not ignored with its role and name,
// the text of a text node being its name.
func axNodes(t *testing.T, ctx context.Context) []axNode {
	t.Helper()
	tree, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	must(t, err)
	text := func(v *accessibility.Value) string {
		var s string
		if v != nil && json.Unmarshal(v.Value, &s) != nil {
			s = string(v.Value)
		}
		return s
	}
	var out []axNode
	for _, n := range tree.Nodes {
		if !n.Ignored {
			out = append(out, axNode{role: text(n.Role), name: text(n.Name)})
		}
	}
	return out
}

// What a screen reader hears as a game ends: the move that ended it, then
// the result, as a sighted player sees the stone and then the status, each
// once; a resignation has no move, only the result. The friend's move, the
// player's own against the computer, and a resignation.
func TestTheMoveIsHeardBeforeTheResult(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	// White closes a ring around b2 with a1.
	given := `"moves":["a2","d4","b3","e5","c3","f6","c2","g7","e2","f5","b1","e3"]`
	friend := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me",`+given+`}`)
	must(t, bt.Navigate(p, friend.otherURL))
	waitStatus(t, p, "Your friend's turn")
	listen(t, p)
	friend.move(t, srv, "white", 12, "a1")
	must(t, bt.WaitText(p, "#status", "You lost"))
	heardInOrder(t, p, "White plays a1.", "White wins with a ring. You lost.")

	var c struct {
		ID, Secret string
		URL        string `json:"player_url"`
	}
	computer := `{"game":"havannah","options":{"size":4},"start":"me","opponent":"computer","level":1`
	if code, err := post(t, srv.URL+"/api/games", "", computer+`,`+given+`}`, &c); code != http.StatusCreated || err != nil {
		t.Fatalf("create: %d %v", code, err)
	}
	must(t, bt.Navigate(p, c.URL))
	waitStatus(t, p, "Your turn")
	listen(t, p)
	clickCell(t, p, "a1")
	must(t, bt.WaitText(p, "#status", "You won"))
	heardInOrder(t, p, "White plays a1.", "White wins with a ring. You won!")

	if code, err := post(t, srv.URL+"/api/games", "", computer+`}`, &c); code != http.StatusCreated || err != nil {
		t.Fatalf("create: %d %v", code, err)
	}
	must(t, bt.Navigate(p, c.URL))
	waitStatus(t, p, "Your turn")
	listen(t, p)
	if code, err := post(t, srv.URL+"/api/games/"+c.ID+"/resign", c.Secret, "{}", nil); code != http.StatusOK || err != nil {
		t.Fatalf("resign: %d %v", code, err)
	}
	must(t, bt.WaitText(p, "#status", "You lost"))
	heardInOrder(t, p, "", "White resigned: Black wins. You lost.")
}

// A move that brings a clock's warning (the clock that starts with it is
// low) is heard first, and the warning after it: in the same turn, one
// written over the other would leave only the last for a screen reader.
func TestAClockWarningIsHeardAfterItsMove(t *testing.T) {
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me","clock":{"initial_s":15,"increment_s":0}}`)
	g.move(t, srv, "white", 0, "a1")
	g.move(t, srv, "black", 1, "d4") // the clocks start: White's runs
	g.move(t, srv, "white", 2, "b3")
	time.Sleep(5500 * time.Millisecond) // Black thinks, and has less than ten seconds left
	g.move(t, srv, "black", 3, "e5")
	// White's page, opened now, has warned of nobody's clock yet.
	p := bt.NewProfile(t)
	must(t, bt.Navigate(p, g.playerURL))
	waitStatus(t, p, "Your turn")
	waitFor(t, p, `document.getElementById("clocks").hidden`, false, "the clocks shown")
	listen(t, p)
	g.move(t, srv, "white", 4, "c3")
	waitStatus(t, p, "Your friend's turn")
	heard, err := bt.Eval[[][2]string](p, `window.heard`)
	must(t, err)
	var got []string
	for _, h := range heard {
		if h[0] == "announce" {
			got = append(got, h[1])
		}
	}
	warning := regexp.MustCompile(`^ Black: (10|9|8) seconds left\.$`)
	if len(got) < 2 || got[len(got)-2] != "White plays c3." || !warning.MatchString(got[len(got)-1]) {
		t.Errorf("a screen reader is told %q, want the move and then Black's low time (all it was told: %q)", got, heard)
	}
	said, err := bt.Eval[string](p, `document.getElementById("announce").textContent`)
	must(t, err)
	if !strings.HasPrefix(said, "White plays c3. Black: ") {
		t.Errorf("the announcements end with %q, not the move and the warning", said)
	}
}

// listen notes each new text of the page's status and of its announcements
// of moves, the live regions a screen reader reads out, in the order they
// are written: a text written again as it was is not read again.
func listen(t *testing.T, ctx context.Context) {
	t.Helper()
	_, err := bt.Eval[bool](ctx, `(() => {
		window.heard = [];
		const last = {};
		// One observer for both, which has their changes in order.
		const o = new MutationObserver((records) => {
			for (const r of records) {
				const id = r.target.id, text = [...r.addedNodes].map((n) => n.textContent).join("");
				if (last[id] !== text) heard.push([id, text]);
				last[id] = text;
			}
		});
		for (const id of ["status", "announce"]) {
			last[id] = document.getElementById(id).textContent;
			o.observe(document.getElementById(id), { childList: true });
		}
		return true;
	})()`)
	must(t, err)
}

// heardInOrder checks that move (none for "") and then result were read
// out once each, and nothing of the status after the result.
func heardInOrder(t *testing.T, ctx context.Context, move, result string) {
	t.Helper()
	heard, err := bt.Eval[[][2]string](ctx, `window.heard`)
	must(t, err)
	var got []string
	for _, h := range heard {
		if h[0] == "announce" || len(got) > 0 || h[1] == result {
			got = append(got, h[0]+": "+h[1])
		}
	}
	want := []string{"status: " + result}
	if move != "" {
		want = append([]string{"announce: " + move}, want...)
	}
	if !slices.Equal(got, want) {
		t.Errorf("a screen reader hears %q, want %q (all it was told: %q)", got, want, heard)
	}
}

// The board's arrow keys reach it under a screen reader. In browse mode
// a reader keeps the arrow keys to read the page with; it hands them to
// the page on its own only inside a widget that is known to take them
// (NVDA: a toolbar, a grid's cells, a list's items, not a button in a
// group), so the board, once its arrow keys work, is a toolbar of cells,
// for the player to move and for the one waiting alike. The keys are the
// board's only while it has the focus: pressed on a button outside it,
// they neither move the board's focus nor are kept from the page.
func TestTheBoardsArrowKeysUnderAScreenReader(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	startPair(t, srv, alice, bob, "4")
	for _, p := range []context.Context{alice, bob} {
		waitFor(t, p, `document.querySelector("#board .board-svg")?.hasAttribute("aria-description") ?? false`, true, "the board's arrow keys")
		var roles []string
		for _, n := range axNodes(t, p) {
			if n.name == "Havannah board" {
				roles = append(roles, n.role)
			}
		}
		if !slices.Equal(roles, []string{"toolbar"}) {
			t.Errorf("a screen reader is told the board is %q, not a toolbar", roles)
		}
	}

	waitFor(t, alice, `document.querySelector("#actions button.resign") !== null`, true, "the player's controls")
	_, err := bt.Eval[bool](alice, `(window.prevented = [], addEventListener("keydown", (e) => e.defaultPrevented && prevented.push(e.key)), document.querySelector("#actions button.resign").focus(), true)`)
	must(t, err)
	for _, key := range []string{kb.ArrowDown, kb.ArrowRight, kb.ArrowUp, kb.ArrowLeft} {
		press(t, alice, key)
	}
	got, err := bt.Eval[string](alice, `document.activeElement.className + " " + prevented.join()`)
	must(t, err)
	if got != "resign " {
		t.Errorf("after the arrow keys on a button outside the board, the focus and the keys kept from the page were: %q", got)
	}
}

// The button that plays a move waiting for its confirmation is described
// by the question, so that a screen reader, which the focus takes to it,
// says which move it plays, not only "Play it". A Fanorona turn on a
// phone, which confirms its moves.
func TestTheConfirmationSaysWhichMove(t *testing.T) {
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, `{"game":"fanorona","start":"me"}`)
	p := bt.NewProfile(t, bt.Phone, bt.Size(360, 740))
	must(t, bt.Navigate(p, g.playerURL))
	waitStatus(t, p, "Your turn")
	must(t, bt.Tap(p, `#board [data-cell="d3"]`))
	must(t, bt.Tap(p, `#board [data-cell="e3"]`))
	must(t, bt.Tap(p, `.fanorona-buttons button.way-W`))
	waitFor(t, p, `document.activeElement.id`, "pending-yes", "the focus on the confirmation")
	tree, err := chromedp.Call(p, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	must(t, err)
	text := func(v *accessibility.Value) string {
		var s string
		if v != nil {
			_ = json.Unmarshal(v.Value, &s)
		}
		return s
	}
	for _, n := range tree.Nodes {
		if !n.Ignored && text(n.Role) == "button" && text(n.Name) == "Play it" {
			if got := text(n.Description); got != "Play d3-e3W?" {
				t.Fatalf("the confirmation's button is described as %q", got)
			}
			return
		}
	}
	t.Fatal("no button to play the move")
}
