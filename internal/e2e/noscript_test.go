package e2e

import (
	"context"
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
}

// withoutScripts switches scripts off in the browser of p.
func withoutScripts(t *testing.T, p context.Context) {
	t.Helper()
	must(t, chromedp.Do(p, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	})))
}

// A player whose browser runs no scripts is told that playing needs them,
// and gets no box for a move, a chat line or a name, which would send
// nothing; the game is still there to see.
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
}
