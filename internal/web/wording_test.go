package web

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// texts is every message of lang's catalogue whose key starts with one
// of prefixes, all plural forms included.
func texts(t *testing.T, lang string, prefixes ...string) map[string]string {
	t.Helper()
	catalogs, err := loadCatalogs()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for key, m := range catalogs[lang] {
		for _, p := range prefixes {
			if !strings.HasPrefix(key, p) {
				continue
			}
			if m.Counted() {
				for cat, form := range m.Forms {
					out[key+"."+cat] = form
				}
			} else {
				out[key] = m.Text
			}
		}
	}
	return out
}

// Polish names a Havannah piece "pionek" and a win over three sides
// "rozwidlenie" everywhere: on the board's page, its rules, the swap
// button and the result lines. Other words for the same thing make a
// reader wonder whether they are different things.
func TestPolishHavannahSaysOneWordForEachThing(t *testing.T) {
	rules, err := fs.ReadFile(rulesFS, "rules/havannah.pl.html")
	if err != nil {
		t.Fatal(err)
	}
	all := texts(t, "pl", "")
	all["rules/havannah.pl.html"] = string(rules)
	other := regexp.MustCompile(`(?i)kamie|kamyk|widł|wideł|widel`)
	for where, text := range all {
		if w := other.FindString(text); w != "" {
			t.Errorf("pl %s says %q, where the site says pionek and rozwidlenie: %s", where, w, text)
		}
	}
}

// German speaks of the other side of the board as "Gegenüber" or "Person",
// never as a male "Spieler", in the site's own lines (the rules pages
// describe the game as such).
func TestGermanSaysPersonNotSpieler(t *testing.T) {
	for where, text := range texts(t, "de", "") {
		if strings.HasPrefix(where, "record.note.") {
			continue // the format's own naming of Little Golem's players
		}
		if strings.Contains(text, "Spieler") {
			t.Errorf("de %s: %s", where, text)
		}
	}
}

// An offer of a new game names the colour a player gets in a sentence of
// its own for each colour, so that Polish can say "grasz białymi" rather
// than fit a nominative "Białe" after "kolorem:".
func TestNewGameTermsNameTheColourInASentence(t *testing.T) {
	s, err := New(games)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"pl": {"white": "grasz białymi", "black": "grasz czarnymi"},
		"de": {"white": "du spielst Weiß", "black": "du spielst Schwarz"},
		"en": {"white": "you play White", "black": "you play Black"},
	}
	for lang, colours := range want {
		for colour, text := range colours {
			if got := s.T(lang, "rematch.you_play_"+colour); got != text {
				t.Errorf("%s, %s: %q, want %q", lang, colour, got, text)
			}
		}
		// The terms follow "…a new game:" in one line; a second colon in
		// a term reads badly.
		for key, text := range texts(t, lang, "rematch.you_play", "rematch.random", "clock.preset", "clock.days") {
			if strings.Contains(text, ":") || strings.Contains(text, "{colour}") {
				t.Errorf("%s %s: %q", lang, key, text)
			}
		}
	}
}
