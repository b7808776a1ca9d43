package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"

	bt "bretter/internal/browsertest"
)

// Two friends play Havannah on a board of side 4 by clicking, in two
// independent browsers; one page is reloaded in the middle of the game; a
// third browser opening the invitation only watches.
func TestHavannahWithAFriend(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice := bt.NewProfile(t)
	bob := bt.NewProfile(t)

	id := newGame(t, alice, srv, "havannah", map[string]string{"size": "4"}, "me")
	waitStatus(t, alice, "Waiting for your friend")
	invite := inputValue(t, alice, "invite-url")
	if !strings.Contains(invite, "/g/"+id+"/join/") {
		t.Fatalf("invitation link %q", invite)
	}
	if inputValue(t, alice, "player-url") == "" || inputValue(t, alice, "watch-url") == "" {
		t.Fatal("the creator's page lacks the private or the watch link")
	}

	acceptInvitation(t, bob, invite)
	waitStatus(t, bob, "Your friend's turn")
	waitStatus(t, alice, "Your turn")
	bt.Screenshot(t, alice, "havannah-desktop-start")

	// White closes a ring around b2 on the thirteenth move, with a stone
	// of its own at e2 apart from the ring; Black's stones make no
	// structure on the way.
	moves := strings.Fields("a2 d4 b3 e5 c3 f6 c2 g7 e2 f5 b1 e3 a1")
	for i, m := range moves {
		mover, other := alice, bob
		if i%2 == 1 {
			mover, other = bob, alice
		}
		if i == 5 {
			must(t, bt.Navigate(bob, srv.URL+"/g/"+id)) // the page comes back with the seat
			waitStatus(t, bob, "Your turn")
		}
		waitStatus(t, mover, "Your turn")
		clickCell(t, mover, m)
		waitMoves(t, other, i+1)
		waitMoves(t, mover, i+1)
	}
	waitStatus(t, alice, "White wins with a ring")
	waitStatus(t, bob, "White wins with a ring")
	must(t, bt.WaitText(alice, "#status", "You won"))
	must(t, bt.WaitText(bob, "#status", "You lost"))
	for _, ctx := range []context.Context{alice, bob} {
		if shown, _ := bt.Eval[bool](ctx, `getComputedStyle(document.getElementById("move-entry")).display !== "none"`); shown {
			t.Fatal("typing a move is offered after the end")
		}
	}
	// Exactly the ring is highlighted, not White's stone at e2.
	wins, err := bt.Eval[[]string](bob, `[...document.querySelectorAll("#board .cell.win")].map((c) => c.dataset.cell).sort()`)
	must(t, err)
	if got, want := strings.Join(wins, " "), "a1 a2 b1 b3 c2 c3"; got != want {
		t.Fatalf("highlighted %q, want the ring %q", got, want)
	}
	if s := apiState(t, srv, id); s.Status != "over" || s.Result == nil || s.Result.Winner != "white" || s.Result.Reason != "ring" {
		t.Fatalf("the API says %+v", s)
	}
	bt.Screenshot(t, bob, "havannah-desktop-ring")

	// New game, same friend, on a bigger board: an offer that Alice sees
	// while she steps through the finished game, and nobody moves until she
	// accepts.
	must(t, bt.Click(alice, `#replay button[data-step="prev"]`))
	must(t, bt.WaitText(alice, "#replay-banner", fmt.Sprintf("Viewing move %d of %d", len(moves)-1, len(moves))))
	must(t, bt.Click(bob, "#rematch-terms summary"))
	// Each of the terms on a line of its own, not run together.
	rows, err := bt.Eval[[]float64](bob, `[...document.querySelectorAll("#rematch-form > *")].map((el) => Math.round(el.getBoundingClientRect().top))`)
	must(t, err)
	for i := 1; i < len(rows); i++ {
		if rows[i] <= rows[i-1] {
			t.Fatalf("the terms of a new game share lines: their tops are at %v", rows)
		}
	}
	_, err = bt.Eval[bool](bob, `(document.querySelector('#rematch-form [name=size]').value = "5") !== ""`)
	must(t, err)
	must(t, bt.Click(bob, "#rematch-form button[type=submit]"))
	must(t, bt.WaitText(alice, "#actions", "Your friend offers a new game: Board side: 5 · you play Black"))
	must(t, bt.WaitText(bob, "#actions", "You offered a new game: Board side: 5 · you play White"))
	bt.Screenshot(t, alice, "havannah-rematch-offer")
	for _, ctx := range []context.Context{alice, bob} {
		if path, err := bt.Eval[string](ctx, `location.pathname`); err != nil || path != "/g/"+id {
			t.Fatalf("an offer moved a page to %s (%v)", path, err)
		}
	}
	must(t, bt.WaitText(alice, "#replay-banner", fmt.Sprintf("Viewing move %d of %d", len(moves)-1, len(moves))))
	must(t, bt.Click(alice, "#actions button.accept"))
	for _, ctx := range []context.Context{alice, bob} {
		must(t, bt.WaitText(ctx, "#moves", "No moves yet"))
	}
	nextAlice, err := bt.Eval[string](alice, `location.pathname`)
	must(t, err)
	nextBob, err := bt.Eval[string](bob, `location.pathname`)
	must(t, err)
	if nextAlice != nextBob || nextAlice == "/g/"+id {
		t.Fatalf("after the rematch the pages show %s and %s", nextAlice, nextBob)
	}
	waitStatus(t, bob, "Your turn (White)")
	waitStatus(t, alice, "Your friend's turn (White)")
	if s := apiState(t, srv, strings.TrimPrefix(nextBob, "/g/")); s.Options["size"] != 5 {
		t.Fatalf("the new game's options %v, want size 5", s.Options)
	}
	// Resigning asks first; "No" changes nothing.
	must(t, bt.Click(alice, "#actions button.resign"))
	must(t, bt.Click(alice, `#confirm button[value=no]`))
	must(t, bt.Click(alice, "#actions button.resign"))
	must(t, bt.Click(alice, `#confirm button[value=yes]`))
	waitStatus(t, bob, "Black resigned: White wins")
	waitStatus(t, alice, "You lost")

	carol := bt.NewProfile(t)
	must(t, bt.Navigate(carol, invite))
	must(t, bt.WaitText(carol, "#notice", "already been used"))
	must(t, bt.WaitText(carol, "#status", "White wins with a ring"))
	seated, err := bt.Eval[bool](carol, `!!document.getElementById("player-url")`)
	must(t, err)
	if seated {
		t.Fatal("a third browser got a seat from a used invitation")
	}
}
