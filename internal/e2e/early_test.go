package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	bt "bretter/internal/browsertest"
)

// holdScripts keeps the page's requests for the named scripts from going
// out until the returned function lets them go.
func holdScripts(t *testing.T, ctx context.Context, names ...string) (release func()) {
	t.Helper()
	paused := make(chan fetch.RequestID, 16)
	must(t, chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			select {
			case paused <- e.RequestID:
			default:
			}
		}
	}))
	var patterns []*fetch.RequestPattern
	for _, n := range names {
		patterns = append(patterns, &fetch.RequestPattern{URLPattern: "*/js/" + n})
	}
	tg := chromedp.FromContext(ctx).Target
	_, err := cdp.Call(ctx, tg, fetch.Enable, fetch.EnableParams{Patterns: patterns})
	must(t, err)
	return func() {
		t.Helper()
		for len(paused) > 0 {
			_, err := cdp.Call(ctx, tg, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: <-paused})
			must(t, err)
		}
		_, err := cdp.Call(ctx, tg, fetch.Disable, cdp.Empty{})
		must(t, err)
	}
}

// A move, a name and a chat line typed and sent with Enter before the
// players' scripts are in are not lost to a reload of the page: they stay
// in their boxes and go out once the scripts are in.
func TestEnterBeforeThePlayersScripts(t *testing.T) {
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":5},"start":"me"}`)
	white := bt.NewProfile(t)
	release := holdScripts(t, white, "actions.js", "chat.js")
	must(t, bt.Navigate(white, g.playerURL))
	waitStatus(t, white, "Your turn")
	address, err := bt.Eval[string](white, `location.href`)
	must(t, err)
	typeInto(t, white, "#name-input", "Ada"+kb.Enter)
	typeInto(t, white, "#chat-input", "hello"+kb.Enter)
	typeInto(t, white, "#move-input", "e5"+kb.Enter)
	boxes := `["name-input", "chat-input", "move-input"].map((id) => document.getElementById(id).value)`
	typed, err := bt.Eval[[]string](white, boxes)
	must(t, err)
	now, err := bt.Eval[string](white, `location.href`)
	must(t, err)
	if now != address || !slices.Equal(typed, []string{"Ada", "hello", "e5"}) {
		t.Fatalf("after Enter before the scripts were in, the page is at %s (was %s), its boxes hold %q", now, address, typed)
	}
	if s := apiState(t, srv, g.id); len(s.Moves) != 0 {
		t.Fatalf("moves before the scripts were in: %v", s.Moves)
	}

	release()
	waitMoves(t, white, 1)
	type seen struct {
		Moves   []string `json:"moves"`
		Players struct {
			White struct {
				Name string `json:"name"`
			} `json:"white"`
		} `json:"players"`
		Chat []struct {
			Text string `json:"text"`
		} `json:"chat"`
	}
	waitFor(t, white, `document.getElementById("chat-lines").textContent.includes("hello")`, true, "the chat line sent")
	s := readState[seen](t, srv, g.id, g.secrets["white"])
	if strings.Join(s.Moves, " ") != "e5" || s.Players.White.Name != "Ada" || len(s.Chat) != 1 || s.Chat[0].Text != "hello" {
		t.Fatalf("once the scripts were in: moves %v, name %q, chat %+v", s.Moves, s.Players.White.Name, s.Chat)
	}
	waitFor(t, white, boxes+`.join("|")`, "Ada||", "the move and the chat line out of their boxes")
}

// A move sent with Enter while the page has its controls but not yet the
// game goes out once, when the game arrives: not a second time as a move
// left over from before the connection, which the server would refuse as
// stale, and the page would say was not played.
func TestMoveBeforeTheGameGoesOutOnce(t *testing.T) {
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":5},"start":"me"}`)
	white := bt.NewProfile(t)
	// The page's connection keeps what the server says until told.
	_, err := chromedp.Call(white, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
		window.heldMessages = [];
		window.WebSocket = class extends WebSocket {
			addEventListener(type, f, ...rest) {
				if (type !== 'message') return super.addEventListener(type, f, ...rest);
				super.addEventListener('message', (e) => (window.heldMessages ? window.heldMessages.push(() => f(e)) : f(e)));
			}
		};
		window.letMessagesIn = () => { const held = window.heldMessages; window.heldMessages = null; held.forEach((f) => f()); };`})
	must(t, err)
	release := holdScripts(t, white, "actions.js")
	must(t, bt.Navigate(white, g.playerURL))
	// ranScript says the page's script has run, and what it started.
	ranScript := func(name string) string {
		return `(async () => {
			const script = performance.getEntriesByType("resource").find((e) => e.name.includes("/js/` + name + `"));
			if (!script) return false;
			await import(script.name);
			await new Promise((next) => setTimeout(next));
			return true;
		})()`
	}
	waitFor(t, white, ranScript("game.js"), true, "the page's script")
	typeInto(t, white, "#move-input", "e5"+kb.Enter)
	release()
	waitFor(t, white, ranScript("actions.js"), true, "the controls' script")
	_, err = bt.Eval[bool](white, `(letMessagesIn(), true)`)
	must(t, err)
	waitMoves(t, white, 1)
	must(t, bt.WaitText(white, "#status", "Your friend's turn"))
	if notice, err := bt.Eval[string](white, `document.getElementById("notice").textContent`); err != nil || notice != "" {
		t.Fatalf("after the move the page says %q (%v)", notice, err)
	}
}
