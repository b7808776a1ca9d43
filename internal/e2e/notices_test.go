package e2e

import (
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	bt "bretter/internal/browsertest"
)

// A player whose browser refuses this site's notices is told so, and
// where to allow them, both on opening the page and on asking again:
// once refused, the browser no longer asks by itself.
func TestPushNoticesRefused(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	_, err := cdp.Call(alice, chromedp.FromContext(alice).Browser, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: browser.PermissionSettingDenied, Origin: srv.URL,
	})
	must(t, err)
	startPair(t, srv, alice, bob, "4")
	const hint = "open the site's settings"
	must(t, bt.WaitText(alice, "#notices-note", hint))
	if note, err := bt.Eval[string](bob, `document.getElementById("notices-note").textContent`); err != nil || note != "" {
		t.Fatalf("a browser that may still be asked has the note %q (%v)", note, err)
	}
	if _, err := bt.Eval[bool](alice, `document.getElementById("notices-note").textContent = ""; true`); err != nil {
		t.Fatal(err)
	}
	must(t, bt.Click(alice, "#notices-on"))
	must(t, bt.WaitText(alice, "#notices-note", hint))
	if shown, err := bt.Eval[bool](alice, `!document.getElementById("notices-off").hidden`); err != nil || shown {
		t.Fatalf("a refused browser offers to stop the notices (%v)", err)
	}
}
