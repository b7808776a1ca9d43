package e2e

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp/kb"

	bt "bretter/internal/browsertest"
)

// refuser stands in front of a server and passes every request on, but
// answers the first request for each of its scripts with 503, as a site
// going down just then would; it counts the requests by path.
type refuser struct {
	URL     string
	scripts []string // paths under the static prefix: js/actions.js

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
		first := r.asked[req.URL.Path] == 1 && slices.ContainsFunc(r.scripts, func(s string) bool { return strings.HasSuffix(req.URL.Path, "/"+s) })
		r.mu.Unlock()
		if first {
			http.Error(w, "the site is restarting", http.StatusServiceUnavailable)
			return
		}
		proxy.ServeHTTP(w, req)
	}))
	t.Cleanup(front.Close)
	r.URL = front.URL
	return r
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

// The scripts a player's page loads after the board may fail to come,
// the site going down just then: the page asks for them again, and the
// player's controls, chat and arrow keys appear without a reload.
func TestScriptsAfterTheBoardComeAgain(t *testing.T) {
	srv := bt.StartServer(t, "")
	scripts := []string{"js/actions.js", "js/chat.js", "js/notices.js", "js/boards/arrows.js"}
	front := newRefuser(t, srv, scripts...)
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	must(t, bt.Navigate(alice, strings.Replace(g.playerURL, srv.URL, front.URL, 1)))
	must(t, bt.Navigate(bob, g.otherURL))
	waitStatus(t, alice, "Your turn")

	waitFor(t, alice, `document.querySelector("#actions button.resign") !== null`, true, "the player's controls")
	waitFor(t, alice, `document.querySelector('#board svg[role="group"]').hasAttribute("aria-description")`, true, "the board's arrow keys")
	typeInto(t, alice, "#chat-input", "hello"+kb.Enter)
	must(t, bt.WaitText(bob, "#chat-lines", "White: hello"))
	for _, s := range scripts {
		if n := front.count("/" + s); n != 2 {
			t.Errorf("%s asked for %d times, want twice", s, n)
		}
	}
	if n := front.count("/g/" + g.id); n != 1 {
		t.Errorf("the page was loaded %d times", n)
	}
}
