package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	bt "bretter/internal/browsertest"
)

// A friend who lost the answer to joining (here: the seat's cookie) opens
// the invitation again: the page asks with the key it kept and gets the
// same seat back, where anybody else finds the invitation used.
func TestJoinAgainWithTheKeptKey(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob, carol := bt.NewProfile(t), bt.NewProfile(t), bt.NewProfile(t)
	newGame(t, alice, srv, "havannah", map[string]string{"size": "5"}, "me")
	invite := inputValue(t, alice, "invite-url")
	acceptInvitation(t, bob, invite)
	waitStatus(t, bob, "Your friend's turn")
	_, err := chromedp.Run(bob, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.ClearBrowserCookies, cdp.Empty{})
		return err
	}))
	must(t, err)
	must(t, bt.Navigate(bob, invite))
	waitStatus(t, bob, "Your friend's turn")
	must(t, bt.Navigate(carol, invite))
	must(t, bt.WaitText(carol, "#notice", "already"))

	// A link cut short or mistyped is told so at once, in the page's
	// language, and offers no seat.
	dave := bt.NewProfile(t)
	newGame(t, alice, srv, "havannah", map[string]string{"size": "5"}, "me")
	invite = inputValue(t, alice, "invite-url")
	must(t, bt.Navigate(dave, invite[:strings.LastIndex(invite, "/")+1]+"wrongtoken?lang=de"))
	must(t, bt.WaitText(dave, "#notice", "Diese Einladung gehört nicht zu dieser Partie"))
	waitStatus(t, dave, "Warten auf die zweite Person.")
	if gone, err := bt.Eval[bool](dave, `document.getElementById("take-seat") === null`); err != nil || !gone {
		t.Errorf("a wrong invitation offers the seat (%v)", err)
	}
}

// Opening an invitation takes no seat by itself: link checkers and
// messengers' previews run pages too. The friend takes it with a click.
func TestInvitationWaitsForTheFriend(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	id := newGame(t, alice, srv, "havannah", map[string]string{"size": "4"}, "me")
	must(t, bt.Navigate(bob, inputValue(t, alice, "invite-url")))
	waitFor(t, bob, `!document.getElementById("take-seat").hidden`, true, "the button to take the seat")
	// The friend is told the seat is theirs, not the watchers' "Waiting
	// for the second player."
	waitStatus(t, bob, "The seat is yours: take it to play.")
	time.Sleep(time.Second) // what the page would do by itself, it has done by now
	if s := apiState(t, srv, id); s.Status != "waiting" {
		t.Fatalf("opening the invitation made the game %s", s.Status)
	}
	must(t, bt.Click(bob, "#take-seat"))
	waitStatus(t, bob, "Your friend's turn")
	waitStatus(t, alice, "Your turn")
}

// An invitation whose seat goes meanwhile stops offering it: the button
// goes as soon as the page hears the game was called off. A page that has
// not heard yet when the friend clicks is told, in its language, that the
// game ended, and its status line no longer says the seat is being taken.
func TestInvitationGone(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob, carol := bt.NewProfile(t), bt.NewProfile(t), bt.NewProfile(t)
	newGame(t, alice, srv, "havannah", map[string]string{"size": "4"}, "me")
	must(t, bt.Navigate(bob, inputValue(t, alice, "invite-url")))
	waitFor(t, bob, `!document.getElementById("take-seat").hidden`, true, "the button to take the seat")
	callOff := func() {
		t.Helper()
		must(t, bt.Click(alice, "#actions button.abort"))
		must(t, bt.Click(alice, `#confirm button[value=yes]`))
		waitStatus(t, alice, "The game was called off.")
	}
	callOff()
	waitStatus(t, bob, "The game was called off.")
	waitFor(t, bob, `document.getElementById("take-seat") === null`, true, "the button gone")

	// Carol's page holds back what the server tells it while told to.
	_, err := cdp.Call(carol, chromedp.FromContext(carol).Target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.WebSocket = class extends WebSocket {
			addEventListener(type, f, ...rest) {
				return super.addEventListener(type, type === "message" ? (e) => window.deaf || f(e) : f, ...rest);
			}
		};`,
	})
	must(t, err)
	newGame(t, alice, srv, "havannah", map[string]string{"size": "4"}, "me")
	must(t, bt.Navigate(carol, inputValue(t, alice, "invite-url")+"?lang=de"))
	waitFor(t, carol, `!document.getElementById("take-seat").hidden`, true, "the button to take the seat")
	_, err = bt.Eval[bool](carol, `window.deaf = true`)
	must(t, err)
	callOff()
	must(t, bt.Click(carol, "#take-seat"))
	must(t, bt.WaitText(carol, "#notice", "Diese Partie endete, bevor jemand den Platz eingenommen hat"))
	status, err := bt.Eval[string](carol, `document.getElementById("status").textContent`)
	must(t, err)
	if strings.Contains(status, "eingenommen") {
		t.Errorf("after the refusal the status says %q", status)
	}
	if gone, err := bt.Eval[bool](carol, `document.getElementById("take-seat") === null`); err != nil || !gone {
		t.Errorf("the button to take the seat is still there (%v)", err)
	}
}

// Before the friend has joined, a move typed or chosen on the board is
// answered with what the player waits for, not with whose turn it is, on
// every board.
func TestMoveBeforeTheFriendJoined(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice := bt.NewProfile(t)
	const waiting = "The game starts when your friend has joined."
	notice := `document.getElementById("notice").textContent`
	for _, g := range []struct{ game, size, cell string }{{"havannah", "4", "a1"}, {"dvonn", "", "C3"}, {"fanorona", "", "d3"}} {
		options := map[string]string{}
		if g.size != "" {
			options["size"] = g.size
		}
		newGame(t, alice, srv, g.game, options, "me")
		waitStatus(t, alice, "Waiting for your friend")
		// The players' controls, and what says why a click chose nothing.
		waitFor(t, alice, `document.querySelector("#actions button.abort") !== null`, true, "the players' controls")
		clickCell(t, alice, g.cell)
		waitFor(t, alice, notice, waiting, g.game+": a cell clicked")
		_, err := bt.Eval[bool](alice, `(document.getElementById("notice").textContent = "") === ""`)
		must(t, err)
		typeInto(t, alice, "#move-input", g.cell+kb.Enter)
		waitFor(t, alice, notice, waiting, g.game+": a move typed")
	}
}
