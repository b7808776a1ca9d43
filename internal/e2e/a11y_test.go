package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"

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
