package web

import (
	"io/fs"
	"regexp"
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
	if len(catalogs) < 2 {
		t.Fatalf("%d languages, want German and English at least", len(catalogs))
	}
	if missing := MissingKeys(catalogs); len(missing) > 0 {
		t.Fatalf("catalogues differ:\n%s", strings.Join(missing, "\n"))
	}
	for lang, c := range catalogs {
		for k, v := range c {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: %s is empty", lang, k)
			}
		}
	}
}

// The check itself must catch a gap.
func TestMissingKeys(t *testing.T) {
	got := MissingKeys(map[string]Catalog{"en": {"a": "A", "b": "B"}, "de": {"a": "A"}})
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
