// Package browsertest lets the tests of other packages play bretter the way
// people do: it builds and starts a real `bretter serve` on a free port and
// opens independent Chromium profiles, one per player. It is imported only by
// _test.go files; the site itself never uses it.
package browsertest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// build remembers the one build of the bretter binary per test binary.
var build struct {
	once sync.Once
	path string
	err  error
}

// Build builds ./cmd/bretter once per test binary and returns the path of
// the executable. Every later call returns the same path.
func Build(t testing.TB) string {
	t.Helper()
	build.once.Do(func() { build.path, build.err = buildBinary() })
	if build.err != nil {
		t.Fatalf("browsertest: %v", build.err)
	}
	return build.path
}

// buildBinary builds into a fixed directory per checkout, so repeated runs
// leave one binary behind rather than one per run. The build goes to a fresh
// name and is renamed into place: test binaries of several packages build at
// the same time, and a server already running from the old file keeps it.
func buildBinary() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(os.TempDir(), "bretter-browsertest-"+hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("building bretter: %w", err)
	}
	f, err := os.CreateTemp(dir, "bretter-*")
	if err != nil {
		return "", fmt.Errorf("building bretter: %w", err)
	}
	tmp := f.Name()
	f.Close()

	cmd := exec.Command("go", "build", "-o", tmp, "bretter/cmd/bretter")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("building bretter: %w\n%s", err, out)
	}
	path := filepath.Join(dir, "bretter")
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("building bretter: %w", err)
	}
	return path, nil
}

// moduleRoot finds the directory of go.mod by walking up from the working
// directory, which go test sets to the directory of the package under test.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding the module root: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("finding the module root: no go.mod above the working directory")
		}
		dir = parent
	}
}

// artifactsDir is where tests leave files for people to look at:
// $BRETTER_ARTIFACTS, or testdata/artifacts in the module root (git-ignored).
func artifactsDir() (string, error) {
	if dir := os.Getenv("BRETTER_ARTIFACTS"); dir != "" {
		return dir, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "testdata", "artifacts"), nil
}
