package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	bt "bretter/internal/browsertest"
)

// chatValue reads what the chat's box holds.
const chatValue = `document.getElementById("chat-input").value`

// A chat line stays in its box until the server has taken it: a line it
// refuses (one that turns the writing round, or one too many at once) is
// there to be mended or sent again, and a line written while the last one
// was on its way is not wiped by that one's answer.
func TestChatLineKeptUntilAccepted(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	startPair(t, srv, alice, bob, "4")

	setValue(t, alice, "#chat-input", "\u202egood luck")
	typeInto(t, alice, "#chat-input", kb.Enter)
	must(t, bt.WaitText(alice, "#notice", "direction of writing"))
	waitFor(t, alice, chatValue, "\u202egood luck", "the refused line kept in the box")

	// A line sent, and another begun before the answer came. The name
	// saved after it is answered after it, on the same connection: once
	// the name shows, the line's answer has come too.
	_, err := bt.Eval[bool](alice, `(() => {
		const input = document.getElementById("chat-input");
		input.value = "first";
		document.getElementById("chat-form").requestSubmit();
		input.value = "second";
		document.getElementById("name-input").value = "Ada";
		document.getElementById("name-form").requestSubmit();
		return true;
	})()`)
	must(t, err)
	must(t, bt.WaitText(alice, "#players", "Ada · White"))
	must(t, bt.WaitText(bob, "#chat-lines", ": first"))
	waitFor(t, alice, chatValue, "second", "the line written meanwhile kept in the box")
	typeInto(t, alice, "#chat-input", kb.Enter)
	must(t, bt.WaitText(bob, "#chat-lines", "Ada: second"))
	waitFor(t, alice, chatValue, "", "the box emptied once the line is taken")

	// Seven lines at once are more than the server takes: the last one,
	// refused, stays.
	_, err = bt.Eval[bool](alice, `(() => {
		const input = document.getElementById("chat-input");
		for (let i = 1; i <= 7; i++) {
			input.value = "line " + i;
			document.getElementById("chat-form").requestSubmit();
		}
		return true;
	})()`)
	must(t, err)
	must(t, bt.WaitText(alice, "#notice", "Too many requests"))
	must(t, bt.WaitText(bob, "#chat-lines", "line 1"))
	waitFor(t, alice, chatValue, "line 7", "the line refused for its haste kept in the box")
}

// A chat line or a name the server refuses is refused in so many words,
// with the server's reason in the page's language, and the notice goes
// once something the player does is taken.
func TestChatAndNameRefusalsReadAsRefusals(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	startPair(t, srv, alice, bob, "4")

	setValue(t, alice, "#chat-input", "\u202egood luck")
	typeInto(t, alice, "#chat-input", kb.Enter)
	waitFor(t, alice, `document.getElementById("notice").textContent`,
		"Not accepted: a chat line cannot hold characters that change the direction of writing", "the chat line's refusal")
	setValue(t, alice, "#name-input", "Ada")
	_, err := bt.Eval[bool](alice, `document.getElementById("name-form").requestSubmit(), true`)
	must(t, err)
	must(t, bt.WaitText(bob, "#players", "Ada · White"))
	waitFor(t, alice, `document.getElementById("notice").textContent`, "", "the refusal gone once the name is taken")

	setValue(t, alice, "#name-input", "Ada\tLovelace")
	_, err = bt.Eval[bool](alice, `document.getElementById("name-form").requestSubmit(), true`)
	must(t, err)
	waitFor(t, alice, `document.getElementById("notice").textContent`,
		"Not accepted: a name cannot hold control characters or line breaks", "the name's refusal")
	setValue(t, alice, "#chat-input", "good luck")
	typeInto(t, alice, "#chat-input", kb.Enter)
	must(t, bt.WaitText(bob, "#chat-lines", "good luck"))
	waitFor(t, alice, `document.getElementById("notice").textContent`, "", "the refusal gone once the line is taken")
}

// A chat line names its writer as the writer is called now, as the page
// does once loaded again: a name given, changed or taken away after the
// line was written shows on it too. The writer's own page says "You".
func TestChatLinesNameTheirWriterAsNow(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	startPair(t, srv, alice, bob, "4")
	const first = `document.querySelector("#chat-lines li")?.textContent ?? ""`

	typeInto(t, alice, "#chat-input", "good luck"+kb.Enter)
	waitFor(t, bob, first, "White: good luck", "the line of a player without a name")
	nameMyself(t, alice, "Ada")
	waitFor(t, bob, first, "Ada: good luck", "the line once its writer has given a name")
	waitFor(t, alice, first, "You: good luck", "the line on its writer's page")
	nameMyself(t, alice, "Bea")
	waitFor(t, bob, first, "Bea: good luck", "the line once its writer has changed the name")
	setValue(t, alice, "#name-input", "")
	_, err := bt.Eval[bool](alice, `document.getElementById("name-form").requestSubmit(), true`)
	must(t, err)
	waitFor(t, bob, first, "White: good luck", "the line once its writer has taken the name away")

	nameMyself(t, alice, "Cleo")
	waitFor(t, bob, first, "Cleo: good luck", "the line once its writer has given a name again")
	must(t, chromedp.Do(bob, chromedp.Reload()))
	waitFor(t, bob, first, "Cleo: good luck", "the line on the page loaded again")
}
