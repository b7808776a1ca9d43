package e2e

import (
	"testing"

	bt "bretter/internal/browsertest"
)

// A player's games are listed on one page, with the position drawn, and
// the list leads back to each game; the browser keeps one cookie for all
// its seats.
func TestMyGamesPage(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	first := startPair(t, srv, alice, bob, "5")
	clickCell(t, alice, "c3")
	waitMoves(t, bob, 1)
	second := newGame(t, alice, srv, "dvonn", nil, "friend")

	must(t, bt.Navigate(alice, srv.URL+"/my"))
	must(t, bt.WaitText(alice, "main", "Your friend's move."))
	links, err := bt.Eval[[]string](alice, `[...document.querySelectorAll(".my-game a")].map(a => a.getAttribute("href"))`)
	must(t, err)
	if len(links) != 2 || links[0] != "/g/"+second || links[1] != "/g/"+first {
		t.Fatalf("my games lists %v, want the newer DVONN game, then the Havannah game", links)
	}
	drawn, err := bt.Eval[bool](alice, `new Promise((done) => {
		const check = () => document.querySelectorAll(".my-game .diagram svg").length === 2 ? done(true) : setTimeout(check, 50);
		check();
	})`)
	if err != nil || !drawn {
		t.Fatalf("the positions are not drawn: %v", err)
	}
	cookies, err := bt.Eval[string](alice, `document.cookie`)
	must(t, err)
	if cookies != "" && cookies != "lang=en" {
		t.Fatalf("scripts see the cookies %q; seats must be out of their reach", cookies)
	}
	bt.Screenshot(t, alice, "my-games")

	must(t, bt.Navigate(bob, srv.URL+"/my"))
	must(t, bt.WaitText(bob, "main", "Your move"))
	must(t, bt.Click(bob, ".my-game a"))
	waitStatus(t, bob, "Your turn")
}
