package web

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// placeholder finds a message's {name} placeholders.
var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// Every reason the rules and the record readers give (game.Because, and
// the words of game.Word) has a message in every language, with the same
// placeholders, and the English message says what the code says; every
// message of a reason is given by some code.
func TestReasonsAreTranslated(t *testing.T) {
	catalogs, err := loadCatalogs()
	if err != nil {
		t.Fatal(err)
	}
	given := map[string]string{} // key -> English, from the code
	root := filepath.Join("..", "..")
	for _, dir := range []string{"game", "games", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				return err
			}
			note := func(key, text ast.Expr, built bool) {
				k, ok1 := stringLit(key)
				v, ok2 := stringLit(text)
				switch {
				case !ok1 && built:
					// A word built from a key's parts (an option's, a
					// game's name) names a message of the site's own.
				case !ok1 || !ok2:
					t.Errorf("%s: a reason whose key or English is not a constant string", path)
				case !strings.HasPrefix(k, "why."):
					t.Errorf("%s: reason %s is not under why.", path, k)
				default:
					if old, ok := given[k]; ok && old != v {
						t.Errorf("%s: reason %s is %q here and %q elsewhere", path, k, v, old)
					}
					given[k] = v
				}
			}
			word := func(lit *ast.CompositeLit) {
				var key, text ast.Expr
				for _, el := range lit.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						switch calledName(kv.Key) {
						case "Key":
							key = kv.Value
						case "Text":
							text = kv.Value
						}
					}
				}
				note(key, text, true)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					if calledName(n.Fun) == "Because" && len(n.Args) >= 2 {
						note(n.Args[0], n.Args[1], false)
					}
				case *ast.CompositeLit:
					if calledName(n.Type) == "Word" {
						word(n)
					}
					// Words in a list of them: [8]game.Word{{Key: …}, …}
					if list, ok := n.Type.(*ast.ArrayType); ok && calledName(list.Elt) == "Word" {
						for _, el := range n.Elts {
							if lit, ok := el.(*ast.CompositeLit); ok {
								word(lit)
							}
						}
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(given) < 50 {
		t.Fatalf("only %d reasons found in the code", len(given))
	}
	for key, english := range given {
		want := slices.Sorted(slices.Values(placeholder.FindAllString(english, -1)))
		for lang, c := range catalogs {
			m, ok := c[key]
			switch {
			case !ok:
				t.Errorf("%s has no message %s (%q)", lang, key, english)
				continue
			case lang == "en" && m.Text != english:
				t.Errorf("en %s is %q, the code says %q", key, m.Text, english)
			}
			if got := slices.Sorted(slices.Values(placeholder.FindAllString(m.Text, -1))); !slices.Equal(got, want) {
				t.Errorf("%s %s has placeholders %v, want %v", lang, key, got, want)
			}
		}
	}
	for lang, c := range catalogs {
		for key := range c {
			if _, ok := given[key]; strings.HasPrefix(key, "why.") && !ok {
				t.Errorf("%s %s: no code gives this reason", lang, key)
			}
		}
	}
}

// calledName is the name of a function, type or field, package or not.
func calledName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

// stringLit is the value of a constant string.
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}
