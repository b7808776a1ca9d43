package server

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// browser is an HTTP client with its own cookies that does not follow
// redirects, so each step can be checked.
func (ts *testServer) browser(t *testing.T) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func get(t *testing.T, c *http.Client, u string, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestPagesAndLanguages(t *testing.T) {
	ts := newTestServer(t)
	c := ts.browser(t)
	res, body := get(t, c, ts.URL+"/", "Accept-Language", "fr;q=1, de-DE;q=0.8, en;q=0.5")
	if res.StatusCode != 200 || !strings.Contains(body, "Alle Bretter") || !strings.Contains(body, `lang="de"`) {
		t.Fatalf("German home page: %d", res.StatusCode)
	}
	for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"} {
		if res.Header.Get(h) == "" {
			t.Errorf("no %s header", h)
		}
	}
	res, _ = get(t, c, ts.URL+"/havannah?lang=en")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/havannah" {
		t.Fatalf("choosing English: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	_, body = get(t, c, ts.URL+"/havannah", "Accept-Language", "de")
	if !strings.Contains(body, "How to play") || !strings.Contains(body, `class="diagram" data-game="havannah"`) {
		t.Fatal("the remembered choice of English did not win over the browser's German")
	}
	for _, game := range []string{"havannah", "dvonn", "fanorona"} {
		for _, lang := range []string{"en", "de"} {
			res, _ := get(t, ts.browser(t), ts.URL+"/"+game, "Accept-Language", lang)
			if res.StatusCode != 200 || res.Header.Get("Content-Language") != lang {
				t.Errorf("/%s in %s: %d %s", game, lang, res.StatusCode, res.Header.Get("Content-Language"))
			}
		}
	}
	if res, _ := get(t, c, ts.URL+"/chess"); res.StatusCode != 404 {
		t.Fatalf("/chess: %d", res.StatusCode)
	}
	if res, _ := get(t, c, ts.URL+"/g/zzzzzzzzzz"); res.StatusCode != 404 {
		t.Fatalf("unknown game page: %d", res.StatusCode)
	}
}

var (
	playerURL = regexp.MustCompile(`id="player-url" readonly value="([^"]+)"`)
	inviteURL = regexp.MustCompile(`id="invite-url" readonly value="([^"]+)"`)
)

func TestSeatsThroughPages(t *testing.T) {
	ts := newTestServer(t)
	creator := ts.browser(t)
	res, err := creator.PostForm(ts.URL+"/games", url.Values{"game": {"havannah"}, "size": {"6"}, "swap": {"1"}, "start": {"friend"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	gamePath := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(gamePath, "/g/") {
		t.Fatalf("creating by form: %d %s", res.StatusCode, gamePath)
	}
	id := strings.TrimPrefix(gamePath, "/g/")
	_, page := get(t, creator, ts.URL+gamePath)
	invite, private := inviteURL.FindStringSubmatch(page), playerURL.FindStringSubmatch(page)
	if invite == nil || private == nil || !strings.Contains(page, `"seat":"black"`) {
		t.Fatal("the creator's page lacks the seat, the invitation or the private link")
	}
	if s := ts.state(t, id, ""); s.Options["size"] != 6 || s.Options["swap"] != 1 {
		t.Fatalf("form options: %+v", s.Options)
	}

	// The creator opening the invitation goes to their own seat.
	if res, _ := get(t, creator, invite[1]); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != gamePath {
		t.Fatalf("creator opening the invitation: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	// A friend's browser gets a page that takes the seat by script, so a
	// link preview takes none.
	friend := ts.browser(t)
	_, page = get(t, friend, invite[1])
	token := invite[1][strings.LastIndex(invite[1], "/")+1:]
	if !strings.Contains(page, `"invite":"`+token+`"`) || playerURL.MatchString(page) {
		t.Fatal("the invitation page does not carry the token, or seats without joining")
	}
	if s := ts.state(t, id, ""); s.Status != "waiting" {
		t.Fatal("opening the invitation page took the seat by itself")
	}
	// The private link puts the seat into another device's cookie.
	other := ts.browser(t)
	res, _ = get(t, other, private[1])
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != gamePath || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("private link: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	if _, page := get(t, other, ts.URL+gamePath); !strings.Contains(page, `"seat":"black"`) {
		t.Fatal("the private link did not restore the seat")
	}
	if res, _ := get(t, ts.browser(t), ts.URL+gamePath+"/seat/wrongsecret"); res.StatusCode != http.StatusForbidden {
		t.Fatalf("a wrong private link: %d", res.StatusCode)
	}
	// A watcher sees no links of the players.
	if _, page := get(t, ts.browser(t), ts.URL+gamePath); playerURL.MatchString(page) || inviteURL.MatchString(page) || strings.Contains(page, `"seat":"black"`) {
		t.Fatal("a watcher's page shows a player's links")
	}
	// Once both seats are taken, the invitation shows the game and says
	// it was used (only the browser that used it asks again, with its
	// join key).
	ts.call(t, "POST", "/api/games/"+id+"/join", "", map[string]string{"invite": token}, nil)
	if _, page := get(t, ts.browser(t), invite[1]); !strings.Contains(page, `"used":true`) {
		t.Fatal("a used invitation does not say so")
	}
}

// An address the site does not have, or one asked for with a method it
// does not take, gets the site's own page in the visitor's language, with
// the headers every page has; the API answers in JSON.
func TestUnknownAddressesGetTheSitesPage(t *testing.T) {
	ts := newTestServer(t)
	site := ts.srv.site
	tests := []struct {
		method, path, lang, cookie string
		status                     int
		allow, title, text         string
	}{
		{"GET", "/g/zzzzzzzzzz/nothing/here", "de", "", 404, "", "error.page_not_found", "error.page_not_found_text"},
		{"GET", "/no/such/page", "en", "pl", 404, "", "error.page_not_found", "error.page_not_found_text"},
		{"HEAD", "/no/such/page", "de", "", 404, "", "", ""},
		{"POST", "/", "de", "", 405, "GET, HEAD", "error.bad_request", "error.method"},
		{"DELETE", "/g/zzzzzzzzzz", "pl", "", 405, "GET, HEAD", "error.bad_request", "error.method"},
		{"PUT", "/games", "en", "", 405, "GET, HEAD, POST", "error.bad_request", "error.method"},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, ts.URL+tt.path, nil)
		req.Header.Set("Accept-Language", tt.lang)
		lang := tt.lang
		if tt.cookie != "" {
			req.AddCookie(&http.Cookie{Name: "lang", Value: tt.cookie})
			lang = tt.cookie
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		body := string(b)
		name := tt.method + " " + tt.path
		if res.StatusCode != tt.status || res.Header.Get("Allow") != tt.allow {
			t.Errorf("%s: %d, Allow %q; want %d, %q", name, res.StatusCode, res.Header.Get("Allow"), tt.status, tt.allow)
		}
		if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || res.Header.Get("Content-Language") != lang {
			t.Errorf("%s: %q in %q, want a page in %s", name, res.Header.Get("Content-Type"), res.Header.Get("Content-Language"), lang)
		}
		if res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: Cache-Control %q", name, res.Header.Get("Cache-Control"))
		}
		for _, h := range []string{"Content-Security-Policy", "X-Frame-Options", "Cross-Origin-Opener-Policy", "Permissions-Policy", "X-Content-Type-Options", "Referrer-Policy"} {
			if res.Header.Get(h) == "" {
				t.Errorf("%s: no %s", name, h)
			}
		}
		if tt.title == "" {
			continue
		}
		title, text := site.T(lang, tt.title), site.T(lang, tt.text)
		if text == tt.text || !strings.Contains(body, title) || !strings.Contains(body, text) {
			t.Errorf("%s: the page does not say %q, %q in %s:\n%.300s", name, title, text, lang, body)
		}
	}

	// The API's own refusals stay JSON.
	for _, tt := range []struct {
		method, path string
		status       int
		allow, code  string
	}{
		{"GET", "/api/nothing", 404, "", "not_found"},
		{"DELETE", "/api/records", 405, "POST", "method_not_allowed"},
		{"PUT", "/api/games", 405, "POST", "method_not_allowed"},
	} {
		req, _ := http.NewRequest(tt.method, ts.URL+tt.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e errorBody
		err = json.NewDecoder(res.Body).Decode(&e)
		res.Body.Close()
		if err != nil || res.StatusCode != tt.status || res.Header.Get("Allow") != tt.allow || e.Code != tt.code || e.Error == "" {
			t.Errorf("%s %s: %d, Allow %q, %+v, %v", tt.method, tt.path, res.StatusCode, res.Header.Get("Allow"), e, err)
		}
	}
}

// A clock of the start form that cannot be read, or that keeps no time,
// is refused in the visitor's language: a person filled in the form.
func TestFormClockRefusedInTheVisitorsLanguage(t *testing.T) {
	ts := newTestServer(t)
	want := ts.srv.site.T("de", "error.clock")
	if want == "error.clock" {
		t.Fatal("no German words for a clock refused")
	}
	for _, f := range []url.Values{
		{"clock_minutes": {""}, "clock_increment": {"3"}},
		{"clock_minutes": {"5"}, "clock_increment": {""}},
		{"clock_minutes": {"0"}, "clock_increment": {"0"}},
		{"clock_minutes": {"500"}, "clock_increment": {"3"}},
		{"clock_minutes": {"5"}, "clock_increment": {"1000"}},
	} {
		f.Set("game", "havannah")
		f.Set("clock", "custom")
		req, _ := http.NewRequest("POST", ts.URL+"/games", strings.NewReader(f.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept-Language", "de")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(errorSection(string(b)), want) {
			t.Errorf("%v: %d, the page does not say %q:\n%s", f, res.StatusCode, want, errorSection(string(b)))
		}
	}
}

// A slow clock the start form does not offer is refused with the days per
// move it offers, in the visitor's language, not with the live clock's
// minutes, which were not asked for.
func TestFormSlowClockRefusedWithTheDaysOffered(t *testing.T) {
	ts := newTestServer(t)
	want := ts.srv.site.T("pl", "error.clock_days", "choices", "1, 2, 3, 5, 7", "last", 14)
	if want == "error.clock_days" {
		t.Fatal("no Polish words for a slow clock refused")
	}
	for _, v := range []string{"d4", "d0", "d", "dx", "d-1"} {
		f := url.Values{"game": {"havannah"}, "clock": {v}}
		req, _ := http.NewRequest("POST", ts.URL+"/games", strings.NewReader(f.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept-Language", "pl")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest || errorSection(string(b)) == "" || !strings.Contains(errorSection(string(b)), want) {
			t.Errorf("clock %q: %d, the page does not say %q:\n%s", v, res.StatusCode, want, errorSection(string(b)))
		}
	}
}

// The time control, increment and days per move included, stands in the
// game's pages before any script runs, in the preview and in the terms of
// a rematch, in the reader's language and with its numbers.
func TestPagesStateTheTimeControl(t *testing.T) {
	ts := newTestServer(t)
	control := regexp.MustCompile(`id="time-control"[^>]*>([^<]*)<`)
	same := regexp.MustCompile(`<option value="same" selected>([^<]*)<`)
	for _, tt := range []struct{ clock, lang, want string }{
		{`{"initial_s":180,"increment_s":2}`, "en", "3 min + 2 s a move"},
		{`{"initial_s":15,"increment_s":0}`, "de", "15 s + 0 s pro Zug"},
		{`{"initial_s":61,"increment_s":0}`, "pl", "1 min 1 s + 0 s na ruch"},
		{`{"initial_s":3599,"increment_s":0}`, "en", "59 min 59 s + 0 s a move"},
		{`{"initial_s":5400,"increment_s":5}`, "de", "1 Std. 30 Min. + 5 s pro Zug"},
		{`{"days":3}`, "pl", "3 dni na ruch"},
		{`null`, "en", ""},
	} {
		var c createResponse
		ts.call(t, "POST", "/api/games", "", `{"game":"havannah","start":"me","clock":`+tt.clock+`}`, &c)
		invited, player, watcher := ts.browser(t), ts.browser(t), ts.browser(t)
		get(t, player, c.PlayerURL)
		for who, page := range map[string]string{
			"invitation": pageBody(t, invited, c.InviteURL, tt.lang),
			"player":     pageBody(t, player, c.WatchURL, tt.lang),
			"watcher":    pageBody(t, watcher, c.WatchURL, tt.lang),
		} {
			m := control.FindStringSubmatch(page)
			switch {
			case tt.want == "" && m != nil:
				t.Errorf("%s page of a game without a clock states one: %q", who, m[1])
			case tt.want != "" && (m == nil || !strings.Contains(html.UnescapeString(m[1]), tt.want)):
				t.Errorf("%s page in %s: time control %q, want %q", who, tt.lang, m, tt.want)
			}
			if d := metaTags(page)["description"]; !strings.Contains(d, tt.want) {
				t.Errorf("%s page in %s: the preview %q does not say %q", who, tt.lang, d, tt.want)
			}
		}
		m := same.FindStringSubmatch(pageBody(t, player, c.WatchURL, tt.lang))
		want := tt.want
		if want == "" {
			want = ts.srv.site.T(tt.lang, "clock.none")
		}
		if m == nil || !strings.Contains(html.UnescapeString(m[1]), want) {
			t.Errorf("rematch in %s: the same clock is %q, want it to say %q", tt.lang, m, want)
		}
	}
}

func pageBody(t *testing.T, c *http.Client, u, lang string) string {
	t.Helper()
	res, body := get(t, c, u, "Accept-Language", lang)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d", u, res.StatusCode)
	}
	return body
}

// Fields of the start form that a person cannot change (hidden ones,
// choices from a list) sent with other values, by hand or from a page
// older than the site, are refused in the visitor's language too.
func TestFormFieldsRefusedInTheVisitorsLanguage(t *testing.T) {
	ts := newTestServer(t)
	havannah := func(kv ...string) string {
		f := url.Values{"game": {"havannah"}, "size": {"4"}, "start": {"me"}, "opponent": {"friend"}}
		for i := 0; i+1 < len(kv); i += 2 {
			f.Set(kv[i], kv[i+1])
		}
		return f.Encode()
	}
	forms := []string{
		"game=chess",
		havannah("size", "big"),
		havannah("size", "99"),
		havannah("swap", "1", "size", "3"),
		havannah("start", "nobody"),
		havannah("opponent", "robot"),
		havannah("opponent", "computer", "level", "hard"),
		havannah("opponent", "computer", "level", "9"),
		havannah("opponent", "computer", "level", "4", "moves", "a1 a1"),
		havannah("moves", "zz99"),
		"game=havannah&size=%zz",
		havannah("moves", strings.Repeat("a1 ", 8<<10)), // beyond what a form may send
		// What the API refuses, the form does not leave out unsaid.
		"game=dvonn&size=8&start=me&opponent=friend",
		havannah("colour", "white"),
		havannah("swap", "2"),
		havannah("swap", "on"),
		havannah("level", "9"),
		havannah("level", "hard"),
		havannah() + "&game=dvonn",
		havannah() + "&size=5",
		havannah() + "&start=friend",
	}
	for _, lang := range []string{"de", "pl"} {
		want := ts.srv.site.T(lang, "error.form")
		if want == "error.form" {
			t.Fatalf("no words in %s for a form not sent as its page sends it", lang)
		}
		for _, body := range forms {
			req, _ := http.NewRequest("POST", ts.URL+"/games", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Accept-Language", lang)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode < 400 || res.StatusCode >= 500 || !strings.Contains(errorSection(string(b)), want) || !strings.Contains(string(b), `<html lang="`+lang+`">`) {
				t.Errorf("%s, %.80s: %d, the page does not say %q:\n%s", lang, body, res.StatusCode, want, errorSection(string(b)))
			}
		}
	}
}

// An invitation link mistyped or cut short says at once, in the
// visitor's language, that it is not this game's, and offers no seat to
// take, whether the game waits for the friend, is under way or is over;
// what the page shows tells nothing of the real invitation. The right
// link still offers the seat, or says it was used.
func TestWrongInvitationSaysSoAtOnce(t *testing.T) {
	ts := newTestServer(t)
	site := ts.srv.site
	newWaiting := func() createResponse {
		var c createResponse
		ts.call(t, "POST", "/api/games", "", `{"game":"havannah","start":"me"}`, &c)
		return c
	}
	waiting, started, over := newWaiting(), newWaiting(), newWaiting()
	tokenOf := func(c createResponse) string { return c.InviteURL[strings.LastIndex(c.InviteURL, "/")+1:] }
	ts.call(t, "POST", "/api/games/"+started.ID+"/join", "", map[string]string{"invite": tokenOf(started)}, nil)
	if code, _ := ts.offer(t, over.ID, over.Secret, "abort"); code != http.StatusOK {
		t.Fatalf("calling off: %d", code)
	}
	notice := regexp.MustCompile(`<p id="notice"[^>]*>([^<]*)</p>`)
	for _, c := range []createResponse{waiting, started, over} {
		token := tokenOf(c)
		for _, tt := range []struct{ link, lang string }{
			{"WRONGTOKENxxxxxxxxxxx", "en"},
			{token[:len(token)-3], "de"}, // cut short
			{token + "x", "pl"},
		} {
			res, page := get(t, ts.browser(t), ts.URL+"/g/"+c.ID+"/join/"+tt.link, "Accept-Language", tt.lang)
			m := notice.FindStringSubmatch(page)
			if want := site.T(tt.lang, "join.bad_invite"); m == nil || html.UnescapeString(m[1]) != want {
				t.Errorf("%s in %s: the notice says %q, want %q", tt.link, tt.lang, m, want)
			}
			if res.StatusCode != http.StatusForbidden {
				t.Errorf("%s: status %d, want %d", tt.link, res.StatusCode, http.StatusForbidden)
			}
			// The address asked for stands in the page's links to its
			// languages; the real invitation nowhere.
			if strings.Contains(page, `id="take-seat"`) || strings.Contains(page, `"invite":`) || strings.Contains(page, `"used":`) ||
				strings.Contains(strings.ReplaceAll(page, tt.link, ""), token) || inviteURL.MatchString(page) {
				t.Errorf("%s: the page offers the seat, or tells of the invitation", tt.link)
			}
		}
	}
	// The right link is as it was.
	if _, page := get(t, ts.browser(t), waiting.InviteURL); !strings.Contains(page, `id="take-seat"`) || notice.FindStringSubmatch(page)[1] != "" {
		t.Error("the right invitation does not offer the seat")
	}
	if _, page := get(t, ts.browser(t), started.InviteURL); !strings.Contains(page, `"used":true`) || strings.Contains(page, `id="take-seat"`) {
		t.Error("a used invitation does not say so")
	}
	if res, page := get(t, ts.browser(t), over.InviteURL); res.StatusCode != http.StatusOK || strings.Contains(page, `id="take-seat"`) {
		t.Errorf("the invitation of a game called off: %d", res.StatusCode)
	}
}

// Without scripts a player's page says that playing needs them, and
// offers nothing that only scripts make work: no box for a move, a chat
// line or a name, no replay, no board tools, no settings, no copy button.
// So does a friend's page of an invitation, where only a script takes the
// seat. A watcher's page is told nothing, but offers none of those either;
// nor does the import page its form, which only a script reads, and it
// says so. The style that puts them away is allowed by each page's policy.
func TestPagesWithoutScripts(t *testing.T) {
	ts := newTestServer(t)
	creator := ts.browser(t)
	c := createAs(t, ts, creator, `{"game":"havannah"}`)
	noscript := regexp.MustCompile(`(?s)<noscript>(.*?)</noscript>`)
	hiding := regexp.MustCompile(`(?s)<style>([^{<]*)\{\s*display:\s*none;?\s*\}</style>`)
	// check reads the page at url as client, in lang: it says key without
	// scripts (nothing if key is ""), and hides the elements of ids and the
	// copy buttons, each allowed once by the policy.
	check := func(client *http.Client, url, lang, key string, ids ...string) {
		t.Helper()
		res, page := get(t, client, url, "Accept-Language", lang)
		m := noscript.FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("%s %s: no part for a browser without scripts", lang, url)
		}
		for _, k := range []string{"noscript.play", "noscript.import"} {
			if said := strings.Contains(m[1], html.EscapeString(ts.srv.site.T(lang, k))); said != (k == key) {
				t.Errorf("%s %s: says %s: %v", lang, url, k, said)
			}
		}
		h := hiding.FindStringSubmatch(m[1])
		if h == nil {
			t.Fatalf("%s %s: without scripts nothing is hidden: %s", lang, url, m[1])
		}
		hidden := strings.Split(h[1], ",")
		if !slices.Contains(hidden, ".js") || !slices.Contains(hidden, "[data-copy]") {
			t.Errorf("%s %s: without scripts the page hides %s, not what is marked js, nor the copy buttons", lang, url, h[1])
		}
		for _, id := range ids {
			tag := regexp.MustCompile(`<[a-z]+ [^>]*\bid="` + id + `"[^>]*>`).FindString(page)
			if !regexp.MustCompile(`\bclass="(?:[^"]* )?js[ "]`).MatchString(tag) {
				t.Errorf("%s %s: without scripts #%s is shown: %q", lang, url, id, tag)
			}
		}
		if !strings.Contains(page, `<a class="skip-board js"`) && strings.Contains(page, "skip-board") {
			t.Errorf("%s %s: without scripts the link past the board to its tools is shown", lang, url)
		}
		sum := sha256.Sum256([]byte(h[0][len("<style>") : len(h[0])-len("</style>")]))
		if want := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"; !strings.Contains(res.Header.Get("Content-Security-Policy"), want) {
			t.Errorf("%s %s: the policy does not allow the style for a page without scripts", lang, url)
		}
	}
	everyone := []string{"status", "action-bar", "settings"}
	for _, lang := range []string{"en", "de", "pl"} {
		check(creator, ts.URL+"/g/"+c.ID, lang, "noscript.play", append(everyone, "move-entry", "chat", "name-form")...)
		check(ts.browser(t), c.InviteURL, lang, "noscript.play", everyone...)
		check(ts.browser(t), ts.URL+"/import", lang, "noscript.import", "import-form")
	}
	check(ts.browser(t), ts.URL+"/g/"+c.ID, "en", "", everyone...)
}

// Against the computer, the terms of the next game say who starts
// without speaking of a friend.
func TestComputerRematchTermsNameTheComputer(t *testing.T) {
	ts := newTestServer(t)
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"opponent":"computer","level":1}`, &c)
	player := ts.browser(t)
	get(t, player, ts.URL+playerPath(c.ID, c.Secret))
	other := regexp.MustCompile(`<input type="radio" name="start" value="friend"> ([^<]*)</label>`)
	for lang, want := range map[string]string{"en": "The computer", "de": "Der Computer", "pl": "Komputer"} {
		_, page := get(t, player, ts.URL+"/g/"+c.ID, "Accept-Language", lang)
		m := other.FindAllStringSubmatch(page, -1)
		if len(m) != 1 || m[0][1] != want {
			t.Errorf("%s: the other side to start is called %q, want %q", lang, m, want)
		}
	}
}

// The hint under the move box offers a swap only in a game played with
// the swap rule.
func TestMoveHintFollowsTheSwapRule(t *testing.T) {
	ts := newTestServer(t)
	hint := regexp.MustCompile(`<small id="move-hint" class="hint">([^<]*)</small>`)
	for swap, want := range map[bool]string{false: "A cell such as e5.", true: "A cell such as e5, or swap."} {
		var c createResponse
		ts.call(t, "POST", "/api/games", "", map[string]any{"game": "havannah", "options": map[string]any{"size": 4, "swap": swap}, "opponent": "computer", "level": 1}, &c)
		player := ts.browser(t)
		get(t, player, ts.URL+playerPath(c.ID, c.Secret))
		_, page := get(t, player, ts.URL+"/g/"+c.ID, "Accept-Language", "en")
		if m := hint.FindStringSubmatch(page); m == nil || m[1] != want {
			t.Errorf("swap %v: the hint is %q, want %q", swap, m, want)
		}
	}
}

// The last of the buttons that step through a game goes back to the game
// in play, and to the final position of a game that is over or of a
// record: there is no game in play to go back to.
func TestLastPositionButton(t *testing.T) {
	ts := newTestServer(t)
	last := regexp.MustCompile(`<button type="button" data-step="last" aria-label="([^"]*)"`)
	label := func(path, lang string) string {
		_, page := get(t, ts.browser(t), ts.URL+path, "Accept-Language", lang)
		m := last.FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("%s has no button to the last position", path)
		}
		return m[1]
	}
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"opponent":"computer","level":1}`, &c)
	if got := label("/g/"+c.ID, "de"); got != "Zurück zur laufenden Partie" {
		t.Errorf("in play: %q", got)
	}
	ts.call(t, "POST", "/api/games/"+c.ID+"/resign", c.Secret, nil, nil)
	for lang, want := range map[string]string{"en": "Final position", "de": "Endstellung", "pl": "Pozycja końcowa"} {
		if got := label("/g/"+c.ID, lang); got != want {
			t.Errorf("%s, over: %q, want %q", lang, got, want)
		}
		if got := label("/import", lang); got != want {
			t.Errorf("%s, a record: %q, want %q", lang, got, want)
		}
	}
}

// Every page has one main heading, for a screen reader's list of
// headings: on the page that replays a record, the record's title is a
// heading below the page's.
func TestOneMainHeading(t *testing.T) {
	ts := newTestServer(t)
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"opponent":"computer","level":1}`, &c)
	for _, path := range []string{"/", "/havannah", "/my", "/import", "/g/" + c.ID} {
		if _, page := get(t, ts.browser(t), ts.URL+path); strings.Count(page, "<h1") != 1 {
			t.Errorf("%s has %d main headings", path, strings.Count(page, "<h1"))
		}
	}
}
