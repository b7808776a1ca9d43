package server

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// pageCatalogue is the catalogue a page carries for its scripts, empty
// when it carries none.
func pageCatalogue(t *testing.T, page string) map[string]any {
	t.Helper()
	out := map[string]any{}
	m := regexp.MustCompile(`<script type="application/json" id="catalog">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		return out
	}
	if err := json.Unmarshal([]byte(m[1]), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Every page but a game's carries the messages that its scripts may ask
// for, as the scripts' imports and strings tell, and no other: page.js's,
// the page's own script's (which page.js starts) and the board scripts'
// of the games it draws pictures of, without the other games' own
// messages.
func TestEachPageCarriesTheMessagesOfItsScripts(t *testing.T) {
	ts := newTestServer(t)
	me := ts.browser(t)
	createAs(t, ts, me, `{"game":"havannah","start":"me"}`)
	createAs(t, ts, me, `{"game":"dvonn","start":"friend"}`)
	pageScripts := []string{"js/game.js", "js/import.js", "js/mygames.js"}
	drawn := regexp.MustCompile(`class="diagram" data-game="([a-z]+)"`)
	for _, p := range []struct{ path, script string }{
		{"/", ""}, {"/havannah", ""}, {"/dvonn", ""}, {"/fanorona", ""},
		{"/my", "js/mygames.js"}, {"/import", "js/import.js"}, {"/no-such-page", ""},
	} {
		for _, lang := range []string{"en", "pl"} {
			_, page := get(t, me, ts.URL+p.path, "Accept-Language", lang)
			games := map[string]bool{}
			for _, m := range drawn.FindAllStringSubmatch(page, -1) {
				games[m[1]] = true
			}
			if p.path == "/import" { // shows a record of any game
				for _, g := range testGames {
					games[g.Name] = true
				}
			}
			entries := []string{"js/page.js"}
			if p.script != "" {
				entries = append(entries, p.script)
			}
			for g := range games {
				entries = append(entries, "js/boards/"+g+".js")
			}
			but := slices.DeleteFunc(slices.Clone(pageScripts), func(s string) bool { return s == p.script })
			want := ts.srv.site.ScriptMessages(lang, but, entries...)
			for key := range want {
				for _, g := range testGames {
					if !games[g.Name] && (strings.HasPrefix(key, g.Name+".") || strings.HasPrefix(key, "game."+g.Name+".") || strings.HasPrefix(key, "why."+g.Name+".")) {
						delete(want, key)
					}
				}
			}
			got := pageCatalogue(t, page)
			for key := range want {
				if _, ok := got[key]; !ok {
					t.Errorf("%s in %s lacks %s, which its scripts may ask for", p.path, lang, key)
				}
			}
			for key := range got {
				if _, ok := want[key]; !ok {
					t.Errorf("%s in %s carries %s, which none of its scripts asks for", p.path, lang, key)
				}
			}
			if len(want) == 0 && strings.Contains(page, `id="catalog"`) {
				t.Errorf("%s in %s carries an empty catalogue", p.path, lang)
			}
		}
	}
	// A page that draws no board and runs no script of its own has
	// page.js alone, which asks for no message: the error page and the
	// question whether to change seats carry no catalogue at all.
	cr := createAs(t, ts, me, `{"game":"fanorona","start":"me"}`)
	var j struct {
		PlayerURL string `json:"player_url"`
	}
	if code := ts.call(t, "POST", "/api/games/"+cr.ID+"/join", "", map[string]string{"invite": cr.InviteURL[strings.LastIndex(cr.InviteURL, "/")+1:]}, &j); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	get(t, me, cr.PlayerURL)
	for name, u := range map[string]string{"the error page": ts.URL + "/no-such-page", "the question whether to change seats": j.PlayerURL} {
		for _, lang := range []string{"en", "de", "pl"} {
			res, page := get(t, me, u, "Accept-Language", lang)
			if res.StatusCode == http.StatusSeeOther {
				t.Fatalf("%s: not shown", name)
			}
			if c := pageCatalogue(t, page); len(c) != 0 || strings.Contains(page, `id="catalog"`) {
				t.Errorf("%s in %s carries a catalogue: %v", name, lang, c)
			}
		}
	}
	// The pictures' board scripts are there: the home page draws every
	// game, a board page its own, my games those of my games.
	for path, want := range map[string][]string{"/": {"havannah", "dvonn", "fanorona"}, "/havannah": {"havannah"}, "/my": {"havannah", "dvonn"}} {
		_, page := get(t, me, ts.URL+path, "Accept-Language", "en")
		for _, g := range want {
			if !strings.Contains(page, `class="diagram" data-game="`+g+`"`) {
				t.Errorf("%s draws no picture of %s", path, g)
			}
		}
	}
}

// What the server says of a refused record, the import page's catalogue
// has in every language: the reasons, and the words among them.
func TestImportPageHasTheWordsOfARefusedRecord(t *testing.T) {
	ts := newTestServer(t)
	me := ts.browser(t)
	var keys []string
	for _, text := range []string{
		"",
		"nothing the site reads",
		"(;FF[4]SZ[5];W[E5];B[D4];W[E5])",
		"(;FF[4]GM[chess]SZ[8];W[e5])",
		"[Game \"dvonn\"]\n[White \"a\"]\n[White \"b\"]",
		"[Game \"havannah\"]\n[Options \"size=12\"]",
		"[Game \"fanorona\"]\n1. e3",
	} {
		var e struct {
			Reasons []struct {
				Key  string
				Args []struct{ Name, Value, Key string }
			}
		}
		if code := ts.call(t, "POST", "/api/records", "", map[string]string{"text": text}, &e); code != 422 || len(e.Reasons) == 0 {
			t.Fatalf("record %q: %d %+v", text, code, e)
		}
		for _, r := range e.Reasons {
			keys = append(keys, r.Key)
			for _, a := range r.Args {
				if a.Key != "" {
					keys = append(keys, a.Key)
				}
			}
		}
	}
	for _, lang := range []string{"en", "de", "pl"} {
		_, page := get(t, me, ts.URL+"/import", "Accept-Language", lang)
		c := pageCatalogue(t, page)
		for _, k := range keys {
			if _, ok := c[k]; !ok {
				t.Errorf("the import page in %s has no message %s", lang, k)
			}
		}
	}
}
