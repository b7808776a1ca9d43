package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

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

	// A link cut short or mistyped is told so, in the page's language.
	dave := bt.NewProfile(t)
	newGame(t, alice, srv, "havannah", map[string]string{"size": "5"}, "me")
	invite = inputValue(t, alice, "invite-url")
	acceptInvitation(t, dave, invite[:strings.LastIndex(invite, "/")+1]+"wrongtoken?lang=de")
	must(t, bt.WaitText(dave, "#notice", "Diese Einladung gehört nicht zu dieser Partie"))
}

// Opening an invitation takes no seat by itself: link checkers and
// messengers' previews run pages too. The friend takes it with a click.
func TestInvitationWaitsForTheFriend(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	id := newGame(t, alice, srv, "havannah", map[string]string{"size": "4"}, "me")
	must(t, bt.Navigate(bob, inputValue(t, alice, "invite-url")))
	waitFor(t, bob, `!document.getElementById("take-seat").hidden`, true, "the button to take the seat")
	time.Sleep(time.Second) // what the page would do by itself, it has done by now
	if s := apiState(t, srv, id); s.Status != "waiting" {
		t.Fatalf("opening the invitation made the game %s", s.Status)
	}
	must(t, bt.Click(bob, "#take-seat"))
	waitStatus(t, bob, "Your friend's turn")
	waitStatus(t, alice, "Your turn")
}
