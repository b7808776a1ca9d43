package server

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// stateChanges is every route that changes something, with a body it
// would take.
func stateChanges(g testGame) []struct{ method, path, body string } {
	api := "/api/games/" + g.id
	return []struct{ method, path, body string }{
		{"POST", "/games", "game=havannah"},
		{"POST", "/api/games", `{"game":"havannah"}`},
		{"POST", api + "/join", `{"invite":"` + g.invite + `"}`},
		{"POST", api + "/moves", `{"ply":0,"move":"e5"}`},
		{"POST", api + "/resign", `{}`},
		{"POST", api + "/rematch", `{}`},
		{"DELETE", api + "/rematch", ""},
		{"POST", api + "/offer", `{"kind":"draw"}`},
		{"POST", api + "/answer", `{"kind":"draw","accept":true}`},
		{"POST", api + "/name", `{"name":"Mallory"}`},
		{"POST", api + "/chat", `{"text":"hi"}`},
		{"POST", api + "/push", `{"subscription":{}}`},
		{"DELETE", api + "/push", `{"endpoint":"https://fcm.googleapis.com/x"}`},
		{"POST", "/api/records", `{"text":""}`},
		{"POST", "/g/" + g.id + "/seat/" + g.black, ""},
	}
}

func TestOtherSitesChangeNothing(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","start":"me"}`)
	before := ts.state(t, g.id, g.white)
	send := func(method, path, body string, h http.Header) *http.Response {
		req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if path == "/games" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		} else {
			req.Header.Set("Content-Type", "application/json")
		}
		req.Header.Set("Authorization", "Bearer "+g.white)
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
	for _, rt := range stateChanges(g) {
		for _, h := range []http.Header{
			{"Origin": {"https://evil.example"}},
			{"Origin": {"null"}},
			{"Origin": {"https://evil.example"}, "Sec-Fetch-Site": {"cross-site"}},
			{"Sec-Fetch-Site": {"cross-site"}},
			{"Sec-Fetch-Site": {"same-site"}},
		} {
			if res := send(rt.method, rt.path, rt.body, h); res.StatusCode != http.StatusForbidden {
				t.Errorf("%s %s with %v: %d", rt.method, rt.path, h, res.StatusCode)
			}
		}
	}
	after := ts.state(t, g.id, g.white)
	if after.Version != before.Version || len(after.Chat) != len(before.Chat) || after.Players.White.Name != "" {
		t.Fatalf("another site changed the game: version %d -> %d, %+v", before.Version, after.Version, after)
	}
	// The same requests from the site itself, or from a program sending
	// no Origin, are not refused as cross-site (whatever else they meet).
	u, _ := url.Parse(ts.URL)
	for _, rt := range stateChanges(g) {
		for _, h := range []http.Header{nil, {"Origin": {ts.URL}}, {"Sec-Fetch-Site": {"same-origin"}, "Origin": {"http://" + u.Host}}} {
			if res := send(rt.method, rt.path, rt.body, h); res.StatusCode == http.StatusForbidden {
				t.Errorf("%s %s with %v: refused", rt.method, rt.path, h)
			}
		}
	}
}
