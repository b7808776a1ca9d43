package store

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	// Every commit goes through the one writing connection. In WAL mode
	// FULL (2) syncs the log at each commit; NORMAL (1) leaves that to
	// the checkpoints, so a power cut may lose the last commits; OFF (0)
	// would lose anything.
	for _, tt := range []struct {
		mode Sync
		want int
	}{{SyncDisk, 2}, {SyncOS, 1}} {
		s, err := OpenSQLiteSync(filepath.Join(t.TempDir(), "games.db"), tt.mode)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := t.Context()
		for name, db := range map[string]*sql.DB{"writing": s.write, "reading": s.read, "checkpointing": s.checkpoint} {
			var mode string
			if err := db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
				t.Errorf("%s connection: journal_mode %q, %v; want wal", name, mode, err)
			}
			var sync, auto int
			if err := db.QueryRowContext(ctx, `PRAGMA synchronous`).Scan(&sync); err != nil || sync != tt.want {
				t.Errorf("Sync %d, %s connection: synchronous = %d, %v; want %d", tt.mode, name, sync, err, tt.want)
			}
			// The writer must never stop to checkpoint: checkpoints does.
			if err := db.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&auto); err != nil || auto != 0 {
				t.Errorf("%s connection: wal_autocheckpoint = %d, %v; want 0", name, auto, err)
			}
		}
		var keys int
		if err := s.write.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&keys); err != nil || keys != 1 {
			t.Errorf("foreign_keys = %d, %v; want 1", keys, err)
		}
	}
}

// openSizedStore opens a new store with SyncOS, closed with the test, and
// a function that gives the size of its database file.
func openSizedStore(t *testing.T) (*SQLite, func() int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.db")
	s, err := OpenSQLiteSync(path, SyncOS)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, func() int64 {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
}

// The log is copied into the database file while the store is open, not
// only when it closes: the file grows as moves come in.
func TestCheckpointsWhileOpen(t *testing.T) {
	s, size := openSizedStore(t)
	ctx := t.Context()
	before := size()
	for i := range 50 {
		id := fmt.Sprintf("game%06d", i)
		if err := s.Create(ctx, sample(id)); err != nil {
			t.Fatal(err)
		}
		for seq := 1; seq <= 40; seq++ {
			if err := s.Append(ctx, id, []Event{move(seq, "e5")}, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A checkpoint is due once checkpointAfter writes have gathered (here
	// 2,050), looked at every checkpointEvery; give it many.
	for deadline := time.Now().Add(30 * checkpointEvery); size() <= before+64<<10; time.Sleep(checkpointEvery / 10) {
		if time.Now().After(deadline) {
			t.Fatalf("the database file is still %d bytes (%d at the start): no checkpoint while open", size(), before)
		}
	}
}

// A quiet store leaves its log be: a checkpoint would make the next
// commit start the log anew and wait for the disk. It syncs the log
// instead, as a checkpoint would have.
func TestQuietStoreKeepsItsLog(t *testing.T) {
	s, size := openSizedStore(t)
	ctx := t.Context()
	if err := s.Create(ctx, sample("quiet")); err != nil {
		t.Fatal(err)
	}
	for seq := 1; seq <= 20; seq++ {
		if err := s.Append(ctx, "quiet", []Event{move(seq, "e5")}, nil); err != nil {
			t.Fatal(err)
		}
	}
	before := size()
	time.Sleep(2 * checkpointEvery)
	// Instead the log was synced, and it is not synced again while
	// nothing is written.
	synced := s.logSyncs.Load()
	if synced == 0 {
		t.Error("the log was not synced")
	}
	time.Sleep(3 * checkpointEvery / 2)
	if n := s.logSyncs.Load(); n != synced {
		t.Errorf("the log was synced again (%d times, then %d) with nothing written", synced, n)
	}
	if after := size(); after != before {
		t.Fatalf("the database file went from %d to %d bytes: the log of 20 moves was copied", before, after)
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

// A new database has small pages, so that a move writes a kilobyte to the
// log; a database made before keeps its pages and its data.
func TestPageSize(t *testing.T) {
	ctx := t.Context()
	pageSize := func(path string) int {
		t.Helper()
		s, err := OpenSQLite(path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var size int
		if err := s.write.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&size); err != nil {
			t.Fatal(err)
		}
		return size
	}
	fresh := filepath.Join(t.TempDir(), "games.db")
	if got := pageSize(fresh); got != 1024 {
		t.Errorf("a new database has pages of %d bytes, want 1024", got)
	}
	if got := pageSize(fresh); got != 1024 {
		t.Errorf("reopened, %d bytes, want 1024", got)
	}
	old := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+old)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; CREATE TABLE kept (a)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got := pageSize(old); got != 4096 {
		t.Errorf("an older database now has pages of %d bytes, want its 4096", got)
	}
}

// Readers busy at once leave their connections open for the next, rather
// than each setting up a connection of its own and closing it again.
func TestReadersKeepTheirConnections(t *testing.T) {
	s := openSQLiteTest(t)
	ctx := t.Context()
	var open []*sql.Rows
	for range 4 {
		rows, err := s.read.QueryContext(ctx, `SELECT 1`)
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, rows)
	}
	for _, rows := range open {
		rows.Close()
	}
	if st := s.read.Stats(); st.MaxIdleClosed != 0 || st.Idle != 4 {
		t.Errorf("after 4 readers at once: %d connections idle, %d closed; want 4 and none", st.Idle, st.MaxIdleClosed)
	}
}
