package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"bretter/internal/store"
	"bretter/internal/web"
)

// createAs creates a game with a browser's own cookies, through the API,
// and returns the answer.
func createAs(t *testing.T, ts *testServer, c *http.Client, body string) createResponse {
	t.Helper()
	req, _ := http.NewRequest("POST", ts.URL+"/api/games", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var cr createResponse
	if err := json.NewDecoder(res.Body).Decode(&cr); err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %v", res.StatusCode, err)
	}
	return cr
}

// seatOf is the seat a browser's cookies give it in a game.
func seatOf(t *testing.T, ts *testServer, c *http.Client, id string) string {
	t.Helper()
	res, err := c.Get(ts.URL + "/api/games/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var s Snapshot
	if err := json.NewDecoder(res.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s.Seat
}

func cookieNames(c *http.Client, u string) []string {
	p, _ := url.Parse(u)
	var names []string
	for _, ck := range c.Jar.Cookies(p) {
		names = append(names, ck.Name)
	}
	return names
}

func TestOneCookieHoldsEverySeat(t *testing.T) {
	ts := newTestServer(t)
	c := ts.browser(t)
	var games []createResponse
	for range 30 {
		games = append(games, createAs(t, ts, c, `{"game":"havannah","start":"me"}`))
	}
	if names := cookieNames(c, ts.URL); len(names) != 1 || names[0] != browserCookie {
		t.Fatalf("the browser keeps the cookies %v, want only %q", names, browserCookie)
	}
	for _, g := range games {
		if seat := seatOf(t, ts, c, g.ID); seat != g.Seat {
			t.Fatalf("game %s: the browser's seat is %q, want %q", g.ID, seat, g.Seat)
		}
		if seat := seatOf(t, ts, ts.browser(t), g.ID); seat != "" {
			t.Fatalf("another browser holds %q", seat)
		}
	}
	// The store alone opens no seat: what it keeps is not the secret and
	// opens only with this browser's token.
	p, _ := url.Parse(ts.URL)
	token := c.Jar.Cookies(p)[0].Value
	h, err := ts.store.Holding(t.Context(), browserID(token), games[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(h.Sealed, []byte(games[0].Secret)) {
		t.Fatal("the store keeps the secret in clear")
	}
	if secret, ok := unseal(token, games[0].ID, h.Sealed); !ok || secret != games[0].Secret {
		t.Fatal("the browser cannot open its own seat")
	}
	other := strings.Repeat("A", len(token))
	if _, ok := unseal(other, games[0].ID, h.Sealed); ok {
		t.Fatal("another token opens the seat")
	}
	if _, ok := unseal(token, games[1].ID, h.Sealed); ok {
		t.Fatal("a seat moved to another game still opens")
	}
	// A forged identity holds nothing.
	forged := ts.browser(t)
	forged.Jar.SetCookies(p, []*http.Cookie{{Name: browserCookie, Value: other}})
	if seat := seatOf(t, ts, forged, games[0].ID); seat != "" {
		t.Fatalf("a forged identity holds %q", seat)
	}
}

func TestOldSeatCookiesAreFoldedIn(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","start":"me"}`)
	p, _ := url.Parse(ts.URL)
	c := ts.browser(t)
	c.Jar.SetCookies(p, []*http.Cookie{{Name: "seat_" + g.id, Value: g.white}})
	// Before it is folded in, the old cookie still seats its browser.
	if seat := seatOf(t, ts, c, g.id); seat != "white" {
		t.Fatalf("the old cookie gives seat %q", seat)
	}
	if res, _ := get(t, c, ts.URL+"/g/"+g.id); res.StatusCode != http.StatusOK {
		t.Fatalf("game page: %d", res.StatusCode)
	}
	if names := cookieNames(c, ts.URL); len(names) != 1 || names[0] != browserCookie {
		t.Fatalf("after the game page the browser keeps %v", names)
	}
	if seat := seatOf(t, ts, c, g.id); seat != "white" {
		t.Fatalf("the folded seat is %q", seat)
	}
	// A move by cookie, as the page sends it.
	req, _ := http.NewRequest("POST", ts.URL+"/api/games/"+g.id+"/moves", strings.NewReader(`{"ply":0,"move":"e5"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("a move with the folded seat: %d", res.StatusCode)
	}
}

// Anyone can send any cookie: only one that holds a seat of its game is
// kept, and the others are dropped, whatever page they come with.
func TestBogusSeatCookiesAreDropped(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","start":"me"}`)
	other := ts.newGame(t, `{"game":"dvonn","start":"me"}`)
	p, _ := url.Parse(ts.URL)
	for _, page := range []string{"/g/" + g.id, "/g/zzzzzzzzzz", "/my"} {
		c := ts.browser(t)
		c.Jar.SetCookies(p, []*http.Cookie{
			{Name: "seat_" + g.id, Value: strings.Repeat("A", 3000)},
			{Name: "seat_" + other.id, Value: g.white}, // another game's secret
			{Name: "seat_zzzzzzzzzz", Value: g.white},  // no such game
			{Name: "seat_" + g.id + "x", Value: g.white},
		})
		res, _ := get(t, c, ts.URL+page)
		if res.StatusCode >= 500 {
			t.Fatalf("%s: %d", page, res.StatusCode)
		}
		if names := cookieNames(c, ts.URL); len(names) != 1 || names[0] != "seat_"+g.id+"x" {
			t.Errorf("after %s the browser keeps %v", page, names)
		}
		for _, id := range []string{g.id, other.id} {
			if seat := seatOf(t, ts, c, id); seat != "" {
				t.Errorf("after %s the browser holds %s of %s", page, seat, id)
			}
		}
	}
}

// failingHolds is a store that cannot keep seats against browsers.
type failingHolds struct{ testStore }

func (failingHolds) Hold(context.Context, []byte, store.Holding) error {
	return errors.New("disk full")
}

func TestSeatSurvivesAStoreThatCannotHoldIt(t *testing.T) {
	ts := newTestServer(t)
	site, err := web.New(testGames)
	if err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	srv := New(Config{Store: failingHolds{ts.store}, Games: testGames, Site: site, Log: slog.New(slog.NewTextHandler(&logged, nil))})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	c := ts.browser(t)
	cr := createAs(t, &testServer{Server: hs, srv: srv, store: ts.store}, c, `{"game":"dvonn","start":"me"}`)
	if seat := seatOf(t, &testServer{Server: hs}, c, cr.ID); seat != cr.Seat {
		t.Fatalf("the seat was lost: %q", seat)
	}
	if !strings.Contains(logged.String(), "disk full") || strings.Contains(logged.String(), cr.Secret) {
		t.Fatalf("the failure is not logged, or the secret is: %s", logged.String())
	}
}

func TestPrivateLinkAsksBeforeChangingSides(t *testing.T) {
	ts := newTestServer(t)
	white := ts.browser(t)
	cr := createAs(t, ts, white, `{"game":"fanorona","start":"me"}`)
	invite := cr.InviteURL[strings.LastIndex(cr.InviteURL, "/")+1:]
	var j struct {
		Seat, Secret string
		PlayerURL    string `json:"player_url"`
	}
	if code := ts.call(t, "POST", "/api/games/"+cr.ID+"/join", "", map[string]string{"invite": invite}, &j); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	// The own link goes straight to the game.
	if res, _ := get(t, white, cr.PlayerURL); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("own private link: %d", res.StatusCode)
	}
	// The opponent's link asks, and changes nothing.
	res, page := get(t, white, j.PlayerURL, "Accept-Language", "en")
	if res.StatusCode != http.StatusOK || !strings.Contains(page, "Change seats?") || !strings.Contains(page, `method="post"`) {
		t.Fatalf("opening the opponent's link: %d", res.StatusCode)
	}
	if seat := seatOf(t, ts, white, cr.ID); seat != "white" {
		t.Fatalf("opening the opponent's link changed the seat to %q", seat)
	}
	// Each language names the colours as it says them.
	for lang, want := range map[string][]string{
		"pl": {"ta przeglądarka gra białymi.", ">Graj dalej białymi</a>", ">Graj tutaj czarnymi</button>"},
		"de": {"spielt dieser Browser Weiß.", ">Weiter Weiß spielen</a>", ">Hier Schwarz spielen</button>"},
		"en": {"this browser plays White.", ">Stay White</a>", ">Play Black here</button>"},
	} {
		_, page := get(t, white, j.PlayerURL, "Accept-Language", lang)
		for _, w := range want {
			if !strings.Contains(page, w) {
				t.Errorf("%s: the question does not say %q:\n%s", lang, w, page)
			}
		}
	}
	// Another site cannot answer for the player.
	post := func(origin string) *http.Response {
		req, _ := http.NewRequest("POST", j.PlayerURL, nil)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		res, err := white.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	if res := post("https://evil.example"); res.StatusCode != http.StatusForbidden {
		t.Fatalf("a cross-site answer: %d", res.StatusCode)
	}
	if seat := seatOf(t, ts, white, cr.ID); seat != "white" {
		t.Fatalf("a cross-site answer changed the seat to %q", seat)
	}
	if res := post(ts.URL); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("changing sides: %d", res.StatusCode)
	}
	if seat := seatOf(t, ts, white, cr.ID); seat != "black" {
		t.Fatalf("after changing sides the seat is %q", seat)
	}
	// A browser without a seat in the game takes the link's seat at once.
	fresh := ts.browser(t)
	if res, _ := get(t, fresh, cr.PlayerURL); res.StatusCode != http.StatusSeeOther || seatOf(t, ts, fresh, cr.ID) != "white" {
		t.Fatalf("a fresh browser opening a private link: %d", res.StatusCode)
	}
}

func TestMyGames(t *testing.T) {
	ts := newTestServer(t)
	me, friend := ts.browser(t), ts.browser(t)
	join := func(cr createResponse) string {
		var j struct{ Seat, Secret string }
		invite := cr.InviteURL[strings.LastIndex(cr.InviteURL, "/")+1:]
		if code := ts.call(t, "POST", "/api/games/"+cr.ID+"/join", "", map[string]string{"invite": invite}, &j); code != http.StatusOK {
			t.Fatalf("join: %d", code)
		}
		return j.Secret
	}
	// Waiting for the friend to join.
	open := createAs(t, ts, me, `{"game":"havannah","start":"me"}`)
	// My move, with days per move, against a named friend.
	mine := createAs(t, ts, me, `{"game":"havannah","start":"me","clock":{"days":3}}`)
	theirs := join(mine)
	ts.call(t, "POST", "/api/games/"+mine.ID+"/name", theirs, map[string]string{"name": "<Ola>"}, nil)
	ts.play(t, testGame{id: mine.ID, white: mine.Secret, black: theirs}, "e5 d4")
	// The friend's move.
	waiting := createAs(t, ts, me, `{"game":"fanorona","start":"friend"}`)
	join(waiting)
	// Finished: I resign.
	lost := createAs(t, ts, me, `{"game":"havannah","start":"me"}`)
	join(lost)
	ts.call(t, "POST", "/api/games/"+lost.ID+"/resign", lost.Secret, nil, nil)
	// The friend's own game is not mine.
	notMine := createAs(t, ts, friend, `{"game":"havannah","start":"me"}`)
	// The computer's move, while it thinks.
	release := make(chan struct{})
	defer close(release)
	ts.srv.hub.searched = func([]string, string) { <-release }
	thinking := createAs(t, ts, me, `{"game":"dvonn","opponent":"computer","level":1,"start":"friend"}`)

	res, page := get(t, me, ts.URL+"/my", "Accept-Language", "en")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("my games: %d", res.StatusCode)
	}
	order := []string{"Your move", mine.ID, "against &lt;Ola&gt;", " h left", "Waiting", thinking.ID, "The computer is thinking.", waiting.ID, "Your friend&#39;s move.", open.ID,
		"The invitation is open.", "Finished", lost.ID, "You lost."}
	at := 0
	for _, want := range order {
		i := strings.Index(page[at:], want)
		if i < 0 {
			t.Fatalf("my games lacks %q after position %d:\n%s", want, at, page)
		}
		at += i + len(want)
	}
	if strings.Contains(page, notMine.ID) || strings.Contains(page, "<Ola>") {
		t.Fatal("my games shows another browser's game, or an unescaped name")
	}
	if !regexp.MustCompile(`(3 days 0|2 days 23) h left`).MatchString(page) {
		t.Fatal("my games does not show the time left")
	}
	// When the move is due goes to the page's script as a moment, for it
	// to say in the reader's own time; only a game of days has one.
	dues := regexp.MustCompile(`<span class="due" hidden> · <time datetime="([^"]+)"></time></span>`).FindAllStringSubmatch(page, -1)
	if len(dues) != 1 {
		t.Fatalf("my games gives %d due moments, want the one of the game of days", len(dues))
	}
	if due, err := time.Parse(time.RFC3339, dues[0][1]); err != nil || time.Until(due) > 72*time.Hour || time.Until(due) < 72*time.Hour-time.Minute {
		t.Fatalf("the move is due at %s, want three days from now: %v", dues[0][1], err)
	}
	if !strings.Contains(page, `class="diagram" data-game="fanorona"`) {
		t.Fatal("my games draws no position")
	}
	_, page = get(t, ts.browser(t), ts.URL+"/my", "Accept-Language", "en")
	if !strings.Contains(page, "holds no seat") {
		t.Fatal("a new browser's list is not empty")
	}
}

// My games says which colour the player has as each language says it.
func TestMyGamesSaysTheColourInEachLanguage(t *testing.T) {
	ts := newTestServer(t)
	me := ts.browser(t)
	createAs(t, ts, me, `{"game":"havannah","start":"me"}`)
	createAs(t, ts, me, `{"game":"dvonn","start":"friend"}`)
	for lang, want := range map[string][]string{
		"pl": {"grasz białymi", "grasz czarnymi"},
		"de": {"du spielst Weiß", "du spielst Schwarz"},
		"en": {"you play White", "you play Black"},
	} {
		_, page := get(t, me, ts.URL+"/my", "Accept-Language", lang)
		for _, w := range want {
			// In the list itself, not only elsewhere on the page.
			if !strings.Contains(page, "· "+w+"</span>") {
				t.Errorf("%s: my games does not say %q:\n%s", lang, w, page)
			}
		}
	}
}

func TestMyGamesShowsTheLastFinished(t *testing.T) {
	ts := newTestServer(t)
	me := ts.browser(t)
	var ids []string
	for range mostFinished + 3 {
		cr := createAs(t, ts, me, `{"game":"havannah","start":"me"}`)
		ts.call(t, "POST", "/api/games/"+cr.ID+"/offer", cr.Secret, map[string]string{"kind": "abort"}, nil)
		ids = append(ids, cr.ID)
	}
	_, page := get(t, me, ts.URL+"/my", "Accept-Language", "en")
	if n := strings.Count(page, `class="my-game"`); n != mostFinished {
		t.Fatalf("%d finished games listed, want %d", n, mostFinished)
	}
	if strings.Contains(page, ids[0]) || !strings.Contains(page, ids[len(ids)-1]) || !strings.Contains(page, "Called off.") {
		t.Fatal("not the newest finished games")
	}
}

// A cookie is sent by the browser by itself, an old one too: one that is
// no seat's only makes its browser a watcher, when it reads the state and
// on the live connection alike. A secret given in the Authorization
// header that is no seat's is a mistake, refused on both.
func TestACookieOfNoSeatWatches(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","start":"me"}`)
	other := ts.newGame(t, `{"game":"havannah","start":"me"}`)
	for _, tt := range []struct {
		name   string
		header http.Header
		seat   string // "" a watcher
		status int
	}{
		{"the seat's cookie", http.Header{"Cookie": {"seat_" + g.id + "=" + g.black}}, "black", http.StatusOK},
		{"another game's cookie", http.Header{"Cookie": {"seat_" + g.id + "=" + other.white}}, "", http.StatusOK},
		{"a cookie of no secret", http.Header{"Cookie": {"seat_" + g.id + "=nope"}}, "", http.StatusOK},
		{"the seat's secret given", http.Header{"Authorization": {"Bearer " + g.black}}, "black", http.StatusOK},
		{"another game's secret given", http.Header{"Authorization": {"Bearer " + other.white}}, "", http.StatusForbidden},
		{"another scheme", http.Header{"Authorization": {"Basic " + g.black}}, "", http.StatusForbidden},
		{"an empty secret given", http.Header{"Authorization": {"Bearer "}}, "", http.StatusOK},
		// What the request gives decides, whatever the browser sends.
		{"a wrong secret given beside the seat's cookie", http.Header{"Authorization": {"Bearer nope"}, "Cookie": {"seat_" + g.id + "=" + g.black}}, "", http.StatusForbidden},
	} {
		t.Run(tt.name+", state", func(t *testing.T) {
			req, _ := http.NewRequest("GET", ts.URL+"/api/games/"+g.id, nil)
			req.Header = tt.header.Clone()
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			if res.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.status)
			}
			if tt.status != http.StatusOK {
				var e errorBody
				if err := json.NewDecoder(res.Body).Decode(&e); err != nil || e.Code != "forbidden" {
					t.Fatalf("refused with %+v %v, want forbidden", e, err)
				}
				return
			}
			var s Snapshot
			if err := json.NewDecoder(res.Body).Decode(&s); err != nil || s.Seat != tt.seat {
				t.Fatalf("seat %q %v, want %q", s.Seat, err, tt.seat)
			}
		})
		t.Run(tt.name+", live", func(t *testing.T) {
			conn, res, err := websocket.Dial(t.Context(), "ws"+strings.TrimPrefix(ts.URL, "http")+"/api/games/"+g.id+"/ws",
				&websocket.DialOptions{HTTPHeader: tt.header.Clone()})
			if tt.status != http.StatusOK {
				if err == nil || res == nil || res.StatusCode != tt.status {
					t.Fatalf("got %v, %v; want status %d", res, err, tt.status)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { conn.CloseNow() })
			c := &client{t: t, conn: conn}
			if s := c.next("state").State; s.Seat != tt.seat {
				t.Fatalf("seat %q, want %q", s.Seat, tt.seat)
			}
		})
	}
}

// A slow game's time left, as "my games" says it, counts the minutes up
// to the end: never "0 h 0 min" while the player may still move, nor
// "0 h" in front of the last hour's minutes.
func TestSlowTimeLeftNearTheEnd(t *testing.T) {
	ts := newTestServer(t)
	const minute, hour = int64(60_000), int64(3_600_000)
	for _, c := range []struct {
		lang string
		ms   int64
		want string
	}{
		{"en", 72 * hour, "3 days 0 h left"},
		{"en", 25 * hour, "1 day 1 h left"},
		{"en", 5*hour + 30*minute, "5 h 30 min left"},
		{"en", 42 * minute, "42 min left"},
		{"en", 30_000, "1 min left"},
		{"en", 59*minute + 30_000, "1 h 0 min left"},
		{"de", 42 * minute, "noch 42 Min."},
		{"de", 1, "noch 1 Min."},
		{"pl", minute, "została 1 min"},
		{"pl", 42 * minute, "zostały 42 min"},
		{"pl", 5 * minute, "zostało 5 min"},
		{"pl", 2*hour + 5*minute, "zostały 2 godz. 5 min"},
	} {
		if got := ts.srv.timeLeft(c.lang, c.ms, true); got != c.want {
			t.Errorf("%s, %d ms left: %q, want %q", c.lang, c.ms, got, c.want)
		}
	}
}

// The moment a move is due, as my games says it, is the game page's: the
// time on the clock after the grace a clock stands still once the site
// is back from an outage.
func TestMyGamesDueAfterTheGrace(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	if err := ts.srv.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	me := ts.browser(t)
	cr := createAs(t, ts, me, `{"game":"havannah","start":"me","clock":{"days":1}}`)
	var j struct{ Secret string }
	invite := cr.InviteURL[strings.LastIndex(cr.InviteURL, "/")+1:]
	if code := ts.call(t, "POST", "/api/games/"+cr.ID+"/join", "", map[string]string{"invite": invite}, &j); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	ts.play(t, testGame{id: cr.ID, white: cr.Secret, black: j.Secret}, "e5 d4")
	upFor(t, ts, ft, 5*time.Second)
	ft.advance(time.Minute) // frozen: an outage, and the grace after it
	c := ts.state(t, cr.ID, "").Clock
	if c.HeldMS != restartGrace.Milliseconds() || *c.Running != "white" {
		t.Fatalf("after a minute frozen: %+v", c)
	}
	want := ft.now.Add(time.Duration(c.HeldMS+c.WhiteMS) * time.Millisecond).Truncate(time.Second)
	_, page := get(t, me, ts.URL+"/my", "Accept-Language", "en")
	m := regexp.MustCompile(`<time datetime="([^"]+)">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("my games says no moment the move is due")
	}
	if due, err := time.Parse(time.RFC3339, m[1]); err != nil || !due.Equal(want) {
		t.Fatalf("the move is due at %s, want %s, after the grace: %v", m[1], want.UTC().Format(time.RFC3339), err)
	}
}

// "My games" puts first the moves due first: a game of a day per move
// with an hour left comes before one of fourteen days that has waited
// longer, and games whose clock runs before those without one, which
// come longest waiting first.
func TestMyGamesMostUrgentFirst(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	me := ts.browser(t)
	start := func(body string) string {
		cr := createAs(t, ts, me, body)
		var j struct{ Secret string }
		invite := cr.InviteURL[strings.LastIndex(cr.InviteURL, "/")+1:]
		if code := ts.call(t, "POST", "/api/games/"+cr.ID+"/join", "", map[string]string{"invite": invite}, &j); code != http.StatusOK {
			t.Fatalf("join: %d", code)
		}
		ts.play(t, testGame{id: cr.ID, white: cr.Secret, black: j.Secret}, "e5 d4")
		return cr.ID
	}
	free := start(`{"game":"havannah","start":"me"}`)
	ft.advance(time.Hour)
	free2 := start(`{"game":"havannah","start":"me"}`)
	ft.advance(time.Hour)
	slow := start(`{"game":"havannah","start":"me","clock":{"days":14}}`)
	ft.advance(time.Hour)
	soon := start(`{"game":"havannah","start":"me","clock":{"days":1}}`)
	ft.advance(23 * time.Hour)

	_, page := get(t, me, ts.URL+"/my", "Accept-Language", "en")
	at := 0
	for _, want := range []string{"Your move", soon, "1 h 0 min left", slow, "13 days 0 h left", free, free2} {
		i := strings.Index(page[at:], want)
		if i < 0 {
			t.Fatalf("my games lacks %q after position %d, or has it too early: want the game of an hour left, then of thirteen days, then those without a clock, longest waiting first", want, at)
		}
		at += i + len(want)
	}
}
