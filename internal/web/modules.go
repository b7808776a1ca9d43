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
