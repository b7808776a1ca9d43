package e2e

import (
	"testing"

	"github.com/chromedp/chromedp/kb"

	bt "bretter/internal/browsertest"
)

// Two friends give names, chat (their text shown as text, never run as
// markup, and never to a watcher), then agree a draw.
func TestNamesChatAndADraw(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob, carol := bt.NewProfile(t), bt.NewProfile(t), bt.NewProfile(t)
	id := startPair(t, srv, alice, bob, "5")
	must(t, bt.Navigate(carol, srv.URL+"/g/"+id))
	waitStatus(t, carol, "White to move")

	setValue(t, alice, "#name-input", "")
	typeInto(t, alice, "#name-input", "Alice <b>"+kb.Enter)
	must(t, bt.WaitText(bob, "#players", "Alice <b> · White"))
	must(t, bt.WaitText(carol, "#players", "Alice <b> · White"))

	typeInto(t, alice, "#chat-input", `<img src=x onerror="document.title='owned'">good luck`+kb.Enter)
	must(t, bt.WaitText(bob, "#chat-lines", `Alice <b>: <img src=x onerror="document.title='owned'">good luck`))
	typeInto(t, bob, "#chat-input", "danke!"+kb.Enter)
	must(t, bt.WaitText(alice, "#chat-lines", "Black: danke!"))
	if n, _ := bt.Eval[int](bob, `document.querySelectorAll("#chat-lines img").length`); n != 0 {
		t.Fatal("a chat line became markup")
	}
	if has, _ := bt.Eval[bool](carol, `document.getElementById("chat") !== null`); has {
		t.Fatal("a watcher has the chat")
	}
	bt.Screenshot(t, bob, "chat-desktop")

	clickCell(t, alice, "c3")
	waitMoves(t, bob, 1)
	must(t, bt.Click(bob, "#actions button.offer-draw"))
	must(t, bt.WaitText(alice, "#actions", "Your friend offers a draw."))
	must(t, bt.WaitText(bob, "#actions", "You offered a draw"))
	must(t, bt.Click(alice, "#actions button.accept"))
	waitStatus(t, bob, "A draw by agreement.")
	waitStatus(t, carol, "A draw by agreement.")
	must(t, bt.WaitText(alice, "#moves", "Draw agreed"))
}
