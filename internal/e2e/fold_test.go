package e2e

import (
	"testing"

	bt "bretter/internal/browsertest"
)

// On a laptop's screen the board leaves room below it for the moves'
// controls and the actions: a draw offered is answered without scrolling.
func TestActionsAboveTheFold(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t, bt.Size(1280, 800)), bt.NewProfile(t)
	startPair(t, srv, alice, bob, "8")
	clickCell(t, alice, "e5")
	waitMoves(t, bob, 1)
	must(t, bt.Click(bob, "#actions button.offer-draw"))
	must(t, bt.WaitText(alice, "#actions", "Your friend offers a draw."))
	sc := screenOf(t, alice)
	for _, q := range []string{"#actions button.accept", "#actions button.resign", "#replay"} {
		if r := rectOf(t, alice, q); r.Bottom > sc.Height || r.Top < 0 {
			t.Errorf("%s spans %.0f–%.0f of a %.0f high screen", q, r.Top, r.Bottom, sc.Height)
		}
	}
	bt.Screenshot(t, alice, "laptop-draw-offered")
}

// On a phone in German, whose buttons are long, the player's own bar with
// its clock stays above the action bar, however many rows that takes.
func TestPhoneBarsClearOfTheActions(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t, bt.Phone, bt.Size(360, 740)), bt.NewProfile(t)
	must(t, bt.Navigate(alice, srv.URL+"/?lang=de"))
	newGame(t, alice, srv, "havannah", map[string]string{"size": "8", "clock": "300+3"}, "me")
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, bob, "Your friend's turn") // the friend's page, once it has joined and reloaded
	waitStatus(t, alice, "Du bist am Zug")
	tapCell(t, alice, "e5")
	must(t, bt.Tap(alice, "#pending-yes"))
	waitMoves(t, bob, 1)
	// As the page is opened again, at its top.
	here, err := bt.Eval[string](alice, "location.href")
	must(t, err)
	must(t, bt.Navigate(alice, here))
	waitMoves(t, alice, 1)
	waitFor(t, alice, "scrollY", 0, "the page at its top")
	bar := rectOf(t, alice, "#action-bar")
	for _, q := range []string{"#bar-bottom", "#bar-top", "#board svg"} {
		if r := rectOf(t, alice, q); r.Bottom > bar.Top+1 || r.Top < 0 {
			t.Errorf("%s spans %.0f–%.0f, the action bar starts at %.0f", q, r.Top, r.Bottom, bar.Top)
		}
	}
	bt.Screenshot(t, alice, "phone-german-bars")
}
