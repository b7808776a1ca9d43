package store

import (
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// openSQLiteTest opens a SQLite store on a test's own file.
func openSQLiteTest(t *testing.T) *SQLite {
	t.Helper()
	s, err := OpenSQLite(filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A kill -9 leaves the page cache behind, so it cannot show a missing
// sync: what makes an acknowledged commit survive a power cut is how the
// connections are set up, so check the open database itself.
func TestDurabilitySettings(t *testing.T) {
	s := openSQLiteTest(t)
	ctx := t.Context()
	for name, db := range map[string]*sql.DB{"writing": s.write, "reading": s.read} {
		var mode string
		if err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("%s connection: journal_mode %q, %v; want wal", name, mode, err)
		}
	}
	// Every commit goes through the one writing connection. In WAL mode
	// FULL (2) syncs the log at each commit; NORMAL (1) may lose the last
	// commits to a power cut, OFF (0) anything.
	var sync, keys int
	if err := s.write.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&sync); err != nil || sync < 2 {
		t.Errorf("synchronous = %d, %v; want FULL (2) or EXTRA (3)", sync, err)
	}
	if err := s.write.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&keys); err != nil || keys != 1 {
		t.Errorf("foreign_keys = %d, %v; want 1", keys, err)
	}
}

// Errors say what was being done and to which game, and keep the cases
// callers branch on.
func TestErrorsNameTheGame(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) { errorsNameTheGame(t, open(t)) })
}

func errorsNameTheGame(t *testing.T, s testStore) {
	ctx := t.Context()
	g := sample("abcdefghij")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	at := g.Created
	_, _, loadErr := s.Load(ctx, "zzzzzzzzzz")
	for _, tt := range []struct {
		name, words string
		err, is     error
	}{
		{"load", "game zzzzzzzzzz: loading: no such game", loadErr, ErrNotFound},
		{"create", "game abcdefghij: creating: ", s.Create(ctx, g), nil},
		{"append", "game zzzzzzzzzz: appending event 1: no such game",
			s.Append(ctx, "zzzzzzzzzz", []Event{{Seq: 1, Kind: "move", Seat: "white", Move: "e5", At: at}}, nil), ErrNotFound},
		{"append out of turn", "game abcdefghij: appending event 2: conflict",
			s.Append(ctx, g.ID, []Event{{Seq: 2, Kind: "move", Seat: "white", Move: "e5", At: at}}, nil), ErrConflict},
		{"join", "game zzzzzzzzzz: taking the black seat: no such game", s.Join(ctx, "zzzzzzzzzz", "black", []byte("x"), JoinKey{}, at), ErrNotFound},
		{"join a taken seat", "game abcdefghij: taking the white seat: conflict", s.Join(ctx, g.ID, "white", []byte("x"), JoinKey{}, at), ErrConflict},
		{"follow", "game zzzzzzzzzz: linking the next game klmnopqrst: no such game", s.Follow(ctx, "zzzzzzzzzz", sample("klmnopqrst")), ErrNotFound},
	} {
		if tt.err == nil || !strings.HasPrefix(tt.err.Error(), tt.words) || tt.is != nil && !errors.Is(tt.err, tt.is) {
			t.Errorf("%s: %v; want %q", tt.name, tt.err, tt.words)
		}
		if errors.Is(tt.err, ErrConflict) && tt.is != ErrConflict {
			t.Errorf("%s: %v is a conflict", tt.name, tt.err)
		}
	}
	if _, _, err := s.Load(ctx, "klmnopqrst"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the follower of an unknown game was stored: %v", err)
	}
}
