package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

	"bretter/internal/clock"
)

// Catalog maps message keys to messages with {name} placeholders.
//
// The catalogues live in i18n/<lang>/*.json. A message is either a string,
//
//	"moves.title": "Moves"
//
// or, when it counts something, an object of plural forms:
//
//	"clock.days": {"plural": "days", "one": "{days} day per move", "other": "{days} days per move"}
//
// "plural" names the parameter whose number chooses the form; the other
// fields are the CLDR plural categories the language needs for whole
// numbers and decimals (English and German: one, other; Polish: one, few,
// many, other). The categories are chosen by the CLDR rules of
// golang.org/x/text on the server and by Intl.PluralRules in the browser
// (static/js/i18n.js), so both pick the same form. A form need not show the
// number ("{label} with a DVONN piece").
//
// A message has at most one counted number. Where a sentence has more
// numbers, it is worded so that the others need no agreement ("White 3,
// Black 5"). A message that counts in one language counts, by the same
// parameter, in every language.
type Catalog map[string]Message

// Message is one entry of a catalogue: a plain text, or plural forms.
type Message struct {
	Text   string            // a plain message; empty for plural ones
	Plural string            // the parameter that chooses the form
	Forms  map[string]string // by CLDR category: "one", "few", "many", "other"...
}

// Counted reports whether m has plural forms.
func (m Message) Counted() bool { return m.Plural != "" }

// UnmarshalJSON reads a string or an object of plural forms.
func (m *Message) UnmarshalJSON(b []byte) error {
	*m = Message{}
	if len(bytes.TrimSpace(b)) > 0 && bytes.TrimSpace(b)[0] == '"' {
		return json.Unmarshal(b, &m.Text)
	}
	var fields map[string]string
	if err := json.Unmarshal(b, &fields); err != nil {
		return fmt.Errorf("a message is a string or an object of plural forms: %w", err)
	}
	m.Plural = fields["plural"]
	if m.Plural == "" {
		return fmt.Errorf("plural forms without \"plural\", the parameter that counts")
	}
	delete(fields, "plural")
	for cat := range fields {
		if !validCategory[cat] {
			return fmt.Errorf("%q is no plural category", cat)
		}
	}
	m.Forms = fields
	return nil
}

// MarshalJSON writes the message as it stands in the catalogue, for the
// page's scripts.
func (m Message) MarshalJSON() ([]byte, error) {
	if !m.Counted() {
		return json.Marshal(m.Text)
	}
	out := map[string]string{"plural": m.Plural}
	for k, v := range m.Forms {
		out[k] = v
	}
	return json.Marshal(out)
}

var validCategory = map[string]bool{"zero": true, "one": true, "two": true, "few": true, "many": true, "other": true}

var categoryOf = map[plural.Form]string{
	plural.Other: "other", plural.Zero: "zero", plural.One: "one",
	plural.Two: "two", plural.Few: "few", plural.Many: "many",
}

// DefaultLang is used when nothing else says which language to speak.
const DefaultLang = "en"

// loadCatalogs reads i18n/<lang>/*.json: one folder per language, one file
// per part of the site (the site itself, each game). A key may stand in one
// file of a language only, every language must have every key, and counted
// messages must have every plural form their language needs.
func loadCatalogs() (map[string]Catalog, error) {
	names, _ := fs.Glob(catalogFS, "i18n/*/*.json")
	out := map[string]Catalog{}
	for _, name := range names {
		lang := path.Base(path.Dir(name))
		b, err := catalogFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var part Catalog
		if err := json.Unmarshal(b, &part); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if out[lang] == nil {
			out[lang] = Catalog{}
		}
		for k, v := range part {
			if _, dup := out[lang][k]; dup {
				return nil, fmt.Errorf("%s: key %s stands in another file too", name, k)
			}
			out[lang][k] = v
		}
	}
	if _, ok := out[DefaultLang]; !ok {
		return nil, fmt.Errorf("no catalogue for %s", DefaultLang)
	}
	if missing := append(MissingKeys(out), PluralProblems(out)...); len(missing) > 0 {
		return nil, fmt.Errorf("catalogues differ: %s", strings.Join(missing, "; "))
	}
	return out, nil
}

// MissingKeys lists, for each catalogue, the keys another one has and it
// lacks.
func MissingKeys(catalogs map[string]Catalog) []string {
	all := map[string]bool{}
	for _, c := range catalogs {
		for k := range c {
			all[k] = true
		}
	}
	var out []string
	for lang, c := range catalogs {
		for k := range all {
			if _, ok := c[k]; !ok {
				out = append(out, lang+" lacks "+k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// PluralProblems lists counted messages that lack a form their language
// needs, have a form it never uses, or count by another parameter than the
// same message in another language (or do not count there at all).
func PluralProblems(catalogs map[string]Catalog) []string {
	var out []string
	langs := []string{}
	for lang := range catalogs {
		langs = append(langs, lang)
	}
	sort.Slice(langs, func(i, j int) bool { // the default first, then by name
		return langs[i] == DefaultLang || langs[j] != DefaultLang && langs[i] < langs[j]
	})
	counts := map[string]string{} // key → parameter, from the first language that counts it
	for _, lang := range langs {
		for k, m := range catalogs[lang] {
			if _, seen := counts[k]; !seen && m.Counted() {
				counts[k] = m.Plural
			}
		}
	}
	for lang, c := range catalogs {
		need := Categories(lang)
		for k, m := range c {
			by, counted := counts[k]
			switch {
			case !counted:
				continue
			case !m.Counted():
				out = append(out, fmt.Sprintf("%s: %s has no plural forms", lang, k))
				continue
			case m.Plural != by:
				out = append(out, fmt.Sprintf("%s: %s counts by %s, elsewhere by %s", lang, k, m.Plural, by))
			}
			for _, cat := range need {
				if strings.TrimSpace(m.Forms[cat]) == "" {
					out = append(out, fmt.Sprintf("%s lacks %s[%s]", lang, k, cat))
				}
			}
			for cat := range m.Forms {
				if !contains(need, cat) {
					out = append(out, fmt.Sprintf("%s: %s[%s] is a form the language does not use", lang, k, cat))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Categories lists the CLDR plural categories lang uses for cardinal
// numbers, in CLDR's order: found by asking the rules about whole numbers
// up to 1000 and about a few decimals, which covers every rule CLDR has.
func Categories(lang string) []string {
	tag := language.Make(lang)
	seen := map[plural.Form]bool{}
	for i := 0; i <= 1000; i++ {
		seen[plural.Cardinal.MatchPlural(tag, i, 0, 0, 0, 0)] = true
		seen[plural.Cardinal.MatchPlural(tag, i, 1, 1, 5, 5)] = true // i.5
	}
	seen[plural.Cardinal.MatchPlural(tag, 1, 2, 2, 10, 1)] = true // 1.10
	var out []string
	for _, f := range []plural.Form{plural.Zero, plural.One, plural.Two, plural.Few, plural.Many, plural.Other} {
		if seen[f] {
			out = append(out, categoryOf[f])
		}
	}
	return out
}

// Category gives the CLDR plural category of the number n in lang. n is an
// integer, a float or a decimal string; anything else counts as "other".
func Category(lang string, n any) string {
	var s string
	switch v := n.(type) {
	case string:
		s = v
	case float64:
		s = strconv.FormatFloat(v, 'f', -1, 64)
	case float32:
		s = strconv.FormatFloat(float64(v), 'f', -1, 32)
	default:
		s = fmt.Sprint(v)
	}
	s = strings.TrimPrefix(strings.TrimSpace(s), "-")
	whole, frac, _ := strings.Cut(s, ".")
	i, err := strconv.Atoi(whole)
	if err != nil || strings.Trim(frac, "0123456789") != "" {
		return "other"
	}
	trimmed := strings.TrimRight(frac, "0")
	f, _ := strconv.Atoi(frac)
	t, _ := strconv.Atoi(trimmed)
	return categoryOf[plural.Cardinal.MatchPlural(language.Make(lang), i, len(frac), len(trimmed), f, t)]
}

// T translates key into lang. args are name, value pairs that fill {name}
// placeholders; a counted message takes its form from the value of its
// counting parameter. A missing key shows itself, so it is noticed.
func (s *Site) T(lang, key string, args ...any) string {
	m, ok := s.catalogs[lang][key]
	if !ok {
		return key
	}
	text := m.Text
	if m.Counted() {
		cat := "other"
		for i := 0; i+1 < len(args); i += 2 {
			if fmt.Sprint(args[i]) == m.Plural {
				cat = Category(lang, args[i+1])
				break
			}
		}
		text, ok = m.Forms[cat]
		if !ok {
			text = m.Forms["other"]
		}
	}
	for i := 0; i+1 < len(args); i += 2 {
		text = strings.ReplaceAll(text, "{"+fmt.Sprint(args[i])+"}", fmt.Sprint(args[i+1]))
	}
	return text
}

// TimeControl says c as the start form offers it ("3 min + 2 s a move",
// "3 days per move"), or "" for a game without a clock.
func (s *Site) TimeControl(lang string, c clock.Control) string {
	switch {
	case c.None():
		return ""
	case c.Days != 0:
		return s.T(lang, "clock.days", "days", c.Days)
	}
	return s.T(lang, "clock.preset", "time", s.Span(lang, c.Initial), "seconds", int(c.Increment.Seconds()))
}

// Span says d in whole hours, minutes and seconds, leaving out the parts
// that are nought: "15 s", "1 min 1 s", "1 h 30 min". A fraction of a
// minute ("0.25 min") makes a reader stop and work it out.
func (s *Site) Span(lang string, d time.Duration) string {
	h, m, sec := clock.HMS(d)
	var parts []string
	if h > 0 {
		parts = append(parts, s.T(lang, "clock.span_h", "hours", h))
	}
	if m > 0 {
		parts = append(parts, s.T(lang, "clock.span_min", "minutes", m))
	}
	if sec > 0 || len(parts) == 0 {
		parts = append(parts, s.T(lang, "clock.span_s", "seconds", sec))
	}
	return strings.Join(parts, " ")
}

// Lang picks the language for a request: a choice remembered in the
// "lang" cookie, else the browser's Accept-Language, else English.
func (s *Site) Lang(r *http.Request) string {
	if c, err := r.Cookie("lang"); err == nil {
		if _, ok := s.catalogs[c.Value]; ok {
			return c.Value
		}
	}
	return s.negotiate(r.Header.Get("Accept-Language"))
}

// Known reports whether lang has a catalogue.
func (s *Site) Known(lang string) bool {
	_, ok := s.catalogs[lang]
	return ok
}

func (s *Site) negotiate(header string) string {
	best, bestQ := DefaultLang, 0.0
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		base, _, _ := strings.Cut(strings.ToLower(tag), "-")
		if _, ok := s.catalogs[base]; ok && q > bestQ {
			best, bestQ = base, q
		}
	}
	return best
}
