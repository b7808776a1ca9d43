package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"

	bt "bretter/internal/browsertest"
)

// longName is as long as a name may be, without a place to break it.
var longName = strings.Repeat("W", 20)

// overflows lists what sticks out sideways: past the screen (the page
// scrolls sideways), past the game's panel beside the board, or past a
// game's card on my games.
func overflows(t *testing.T, ctx context.Context) []string {
	t.Helper()
	out, err := bt.Eval[[]string](ctx, `(() => {
		const out = [];
		const root = document.documentElement;
		if (root.scrollWidth > root.clientWidth) out.push("the page is " + root.scrollWidth + " px wide on a " + root.clientWidth + " px screen");
		for (const box of document.querySelectorAll(".panel, .my-game a")) {
			const edge = box.getBoundingClientRect().right;
			if (!box.getBoundingClientRect().width) continue; // a phone's panel gives up its box
			for (const el of box.querySelectorAll("*")) {
				const r = el.getBoundingClientRect();
				if (r.width > 1 && r.right > edge + 0.5) out.push(el.tagName + "." + el.className + " " + JSON.stringify(el.textContent.slice(0, 30)) + " ends at " + Math.round(r.right) + ", past " + Math.round(edge));
			}
		}
		return out;
	})()`)
	must(t, err)
	return out
}

// fits fails the test when something sticks out sideways.
func fits(t *testing.T, ctx context.Context, where string) {
	t.Helper()
	if out := overflows(t, ctx); len(out) > 0 {
		bt.Screenshot(t, ctx, "long-name-"+strings.ReplaceAll(where, " ", "-"))
		t.Errorf("%s: %s", where, strings.Join(out, "; "))
	}
}

// nameMyself saves name as the player's name.
func nameMyself(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	waitFor(t, ctx, `document.querySelector("#actions button") !== null`, true, "the players' controls") // and the name's
	setValue(t, ctx, "#name-input", name)
	_, err := bt.Eval[bool](ctx, `document.getElementById("name-form").requestSubmit(), true`)
	must(t, err)
	must(t, bt.WaitText(ctx, "#players", name))
}

// Names as long as they may be, with nowhere to break, keep within the
// page wherever they show, on a desktop and on a phone: the list of
// players, the invitation, the chat, the finished game and my games.
func TestLongNamesFit(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t, bt.Size(1280, 800)), bt.NewProfile(t, bt.Phone)
	newGame(t, alice, srv, "havannah", map[string]string{"size": "4"}, "me")
	nameMyself(t, alice, longName)
	fits(t, alice, "desktop waiting")

	must(t, bt.Navigate(bob, inputValue(t, alice, "invite-url")))
	must(t, bt.WaitText(bob, "#players", longName))
	fits(t, bob, "phone invited")
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, bob, "Your friend's turn")
	nameMyself(t, bob, longName)
	must(t, bt.WaitText(alice, "#players li.black", longName))
	for _, p := range []context.Context{alice, bob} {
		setValue(t, p, "#chat-input", "good luck")
		typeInto(t, p, "#chat-input", kb.Enter)
	}
	must(t, bt.WaitText(alice, "#chat-lines", longName+": good luck"))
	must(t, bt.WaitText(bob, "#chat-lines", longName+": good luck"))
	fits(t, alice, "desktop playing")
	fits(t, bob, "phone playing")

	clickCell(t, alice, "a1")
	waitMoves(t, bob, 1)
	must(t, bt.Tap(bob, "#actions button.resign"))
	must(t, bt.Tap(bob, "#confirm button[value=yes]"))
	waitStatus(t, alice, "wins")
	waitStatus(t, bob, "wins")
	fits(t, alice, "desktop over")
	fits(t, bob, "phone over")

	for _, p := range []context.Context{alice, bob} {
		must(t, bt.Navigate(p, srv.URL+"/my"))
		must(t, bt.WaitText(p, "main", longName))
	}
	fits(t, alice, "desktop my games")
	fits(t, bob, "phone my games")
}
