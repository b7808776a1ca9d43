package gametest

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Corpus reads a table of the shared reference data, ../shared/corpus/
// <game>/<file> beside the module root, as one map per row keyed by the
// header. A missing file fails the test: the corpus is the engines' main
// check, never to be skipped.
func Corpus(t testing.TB, game, file string) []map[string]string {
	t.Helper()
	path := filepath.Join(moduleRoot(t), "..", "shared", "corpus", game, file)
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("reference data missing: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var header []string
	var rows []map[string]string
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if header == nil {
			header = fields
			continue
		}
		if len(fields) != len(header) {
			t.Fatalf("%s line %d: %d fields, want %d", path, len(rows)+2, len(fields), len(header))
		}
		row := make(map[string]string, len(header))
		for i, h := range header {
			row[h] = fields[i]
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no rows", path)
	}
	return rows
}

// moduleRoot is the first directory above the test's working directory
// that holds go.mod.
func moduleRoot(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory: cannot find the reference data")
		}
		dir = parent
	}
}
