package web

import (
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
)

// staticImport finds a module's static imports of its siblings:
// import … from './x.js' and export … from './x.js'.
var staticImport = regexp.MustCompile(`(?m)^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.{1,2}/[^'"]+)['"]|^\s*import\s*['"](\.{1,2}/[^'"]+)['"]`)

// moduleGraph maps each script under static/js ("js/game.js") to the
// scripts it imports statically.
func moduleGraph() (map[string][]string, error) {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		return nil, err
	}
	graph := map[string][]string{}
	err = fs.WalkDir(sub, "js", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		src, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		graph[p] = []string{}
		for _, m := range staticImport.FindAllStringSubmatch(string(src), -1) {
			target := m[1] + m[2]
			graph[p] = append(graph[p], path.Join(path.Dir(p), target))
		}
		return nil
	})
	return graph, err
}

// modules lists the entry scripts and everything they import, directly or
// not, sorted: what a page preloads so that the browser fetches them all
// at once instead of one import after another.
func (s *Site) modules(entries ...string) []string {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		if seen[p] {
			return
		}
		if _, ok := s.graph[p]; !ok {
			return // not a script of ours
		}
		seen[p] = true
		for _, q := range s.graph[p] {
			walk(q)
		}
	}
	for _, e := range entries {
		walk(e)
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// dynamicImport finds a module's imports on demand of its siblings by a
// fixed name: import('./x.js').
var dynamicImport = regexp.MustCompile(`\bimport\(\s*['"](\.{1,2}/[^'"]+)['"]\s*\)`)

// messageKeys tells which messages the scripts reachable from entries,
// statically or on demand, may ask for. A script names a message in
// full ('status.your_turn') or builds it from a beginning ('result.' +
// reason, `offer.${kind}_sent`); a string of a script that ends in a dot
// or an underscore is taken as such a beginning.
func messageKeys(entries ...string) (func(key string) bool, error) {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		return nil, err
	}
	exact := map[string]bool{}
	var prefixes []string
	seen := map[string]bool{}
	var walk func(p string) error
	walk = func(p string) error {
		if seen[p] {
			return nil
		}
		seen[p] = true
		src, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		text := string(src)
		for _, s := range literals(text) {
			if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "_") {
				prefixes = append(prefixes, s)
			} else {
				exact[s] = true
			}
		}
		var next []string
		for _, m := range staticImport.FindAllStringSubmatch(text, -1) {
			next = append(next, m[1]+m[2])
		}
		for _, m := range dynamicImport.FindAllStringSubmatch(text, -1) {
			next = append(next, m[1])
		}
		for _, q := range next {
			if err := walk(path.Join(path.Dir(p), q)); err != nil {
				return err
			}
		}
		return nil
	}
	for _, e := range entries {
		if err := walk(e); err != nil {
			return nil, err
		}
	}
	return func(key string) bool {
		if exact[key] {
			return true
		}
		for _, p := range prefixes {
			if strings.HasPrefix(key, p) {
				return true
			}
		}
		return false
	}, nil
}
