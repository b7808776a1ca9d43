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
)

// fetch gets path with the Accept-Encoding given (none when empty), and
// returns the answer's encoding and its body as sent.
func fetch(t *testing.T, url, encoding string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
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

// Pages and their text assets go out gzipped to clients that take it, and
// plain to the others.
func TestCompressedPagesAndAssets(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":8},"start":"me"}`)
	plainRes, plain := fetch(t, ts.URL+"/g/"+g.id, "")
	if plainRes.Header.Get("Content-Encoding") != "" || !strings.Contains(string(plain), `<svg class="board-svg havannah"`) {
		t.Fatalf("plain page: encoding %q", plainRes.Header.Get("Content-Encoding"))
	}
	res, zipped := fetch(t, ts.URL+"/g/"+g.id, "gzip, deflate, br")
	if res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("page for a gzip client: encoding %q, vary %q", res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
	}
	if page := gunzip(t, zipped); page != string(plain) || len(zipped)*3 > len(plain) {
		t.Fatalf("gzipped page of %d bytes for %d plain", len(zipped), len(plain))
	}
	if res, _ := fetch(t, ts.URL+"/g/"+g.id, "gzip;q=0"); res.Header.Get("Content-Encoding") != "" {
		t.Fatal("gzip sent to a client that refuses it")
	}

	_, home := fetch(t, ts.URL+"/", "")
	css := regexp.MustCompile(`/static/[0-9a-f]+/css/site\.css`).FindString(string(home))
	_, rawCSS := fetch(t, ts.URL+css, "")
	res, zippedCSS := fetch(t, ts.URL+css, "gzip")
	if res.Header.Get("Content-Encoding") != "gzip" || res.Header.Get("Content-Type") != "text/css; charset=utf-8" || gunzip(t, zippedCSS) != string(rawCSS) {
		t.Fatalf("style sheet: %q %q, %d bytes for %d", res.Header.Get("Content-Encoding"), res.Header.Get("Content-Type"), len(zippedCSS), len(rawCSS))
	}
}

// A game page carries its style sheets, and its Content-Security-Policy
// allows exactly those; other pages allow no inline style.
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
	}
	res, _ := get(t, ts.browser(t), ts.URL+"/")
	if csp := res.Header.Get("Content-Security-Policy"); strings.Contains(csp, "sha256") {
		t.Fatalf("the home page allows inline styles: %q", csp)
	}
}
