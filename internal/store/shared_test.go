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

// An instance that starts, or notes the site up, after nobody was seen up
// for longer than the gap records that outage, with the grace it gives;
// one that finds the site up, or starts on a new database, records none.
// Every instance and every restart reads the same outages.
func TestOutages(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		s := open(t)
		t0 := time.UnixMilli(1_790_000_000_000)
		const gap, grace = 3 * time.Second, 5 * time.Second
		seen := func(s testStore, now time.Time, want ...clock.Outage) {
			t.Helper()
			got, err := s.SeenUp(ctx, now, gap, grace)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("seen up at %v: outages %v, want %v", now.Sub(t0), got, want)
			}
		}
		seen(s, t0) // a new site: nothing to say how long it was down
		for i := range 5 {
			seen(s, t0.Add(time.Duration(i)*time.Second))
		}
		seen(s, t0.Add(6*time.Second)) // 2 s since the last sign: up
		first := clock.Outage{From: t0.Add(6 * time.Second), To: t0.Add(36 * time.Second), Grace: grace}
		again := open(t)
		seen(again, first.To, first)
		// Another instance starting a moment later finds the site up.
		seen(open(t), first.To.Add(time.Second), first)
		// An instance up learns of the outages with its notes.
		seen(s, first.To.Add(2*time.Second), first)
		// An instance that notes again after a silence, frozen or
		// starved meanwhile, records it as an outage.
		second := clock.Outage{From: first.To.Add(2 * time.Second), To: t0.Add(200*time.Second + 5*time.Millisecond), Grace: 1500 * time.Millisecond}
		if got, err := s.SeenUp(ctx, second.To, gap, second.Grace); err != nil || !slices.Equal(got, []clock.Outage{first, second}) {
			t.Fatalf("seen up after a silence: %v, %v", got, err)
		}
		seen(open(t), second.To.Add(time.Second), first, second)
		// An instance whose system clock is behind does not move the
		// last sign back: the others, ahead, find no silence.
		ahead := second.To.Add(2 * time.Second)
		seen(s, ahead, first, second)
		for i := range 5 {
			seen(again, ahead.Add(time.Duration(i-4)*time.Second), first, second)
			seen(s, ahead.Add(time.Duration(i+1)*time.Second), first, second)
		}
	})
}
