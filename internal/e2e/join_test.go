package e2e

import (
	"context"
	"strings"
	"testing"

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
	must(t, bt.Navigate(bob, invite))
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
	must(t, bt.Navigate(dave, invite[:strings.LastIndex(invite, "/")+1]+"wrongtoken?lang=de"))
	must(t, bt.WaitText(dave, "#notice", "Diese Einladung gehört nicht zu dieser Partie"))
}
