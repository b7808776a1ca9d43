package e2e

import (
	"testing"

	bt "bretter/internal/browsertest"
)

// In German, whose words run long, nothing in the side panel reaches past
// its edge on a desktop screen.
func TestGermanPanelFits(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	must(t, bt.Navigate(alice, srv.URL+"/?lang=de"))
	must(t, bt.Navigate(bob, srv.URL+"/?lang=de"))
	newGame(t, alice, srv, "havannah", map[string]string{"size": "5"}, "me")
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
	bt.Screenshot(t, alice, "german-desktop")
	if len(over) > 0 {
		t.Fatalf("reaching past the panel's edge: %q", over)
	}
}
