package server

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// fetch gets path with the Accept-Encoding given (none when empty), and
// returns the answer's encoding and its body as sent.
func fetch(t *testing.T, url, encoding string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	return fetchWith(t, req, encoding)
}

// fetchWith sends req with the Accept-Encoding given (none when empty),
// and returns the answer and its body as sent.
func fetchWith(t *testing.T, req *http.Request, encoding string) (*http.Response, []byte) {
	t.Helper()
	if encoding != "" {
		req.Header.Set("Accept-Encoding", encoding)
	}
	// A transport of its own, which leaves compressed bodies as they are.
	res, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	r, err := gzip.NewReader(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func unbrotli(t *testing.T, b []byte) string {
	t.Helper()
	out, err := io.ReadAll(brotli.NewReader(strings.NewReader(string(b))))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// Pages and their text assets go out in brotli to clients that take it,
// gzipped to those that take only gzip, and plain to the others.
func TestCompressedPagesAndAssets(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":8},"start":"me"}`)
	plainRes, plain := fetch(t, ts.URL+"/g/"+g.id, "")
	if plainRes.Header.Get("Content-Encoding") != "" || !strings.Contains(string(plain), `<svg class="board-svg havannah"`) {
		t.Fatalf("plain page: encoding %q", plainRes.Header.Get("Content-Encoding"))
	}
	res, zipped := fetch(t, ts.URL+"/g/"+g.id, "gzip, deflate")
	if res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("page for a gzip client: encoding %q, vary %q", res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
	}
	if page := gunzip(t, zipped); page != string(plain) || len(zipped)*3 > len(plain) {
		t.Fatalf("gzipped page of %d bytes for %d plain", len(zipped), len(plain))
	}
	res, squeezed := fetch(t, ts.URL+"/g/"+g.id, "gzip, deflate, br, zstd")
	if res.Header.Get("Content-Encoding") != "br" || unbrotli(t, squeezed) != string(plain) || len(squeezed) >= len(zipped) {
		t.Fatalf("page for a brotli client: encoding %q, %d bytes for %d gzipped", res.Header.Get("Content-Encoding"), len(squeezed), len(zipped))
	}
	for _, refused := range []string{"gzip;q=0", "br;q=0, gzip;q=0", "identity"} {
		if res, _ := fetch(t, ts.URL+"/g/"+g.id, refused); res.Header.Get("Content-Encoding") != "" {
			t.Fatalf("%s sent to a client that asks for %q", res.Header.Get("Content-Encoding"), refused)
		}
	}
	if res, _ := fetch(t, ts.URL+"/g/"+g.id, "br;q=0, gzip"); res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("%q sent to a client that refuses brotli", res.Header.Get("Content-Encoding"))
	}

	_, home := fetch(t, ts.URL+"/", "")
	for _, asset := range []struct{ re, typ string }{
		{`/static/[0-9a-f]+/css/site\.css`, "text/css; charset=utf-8"},
		{`/static/[0-9a-f]+/js/page\.js`, "text/javascript"},
	} {
		url := ts.URL + regexp.MustCompile(asset.re).FindString(string(home))
		rawRes, raw := fetch(t, url, "")
		if rawRes.Header.Get("Content-Type") != asset.typ {
			t.Fatalf("%s: plain as %q", url, rawRes.Header.Get("Content-Type"))
		}
		res, zipped := fetch(t, url, "gzip")
		if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != asset.typ || gunzip(t, zipped) != string(raw) {
			t.Fatalf("%s: %q %q, %d bytes for %d", url, res.Header.Get("Content-Encoding"), res.Header.Get("Content-Type"), len(zipped), len(raw))
		}
		res, squeezed := fetch(t, url, "gzip, br")
		if res.Header.Get("Content-Encoding") != "br" || res.Header.Get("Content-Type") != asset.typ || unbrotli(t, squeezed) != string(raw) || len(squeezed) >= len(zipped) {
			t.Fatalf("%s: %q %q, %d bytes for %d gzipped", url, res.Header.Get("Content-Encoding"), res.Header.Get("Content-Type"), len(squeezed), len(zipped))
		}
	}
}

// A game page carries its style sheets, and its Content-Security-Policy
// allows exactly those (and the style of a browser without scripts), not
// another board's; other pages allow no inline style.
func TestInlineStylesAllowedByHash(t *testing.T) {
	ts := newTestServer(t)
	for _, name := range []string{"havannah", "dvonn", "fanorona"} {
		var c createResponse
		ts.call(t, "POST", "/api/games", "", `{"game":"`+name+`"}`, &c)
		res, body := get(t, ts.browser(t), ts.URL+"/g/"+c.ID)
		m := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindStringSubmatch(body)
		if m == nil || !strings.Contains(m[1], "."+name+" ") {
			t.Fatalf("%s page: no style of its board", name)
		}
		sum := sha256.Sum256([]byte(m[1]))
		want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		csp := res.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "style-src 'self' ") || !strings.Contains(csp, want) {
			t.Fatalf("%s page: the policy %q does not allow its style %s", name, csp, want)
		}
		// Exactly: its own, and the one for a browser without scripts.
		if n := strings.Count(csp, "'sha256-"); n != 2 {
			t.Errorf("%s page: the policy allows %d inline styles, not its 2: %q", name, n, csp)
		}
	}
	res, _ := get(t, ts.browser(t), ts.URL+"/")
	if csp := res.Header.Get("Content-Security-Policy"); strings.Contains(csp, "sha256") {
		t.Fatalf("the home page allows inline styles: %q", csp)
	}
}

// A script or style sheet carries the headers a browser heeds for it, and
// not the policies only a document heeds; everything else carries all.
func TestHeadersOfSubresources(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"fanorona"}`)
	_, page := fetch(t, ts.URL+"/g/"+g.id, "")
	script := regexp.MustCompile(`/static/[0-9a-f]+/js/game\.js`).FindString(string(page))
	icon := regexp.MustCompile(`/static/[0-9a-f]+/favicon\.svg`).FindString(string(page))
	if script == "" || icon == "" {
		t.Fatal("the page names no script or icon")
	}
	docOnly := []string{"Content-Security-Policy", "X-Frame-Options", "Cross-Origin-Opener-Policy", "Permissions-Policy"}
	all := append([]string{"X-Content-Type-Options", "Referrer-Policy"}, docOnly...)
	for _, path := range []string{"/g/" + g.id, icon, "/api/games/" + g.id} {
		res, _ := fetch(t, ts.URL+path, "br")
		for _, h := range all {
			if res.Header.Get(h) == "" {
				t.Errorf("%s: no %s", path, h)
			}
		}
	}
	for _, enc := range []string{"", "br"} {
		res, _ := fetch(t, ts.URL+script, enc)
		if res.StatusCode != http.StatusOK || res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Referrer-Policy") != "same-origin" {
			t.Errorf("the script (%q): %d, nosniff %q, referrer %q", enc, res.StatusCode, res.Header.Get("X-Content-Type-Options"), res.Header.Get("Referrer-Policy"))
		}
		for _, h := range docOnly {
			if v := res.Header.Get(h); v != "" {
				t.Errorf("the script (%q) carries %s: %s", enc, h, v)
			}
		}
	}
}

// The site's files are served one by one: a folder is not listed, and
// neither it nor a missing file is kept in a cache. What is not there is
// said in the visitor's language, with the headers of a document: the
// answer is not the script or style sheet that was asked for.
func TestStaticServesOnlyFiles(t *testing.T) {
	ts := newTestServer(t)
	prefix := ts.srv.site.StaticPrefix()
	notFound, updated := ts.srv.site.T("de", "error.page_not_found"), ts.srv.site.T("de", "error.updated")
	// A page loaded before the site was updated asks for its files under
	// its own version: they are missing too, not a page, and their line
	// says why, for the page to offer a reload.
	for _, p := range []string{"css/", "js/", "", "css/nope.css", "js/nope.js", "../000000000000/js/game.js", "../0a1b2c3d4e5f/js/boards.js", "../000000000000/", "../", "../js/boards.js", "../nope/js/boards.js", "../0/js/boards.js", "../fade/js/boards.js", "../0000000000000/js/boards.js"} {
		want := notFound
		if v, _, _ := strings.Cut(strings.TrimPrefix(p, "../"), "/"); len(v) == 12 && strings.HasPrefix(p, "../") {
			want = updated
		}
		req, _ := http.NewRequest("GET", ts.URL+prefix+p, nil)
		req.Header.Set("Accept-Language", "de")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound || res.Header.Get("Cache-Control") != "no-store" || strings.Contains(string(body), "<a href") {
			t.Errorf("%s: %d %q %.80q", p, res.StatusCode, res.Header.Get("Cache-Control"), body)
		}
		if strings.TrimSpace(string(body)) != want || res.Header.Get("Content-Language") != "de" {
			t.Errorf("%s: %q in %q, not %q", p, body, res.Header.Get("Content-Language"), want)
		}
		for _, h := range []string{"Content-Security-Policy", "X-Frame-Options", "Cross-Origin-Opener-Policy", "Permissions-Policy", "X-Content-Type-Options"} {
			if res.Header.Get(h) == "" {
				t.Errorf("%s: no %s", p, h)
			}
		}
	}
	if res, err := http.Get(ts.URL + prefix + "css/site.css"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("a file: %v %v", res, err)
	} else {
		res.Body.Close()
	}
}
