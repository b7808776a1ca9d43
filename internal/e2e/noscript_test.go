package e2e

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	bt "bretter/internal/browsertest"
)

// With scripts switched off the game page still shows the position: the
// server draws the board into the page.
func TestPositionWithoutScripts(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	id := startPair(t, srv, alice, bob, "5")
	clickCell(t, alice, "e5")
	waitMoves(t, bob, 1)
	clickCell(t, bob, "d4")
	waitMoves(t, alice, 2)

	carol := bt.NewProfile(t)
	withoutScripts(t, carol)
	must(t, bt.Navigate(carol, srv.URL+"/g/"+id))
	stones, err := bt.Eval[[]string](carol, `["white", "black"].map((c) => [...document.querySelectorAll("#board .cell." + c)].map((g) => getComputedStyle(g.querySelector(".stone")).display + " " + g.querySelector("circle").getAttribute("cx")).join(","))`)
	must(t, err)
	if len(stones) != 2 || stones[0] == "" || stones[1] == "" {
		t.Fatalf("stones drawn without scripts: %q", stones)
	}
	for _, s := range stones {
		if s[:6] != "inline" {
			t.Fatalf("a stone is not shown: %q", stones)
		}
	}
	must(t, bt.WaitText(carol, ".panel noscript", "White to move"))
	bt.Screenshot(t, carol, "havannah-without-scripts")
	if c := idle(t, carol); len(c) > 0 {
		t.Errorf("without scripts a watcher's page offers %q", c)
	}
}

// withoutScripts switches scripts off in the browser of p.
func withoutScripts(t *testing.T, p context.Context) {
	t.Helper()
	must(t, chromedp.Do(p, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	})))
}

// idle lists the controls of the page in p, every <details> open, that
// do nothing without scripts: a button, box or choice in no form the
// browser sends by itself (a box to copy from excepted), and a link to a
// part of the page that is not shown.
func idle(t *testing.T, p context.Context) []string {
	t.Helper()
	controls, err := bt.Eval[[]string](p, `document.querySelectorAll("details").forEach((d) => { d.open = true; }),
		[...document.querySelectorAll("main :is(a[href], button, input, select, textarea)")].filter((e) => e.checkVisibility() &&
			(e.tagName == "A" ? e.getAttribute("href")[0] == "#" && !document.querySelector(e.getAttribute("href"))?.checkVisibility() : !e.readOnly && !(e.form?.hasAttribute("action") && !e.disabled)))
		.map((e) => e.id || e.dataset.step || e.dataset.copy || e.dataset.setting || e.name || e.getAttribute("href") || e.textContent)`)
	must(t, err)
	return controls
}

// A player whose browser runs no scripts is told that playing needs them,
// and gets no box for a move, a chat line or a name, which would send
// nothing; the game is still there to see. No page offers a control that
// only scripts make work: the game's replay, board tools, settings and
// copy buttons are away, for a player, a friend opening the invitation
// (also told that playing needs scripts) and its creator alike; the
// import page says that it needs scripts instead of offering its form.
func TestPlayingWithoutScripts(t *testing.T) {
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	p := bt.NewProfile(t)
	withoutScripts(t, p)
	must(t, bt.Navigate(p, g.playerURL))
	must(t, bt.WaitText(p, ".panel noscript", "Playing needs JavaScript"))
	shown, err := bt.Eval[[]string](p, `["board", "move-entry", "chat", "name-form", "moves"].filter((id) => document.getElementById(id).checkVisibility())`)
	must(t, err)
	if want := []string{"board", "moves"}; !slices.Equal(shown, want) {
		t.Errorf("without scripts the player's page shows %q, want %q", shown, want)
	}
	bt.Screenshot(t, p, "havannah-player-without-scripts")
	if c := idle(t, p); len(c) > 0 {
		t.Errorf("without scripts the player's page offers %q", c)
	}

	var open struct {
		PlayerURL string `json:"player_url"`
		InviteURL string `json:"invite_url"`
	}
	if code, err := post(t, srv.URL+"/api/games", "", `{"game":"fanorona","start":"me","clock":{"initial_s":300,"increment_s":2}}`, &open); err != nil || code != http.StatusCreated {
		t.Fatalf("create: %d %v", code, err)
	}
	for _, page := range []struct{ name, url, says string }{
		{"invitation", open.InviteURL, "Playing needs JavaScript"},
		{"inviting player's", open.PlayerURL, "Playing needs JavaScript"},
		{"import", srv.URL + "/import", "Replaying a record needs JavaScript"},
		{"my games", srv.URL + "/my", ""},
		{"home", srv.URL + "/", ""},
		{"rules", srv.URL + "/dvonn", ""},
	} {
		must(t, bt.Navigate(p, page.url))
		if page.says != "" {
			must(t, bt.WaitText(p, "main noscript", page.says))
		}
		if c := idle(t, p); len(c) > 0 {
			t.Errorf("without scripts the %s page offers %q", page.name, c)
		}
		if page.url == open.PlayerURL {
			waitFor(t, p, `document.getElementById("invite-url").checkVisibility()`, true, "the invitation's link, to copy by hand")
		}
	}
}
