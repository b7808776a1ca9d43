package web

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Catalog maps message keys to text with {name} placeholders.
type Catalog map[string]string

// DefaultLang is used when nothing else says which language to speak.
const DefaultLang = "en"

// loadCatalogs reads i18n/<lang>/*.json: one folder per language, one file
// per part of the site (the site itself, each game). A key may stand in one
// file of a language only, and every language must have every key.
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
	if missing := MissingKeys(out); len(missing) > 0 {
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

// T translates key into lang. args are name, value pairs that fill {name}
// placeholders. A missing key shows itself, so it is noticed.
func (s *Site) T(lang, key string, args ...any) string {
	text, ok := s.catalogs[lang][key]
	if !ok {
		return key
	}
	for i := 0; i+1 < len(args); i += 2 {
		text = strings.ReplaceAll(text, "{"+fmt.Sprint(args[i])+"}", fmt.Sprint(args[i+1]))
	}
	return text
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
