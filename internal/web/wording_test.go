package web

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
	"time"

	"bretter/internal/clock"
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
	inSentences(t, "rematch.you_play_", youPlay)
	for lang := range youPlay {
		// The terms follow "…a new game:" in one line; a second colon in
		// a term reads badly.
		for key, text := range texts(t, lang, "rematch.you_play", "rematch.random", "clock.preset", "clock.days") {
			if strings.Contains(text, ":") || strings.Contains(text, "{colour}") {
				t.Errorf("%s %s: %q", lang, key, text)
			}
		}
	}
}

// youPlay is how each language says which colour someone plays.
var youPlay = map[string]map[string]string{
	"pl": {"white": "grasz białymi", "black": "grasz czarnymi"},
	"de": {"white": "du spielst Weiß", "black": "du spielst Schwarz"},
	"en": {"white": "you play White", "black": "you play Black"},
}

// inSentences checks that the messages prefix+key say want[lang][key],
// and that no message of their group (prefix up to its first dot) fits a
// colour's name into a sentence.
func inSentences(t *testing.T, prefix string, want map[string]map[string]string) *Site {
	t.Helper()
	s, err := New(games)
	if err != nil {
		t.Fatal(err)
	}
	for lang, keys := range want {
		for key, text := range keys {
			if got := s.T(lang, prefix+key); got != text {
				t.Errorf("%s %s%s: %q, want %q", lang, prefix, key, got, text)
			}
		}
		for key, text := range texts(t, lang, prefix[:strings.IndexByte(prefix, '.')+1]) {
			if strings.Contains(text, "{colour}") {
				t.Errorf("%s %s fits a colour's name into a sentence: %q", lang, key, text)
			}
		}
	}
	return s
}

// My games says which colour a player has in a sentence for each colour,
// as an offer of a new game does: Polish plays "białymi", with the
// colour's instrumental, not "grasz: Białe" with a name dropped in.
func TestMyGamesNamesTheColourInASentence(t *testing.T) {
	inSentences(t, "my.you_play_", youPlay)
}

// The question whether to change seats names both colours in sentences
// of their own: Polish plays "białymi" and stays "przy białych", where a
// name after a colon ("gra: Białe") is not how the language says it.
func TestSwitchNamesTheColoursInSentences(t *testing.T) {
	s := inSentences(t, "switch.", map[string]map[string]string{
		"pl": {"keep_white": "Graj dalej białymi", "take_black": "Graj tutaj czarnymi", "keep_black": "Graj dalej czarnymi", "take_white": "Graj tutaj białymi"},
		"de": {"keep_white": "Weiter Weiß spielen", "take_black": "Hier Schwarz spielen"},
		"en": {"keep_white": "Stay White", "take_black": "Play Black here"},
	})
	if got := s.T("pl", "switch.text_white"); !strings.Contains(got, "gra białymi") || !strings.Contains(got, "będzie grać czarnymi") {
		t.Errorf("pl switch.text_white: %q", got)
	}
}

// A clock's time reads at once: whole hours, minutes and seconds, never a
// fraction of a minute, whatever number of seconds a game was made with.
func TestTimeControlInWholeUnits(t *testing.T) {
	s, err := New(games)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		lang               string
		initial, increment time.Duration
		want               string
	}{
		{"en", 15 * time.Second, 0, "15 s + 0 s a move"},
		{"de", 15 * time.Second, 0, "15 s + 0 s pro Zug"},
		{"en", 61 * time.Second, 2 * time.Second, "1 min 1 s + 2 s a move"},
		{"pl", 3599 * time.Second, 0, "59 min 59 s + 0 s na ruch"},
		{"en", 5 * time.Minute, 3 * time.Second, "5 min + 3 s a move"},
		{"en", 90 * time.Minute, 0, "1 h 30 min + 0 s a move"},
		{"de", 90 * time.Minute, 0, "1 Std. 30 Min. + 0 s pro Zug"},
		{"pl", 3 * time.Hour, 10 * time.Second, "3 godz. + 10 s na ruch"},
		{"en", time.Hour + time.Second, 0, "1 h 1 s + 0 s a move"},
	} {
		if got := s.TimeControl(tt.lang, clock.Control{Initial: tt.initial, Increment: tt.increment}); got != tt.want {
			t.Errorf("%s, %v: %q, want %q", tt.lang, tt.initial, got, tt.want)
		}
	}
}

// German names each thing with one word across the site: a piece of any
// board is a "Stein" (not a "Stück"), a game record a "Partienotation"
// (not an "Eintrag"), and Fanorona's two captures "Annähern" and
// "Zurückweichen", as the buttons that choose them say.
func TestGermanSaysOneWordForEachThing(t *testing.T) {
	other := regexp.MustCompile(`Stück|(?i:eintr[aä]g)|Annäherung|Rückzug`)
	for where, text := range texts(t, "de", "") {
		text = strings.ReplaceAll(text, "am Stück", "") // "in one go"
		if w := other.FindString(text); w != "" {
			t.Errorf("de %s says %q: %s", where, w, text)
		}
	}
}

// Polish keeps the English distinctions: the other player is "znajomy"
// wherever English says "friend" (never "przeciwnik", which the site
// keeps for the other side in the rules and settings), a game is
// "odwołana" wherever English calls it off, and a Fanorona turn, which
// may hold several steps, is a "tura" wherever English says "turn".
func TestPolishKeepsTheEnglishTerms(t *testing.T) {
	en := texts(t, "en", "")
	pl := texts(t, "pl", "")
	callOff := regexp.MustCompile(`(?i)call(ed)? (the |this )?(game )?off`)
	for key, text := range en {
		fanorona := strings.Contains(key, "fanorona")
		switch {
		case strings.Contains(text, "friend") && strings.Contains(pl[key], "przeciwnik"):
			t.Errorf("pl %s says przeciwnik where en says friend: %s", key, pl[key])
		case callOff.MatchString(text) && !strings.Contains(strings.ToLower(pl[key]), "odwoł"):
			t.Errorf("pl %s does not say odwołać where en calls a game off: %s", key, pl[key])
		case fanorona && strings.Contains(text, "turn") && !strings.Contains(pl[key], "tur"):
			t.Errorf("pl %s does not say tura where en says turn: %s", key, pl[key])
		}
	}
}

// German and Polish quote with their own marks, „…“ and „…”; straight
// quotes stand only where a record's syntax is shown ([Name "value"]),
// as they must be typed. German sets a space before an ellipsis that
// stands for words left out ("Neuer Versuch …"), as its other lines do,
// and its dashes are en dashes.
func TestGermanAndPolishTypography(t *testing.T) {
	syntax := regexp.MustCompile(`\[[^\]]*\]`)
	quotes := map[string]*regexp.Regexp{
		"de": regexp.MustCompile(`„[^„“”]*“`),
		"pl": regexp.MustCompile(`„[^„“”]*”`),
	}
	for lang, pair := range quotes {
		for where, text := range texts(t, lang, "") {
			rest := pair.ReplaceAllString(syntax.ReplaceAllString(text, ""), "")
			if strings.ContainsAny(rest, `"„“”`) {
				t.Errorf("%s %s quotes with the wrong marks: %s", lang, where, text)
			}
		}
	}
	unspaced := regexp.MustCompile(`[^ ]…`)
	for where, text := range texts(t, "de", "") {
		if unspaced.MatchString(text) || strings.Contains(text, "—") {
			t.Errorf("de %s: %s", where, text)
		}
	}
}

// Lines a German editor set right, each for a reason that a general rule
// cannot check: no comma before "oder" between two alternatives, a whole
// sentence after a colon starts with a capital, the one who plays second
// "zieht nach" (no neuter "als Zweites"), a seat being taken is taken by
// you ("wird eingenommen" read as if someone else took it), and a status
// line waits in the infinitive, not with an imperative "Warte"; the line
// about a move waiting for the connection begins as the plain line about
// reconnecting does.
func TestGermanWording(t *testing.T) {
	s, err := New(games)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"entry.hint.havannah":  "Ein Feld wie e5 oder swap.",
		"option.swap":          "Tauschregel (wer nachzieht, darf den ersten Stein übernehmen)",
		"game.dvonn.howto_3":   "Kann niemand mehr ziehen, zählen die Stapel mit eigener Farbe oben: Die höhere Summe gewinnt.",
		"join.joining":         "Du nimmst Platz …",
		"status.waiting":       "Warten, bis dein Gegenüber die Einladung öffnet.",
		"status.waiting_watch": "Warten auf die zweite Person.",
	} {
		if got := s.T("de", key); got != want {
			t.Errorf("de %s: %q, want %q", key, got, want)
		}
	}
	if got, lost := s.T("de", "status.reconnecting", "move", "e5"), s.T("de", "conn.lost"); !strings.HasPrefix(got, lost+" ") {
		t.Errorf("de status.reconnecting: %q does not begin as conn.lost, %q", got, lost)
	}
	for _, key := range []string{"noscript.import", "noscript.play"} {
		if got := s.T("de", key); !strings.Contains(got, ": Schalte es ein") {
			t.Errorf("de %s: %q", key, got)
		}
	}
}

// Lines a Polish editor set right: the line about a move waiting for the
// connection begins as the plain line about reconnecting does ("Łączę
// ponownie…", not "łączenie ponownie…"), the arrow keys
// are what you move with, not what moves ("Strzałkami przechodzisz"), a
// stack, not a move, leaves its space, a record's values stand in
// double quotes, as the English says, and two things a capture chain may
// not do are joined by "ani", not "i nie".
func TestPolishWording(t *testing.T) {
	s, err := New(games)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"board.keys":        "Strzałkami przechodzisz między tym, co możesz wybrać; Enter lub spacja wybiera.",
		"why.dvonn.stay":    "stos musi opuścić swoje pole",
		"why.record.quotes": "wartość {name} musi być w podwójnym cudzysłowie",
	} {
		if got := s.T("pl", key); got != want {
			t.Errorf("pl %s: %q, want %q", key, got, want)
		}
	}
	if got, lost := s.T("pl", "status.reconnecting", "move", "e5"), s.T("pl", "conn.lost"); !strings.HasPrefix(got, lost+" ") {
		t.Errorf("pl status.reconnecting: %q does not begin as conn.lost, %q", got, lost)
	}
	if got := s.T("pl", "fanorona.hint_chain"); !strings.Contains(got, "Nie w kierunku strzałki ani na punkt") {
		t.Errorf("pl fanorona.hint_chain: %q", got)
	}
}

// The things a player deals with keep their German and Polish word
// wherever English names them: a seat is a "Platz" and a "miejsce" (not
// the "Seite" or "strona" a colour is), an invitation an "Einladung" and
// a "zaproszenie", a takeback a "Rücknahme" and a "cofnięcie", a clock an
// "Uhr" and a "zegar".
func TestTermsFollowTheEnglish(t *testing.T) {
	terms := []struct{ en, de, pl string }{
		{"seat", "Platz", "miejsc"},
		{"invitation", "Einladung", "zaprosz"},
		{"takeback", "Rücknahme", "cofnię"},
		{"clock", "Uhr", "zegar"},
	}
	de, pl := texts(t, "de", ""), texts(t, "pl", "")
	for key, text := range texts(t, "en", "") {
		text = strings.ToLower(placeholder.ReplaceAllString(text, ""))
		for _, term := range terms {
			if !strings.Contains(text, term.en) {
				continue
			}
			if !strings.Contains(strings.ToLower(de[key]), strings.ToLower(term.de)) {
				t.Errorf("de %s does not say %s where en says %s: %s", key, term.de, term.en, de[key])
			}
			if !strings.Contains(strings.ToLower(pl[key]), term.pl) {
				t.Errorf("pl %s does not say %s… where en says %s: %s", key, term.pl, term.en, pl[key])
			}
		}
	}
}

// German calls one game played on the site a "Partie", as its titles do
// ("Meine Partien", "Partie abbrechen"); "Spiel" names a kind of game
// (Havannah, DVONN) only. Saying both for one thing made "Ein neues Spiel
// hat begonnen" and "Eine neue Partie hat begonnen" two notices of the
// same event.
func TestGermanSaysPartieForOneGame(t *testing.T) {
	kind := map[string]bool{"why.hgf.other_game": true, "why.record.no_game": true, "why.record.unknown_game": true}
	spiel := regexp.MustCompile(`\bSpiel(s|es)?\b`)
	for where, text := range texts(t, "de", "") {
		if !kind[where] && spiel.MatchString(text) {
			t.Errorf("de %s says Spiel for one game: %s", where, text)
		}
	}
}
