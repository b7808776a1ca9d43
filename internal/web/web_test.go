package web

import (
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"bretter/game"
	"bretter/games/dvonn"
	"bretter/games/fanorona"
	"bretter/games/havannah"
)

var games = []game.Game{havannah.Game(), dvonn.Game(), fanorona.Game()}

func TestCataloguesAreComplete(t *testing.T) {
	catalogs, err := loadCatalogs()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"de", "en", "pl"} {
		if _, ok := catalogs[lang]; !ok {
			t.Errorf("no catalogue for %s", lang)
		}
	}
	if missing := MissingKeys(catalogs); len(missing) > 0 {
		t.Fatalf("catalogues differ:\n%s", strings.Join(missing, "\n"))
	}
	if problems := PluralProblems(catalogs); len(problems) > 0 {
		t.Fatalf("plural forms:\n%s", strings.Join(problems, "\n"))
	}
	for lang, c := range catalogs {
		for k, m := range c {
			if !m.Counted() && strings.TrimSpace(m.Text) == "" {
				t.Errorf("%s: %s is empty", lang, k)
			}
		}
	}
}

// Each language needs the plural categories CLDR gives it.
func TestCategories(t *testing.T) {
	for lang, want := range map[string]string{"en": "one other", "de": "one other", "pl": "one few many other"} {
		if got := strings.Join(Categories(lang), " "); got != want {
			t.Errorf("%s needs %q, want %q", lang, got, want)
		}
	}
}

// The check itself must catch a lacking form, a form the language does
// not use, and a message counted by different numbers.
func TestPluralProblems(t *testing.T) {
	forms := func(by string, f ...string) Message {
		m := Message{Plural: by, Forms: map[string]string{}}
		for i := 0; i+1 < len(f); i += 2 {
			m.Forms[f[i]] = f[i+1]
		}
		return m
	}
	got := PluralProblems(map[string]Catalog{
		"en": {"a": forms("n", "one", "x", "other", "x"), "b": forms("n", "one", "x", "few", "x", "other", "x"), "c": {Text: "c"}},
		"pl": {"a": forms("n", "one", "x", "few", "x", "other", "x"), "b": forms("m", "one", "x", "few", "x", "many", "x", "other", "x"), "c": forms("n", "other", "x")},
	})
	want := []string{
		"pl: b counts by m, elsewhere by n",
		"en: b[few] is a form the language does not use",
		"en: c has no plural forms",
		"pl lacks a[many]",
		"pl lacks c[few]", "pl lacks c[many]", "pl lacks c[one]",
	}
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("PluralProblems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The check itself must catch a gap.
func TestMissingKeys(t *testing.T) {
	got := MissingKeys(map[string]Catalog{"en": {"a": {Text: "A"}, "b": {Text: "B"}}, "de": {"a": {Text: "A"}}})
	if len(got) != 1 || got[0] != "de lacks b" {
		t.Fatalf("MissingKeys = %v", got)
	}
}

// Every key the templates and scripts name literally is in the catalogues.
func TestKeysInUseExist(t *testing.T) {
	catalogs, err := loadCatalogs()
	if err != nil {
		t.Fatal(err)
	}
	uses := []*regexp.Regexp{
		regexp.MustCompile(`\.T "([a-z_.]+)"`),
		regexp.MustCompile(`\bt\('([a-z_.]+)'`),
	}
	for _, root := range []fs.FS{templateFS, staticFS} {
		fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".html") || strings.HasSuffix(p, ".js")) {
				return err
			}
			b, _ := fs.ReadFile(root, p)
			for _, re := range uses {
				for _, m := range re.FindAllStringSubmatch(string(b), -1) {
					if strings.HasSuffix(m[1], ".") || strings.HasSuffix(m[1], "_") {
						continue // a prefix completed at run time
					}
					if _, ok := catalogs[DefaultLang][m[1]]; !ok {
						t.Errorf("%s uses %s, which no catalogue has", p, m[1])
					}
				}
			}
			return nil
		})
	}
}

func TestSite(t *testing.T) {
	s, err := New(games)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.T("de", "result.ring", "winner", "Weiß"); got != "Weiß gewinnt mit einem Ring." {
		t.Fatalf("T = %q", got)
	}
	if got := s.T("en", "no.such.key"); got != "no.such.key" {
		t.Fatalf("a missing key gives %q", got)
	}
	for header, want := range map[string]string{
		"": "en", "de": "de", "de-AT,de;q=0.9": "de", "fr, en;q=0.1, de;q=0.5": "de", "fr": "en", "EN-gb": "en", "de;q=x": "de",
		"pl": "pl", "pl-PL,pl;q=0.9,en;q=0.8": "pl", "en;q=0.5, pl;q=0.7": "pl", "cs, pl;q=0.4": "pl",
	} {
		if got := s.negotiate(header); got != want {
			t.Errorf("Accept-Language %q: %s, want %s", header, got, want)
		}
	}
	for _, g := range games {
		for _, lang := range s.Langs() {
			var b strings.Builder
			if err := s.Render(&b, "board", lang, "", "/"+g.Name, g); err != nil {
				t.Fatalf("%s in %s: %v", g.Name, lang, err)
			}
			if !strings.Contains(b.String(), `class="diagram" data-game="`+g.Name+`"`) {
				t.Errorf("the %s page in %s has no board picture", g.Name, lang)
			}
		}
	}
}

func TestDiagramRefusesIllegalPositions(t *testing.T) {
	s, err := New(games)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.diagram("havannah", "size=4", "a1 a1"); err == nil {
		t.Fatal("a diagram with an illegal move was drawn")
	}
	if _, err := s.diagram("chess", "", ""); err == nil {
		t.Fatal("a diagram of an unknown game was drawn")
	}
}

// numeric names the parameters that carry numbers.
var numeric = regexp.MustCompile(`\{(count|n|total|days|hours|minutes|seconds|level|white|black|red|height|counter|draw_at)\}`)

// uncounted lists the messages that show numbers but count nothing a word
// must agree with: scores and reserves worded "White 3, Black 5", levels,
// move numbers and abbreviated units.
var uncounted = map[string]bool{
	"clock.preset":              true, // "5 min + 3 s": abbreviations
	"clock.span_h":              true,
	"clock.span_min":            true,
	"clock.span_s":              true,
	"dvonn.summary.reserve":     true,
	"dvonn.summary.reserve_red": true,
	"dvonn.summary.score":       true,
	"fanorona.pieces":           true,
	"opponent.level_n":          true, // a level is a name, not an amount
	"players.computer":          true,
	"preview.title":             true, // "move 17": which move, not how many
	"replay.viewing":            true, // "move 3 of 25"
	"result.score":              true,
	"result.score_draw":         true,
	"why.dvonn.height":          true, // "(3)": the height, apart from the words
}

// Every counted message takes, for each number, the form the CLDR rules
// give it: written out here by hand, not asked of the library under test.
func TestPluralForms(t *testing.T) {
	s, err := New(games)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[int]string{
		"en": {0: "other", 1: "one", 2: "other", 5: "other", 12: "other", 22: "other", 25: "other", 101: "other"},
		"de": {0: "other", 1: "one", 2: "other", 5: "other", 12: "other", 22: "other", 25: "other", 101: "other"},
		"pl": {0: "many", 1: "one", 2: "few", 5: "many", 12: "many", 22: "few", 25: "many", 101: "many"},
	}
	if got := s.Langs(); strings.Join(got, " ") != "de en pl" {
		t.Fatalf("languages %v", got)
	}
	fillers := [][2]any{{"label", "L"}, {"space", "c3"}, {"colour", "White"}, {"move", "d2-e3"}, {"points", "e3"}, {"hours", 7}, {"minutes", 9}, {"draw_at", 50}, {"game", "Havannah"}, {"state", "White wins"}, {"next", 13}}
	counted := 0
	for key, m := range s.catalogs[DefaultLang] {
		if !m.Counted() {
			if numeric.MatchString(m.Text) && !uncounted[key] {
				t.Errorf("%s shows a number but has no plural forms", key)
			}
			continue
		}
		counted++
		for _, lang := range s.Langs() {
			forms := s.catalogs[lang][key].Forms
			for n, cat := range want[lang] {
				args := []any{m.Plural, n}
				for _, a := range fillers {
					if a[0] != m.Plural {
						args = append(args, a[0], a[1])
					}
				}
				got := s.T(lang, key, args...)
				expect := forms[cat]
				for i := 0; i+1 < len(args); i += 2 {
					expect = strings.ReplaceAll(expect, "{"+args[i].(string)+"}", fmt.Sprint(args[i+1]))
				}
				if got != expect {
					t.Errorf("%s %s for %d: %q, want the %s form %q", lang, key, n, got, cat, expect)
				}
				if strings.Contains(forms[cat], "{"+m.Plural+"}") && !strings.Contains(got, strconv.Itoa(n)) {
					t.Errorf("%s %s for %d: %q does not show the number", lang, key, n, got)
				}
				if strings.Contains(got, "{") {
					t.Errorf("%s %s for %d: %q has a placeholder left", lang, key, n, got)
				}
			}
		}
	}
	if counted < 10 {
		t.Errorf("only %d counted messages", counted)
	}
	// Polish as players read it.
	for n, want := range map[int]string{1: "1 dzień na ruch", 3: "3 dni na ruch", 5: "5 dni na ruch"} {
		if got := s.T("pl", "clock.days", "days", n); got != want {
			t.Errorf("clock.days for %d: %q, want %q", n, got, want)
		}
	}
	for n, want := range map[any]string{1: "one", 22: "few", 25: "many", "1.5": "other", 101: "many", -2: "few", "x": "other"} {
		if got := Category("pl", n); got != want {
			t.Errorf("Polish category of %v: %s, want %s", n, got, want)
		}
	}
}

// A game page preloads every script it will import, and no other board's.
func TestModulesToPreload(t *testing.T) {
	s, err := New(games)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(s.modules("js/page.js", "js/game.js", "js/boards/havannah.js"), " ")
	for _, want := range []string{"js/page.js", "js/game.js", "js/i18n.js", "js/boards/havannah.js", "js/boards/svg.js", "js/boards/choose.js"} {
		if !strings.Contains(got, want) {
			t.Errorf("the preloads %q lack %s", got, want)
		}
	}
	if strings.Contains(got, "dvonn") || strings.Contains(got, "fanorona") {
		t.Errorf("a Havannah page preloads another board: %q", got)
	}
	// Clocks, chat, notices and sounds come when a page needs them.
	for _, lazy := range []string{"js/clocks.js", "js/sound.js", "js/chat.js", "js/notices.js"} {
		if strings.Contains(got, lazy) {
			t.Errorf("a game page without clocks preloads %s: %q", lazy, got)
		}
	}
	withClocks := strings.Join(s.modules("js/page.js", "js/game.js", "js/boards/havannah.js", "js/clocks.js"), " ")
	if !strings.Contains(withClocks, "js/clocks.js") || !strings.Contains(withClocks, "js/sound.js") {
		t.Errorf("a game page with clocks does not preload them: %q", withClocks)
	}
}

func TestLiterals(t *testing.T) {
	src := "// it's a comment with 'quotes'\n" +
		"t('a.b'); t(\"c\\\"d\"); t(`offer.${kind}_sent`);\n" +
		"/* don't */ x = `e.${f(`g.${h}`)}.i`; y = { j: 'k' };"
	got := strings.Join(literals(src), "|")
	if want := `a.b|c"d|offer.|_sent|e.|g.||.i|k`; got != want {
		t.Errorf("literals: %q, want %q", got, want)
	}
}

// A game page's scripts get the site's messages and their own game's, not
// the other games'.
func TestCatalogForOneGame(t *testing.T) {
	s, err := New(games)
	if err != nil {
		t.Fatal(err)
	}
	c := Page{Lang: "en", site: s}.CatalogFor("havannah", true)
	// Named in full by a script, or built from a beginning it names.
	for _, want := range []string{"game.havannah.name", "result.ring", "status.your_turn", "option.size", "offer.draw_sent", "clock.left_days"} {
		if _, ok := c[want]; !ok {
			t.Errorf("the Havannah page's messages lack %s", want)
		}
	}
	// Only the server writes these into pages.
	for _, server := range []string{"nav.boards", "home.title", "settings.title", "rematch.offer"} {
		if _, ok := s.catalogs["en"][server]; !ok {
			t.Errorf("the catalogue has no %s", server)
		}
		if _, ok := c[server]; ok {
			t.Errorf("the Havannah page's scripts get %s, which they never use", server)
		}
	}
	for key := range c {
		if strings.HasPrefix(key, "dvonn.") || strings.HasPrefix(key, "fanorona.") || strings.HasPrefix(key, "game.dvonn.") || strings.HasPrefix(key, "why.dvonn.") {
			t.Errorf("the Havannah page's messages carry %s", key)
		}
	}

	// A watcher's page has the messages of what it shows, not those of
	// the players' controls, chat and push notices.
	w := Page{Lang: "en", site: s}.CatalogFor("havannah", false)
	for _, want := range []string{"result.ring", "status.your_turn", "clock.left_days", "replay.live", "join.used"} {
		if _, ok := w[want]; !ok {
			t.Errorf("a watcher's Havannah page lacks %s", want)
		}
	}
	// Why a move was refused, a player's page can say; the import page's
	// messages it never needs.
	for _, want := range []string{"why.illegal_move", "why.havannah.taken"} {
		if _, ok := c[want]; !ok {
			t.Errorf("a player's Havannah page lacks %s", want)
		}
	}
	for _, other := range []string{"why.record.empty", "why.hgf.no_size", "import.error"} {
		if _, ok := c[other]; ok {
			t.Errorf("a Havannah page carries %s", other)
		}
	}
	for _, player := range []string{"actions.resign", "offer.draw_sent", "offer.draw_declined", "chat.you", "push.denied", "why.havannah.taken"} {
		if _, ok := c[player]; !ok {
			t.Errorf("a player's Havannah page lacks %s", player)
		}
		if _, ok := w[player]; ok {
			t.Errorf("a watcher's Havannah page carries %s, which only the players' scripts use", player)
		}
	}
	if len(w) >= len(c) {
		t.Errorf("a watcher's page has %d messages, a player's %d", len(w), len(c))
	}
}
