package web

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// staticImport finds a module's static imports of its siblings:
// import … from './x.js' and export … from './x.js'.
var staticImport = regexp.MustCompile(`(?m)^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.{1,2}/[^'"]+)['"]|^\s*import\s*['"](\.{1,2}/[^'"]+)['"]`)

// dynamicImport finds a module's imports on demand of its siblings by a
// fixed name: import('./x.js').
var dynamicImport = regexp.MustCompile(`\bimport\(\s*['"](\.{1,2}/[^'"]+)['"]\s*\)`)

// module is what the site needs to know of one script: the scripts it
// imports statically and on demand, and the strings it names.
type module struct {
	imports, lazy []string
	literals      []string
}

// moduleGraph maps each script under static/js ("js/game.js") to what it
// imports and names.
func moduleGraph() (map[string]module, error) {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		return nil, err
	}
	graph := map[string]module{}
	err = fs.WalkDir(sub, "js", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		src, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		text := string(src)
		m := module{imports: []string{}, literals: literals(text)}
		for _, i := range staticImport.FindAllStringSubmatch(text, -1) {
			m.imports = append(m.imports, path.Join(path.Dir(p), i[1]+i[2]))
		}
		for _, i := range dynamicImport.FindAllStringSubmatch(text, -1) {
			m.lazy = append(m.lazy, path.Join(path.Dir(p), i[1]))
		}
		graph[p] = m
		return nil
	})
	return graph, err
}

// reach lists the entry scripts and everything they import, directly or
// not (on demand too when lazy is set), sorted.
func reach(graph map[string]module, lazy bool, entries ...string) []string {
	return reachBut(graph, lazy, nil, entries...)
}

// reachBut is reach that does not go into the scripts in but.
func reachBut(graph map[string]module, lazy bool, but []string, entries ...string) []string {
	seen := map[string]bool{}
	for _, p := range but {
		seen[p] = true
	}
	var walk func(string)
	walk = func(p string) {
		if seen[p] {
			return
		}
		m, ok := graph[p]
		if !ok {
			return // not a script of ours
		}
		seen[p] = true
		for _, q := range m.imports {
			walk(q)
		}
		if lazy {
			for _, q := range m.lazy {
				walk(q)
			}
		}
	}
	for _, e := range entries {
		walk(e)
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		if !slices.Contains(but, p) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// modules lists the entry scripts and everything they import statically:
// what a page preloads so that the browser fetches them all at once
// instead of one import after another.
func (s *Site) modules(entries ...string) []string { return reach(s.graph, false, entries...) }

// messageKeys tells which messages the scripts reachable from entries,
// statically or on demand, may ask for. A script names a message in
// full ('status.your_turn') or builds it from a beginning ('result.' +
// reason, `offer.${kind}_sent`); a string of a script that ends in a dot
// or an underscore is taken as such a beginning. The scripts in but, and
// what only they import, are left out.
func messageKeys(graph map[string]module, but []string, entries ...string) func(key string) bool {
	exact := map[string]bool{}
	var prefixes []string
	for _, p := range reachBut(graph, true, but, entries...) {
		for _, s := range graph[p].literals {
			if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "_") {
				prefixes = append(prefixes, s)
			} else {
				exact[s] = true
			}
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
	}
}

// ScriptMessages is the part of lang's catalogue that the scripts
// reachable from entries, statically or on demand, but not through the
// scripts in but, may ask for (see messageKeys): what a page that runs
// them has to carry, for a test to hold a page's catalogue to.
func (s *Site) ScriptMessages(lang string, but []string, entries ...string) Catalog {
	used := messageKeys(s.graph, but, entries...)
	out := Catalog{}
	for key, m := range s.catalogs[lang] {
		if used(key) {
			out[key] = m
		}
	}
	return out
}
