package e2e

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
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

// A player turns notices on: the page hands the server the browser's
// subscription as the browser writes it, and the server then sends the
// push service a notice when it is the player's turn, once the page is no
// longer on screen. (The push service is a stand-in here, and so is the
// browser's subscription to it, which needs the real service.)
func TestPushNoticesOn(t *testing.T) {
	var notices atomic.Int64
	srv, alice, bob := pushingBrowsers(t, &notices, `async () => null`, `async () => sub`)
	startPair(t, srv, alice, bob, "4")
	clickCell(t, alice, "a1")
	waitStatus(t, bob, "Your turn")
	must(t, bt.Click(alice, "#notices-on"))
	waitFor(t, alice, `!document.getElementById("notices-off").hidden`, true, "the notices on")
	// Alice has the page on screen: she sees Bob's move there, and gets
	// no notice of it (by the time her reply reaches Bob, one would
	// long have been sent).
	clickCell(t, bob, "b1")
	waitStatus(t, alice, "Your turn")
	clickCell(t, alice, "c1")
	waitStatus(t, bob, "Your turn")
	if n := notices.Load(); n != 0 {
		t.Fatalf("%d notices while the page was on screen", n)
	}
	// Alice turns to another tab.
	_, err := bt.Eval[bool](alice, `Object.defineProperty(document, "visibilityState", { get: () => "hidden" }),
		document.dispatchEvent(new Event("visibilitychange")), true`)
	must(t, err)
	clickCell(t, bob, "d1")
	for deadline := time.Now().Add(bt.Timeout); notices.Load() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no notice reached the push service")
		}
	}
}

// A player who asked for notices and then plays a new game with the same
// friend finds them on in the new game's page too, as the server keeps
// sending them there; the friend, who never asked, is offered them.
func TestPushNoticesOnInTheNewGame(t *testing.T) {
	// The browser's one subscription, made on the first click.
	srv, alice, bob := pushingBrowsers(t, nil, `async () => localStorage.getItem("subscribed") ? sub : null`,
		`async () => (localStorage.setItem("subscribed", "1"), sub)`)
	id := startPair(t, srv, alice, bob, "4")
	must(t, bt.Click(alice, "#notices-on"))
	waitFor(t, alice, `!document.getElementById("notices-off").hidden`, true, "the notices on")
	must(t, bt.Click(alice, "#actions button.resign"))
	must(t, bt.Click(alice, `#confirm button[value=yes]`))
	waitStatus(t, bob, "You won")
	must(t, bt.Click(alice, "#actions button.rematch"))
	must(t, bt.WaitText(bob, "#actions", "Your friend offers a new game"))
	must(t, bt.Click(bob, "#actions button.accept"))
	for _, ctx := range []context.Context{alice, bob} {
		waitFor(t, ctx, `location.pathname !== "/g/`+id+`"`, true, "the new game's page")
		must(t, bt.WaitText(ctx, "#moves", "No moves yet"))
	}
	waitFor(t, alice, `!document.getElementById("notices-off").hidden && document.getElementById("notices-on").hidden`, true, "the notices on in the new game")
	must(t, bt.WaitText(alice, "#notices-note", "This browser tells you when it is your turn"))
	if on, err := bt.Eval[bool](bob, `!document.getElementById("notices-on").hidden && document.getElementById("notices-off").hidden`); err != nil || !on {
		t.Fatalf("the friend, who never asked, is not offered the notices (%v)", err)
	}
}

// pushingBrowsers starts a site that may send notices only to a stand-in
// push service, which counts them in notices (if not nil), and two
// browsers, the first of which may show notices. Its PushManager is a
// stand-in too (the real one needs the real service): getSubscription and
// subscribe are the scripts of its two methods, which may answer sub,
// the subscription as the browser's PushSubscription.toJSON gives it,
// expirationTime included.
func pushingBrowsers(t *testing.T, notices *atomic.Int64, getSubscription, subscribe string) (*bt.Server, context.Context, context.Context) {
	t.Helper()
	service := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if notices != nil {
			notices.Add(1)
		}
		w.WriteHeader(http.StatusCreated)
	}))
	t.Cleanup(service.Close)
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	must(t, err)
	b64 := base64.RawURLEncoding.EncodeToString
	sub, _ := json.Marshal(map[string]any{
		"endpoint": service.URL + "/send/alice", "expirationTime": nil,
		"keys": map[string]string{"p256dh": b64(key.PublicKey().Bytes()), "auth": b64(make([]byte, 16))},
	})
	srv := bt.StartServerEnv(t, "", "BRETTER_PUSH_ENDPOINTS="+service.URL+"/send/")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	_, err = cdp.Call(alice, chromedp.FromContext(alice).Browser, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: browser.PermissionSettingGranted, Origin: srv.URL,
	})
	must(t, err)
	_, err = cdp.Call(alice, chromedp.FromContext(alice).Target, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: fmt.Sprintf(`{ const sub = { endpoint: %q, toJSON: () => (%s) };
			PushManager.prototype.getSubscription = %s;
			PushManager.prototype.subscribe = %s; }`, service.URL+"/send/alice", sub, getSubscription, subscribe),
	})
	must(t, err)
	return srv, alice, bob
}
