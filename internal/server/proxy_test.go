package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

func TestOriginBehindProxies(t *testing.T) {
	proxies, err := ParsePrefixes("10.0.0.0/8, 2001:db8:ffff::1")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{proxies: proxies}
	for _, tt := range []struct {
		name, remote string
		header       http.Header
		client       string
		secure       bool
	}{
		{"direct", "203.0.113.7:5555", nil, "203.0.113.7", false},
		{"an untrusted peer names another client", "203.0.113.7:5555",
			http.Header{"X-Forwarded-For": {"198.51.100.1"}, "X-Forwarded-Proto": {"https"}, "Forwarded": {"for=198.51.100.1;proto=https"}},
			"203.0.113.7", false},
		{"trusted proxy, X-Forwarded-For", "10.1.2.3:80",
			http.Header{"X-Forwarded-For": {"198.51.100.1"}, "X-Forwarded-Proto": {"https"}}, "198.51.100.1", true},
		{"the client forges the start of the chain", "10.1.2.3:80",
			http.Header{"X-Forwarded-For": {"1.2.3.4, 198.51.100.1, 10.9.9.9"}}, "198.51.100.1", false},
		{"several header lines", "10.1.2.3:80",
			http.Header{"X-Forwarded-For": {"1.2.3.4", "198.51.100.1"}}, "198.51.100.1", false},
		{"Forwarded is the client's own word", "10.1.2.3:80",
			http.Header{"Forwarded": {`for="[2001:db8:1:2::5]:4711";proto=https`}, "X-Forwarded-For": {"1.2.3.4"}}, "1.2.3.4", false},
		{"Forwarded alone", "10.1.2.3:80", http.Header{"Forwarded": {"for=198.51.100.1;proto=https"}}, "10.1.2.3", false},
		{"IPv6 forwarded", "10.1.2.3:80", http.Header{"X-Forwarded-For": {"[2001:db8:1:2::5]:4711"}}, "2001:db8:1:2::/64", false},
		{"trusted proxy without headers", "[2001:db8:ffff::1]:80", nil, "2001:db8:ffff::/64", false},
		{"an unknown hop", "10.1.2.3:80", http.Header{"X-Forwarded-For": {"unknown"}}, "10.1.2.3", false},
		{"IPv6 by /64", "[2001:db8:1:2:aaaa:bbbb:cccc:dddd]:1", nil, "2001:db8:1:2::/64", false},
		{"IPv4 in IPv6", "[::ffff:203.0.113.7]:1", nil, "203.0.113.7", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr, r.Host = tt.remote, "bretter.example"
			for k, v := range tt.header {
				r.Header[k] = v
			}
			o := s.originOf(r)
			scheme := "http"
			if tt.secure {
				scheme = "https"
			}
			if o.client != tt.client || o.secure != tt.secure || o.base != scheme+"://bretter.example" {
				t.Fatalf("got %+v, want client %s, secure %v", o, tt.client, tt.secure)
			}
		})
	}
	// Addresses of one /64 share their limits; the next /64 does not.
	a, b, c := netip.MustParseAddr("2001:db8:1:2::1"), netip.MustParseAddr("2001:db8:1:2:ffff::9"), netip.MustParseAddr("2001:db8:1:3::1")
	if addrKey(a) != addrKey(b) || addrKey(a) == addrKey(c) {
		t.Fatalf("keys %s %s %s", addrKey(a), addrKey(b), addrKey(c))
	}
}

func TestParseFlags(t *testing.T) {
	for in, want := range map[string]string{"": "", "https://bretter.example": "https://bretter.example",
		"https://bretter.example/": "https://bretter.example", "http://localhost:8080": "http://localhost:8080"} {
		if got, err := ParsePublicURL(in); err != nil || got != want {
			t.Errorf("ParsePublicURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"bretter.example", "ftp://bretter.example", "https://bretter.example/play", "https://u:p@bretter.example", "https://bretter.example/?x=1"} {
		if _, err := ParsePublicURL(bad); err == nil {
			t.Errorf("ParsePublicURL(%q) took it", bad)
		}
	}
	if p, err := ParsePrefixes("127.0.0.1, ::1,10.0.0.0/8"); err != nil || len(p) != 3 || !p[0].Contains(netip.MustParseAddr("127.0.0.1")) || p[0].Bits() != 32 {
		t.Fatalf("ParsePrefixes: %v %v", p, err)
	}
	if _, err := ParsePrefixes("10.0.0.0/8,nonsense"); err == nil {
		t.Fatal("nonsense was taken as a prefix")
	}
}

func TestPublicHTTPSURL(t *testing.T) {
	ts := limitedServer(t, lenient(Config{PublicURL: "https://bretter.example"}))
	res := postJSON(t, ts.URL+"/api/games", `{"game":"havannah"}`, nil)
	var c createResponse
	decode(t, res, &c)
	for _, link := range []string{c.PlayerURL, c.InviteURL, c.WatchURL} {
		if !strings.HasPrefix(link, "https://bretter.example/g/") {
			t.Fatalf("link %q", link)
		}
	}
	if h := res.Header.Get("Strict-Transport-Security"); !strings.HasPrefix(h, "max-age=") {
		t.Fatalf("HSTS %q", h)
	}
	for _, ck := range res.Cookies() {
		if !ck.Secure {
			t.Fatalf("cookie %s is not Secure", ck.Name)
		}
	}
	if len(res.Cookies()) == 0 {
		t.Fatal("no cookie")
	}
	// The page shows the same links, and the language cookie is Secure too.
	page := getWith(t, ts.URL+"/g/"+c.ID+"?lang=de", http.Header{"Cookie": {res.Cookies()[0].Name + "=" + c.Secret}})
	if !page.Cookies()[0].Secure {
		t.Fatal("the language cookie is not Secure")
	}
	// The browser names the public origin, which is not the Host the
	// site sees: that is the same site.
	if res := postJSON(t, ts.URL+"/api/games", `{"game":"havannah"}`, http.Header{"Origin": {"https://bretter.example"}}); res.StatusCode != http.StatusCreated {
		t.Fatalf("a post from the public origin: %d", res.StatusCode)
	}
	wsURL := "ws" + strings.TrimPrefix(ts.URL, "http") + "/api/games/" + c.ID + "/ws"
	for origin, want := range map[string]int{"https://bretter.example": http.StatusSwitchingProtocols, "https://evil.example": http.StatusForbidden} {
		conn, res, err := websocket.Dial(t.Context(), wsURL, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {origin}}})
		if conn != nil {
			conn.CloseNow()
		}
		if res == nil || res.StatusCode != want {
			t.Fatalf("a live connection from %s: %v %v, want %d", origin, res, err, want)
		}
	}
}

func TestTrustedProxy(t *testing.T) {
	ts := limitedServer(t, lenient(Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}, CreatesPerMinute: 3}))
	frozen(ts)
	fwd := func(client string) http.Header {
		return http.Header{"X-Forwarded-For": {client}, "X-Forwarded-Proto": {"https"}}
	}
	res := postJSON(t, ts.URL+"/api/games", `{"game":"havannah"}`, fwd("198.51.100.1"))
	var c createResponse
	decode(t, res, &c)
	if !strings.HasPrefix(c.PlayerURL, "https://") || !res.Cookies()[0].Secure || res.Header.Get("Strict-Transport-Security") == "" {
		t.Fatalf("behind a TLS proxy: %s, cookie %+v, HSTS %q", c.PlayerURL, res.Cookies()[0], res.Header.Get("Strict-Transport-Security"))
	}
	// The limits count each client behind the proxy, not the proxy.
	if res := postJSON(t, ts.URL+"/api/games", `{"game":"havannah"}`, fwd("198.51.100.1")); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the same client again: %d", res.StatusCode)
	}
	if res := postJSON(t, ts.URL+"/api/games", `{"game":"havannah"}`, fwd("198.51.100.2")); res.StatusCode != http.StatusCreated {
		t.Fatalf("another client: %d", res.StatusCode)
	}
	// A proxy that sets X-Forwarded-For passes the client's own Forwarded
	// on: it names nobody.
	own := fwd("198.51.100.1")
	own.Set("Forwarded", "for=198.51.100.3;proto=https")
	if res := postJSON(t, ts.URL+"/api/games", `{"game":"havannah"}`, own); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a client naming itself in Forwarded: %d", res.StatusCode)
	}
}

func TestUntrustedForwardingIsIgnored(t *testing.T) {
	ts := limitedServer(t, lenient(Config{CreatesPerMinute: 3}))
	frozen(ts)
	fwd := func(client string) http.Header {
		return http.Header{"X-Forwarded-For": {client}, "X-Forwarded-Proto": {"https"}, "Forwarded": {"for=" + client + ";proto=https"}}
	}
	res := postJSON(t, ts.URL+"/api/games", `{"game":"havannah"}`, fwd("198.51.100.1"))
	var c createResponse
	decode(t, res, &c)
	if !strings.HasPrefix(c.PlayerURL, "http://") || res.Cookies()[0].Secure || res.Header.Get("Strict-Transport-Security") != "" {
		t.Fatalf("forwarding headers of anybody were believed: %s", c.PlayerURL)
	}
	if res := postJSON(t, ts.URL+"/api/games", `{"game":"havannah"}`, fwd("198.51.100.2")); res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a client picked its own limit: %d", res.StatusCode)
	}
}

func TestLanguageRedirectStaysOnTheSite(t *testing.T) {
	ts := newTestServer(t)
	for _, path := range []string{"/%2Fevil.example?lang=en", "/%2F%2Fevil.example?lang=de", "/%5Cevil.example?lang=en",
		"/%5C%5Cevil.example?lang=en", "/havannah?lang=pl&x=%2F%2Fevil.example", "/g/%2Fevil.example?lang=en"} {
		res := getWith(t, ts.URL+path, nil)
		loc := res.Header.Get("Location")
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		base, _ := url.Parse(ts.URL + "/somewhere")
		to, err := base.Parse(loc)
		if err != nil || to.Host != base.Host || !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") || strings.HasPrefix(loc, "/\\") {
			t.Fatalf("%s goes to %q", path, loc)
		}
	}
	if loc := getWith(t, ts.URL+"/havannah?lang=de&x=1", nil).Header.Get("Location"); loc != "/havannah?x=1" {
		t.Fatalf("the clean address is %q", loc)
	}
}

// noRedirect is a client that shows redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func getWith(t testing.TB, u string, h http.Header) *http.Response {
	t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

func postJSON(t testing.TB, u, body string, h http.Header) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range h {
		req.Header[k] = v
	}
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	res.Body = io.NopCloser(bytes.NewReader(data))
	return res
}

func decode(t testing.TB, res *http.Response, v any) {
	t.Helper()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatalf("%d: %v", res.StatusCode, err)
	}
}
