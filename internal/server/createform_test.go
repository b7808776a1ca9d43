package server

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// formOf reads the start form of a board page as a browser would send it
// untouched: every field with its value, a select with its chosen option,
// a radio button's group with the one checked, a checkbox only if
// checked. radios and checks list the other values a person may pick.
func formOf(t *testing.T, page string) (fields url.Values, radios map[string][]string, checks []string, selects map[string][]string) {
	t.Helper()
	start := strings.Index(page, `<form method="post" action="/games" class="new-game">`)
	end := strings.Index(page[start:], "</form>")
	if start < 0 || end < 0 {
		t.Fatal("the board page has no start form")
	}
	form := page[start : start+end]
	attr := func(tag, name string) (string, bool) {
		m := regexp.MustCompile(`\s` + name + `="([^"]*)"`).FindStringSubmatch(tag)
		if m == nil {
			return "", strings.Contains(tag, " "+name+">") || strings.Contains(tag, " "+name+" ")
		}
		return html.UnescapeString(m[1]), true
	}
	fields, radios, selects = url.Values{}, map[string][]string{}, map[string][]string{}
	for _, tag := range regexp.MustCompile(`<input[^>]*>`).FindAllString(form, -1) {
		name, _ := attr(tag, "name")
		value, _ := attr(tag, "value")
		kind, _ := attr(tag, "type")
		_, checked := attr(tag, "checked")
		switch kind {
		case "radio":
			radios[name] = append(radios[name], value)
			if checked {
				fields.Set(name, value)
			}
		case "checkbox":
			checks = append(checks, name)
			if checked {
				fields.Set(name, value)
			}
		default:
			fields.Set(name, value)
		}
	}
	selectRE := regexp.MustCompile(`(?s)<select name="([^"]*)"[^>]*>(.*?)</select>`)
	optionRE := regexp.MustCompile(`<option value="([^"]*)"( selected)?`)
	for _, s := range selectRE.FindAllStringSubmatch(form, -1) {
		for i, o := range optionRE.FindAllStringSubmatch(s[2], -1) {
			selects[s[1]] = append(selects[s[1]], html.UnescapeString(o[1]))
			if i == 0 || o[2] != "" {
				fields.Set(s[1], html.UnescapeString(o[1]))
			}
		}
	}
	return fields, radios, checks, selects
}

// Whatever a person picks in a board page's start form, or leaves as it
// is, starts a game: the refusal of fields the form does not send must
// never refuse one it does (a level stays in the form when the friend is
// chosen, the clock's minutes when no clock is).
func TestBoardFormsStartGames(t *testing.T) {
	ts := newTestServer(t)
	c := ts.browser(t)
	for _, name := range []string{"havannah", "dvonn", "fanorona"} {
		_, page := get(t, c, ts.URL+"/"+name)
		base, radios, checks, selects := formOf(t, page)
		if base.Get("game") != name || !base.Has("level") || !base.Has("clock_minutes") {
			t.Fatalf("%s: the form reads as %v", name, base)
		}
		variants := []url.Values{base}
		vary := func(field, value string) {
			f := url.Values{}
			for k, v := range base {
				f[k] = v
			}
			if value == "" {
				f.Del(field)
			} else {
				f.Set(field, value)
			}
			variants = append(variants, f)
		}
		for field, values := range radios {
			for _, v := range values {
				vary(field, v)
			}
		}
		for _, field := range checks {
			if base.Has(field) {
				vary(field, "")
			} else {
				vary(field, "1")
			}
		}
		for field, values := range selects {
			for _, v := range values {
				vary(field, v)
			}
		}
		for _, f := range variants {
			if res := postStartForm(t, c, ts, f); res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/g/") {
				t.Errorf("%s: the form %s: %d", name, f.Encode(), res.StatusCode)
			}
		}
	}
}

// The replay's "play on from here" form sends the position's game,
// options, moves and side to move with the computer's level.
func TestPlayOnFormStartsAGame(t *testing.T) {
	ts := newTestServer(t)
	c := ts.browser(t)
	for _, f := range []url.Values{
		{"opponent": {"computer"}, "level": {"4"}, "game": {"havannah"}, "moves": {"e5 d4"}, "start": {"me"}, "size": {"8"}, "swap": {"1"}},
		{"opponent": {"computer"}, "level": {"1"}, "game": {"havannah"}, "moves": {""}, "start": {"me"}, "size": {"5"}},
		{"opponent": {"computer"}, "level": {"8"}, "game": {"fanorona"}, "moves": {""}, "start": {"me"}},
	} {
		if res := postStartForm(t, c, ts, f); res.StatusCode != http.StatusSeeOther {
			t.Errorf("%s: %d", f.Encode(), res.StatusCode)
		}
	}
}

// postStartForm sends the start form f as browser c does; the answer's
// body is closed.
func postStartForm(t *testing.T, c *http.Client, ts *testServer, f url.Values) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", ts.URL+"/games", strings.NewReader(f.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}
