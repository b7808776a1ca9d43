package server

import (
	"net/http"
	"regexp"
	"testing"
)

// maxColdGamePage is what a game page with everything it loads may weigh
// on a cold visit, compressed: the bodies for every client, and for one
// that takes brotli (every current browser) the headers too.
const maxColdGamePage = 30_000

// answerBytes is the size of an HTTP/1.1 answer on the wire: its status
// line, headers and body.
func answerBytes(res *http.Response, body []byte) int {
	n := len(res.Proto) + 1 + len(res.Status) + 2 + 2
	for k, vs := range res.Header {
		for _, v := range vs {
			n += len(k) + 2 + len(v) + 2
		}
	}
	return n + len(body)
}

// A watcher's first visit to a game page of each board, the page and the
// scripts it preloads, stays under maxColdGamePage for a client that
// takes brotli and for one that takes only gzip, in every language (the
// page carries its words). Byte counts are the same
// on every run; BenchmarkPhoneFirstPaint (internal/e2e) counts them in a
// browser.
func TestColdGamePageWeight(t *testing.T) {
	ts := newTestServer(t)
	asset := regexp.MustCompile(`<link rel="(?:modulepreload|stylesheet|icon)" href="(/static/[^"]+)"|<script type="module" src="(/static/[^"]+)"`)
	for _, board := range []struct{ name, create string }{
		{"havannah", `{"game":"havannah","options":{"size":8},"moves":["e5","d4","e6","c3","f6"]}`},
		{"dvonn", `{"game":"dvonn"}`},
		{"fanorona", `{"game":"fanorona"}`},
	} {
		var c createResponse
		if code := ts.call(t, "POST", "/api/games", "", board.create, &c); code != http.StatusCreated {
			t.Fatalf("%s: create %d", board.name, code)
		}
		for _, lang := range []string{"en", "de", "pl"} {
			coldGamePage(t, ts, board.name, c.ID, lang, asset)
		}
	}
}

// coldGamePage checks one game page's weight in lang, as above.
func coldGamePage(t *testing.T, ts *testServer, board, id, lang string, asset *regexp.Regexp) {
	get := func(url, encoding string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Accept-Language", lang)
		return fetchWith(t, req, encoding)
	}
	for _, coding := range []string{"br", "gzip"} {
		res, page := get(ts.URL+"/g/"+id, "gzip, deflate, "+coding)
		if res.Header.Get("Content-Encoding") != coding {
			t.Fatalf("%s: the page came as %q, not %s", board, res.Header.Get("Content-Encoding"), coding)
		}
		total, bodies, files := answerBytes(res, page), len(page), 1
		_, plain := get(ts.URL+"/g/"+id, "")
		seen := map[string]bool{}
		for _, m := range asset.FindAllStringSubmatch(string(plain), -1) {
			path := m[1] + m[2]
			if seen[path] {
				continue
			}
			seen[path] = true
			res, body := get(ts.URL+path, "gzip, deflate, "+coding)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("%s: %s %d", board, path, res.StatusCode)
			}
			total += answerBytes(res, body)
			bodies += len(body)
			files++
		}
		t.Logf("%s, %s, %s: %d bytes in %d answers, %d of them bodies", board, lang, coding, total, files, bodies)
		if files < 8 {
			t.Fatalf("%s: only %d files found: the page's scripts were missed", board, files)
		}
		if bodies > maxColdGamePage || coding == "br" && total > maxColdGamePage {
			t.Errorf("%s, %s, %s: a cold game page weighs %d bytes (%d with headers), more than %d", board, lang, coding, bodies, total, maxColdGamePage)
		}
	}
}
