package web

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestCompactScript(t *testing.T) {
	src := strings.Join([]string{
		"// A module.",
		"import { t } from './i18n.js';",
		"",
		"export function f(a, b) {",
		"  /* both */ const q = a / b; // divided",
		"  const path = s.replace(/\\/\\//g, '/'); // two slashes are one",
		"  return `first",
		"    // kept: this is text",
		"  ${a/*x*/b}` + \"//not a comment\";",
		"}",
	}, "\n")
	want := strings.Join([]string{
		"import { t } from './i18n.js';",
		"export function f(a, b) {",
		"const q = a / b; ",
		"const path = s.replace(/\\/\\//g, '/'); ",
		"return `first",
		"    // kept: this is text",
		"  ${a b}` + \"//not a comment\";",
		"}",
	}, "\n")
	if got := compactScript(src); got != want {
		t.Errorf("compactScript:\n%s\nwant:\n%s", got, want)
	}
}

// Every script reads back piece by piece as it is, and keeps every string
// it has when compacted.
func TestScriptsCompactAsTheyAre(t *testing.T) {
	err := fs.WalkDir(staticFS, "static/js", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := staticFS.ReadFile(p)
		if err != nil {
			return err
		}
		src := string(b)
		var all strings.Builder
		scanScript(src, func(_ pieceKind, text string) { all.WriteString(text) })
		if all.String() != src {
			t.Errorf("%s: its pieces are not the script", p)
		}
		c := compactScript(src)
		if strings.Join(literals(c), "\x00") != strings.Join(literals(src), "\x00") {
			t.Errorf("%s: compacting changed its strings", p)
		}
		if len(c) > len(src)*9/10 {
			t.Errorf("%s: compacted to %d bytes of %d", p, len(c), len(src))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestCompactStyle(t *testing.T) {
	src := "/* the site */\n.a {\n  color: red; /* why */\n  content: \"a: b\";\n}\n\n\n.b { margin: 0; }\n.c:hover,\n.d\n.e {\n}\n@media (max-width: 40rem) {\n.f { order: 1; }\n}\n"
	want := ".a{color:red;content:\"a: b\"}.b { margin: 0; }.c:hover,.d\n.e{}@media (max-width: 40rem){.f { order: 1; }}"
	if got := compactStyle(src); got != want {
		t.Errorf("compactStyle: %q, want %q", got, want)
	}
}

// Compacting the site's own sheets takes out only whitespace and the
// semicolon before a closing brace.
func TestCompactStyleOfTheSheets(t *testing.T) {
	comment := regexp.MustCompile(`(?s)/\*.*?\*/`)
	bare := func(s string) string {
		return strings.ReplaceAll(strings.Join(strings.Fields(s), ""), ";}", "}")
	}
	eachFile(t, staticFS, "static/css/*.css", func(name, src string) {
		if got, want := bare(compactStyle(src)), bare(comment.ReplaceAllString(src, "")); got != want {
			t.Errorf("%s: compacting changed more than whitespace", name)
		}
	})
}

// eachFile calls f with the name and text of each file of fsys that
// pattern matches; there must be some.
func eachFile(t *testing.T, fsys fs.FS, pattern string, f func(name, src string)) {
	t.Helper()
	names, err := fs.Glob(fsys, pattern)
	if err != nil || len(names) == 0 {
		t.Fatalf("no %s: %v", pattern, err)
	}
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		f(name, string(b))
	}
}

func TestCompactPage(t *testing.T) {
	src := "{{define \"x\"}}\n<div>\n  <p>a\n    b</p>\n\n  \t\n  {{if .}}<em>c</em>{{end}}\n</div>\n{{end}}\n"
	want := "{{define \"x\"}}\n<div>\n<p>a\nb</p>\n{{if .}}<em>c</em>{{end}}\n</div>\n{{end}}\n"
	if got := compactPage(src); got != want {
		t.Errorf("compactPage: %q, want %q", got, want)
	}
}

// Compacting the page templates takes out only whitespace that means
// nothing: they have no <pre>, and no tag or action over several lines,
// whose attributes and strings would lose their spaces.
func TestCompactPageOfTheTemplates(t *testing.T) {
	across := regexp.MustCompile(`<[a-zA-Z][^>]*\n|\{\{[^}]*\n|<pre\b`)
	eachFile(t, templateFS, "templates/*.html", func(name, src string) {
		if m := across.FindString(src); m != "" {
			t.Errorf("%s: %q would not stay the same", name, m)
		}
		if got, want := strings.Fields(compactPage(src)), strings.Fields(src); !slices.Equal(got, want) {
			t.Errorf("%s: compacting changed more than whitespace", name)
		}
	})
}
