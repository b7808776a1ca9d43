package store

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// request makes the request of an append as Append makes it.
func request(id string, end *Ending, events ...Event) appendRequest {
	return appendRequest{id: id, events: events, end: end, done: make(chan appendAnswer, 1)}
}

func move(seq int, text string) Event {
	return Event{Seq: seq, Kind: "move", Seat: "white", Move: text, At: time.UnixMilli(1_790_000_000_000)}
}

// The observer of commits hears of each transaction of appends once it is
// committed, refused appends included, and of none that failed.
func TestObserveCommits(t *testing.T) {
	s := openSQLiteTest(t)
	ctx := t.Context()
	type commit struct {
		appends int
		took    time.Duration
	}
	var seen []commit // written by the store's writer, read once it is idle
	s.ObserveCommits(func(appends int, took time.Duration) { seen = append(seen, commit{appends, took}) })
	for _, id := range []string{"observed1", "observed2"} {
		if err := s.Create(ctx, sample(id)); err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) != 0 {
		t.Fatalf("creating games counted as appends: %v", seen)
	}
	if err := s.Append(ctx, "observed1", []Event{move(1, "e5")}, nil); err != nil {
		t.Fatal(err)
	}
	batch := []appendRequest{request("observed1", nil, move(2, "d4")), request("observed2", nil, move(1, "c3")), request("observed2", nil, move(1, "stale"))}
	s.writeBatch(batch)
	if len(seen) != 2 || seen[0].appends != 1 || seen[1].appends != 3 || seen[0].took <= 0 || seen[1].took <= 0 {
		t.Fatalf("commits seen: %v, want one of 1 append and one of 3", seen)
	}
	// A transaction that cannot begin is no commit.
	if err := s.write.Close(); err != nil {
		t.Fatal(err)
	}
	failed := request("observed1", nil, move(3, "b2"))
	if err := s.writeBatch([]appendRequest{failed})[0]; err == nil || len(seen) != 2 {
		t.Fatalf("with the database closed: %v, commits seen %v", err, seen)
	}
}

// One transaction holds appends to many games: each is checked on its own,
// a refused one leaves the others be, and of two for the same number in
// the same batch the first lands.
func TestBatchChecksEachAppend(t *testing.T) {
	s := openSQLiteTest(t)
	ctx := t.Context()
	const games = 50
	var batch []appendRequest
	for i := range games {
		id := fmt.Sprintf("game%06d", i)
		if err := s.Create(ctx, sample(id)); err != nil {
			t.Fatal(err)
		}
		batch = append(batch, request(id, nil, move(1, "first")))
	}
	over := request("game000001", &Ending{Winner: "white", Reason: "ring"}, move(2, "e5"))
	stale := request("game000000", nil, move(1, "second"))
	gap := request("game000002", nil, move(2, "x"), move(4, "y"))
	unknown := request("nonexistent", nil, move(1, "x"))
	afterEnd := request("game000001", nil, move(3, "late"))
	rematch := request("game000001", nil, Event{Seq: 3, Kind: "rematch", Seat: "black", At: time.UnixMilli(1_790_000_000_000)})
	batch = append(batch, over, stale, gap, unknown, afterEnd, rematch)
	errs := s.writeBatch(batch)
	for i, req := range batch {
		err := errs[i]
		switch {
		case i < games || i == len(batch)-1 || req.id == over.id && req.end != nil:
			if err != nil {
				t.Errorf("append %d to %s: %v", req.events[0].Seq, req.id, err)
			}
		case req.id == unknown.id:
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("append to an unknown game: %v", err)
			}
		default:
			if !errors.Is(err, ErrConflict) {
				t.Errorf("append %d to %s: %v, want a conflict", req.events[0].Seq, req.id, err)
			}
		}
	}
	for i := range games {
		id := fmt.Sprintf("game%06d", i)
		g, events, err := s.Load(ctx, id)
		want := []string{"first"}
		if i == 1 {
			want = []string{"first", "e5", ""}
		}
		var moves []string
		for _, e := range events {
			moves = append(moves, e.Move)
		}
		if err != nil || g.Version != len(want) || strings.Join(moves, " ") != strings.Join(want, " ") {
			t.Errorf("%s: version %d, moves %q, %v; want %q", id, g.Version, moves, err, want)
		}
		if i == 1 && (g.Status != "over" || g.Winner != "white") {
			t.Errorf("%s: %s, winner %q; want over, won by white", id, g.Status, g.Winner)
		}
	}
}

// An append the database fails (not a refusal: here a trigger aborts it
// after its game was updated) fails alone; the others in its batch land,
// and its game is left as it was.
func TestBatchFailureFailsOnlyItsAppend(t *testing.T) {
	s := openSQLiteTest(t)
	ctx := t.Context()
	if _, err := s.write.ExecContext(ctx, `CREATE TRIGGER refuse_boom BEFORE INSERT ON events WHEN NEW.move = 'boom'
		BEGIN SELECT RAISE(ABORT, 'boom is refused'); END`); err != nil {
		t.Fatal(err)
	}
	var batch []appendRequest
	for i := range 20 {
		id := fmt.Sprintf("game%06d", i)
		if err := s.Create(ctx, sample(id)); err != nil {
			t.Fatal(err)
		}
		text := "e5"
		if i == 7 {
			text = "boom"
		}
		batch = append(batch, request(id, nil, move(1, "d4"), move(2, text)))
	}
	errs := s.writeBatch(batch)
	for i, req := range batch {
		err := errs[i]
		if i == 7 {
			if err == nil || refused(err) || !strings.Contains(err.Error(), "boom is refused") {
				t.Errorf("the failing append: %v", err)
			}
			continue
		}
		if err != nil {
			t.Errorf("append to %s beside a failing one: %v", req.id, err)
		}
	}
	for i, req := range batch {
		want := 2
		if i == 7 {
			want = 0
		}
		if g, events, err := s.Load(ctx, req.id); err != nil || g.Version != want || len(events) != want {
			t.Errorf("%s: version %d, %d events, %v; want %d", req.id, g.Version, len(events), err, want)
		}
	}
}

// Many games moving at once, each one move after the other as players
// do: every move lands, in order.
func TestManyGamesMoveAtOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := t.Context()
		const games, moves = 100, 20
		var wg sync.WaitGroup
		for i := range games {
			id := fmt.Sprintf("game%06d", i)
			if err := s.Create(ctx, sample(id)); err != nil {
				t.Fatal(err)
			}
			wg.Go(func() {
				for seq := 1; seq <= moves; seq++ {
					if err := s.Append(ctx, id, []Event{move(seq, strconv.Itoa(seq))}, nil); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		for i := range games {
			id := fmt.Sprintf("game%06d", i)
			g, events, err := s.Load(ctx, id)
			if err != nil || g.Version != moves || len(events) != moves {
				t.Fatalf("%s: version %d, %d events, %v", id, g.Version, len(events), err)
			}
			for j, e := range events {
				if e.Seq != j+1 || e.Move != strconv.Itoa(j+1) {
					t.Fatalf("%s: event %d is %+v", id, j+1, e)
				}
			}
		}
	})
}

// A lone move that follows the last event of a game in play is stored by
// one statement alone; any other append, and one the statement does not
// store, goes in a transaction that checks it as before, and a refused
// one writes nothing.
func TestLoneMoves(t *testing.T) {
	s := openSQLiteTest(t)
	ctx := t.Context()
	g := sample("lonemoves1") // waiting: its first move starts it
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		events []Event
		end    *Ending
		want   error
	}{
		{[]Event{move(1, "e5")}, nil, nil},                // starts the game
		{[]Event{move(2, "d4")}, nil, nil},                // alone
		{[]Event{move(2, "c3")}, nil, ErrConflict},        // taken
		{[]Event{move(4, "c3")}, nil, ErrConflict},        // not the next
		{[]Event{move(3, "c3"), move(4, "b2")}, nil, nil}, // two at once
		{[]Event{{Seq: 5, Kind: "resign", Seat: "black", At: move(5, "").At}}, &Ending{Winner: "white", Reason: "resign"}, nil},
		{[]Event{move(6, "a1")}, nil, ErrConflict},                                        // after the end
		{[]Event{{Seq: 6, Kind: "rematch", Seat: "white", At: move(6, "").At}}, nil, nil}, // may follow the end
	}
	for i, step := range steps {
		err := s.Append(ctx, g.ID, step.events, step.end)
		if !errors.Is(err, step.want) || (step.want == nil) != (err == nil) {
			t.Fatalf("step %d: %v, want %v", i+1, err, step.want)
		}
	}
	got, events, err := s.Load(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	for _, e := range events {
		moves = append(moves, e.Kind+":"+e.Move)
	}
	want := []string{"move:e5", "move:d4", "move:c3", "move:b2", "resign:", "rematch:"}
	if !slices.Equal(moves, want) || got.Status != "over" || got.Winner != "white" || got.Version != 6 {
		t.Fatalf("stored %v, status %s, winner %s, version %d; want %v, over, white, 6", moves, got.Status, got.Winner, got.Version, want)
	}
}

// Appends whose callers are all ready to run share a transaction, even
// when they have not reached the store yet as it begins one. On one
// processor, goroutines made ready at once run one after the other: a
// writer that began at the first append would commit it alone. (Now and
// then the scheduler runs the writer before the others anyway, to be
// fair: so a few rounds may still begin with a lone append.)
func TestReadyAppendsShareATransaction(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	s := openSQLiteTest(t)
	ctx := t.Context()
	const games, rounds = 100, 20
	for i := range games {
		if err := s.Create(ctx, sample(fmt.Sprintf("ready%03d", i))); err != nil {
			t.Fatal(err)
		}
	}
	var commits []int // written by the store's writer, read once it is idle
	s.ObserveCommits(func(appends int, _ time.Duration) { commits = append(commits, appends) })
	alone := 0 // rounds whose first transaction held one append
	for round := range rounds {
		commits = nil
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range games {
			wg.Go(func() {
				<-start
				if err := s.Append(ctx, fmt.Sprintf("ready%03d", i), []Event{move(round+1, "e5")}, nil); err != nil {
					t.Error(err)
				}
			})
		}
		close(start)
		wg.Wait()
		if len(commits) == 0 || commits[0] == 1 {
			alone++
		}
	}
	if alone > rounds/2 {
		t.Fatalf("%d rounds of %d began with a transaction of one append; the last round's: %v", alone, rounds, commits)
	}
}

// Closing the store while games move answers every append already queued
// and refuses those that come after, with nothing half done: each move
// answered is stored, each refused one is not, and no caller is left
// waiting.
func TestCloseWhileAppending(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.db")
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	const games = 40
	var answered [games]atomic.Int64 // moves answered, by game
	var wg sync.WaitGroup
	for i := range games {
		id := fmt.Sprintf("closing%03d", i)
		if err := s.Create(ctx, sample(id)); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			for seq := 1; ; seq++ {
				err := s.Append(ctx, id, []Event{move(seq, "e5")}, nil)
				if err != nil {
					if !errors.Is(err, errClosed) {
						t.Errorf("%s: %v, want the store closed", id, err)
					}
					return
				}
				answered[i].Store(int64(seq))
			}
		})
	}
	for i := range answered {
		for answered[i].Load() < 3 {
			runtime.Gosched()
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	s, err = OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range answered {
		want := int(answered[i].Load())
		g, _, err := s.Load(ctx, fmt.Sprintf("closing%03d", i))
		if err != nil || g.Version != want {
			t.Errorf("game %d: version %d, %v; %d moves were answered", i, g.Version, err, want)
		}
	}
}

// A panic while writing (here the observer's) reaches the caller who was
// writing, whose append may or may not be stored, and leaves the store
// writing the next appends.
func TestPanicWhileWriting(t *testing.T) {
	// Not closed unless it works: Close would wait for the stuck append.
	s, err := OpenSQLite(filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if err := s.Create(ctx, sample("panicked1")); err != nil {
		t.Fatal(err)
	}
	var panicked atomic.Bool
	s.ObserveCommits(func(int, time.Duration) {
		if !panicked.Swap(true) {
			panic("the observer fails")
		}
	})
	func() {
		defer func() {
			if p := recover(); p != "the observer fails" {
				t.Errorf("the writing caller recovered %v", p)
			}
		}()
		s.Append(ctx, "panicked1", []Event{move(1, "e5")}, nil)
	}()
	done := make(chan error, 1)
	go func() { done <- s.Append(ctx, "panicked1", []Event{move(2, "d4")}, nil) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the next append was never written")
	}
	defer s.Close()
	if g, _, err := s.Load(ctx, "panicked1"); err != nil || g.Version != 2 {
		t.Fatalf("version %d, %v; want both moves stored", g.Version, err)
	}
}

// An append whose caller has given up before it is queued gets that
// answer and writes nothing.
func TestAppendGivenUp(t *testing.T) {
	s := openSQLiteTest(t)
	ctx, cancel := context.WithCancel(t.Context())
	if err := s.Create(ctx, sample("givenup1")); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := s.Append(ctx, "givenup1", []Event{move(1, "e5")}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("append after giving up: %v", err)
	}
	if g, events, err := s.Load(t.Context(), "givenup1"); err != nil || g.Version != 0 || len(events) != 0 {
		t.Fatalf("version %d, %d events, %v; want nothing stored", g.Version, len(events), err)
	}
}

// killChild, set in the environment, makes the test binary the process
// that appends until it is killed: the database file's path.
const killChild = "BRETTER_STORE_KILL_CHILD"

// killChildSync is the child's Sync, by name.
const killChildSync = "BRETTER_STORE_KILL_CHILD_SYNC"

// Every append that was answered survives kill -9 of the process in the
// middle of its batches: many games move at once, the process says each
// move that was answered, and is killed. It holds whether commits wait for
// the disk or only for the operating system.
func TestAnsweredAppendsSurviveKill(t *testing.T) {
	for _, mode := range []string{"disk", "os"} {
		t.Run(mode, func(t *testing.T) { answeredAppendsSurviveKill(t, mode) })
	}
}

func answeredAppendsSurviveKill(t *testing.T, mode string) {
	path := filepath.Join(t.TempDir(), "games.db")
	const games = 100
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range games {
		if err := s.Create(t.Context(), sample(fmt.Sprintf("game%06d", i))); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), killChild+"="+path, killChildSync+"="+mode)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	answered := map[string]int{}
	killed := false
	lines := bufio.NewScanner(out)
	for n := 0; lines.Scan(); n++ {
		id, text, _ := strings.Cut(lines.Text(), " ")
		seq, err := strconv.Atoi(text)
		if err != nil {
			t.Fatalf("the appending process said %q", lines.Text())
		}
		answered[id] = seq
		if n == 3000 {
			killed = cmd.Process.Kill() == nil
		}
	}
	if err := cmd.Wait(); !killed || err == nil {
		t.Fatalf("the appending process ended before it was killed: %v", err)
	}
	if len(answered) < games/2 {
		t.Fatalf("only %d games had a move answered before the kill", len(answered))
	}

	s, err = OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for id, seq := range answered {
		g, events, err := s.Load(t.Context(), id)
		if err != nil || g.Version < seq || len(events) != g.Version {
			t.Fatalf("%s: move %d was answered; after the kill version %d, %d events, %v", id, seq, g.Version, len(events), err)
		}
	}
}

// TestMain lets the test binary be the process that
// TestAnsweredAppendsSurviveKill kills.
func TestMain(m *testing.M) {
	if path := os.Getenv(killChild); path != "" {
		appendUntilKilled(path)
	}
	os.Exit(m.Run())
}

// appendUntilKilled moves in every game of the database at path, and
// writes each move's game and number once its append has returned.
func appendUntilKilled(path string) {
	mode, err := ParseSync(os.Getenv(killChildSync))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	s, err := OpenSQLiteSync(path, mode)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var mu sync.Mutex
	for i := range 100 {
		id := fmt.Sprintf("game%06d", i)
		go func() {
			for seq := 1; ; seq++ {
				if err := s.Append(context.Background(), id, []Event{move(seq, "e5")}, nil); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				// Each line goes straight to the pipe, unbuffered.
				mu.Lock()
				fmt.Fprintf(os.Stdout, "%s %d\n", id, seq)
				mu.Unlock()
			}
		}()
	}
	select {}
}
