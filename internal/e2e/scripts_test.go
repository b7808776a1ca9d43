package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	bt "bretter/internal/browsertest"
)

// refuser stands in front of a server and passes every request on, but
// answers the first request for each of its scripts with 503, as a site
// going down just then would; it counts the requests by path. A script
// named twice is refused twice: one the page preloads is, its preload
// and then the page's own import of it. A script it breaks comes, each
// time, as one that throws as it runs.
type refuser struct {
	URL     string
	scripts []string // paths under the static prefix: js/actions.js
	broken  string   // such a path, or ""
	// updated says that the site has been updated since the pages were
	// made: their version's files are asked for under another one, which
	// the server no longer has, as an updated site would not.
	updated bool
	// foreign is the type of the "not found" answer of its own with
	// which a proxy before the site answers boards.js once the page has
	// it: "text/html", a page, or "text/plain", the line Go's
	// http.NotFound writes (as Traefik does for a site it cannot reach
	// just then); "cut" for the site's own line cut short as it comes;
	// "" for none.
	foreign string

	mu    sync.Mutex
	asked map[string]int
}

func newRefuser(t *testing.T, srv *bt.Server, scripts ...string) *refuser {
	t.Helper()
	target, err := url.Parse(srv.URL)
	must(t, err)
	proxy := httputil.NewSingleHostReverseProxy(target) // the live connection too
	r := &refuser{scripts: scripts, asked: map[string]int{}}
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.asked[req.URL.Path]++
		refused := r.asked[req.URL.Path] <= r.refusals(req.URL.Path)
		broken := r.broken != "" && strings.HasSuffix(req.URL.Path, "/"+r.broken)
		foreign := r.foreign != "" && strings.HasSuffix(req.URL.Path, "/js/boards.js") && r.asked[req.URL.Path] > 1
		if r.updated && strings.HasPrefix(req.URL.Path, "/static/") {
			req.URL.Path = "/static/000000000000/" + strings.SplitN(req.URL.Path, "/", 4)[3]
		}
		r.mu.Unlock()
		if refused {
			http.Error(w, "the site is restarting", http.StatusServiceUnavailable)
			return
		}
		if foreign && r.foreign == "cut" {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Header().Set("Content-Language", "en")
			w.Header().Set("Content-Length", "100")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte("bretter"))
			w.(http.Flusher).Flush() // the answer begun, then the connection cut
			panic(http.ErrAbortHandler)
		}
		if foreign && r.foreign == "text/plain" {
			http.NotFound(w, req)
			return
		}
		if foreign {
			w.Header().Set("Content-Type", r.foreign)
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`<!doctype html><title>404</title><h1>Not Found</h1>`))
			return
		}
		if broken {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write([]byte(`throw new Error("this script is broken");`))
			return
		}
		proxy.ServeHTTP(w, req)
	}))
	t.Cleanup(front.Close)
	r.URL = front.URL
	return r
}

// refusals tells how many requests for path are refused.
func (r *refuser) refusals(path string) int {
	n := 0
	for _, s := range r.scripts {
		if strings.HasSuffix(path, "/"+s) {
			n++
		}
	}
	return n
}

// askedAgain checks that each script was asked for once more than it was
// refused: once it came, the page asked no more.
func (r *refuser) askedAgain(t *testing.T) {
	t.Helper()
	for _, s := range slices.Compact(slices.Sorted(slices.Values(r.scripts))) {
		if n, want := r.count("/"+s), r.refusals("/"+s)+1; n != want {
			t.Errorf("%s asked for %d times, want %d", s, n, want)
		}
	}
}

// count tells how often a path ending in suffix was asked for.
func (r *refuser) count(suffix string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for p, k := range r.asked {
		if strings.HasSuffix(p, suffix) {
			n += k
		}
	}
	return n
}

// The scripts a player's page loads on demand (its own, its board's, and
// those after the board) may fail to come, the site going down just then:
// the page asks for them again, and the board, the player's controls,
// chat and arrow keys appear without a reload.
func TestScriptsAfterTheBoardComeAgain(t *testing.T) {
	srv := bt.StartServer(t, "")
	front := newRefuser(t, srv, "js/game.js", "js/game.js", "js/boards/havannah.js", "js/boards/havannah.js",
		"js/actions.js", "js/chat.js", "js/notices.js", "js/boards/arrows.js")
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	must(t, bt.Navigate(alice, strings.Replace(g.playerURL, srv.URL, front.URL, 1)))
	must(t, bt.Navigate(bob, g.otherURL))
	waitStatus(t, alice, "Your turn")

	waitFor(t, alice, `document.querySelector("#actions button.resign") !== null`, true, "the player's controls")
	waitFor(t, alice, `document.querySelector('#board .board-svg').hasAttribute("aria-description")`, true, "the board's arrow keys")
	typeInto(t, alice, "#chat-input", "hello"+kb.Enter)
	must(t, bt.WaitText(bob, "#chat-lines", "White: hello"))
	front.askedAgain(t)
	if n := front.count("/g/" + g.id); n != 1 {
		t.Errorf("the page was loaded %d times", n)
	}
}

// The other scripts pages load on demand come again too: a game page's
// clocks, their sounds and the invitation's script, the boards of
// diagrams, the import page's script and board, the my games page's.
func TestScriptsOnDemandComeAgain(t *testing.T) {
	srv := bt.StartServer(t, "")
	for _, c := range []struct {
		name    string
		scripts []string
		visit   func(t *testing.T, p context.Context, front string)
	}{
		{"clocks and invitation", []string{"js/clocks.js", "js/clocks.js", "js/sound.js", "js/sound.js", "js/invite.js"}, func(t *testing.T, p context.Context, front string) {
			var g struct {
				InviteURL string `json:"invite_url"`
			}
			if code, err := post(t, srv.URL+"/api/games", "", `{"game":"havannah","options":{"size":4},"start":"me","clock":{"initial_s":60,"increment_s":0}}`, &g); err != nil || code != http.StatusCreated {
				t.Fatalf("create: %d %v", code, err)
			}
			// Sound on, as the viewer chose before: its script is asked
			// for as the page starts.
			must(t, bt.Navigate(p, front+"/healthz"))
			_, err := bt.Eval[any](p, `localStorage.setItem("bretter.settings", '{"sound":true}')`)
			must(t, err)
			must(t, bt.Navigate(p, strings.Replace(g.InviteURL, srv.URL, front, 1)))
			waitFor(t, p, `document.getElementById("clocks").hidden`, false, "the clocks")
			waitFor(t, p, `document.getElementById("take-seat").hidden`, false, "the button taking the seat")
		}},
		{"diagrams", []string{"js/boards/dvonn.js"}, func(t *testing.T, p context.Context, front string) {
			must(t, bt.Navigate(p, front+"/dvonn"))
			waitFor(t, p, `[...document.querySelectorAll(".diagram")].every((d) => d.querySelector("svg"))`, true, "the diagrams")
		}},
		{"import", []string{"js/import.js", "js/boards/havannah.js"}, func(t *testing.T, p context.Context, front string) {
			must(t, bt.Navigate(p, front+"/import"))
			waitFor(t, p, `document.querySelector("#import-form button[type=submit]").disabled`, false, "the import form ready")
			setValue(t, p, "#record-text", "(;FF[4]SZ[5]RE[B];W[E5];B[D4];W[F6];B[resign])")
			must(t, bt.Click(p, `#import-form button[type=submit]`))
			must(t, bt.WaitText(p, "#replay-banner", "Final position (3 moves)"))
		}},
		{"my games", []string{"js/mygames.js"}, func(t *testing.T, p context.Context, front string) {
			g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me","clock":{"days":3}}`)
			g.move(t, srv, "white", 0, "d4")
			g.move(t, srv, "black", 1, "c3") // the clocks start: White's runs
			must(t, bt.Navigate(p, strings.Replace(g.playerURL, srv.URL, front, 1)))
			waitStatus(t, p, "Your turn")
			must(t, bt.Navigate(p, front+"/my"))
			waitFor(t, p, `document.querySelector(".my-game .due").hidden`, false, "the move's due date")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			front := newRefuser(t, srv, c.scripts...)
			c.visit(t, bt.NewProfile(t), front.URL)
			front.askedAgain(t)
		})
	}
}

// A page made before the site was updated asks for its scripts under its
// own version, which the site no longer has: once a script it needs does
// not come (the site down just then, and back as its new version), the
// page says, once and politely, that the site has been updated, with a
// button that reloads it; the reloaded page has all it needs. A site that
// is only down is not taken for an updated one.
func TestPageOfAnUpdatedSiteOffersAReload(t *testing.T) {
	srv := bt.StartServer(t, "")
	front := newRefuser(t, srv, "js/actions.js", "js/chat.js", "js/boards/arrows.js")
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	alice := bt.NewProfile(t)
	must(t, bt.Navigate(alice, strings.Replace(g.playerURL, srv.URL, front.URL, 1)))
	waitStatus(t, alice, "Your turn")
	// The first import of each failed, and the page asked whether the site
	// had been updated (once more for boards.js, which it had preloaded):
	// it had not.
	for deadline := time.Now().Add(bt.Timeout); front.count("/js/boards.js") < 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the page never asked whether the site was updated")
		}
	}
	if s, err := bt.Eval[string](alice, `document.getElementById("updated").textContent`); err != nil || s != "" {
		t.Fatalf("a site that was down is taken for an updated one: %q %v", s, err)
	}
	_, err := bt.Eval[bool](alice, `window.before = true`)
	must(t, err)

	front.mu.Lock()
	front.updated = true
	front.mu.Unlock()
	waitFor(t, alice, `document.querySelector("#updated button")?.textContent.trim() ?? ""`, "bretter has been updated: reload the page", "the offer to reload")
	waitFor(t, alice, `document.getElementById("updated").getAttribute("role")`, "status", "the offer told politely")
	// Every script that failed waits for the same answer: one offer.
	if n, err := bt.Eval[int](alice, `document.querySelectorAll("#updated button").length`); err != nil || n != 1 {
		t.Errorf("%d offers to reload (%v)", n, err)
	}
	// What the reloaded page asks for is the new site's.
	front.mu.Lock()
	front.updated = false
	front.mu.Unlock()
	must(t, bt.Click(alice, "#updated button"))
	waitFor(t, alice, `window.before === undefined && document.querySelector("#actions button.resign") !== null`, true, "the reloaded page with the player's controls")
	if n := front.count("/g/" + g.id); n != 2 {
		t.Errorf("the page was loaded %d times", n)
	}
	if s, err := bt.Eval[string](alice, `document.getElementById("updated").textContent`); err != nil || s != "" {
		t.Errorf("the reloaded page still offers a reload: %q %v", s, err)
	}
}

// The links to share are copied at once, while the board's script is
// still on its way (here after a few failed fetches).
func TestCopyWhileTheBoardComes(t *testing.T) {
	srv := bt.StartServer(t, "")
	front := newRefuser(t, srv, "js/boards/havannah.js", "js/boards/havannah.js", "js/boards/havannah.js", "js/boards/havannah.js")
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	alice := bt.NewProfile(t)
	must(t, bt.Navigate(alice, strings.Replace(g.playerURL, srv.URL, front.URL, 1)))
	for deadline := time.Now().Add(bt.Timeout); front.count("/js/boards/havannah.js") < 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the board's script was never asked for")
		}
	}
	_, err := bt.Eval[bool](alice, `document.querySelector("button[data-copy=player-url]").click(), true`)
	must(t, err)
	waitFor(t, alice, `document.querySelector("button[data-copy=player-url]").textContent`, "Copied", "the link copied while the board comes")
	if n := front.count("/js/boards/havannah.js"); n > 4 {
		t.Fatalf("the board came before the copy was tried (%d fetches): the test proves nothing", n)
	}
	waitStatus(t, alice, "Your turn")
}

// The offer to reload an updated site is in view wherever the page is
// scrolled, on a phone too, above its action bar; the board, sized to
// the screen below what is above it, makes room for it.
func TestOfferToReloadIsInView(t *testing.T) {
	srv := bt.StartServer(t, "")
	front := newRefuser(t, srv, "js/actions.js", "js/actions.js", "js/actions.js")
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	alice := bt.NewProfile(t, bt.Phone)
	must(t, bt.Navigate(alice, strings.Replace(g.playerURL, srv.URL, front.URL, 1)))
	waitStatus(t, alice, "Your turn")
	for deadline := time.Now().Add(bt.Timeout); front.count("/js/boards.js") < 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the page never asked whether the site was updated")
		}
	}
	if y, err := bt.Eval[float64](alice, `(scrollTo(0, document.documentElement.scrollHeight), scrollY)`); err != nil || y == 0 {
		t.Fatalf("the page does not scroll (%v)", err)
	}
	front.mu.Lock()
	front.updated = true
	front.mu.Unlock()
	waitFor(t, alice, `document.querySelector("#updated button") !== null`, true, "the offer to reload")
	box, err := bt.Eval[[]float64](alice, `(() => { const r = document.querySelector("#updated button").getBoundingClientRect(); return [r.top, r.bottom, r.left, r.right, document.getElementById("action-bar").getBoundingClientRect().top, innerWidth, scrollY]; })()`)
	must(t, err)
	if top, bottom, left, right, bar, width := box[0], box[1], box[2], box[3], box[4], box[5]; top < 0 || bottom > bar || left < 0 || right > width || box[6] == 0 {
		t.Errorf("the offer from %.0f to %.0f, %.0f to %.0f, in a screen %.0f wide above a bar at %.0f, the page scrolled to %.0f", top, bottom, left, right, width, bar, box[6])
	}
	waitFor(t, alice, `getComputedStyle(document.documentElement).getPropertyValue("--board-top") === document.getElementById("board").getBoundingClientRect().top + scrollY + "px"`, true, "the board's top kept where the board begins")
	bt.Screenshot(t, alice, "phone-offer-to-reload")
}

// A proxy's own "not found", a page or a line of text, is not the site's
// word that it was updated: a page that gets one offers no reload, and
// its scripts still come when they can.
func TestProxysNotFoundIsNoUpdate(t *testing.T) {
	for _, kind := range []string{"text/html", "text/plain", "cut"} {
		t.Run(kind, func(t *testing.T) { proxysNotFoundIsNoUpdate(t, kind) })
	}
}

func proxysNotFoundIsNoUpdate(t *testing.T, kind string) {
	srv := bt.StartServer(t, "")
	front := newRefuser(t, srv, "js/actions.js")
	front.foreign = kind
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	alice := bt.NewProfile(t)
	must(t, bt.Navigate(alice, strings.Replace(g.playerURL, srv.URL, front.URL, 1)))
	waitFor(t, alice, `document.querySelector("#actions button.resign") !== null`, true, "the player's controls, once their script came")
	if n := front.count("/js/boards.js"); n < 2 {
		t.Fatalf("boards.js asked for %d times: the page never asked whether the site was updated", n)
	}
	if s, err := bt.Eval[string](alice, `document.getElementById("updated").textContent`); err != nil || s != "" {
		t.Errorf("a proxy's page is taken for the site's word: %q %v", s, err)
	}
}

// A script that comes but throws as it runs (a mistake, or a browser it
// does not suit) would throw each time: it is reported once, and not
// asked for again.
func TestScriptThatThrowsIsReportedOnce(t *testing.T) {
	srv := bt.StartServer(t, "")
	front := newRefuser(t, srv, "js/mygames.js")
	front.broken = "js/mygames.js"
	p := bt.NewProfile(t, bt.AllowConsoleErrors)
	var (
		mu      sync.Mutex
		reports []string
	)
	must(t, chromedp.Listen(p, func(ev any) {
		if ev, ok := ev.(*runtime.EventConsoleAPICalled); ok && ev.Type == runtime.ConsoleAPICalledTypeError {
			mu.Lock()
			defer mu.Unlock()
			for _, a := range ev.Args {
				reports = append(reports, a.Description)
			}
		}
	}))
	must(t, bt.Navigate(p, front.URL+"/my"))
	for deadline := time.Now().Add(bt.Timeout); ; time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		n := len(reports)
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the script that throws was never reported")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reports) != 1 || !strings.Contains(reports[0], "this script is broken") {
		t.Errorf("reported: %q", reports)
	}
	// Refused once, then it came broken; not asked for after that.
	if n := front.count("/js/mygames.js"); n != 2 {
		t.Errorf("the script that throws was asked for %d times", n)
	}
}
