package e2e

import (
	"context"
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
	must(t, chromedp.Do(carol, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	})))
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
