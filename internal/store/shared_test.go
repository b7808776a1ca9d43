package store

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"bretter/internal/clock"
)

// Instances started at once on a new file each bring the schema up to
// date, and every migration runs once.
func TestOpenAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	const n = 4
	stores := make([]*SQLite, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { stores[i], errs[i] = OpenSQLite(path) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("opening %d: %v", i, errs[i])
		}
		defer stores[i].Close()
	}
	var rows, version int
	if err := stores[0].read.QueryRow(`SELECT COUNT(*), MAX(version) FROM schema_version`).Scan(&rows, &version); err != nil {
		t.Fatal(err)
	}
	if rows != 1 || version != len(migrations) {
		t.Fatalf("schema_version has %d rows, version %d; want 1 row, version %d", rows, version, len(migrations))
	}
}

// A game's mark changes with each of its changes: an event, a seat
// taken, the next game, a chat line.
func TestMarkFollowsEveryChange(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		testMark(t, open(t).(markStore))
	})
}

// markStore is a store that tells a game's mark.
type markStore interface {
	testStore
	Mark(ctx context.Context, id string) (Mark, error)
}

func testMark(t *testing.T, s markStore) {
	ctx := t.Context()
	g := sample("abcdefghij")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Mark(ctx, "nosuchgame"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the mark of no game: %v", err)
	}
	seen := map[Mark]string{}
	note := func(what string) {
		t.Helper()
		m, err := s.Mark(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if before, ok := seen[m]; ok {
			t.Fatalf("after %s the mark %+v is the one after %s", what, m, before)
		}
		seen[m] = what
	}
	note("creating")
	at := g.Created.Add(time.Second)
	if err := s.Join(ctx, g.ID, "black", []byte("black-hash"), JoinKey{}, at); err != nil {
		t.Fatal(err)
	}
	note("joining")
	if err := s.Append(ctx, g.ID, []Event{{Seq: 1, Kind: "move", Seat: "white", Move: "a1", At: at}}, nil); err != nil {
		t.Fatal(err)
	}
	note("a move")
	if _, err := s.Say(ctx, g.ID, ChatLine{Seat: "white", Text: "hi", At: at}); err != nil {
		t.Fatal(err)
	}
	note("a chat line")
	if err := s.Append(ctx, g.ID, []Event{{Seq: 2, Kind: "resign", Seat: "black", At: at}}, &Ending{Winner: "white", Reason: "resign"}); err != nil {
		t.Fatal(err)
	}
	note("the end")
	next := sample("bcdefghijk")
	if err := s.Follow(ctx, g.ID, next); err != nil {
		t.Fatal(err)
	}
	note("the next game")
}

// An instance that starts after nobody was seen up for longer than the
// gap records that outage, with the grace it gives; one that finds the
// site up, or starts on a new database, records none. Every instance and
// every restart reads the same outages.
func TestOutages(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		s := open(t)
		t0 := time.UnixMilli(1_790_000_000_000)
		const gap, grace = 3 * time.Second, 5 * time.Second
		started := func(s testStore, now time.Time, want ...clock.Outage) {
			t.Helper()
			got, err := s.Started(ctx, now, gap, grace)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("started at %v: outages %v, want %v", now.Sub(t0), got, want)
			}
		}
		started(s, t0) // a new site: nothing to say how long it was down
		for i := range 5 {
			if got, err := s.SeenUp(ctx, t0.Add(time.Duration(i)*time.Second)); err != nil || len(got) != 0 {
				t.Fatalf("seen up: outages %v, %v", got, err)
			}
		}
		started(s, t0.Add(6*time.Second)) // 2 s since the last sign: up
		first := clock.Outage{From: t0.Add(6 * time.Second), To: t0.Add(36 * time.Second), Grace: grace}
		again := open(t)
		started(again, first.To, first)
		// Another instance starting a moment later finds the site up.
		started(open(t), first.To.Add(time.Second), first)
		// An instance up learns of the outages with its notes.
		if got, err := s.SeenUp(ctx, t0.Add(100*time.Second)); err != nil || !slices.Equal(got, []clock.Outage{first}) {
			t.Fatalf("seen up after an outage: %v, %v", got, err)
		}
		// Each outage keeps the grace it was recorded with, to the
		// millisecond.
		second := clock.Outage{From: t0.Add(100 * time.Second), To: t0.Add(200*time.Second + 5*time.Millisecond), Grace: 1500 * time.Millisecond}
		if got, err := open(t).Started(ctx, second.To, gap, second.Grace); err != nil || !slices.Equal(got, []clock.Outage{first, second}) {
			t.Fatalf("started after a second outage: %v, %v", got, err)
		}
		started(s, second.To.Add(time.Second), first, second)
	})
}
