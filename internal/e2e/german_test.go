package e2e

import (
	"testing"

	bt "bretter/internal/browsertest"
)

// In German, whose words run long, nothing in the side panel reaches past
// its edge on a desktop screen, the clocks of a slow game included.
func TestGermanPanelFits(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	must(t, bt.Navigate(alice, srv.URL+"/?lang=de"))
	must(t, bt.Navigate(bob, srv.URL+"/?lang=de"))
	newGame(t, alice, srv, "havannah", map[string]string{"size": "5", "clock": "d1"}, "me")
	must(t, bt.Navigate(bob, inputValue(t, alice, "invite-url")))
	waitStatus(t, alice, "Du bist am Zug")
	must(t, bt.Click(alice, "#settings summary"))
	must(t, bt.Click(alice, "#share summary"))
	over, err := bt.Eval[[]string](alice, `(() => {
		const panel = document.querySelector(".panel").getBoundingClientRect();
		const out = [];
		for (const el of document.querySelectorAll(".panel button, .panel input, .panel select, .panel label, .panel summary")) {
			const r = el.getBoundingClientRect();
			if (r.width === 0) continue;
			if (r.right > panel.right - 1 || r.left < panel.left) out.push((el.id || el.className || el.tagName) + " " + (el.textContent || "").trim().slice(0, 30) + " " + Math.round(r.right) + ">" + Math.round(panel.right));
		}
		return out;
	})()`)
	must(t, err)
	// A clock of days shows its time in words, on the line of its colour
	// or below, never run into it.
	clocks, err := bt.Eval[[]string](alice, `[...document.querySelectorAll("#clocks .clock")].filter((row) => {
		const who = row.querySelector(".who").getBoundingClientRect(), time = row.querySelector(".time").getBoundingClientRect();
		return time.top < who.bottom && time.left < who.right + 4 || time.height > 1.5 * who.height || time.right > row.getBoundingClientRect().right;
	}).map((row) => row.textContent)`)
	must(t, err)
	if len(clocks) > 0 {
		t.Fatalf("clocks whose time runs into the colour or wraps: %q", clocks)
	}
	// The chat's empty field says what it is for in full.
	fits, err := bt.Eval[bool](alice, `(() => {
		const input = document.getElementById("chat-input"), style = getComputedStyle(input);
		const pen = document.createElement("canvas").getContext("2d");
		pen.font = style.font;
		return pen.measureText(input.placeholder).width <= input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
	})()`)
	must(t, err)
	if !fits {
		t.Fatal("the chat field's placeholder is cut off")
	}
	bt.Screenshot(t, alice, "german-desktop")
	if len(over) > 0 {
		t.Fatalf("reaching past the panel's edge: %q", over)
	}
}
