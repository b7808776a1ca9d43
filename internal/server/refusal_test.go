package server

import (
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// spent is a server whose reads and new games every address has spent:
// every page and API read it is asked for, and every start form sent, is
// refused.
func spent(t testing.TB) *testServer {
	return limitedServer(t, lenient(Config{ReadsPerSecond: 1e-9, CreatesPerMinute: 1e-9}))
}

// A request refused for coming too often gets the site's page in the
// visitor's language, in the coding the browser takes, with every page's
// headers and no cache keeping it, a read the time to come back too; its
// language links lead back to the page asked for.
func TestRefusedPage(t *testing.T) {
	ts := spent(t)
	for _, tt := range []struct{ method, lang, accept, coding, path string }{
		{"GET", "de", "br, gzip", "br", "/g/abc"},
		{"GET", "pl", "gzip", "gzip", "/havannah"},
		{"GET", "en", "", "", "/"},
		{"GET", "de", "", "", "/import"},
		{"POST", "de", "gzip, br", "br", "/games"},
	} {
		req, _ := http.NewRequest(tt.method, ts.URL+tt.path+"?x=1", strings.NewReader("game=havannah"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept-Language", tt.lang)
		res, raw := fetchWith(t, req, tt.accept)
		body := string(raw)
		switch tt.coding {
		case "br":
			body = unbrotli(t, raw)
		case "gzip":
			body = gunzip(t, raw)
		}
		name := tt.method + " " + tt.path + " in " + tt.lang
		if res.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("%s: %d", name, res.StatusCode)
		}
		if got := res.Header.Get("Content-Encoding"); got != tt.coding || res.ContentLength != int64(len(raw)) {
			t.Errorf("%s: Content-Encoding %q, want %q; length %d of %d", name, got, tt.coding, res.ContentLength, len(raw))
		}
		h := res.Header
		if h.Get("Retry-After") != "1" {
			t.Errorf("%s: Retry-After %q", name, h.Get("Retry-After"))
		}
		for k, want := range map[string]string{"Cache-Control": "no-store", "Content-Type": "text/html; charset=utf-8",
			"Content-Language": tt.lang, "Vary": "Accept-Encoding", "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY",
			"Referrer-Policy": "same-origin", "Cross-Origin-Opener-Policy": "same-origin"} {
			if h.Get(k) != want {
				t.Errorf("%s: %s %q, want %q", name, k, h.Get(k), want)
			}
		}
		if !strings.HasPrefix(h.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: Content-Security-Policy %q", name, h.Get("Content-Security-Policy"))
		}
		if text := ts.srv.site.T(tt.lang, "error.rate"); !strings.Contains(errorSection(body), text) || !strings.Contains(body, `<html lang="`+tt.lang+`">`) {
			t.Errorf("%s: the page does not say %q in its language:\n%s", name, text, body)
		}
		links := regexp.MustCompile(`href="([^"]*)" hreflang="([a-z]+)"`).FindAllStringSubmatch(body, -1)
		if len(links) != len(ts.srv.site.Langs()) {
			t.Errorf("%s: language links %v", name, links)
		}
		for _, l := range links {
			to, err := req.URL.Parse(strings.ReplaceAll(l[1], "&amp;", "&"))
			if err != nil || to.Path != tt.path || to.Query().Get("lang") != l[2] {
				t.Errorf("%s: the link to %s leads to %v (%v)", name, l[2], to, err)
			}
		}
	}
	// A HEAD is told the same, without the page.
	req, _ := http.NewRequest("HEAD", ts.URL+"/g/abc", nil)
	req.Header.Set("Accept-Language", "de")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "1" || res.Header.Get("Content-Language") != "de" {
		t.Fatalf("HEAD refused: %d %v", res.StatusCode, res.Header)
	}
}

// A flood of requests from one address is refused at little cost: the
// page that refuses them is not made again for each. Counted in
// allocations, which making the page takes thousands of.
func TestRefusedCheaply(t *testing.T) {
	ts := spent(t)
	for _, method := range []string{"GET", "POST"} {
		for _, coding := range []string{"br", "gzip", ""} {
			serve := func() {
				w := httptest.NewRecorder()
				ts.srv.ServeHTTP(w, refused(method, coding))
				if w.Code != http.StatusTooManyRequests {
					t.Fatalf("%s in %q: %d", method, coding, w.Code)
				}
			}
			serve()
			if n := testing.AllocsPerRun(50, serve); n > 100 {
				t.Errorf("%s in coding %q: %.0f allocations for each request refused", method, coding, n)
			}
		}
	}
}

// refused is a request of a German browser that spent reads or new
// games refuse: a game page (GET) or the start form (POST).
func refused(method, coding string) *http.Request {
	req := httptest.NewRequest("GET", "/g/abcdefghij", nil)
	if method == "POST" {
		req = httptest.NewRequest("POST", "/games", strings.NewReader("game=havannah&start=me"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Accept-Language", "de-DE,de;q=0.9,en;q=0.8")
	if coding != "" {
		req.Header.Set("Accept-Encoding", coding)
	}
	return req
}

// What a read refused costs the site, in each coding a browser takes.
func BenchmarkReadRefused(b *testing.B) {
	ts := spent(b)
	for _, coding := range []string{"br", "gzip", "identity"} {
		b.Run(coding, func(b *testing.B) {
			req := refused("GET", strings.TrimPrefix(coding, "identity"))
			serve := func() {
				w := httptest.NewRecorder()
				ts.srv.ServeHTTP(w, req)
				if w.Code != http.StatusTooManyRequests {
					b.Fatal(w.Code)
				}
			}
			// Whatever is made once is made before the loop, which
			// times what each refusal costs.
			serve()
			b.ReportAllocs()
			for b.Loop() {
				serve()
			}
		})
	}
}

// errorSection is the text of an error page's own section, unescaped:
// the header and the page's catalogue are left out.
func errorSection(page string) string {
	return html.UnescapeString(regexp.MustCompile(`(?s)<section class="error-page">.*?</section>`).FindString(page))
}
