package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"bretter/internal/clock"
)

func openTest(t *testing.T) (*SQLite, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.db")
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func sample(id string) Game {
	now := time.UnixMilli(1_790_000_000_000)
	return Game{ID: id, Game: "havannah", Options: map[string]int{"size": 8, "swap": 0},
		WhiteHash: []byte("white-hash"), InviteHash: []byte("invite-hash"), Creator: "white",
		Created: now, Updated: now, Status: "waiting"}
}

func TestGameLifecycle(t *testing.T) {
	s, path := openTest(t)
	ctx := t.Context()
	g := sample("abcdefghij")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, g); err == nil {
		t.Fatal("the same id was stored twice")
	}
	got, events, err := s.Load(ctx, g.ID)
	if err != nil || !reflect.DeepEqual(got, g) || len(events) != 0 {
		t.Fatalf("load: %+v %v %v", got, events, err)
	}
	if _, _, err := s.Load(ctx, "nonexistent"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown game: %v", err)
	}

	at := g.Created.Add(time.Second)
	if err := s.Join(ctx, g.ID, "black", []byte("black-hash"), at); err != nil {
		t.Fatal(err)
	}
	if err := s.Join(ctx, g.ID, "black", []byte("another"), at); !errors.Is(err, ErrConflict) {
		t.Fatalf("second join: %v", err)
	}
	if err := s.Join(ctx, "nonexistent", "black", []byte("x"), at); !errors.Is(err, ErrNotFound) {
		t.Fatalf("join of an unknown game: %v", err)
	}

	e1 := Event{Seq: 1, Kind: "move", Seat: "white", Move: "e5", At: at}
	if err := s.Append(ctx, g.ID, []Event{e1}, nil); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Event{{Seq: 1, Kind: "move", Seat: "black", Move: "a1", At: at}, {Seq: 3, Kind: "move", Seat: "black", Move: "a1", At: at}} {
		if err := s.Append(ctx, g.ID, []Event{bad}, nil); !errors.Is(err, ErrConflict) {
			t.Fatalf("event %d after 1: %v", bad.Seq, err)
		}
	}
	e2 := Event{Seq: 2, Kind: "resign", Seat: "black", At: at}
	if err := s.Append(ctx, g.ID, []Event{e2}, &Ending{Winner: "white", Reason: "resign"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, g.ID, []Event{{Seq: 3, Kind: "move", Seat: "white", Move: "a1", At: at}}, nil); !errors.Is(err, ErrConflict) {
		t.Fatalf("an event after the end: %v", err)
	}
	// An offer of a new game may follow the end, and leaves the result be;
	// nothing after the end may end the game again.
	e3 := Event{Seq: 3, Kind: "rematch", Seat: "white", Move: `{"start":"swap"}`, At: at}
	if err := s.Append(ctx, g.ID, []Event{{Seq: 3, Kind: "rematch", Seat: "white", At: at}}, &Ending{Winner: "black", Reason: "resign"}); !errors.Is(err, ErrConflict) {
		t.Fatalf("a second ending: %v", err)
	}
	if err := s.Append(ctx, g.ID, []Event{e3}, nil); err != nil {
		t.Fatalf("an offer of a new game after the end: %v", err)
	}

	next := sample("klmnopqrst")
	if err := s.Follow(ctx, g.ID, next); err != nil {
		t.Fatal(err)
	}
	if err := s.Follow(ctx, g.ID, sample("uvwxyz2345")); !errors.Is(err, ErrConflict) {
		t.Fatalf("a second follower: %v", err)
	}
	if _, _, err := s.Load(ctx, "uvwxyz2345"); !errors.Is(err, ErrNotFound) {
		t.Fatal("a refused follower was stored")
	}

	// Everything is still there after reopening the file.
	s.Close()
	s2, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, events, err = s2.Load(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := g
	want.BlackHash, want.Status, want.Winner, want.Reason, want.Next, want.Version, want.Updated = []byte("black-hash"), "over", "white", "resign", next.ID, 3, at
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(events, []Event{e1, e2, e3}) {
		t.Fatalf("after reopening:\n%+v\n%+v\nwant\n%+v\n%+v", got, events, want, []Event{e1, e2, e3})
	}
}

// Appends that arrive together share a transaction; a refused one must not
// take the others down with it, and of two for the same number exactly one
// lands.
func TestConcurrentAppends(t *testing.T) {
	s, _ := openTest(t)
	ctx := t.Context()
	ids := []string{"aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "dddddddddd"}
	for _, id := range ids {
		if err := s.Create(ctx, sample(id)); err != nil {
			t.Fatal(err)
		}
	}
	const racers = 16
	errs := make(chan error, racers*len(ids))
	var wg sync.WaitGroup
	for _, id := range ids {
		for i := range racers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- s.Append(ctx, id, []Event{{Seq: 1, Kind: "move", Seat: "white", Move: fmt.Sprint("m", i), At: time.Now()}}, nil)
			}()
		}
	}
	wg.Wait()
	close(errs)
	landed := 0
	for err := range errs {
		switch {
		case err == nil:
			landed++
		case !errors.Is(err, ErrConflict):
			t.Fatalf("a racing append failed: %v", err)
		}
	}
	if landed != len(ids) {
		t.Fatalf("%d appends landed, want one per game (%d)", landed, len(ids))
	}
	for _, id := range ids {
		if g, events, err := s.Load(ctx, id); err != nil || g.Version != 1 || len(events) != 1 {
			t.Fatalf("%s: version %d, %d events, %v", id, g.Version, len(events), err)
		}
	}
	if err := s.Append(ctx, "nonexistent", []Event{{Seq: 1}}, nil); !errors.Is(err, ErrNotFound) {
		t.Fatalf("append to an unknown game: %v", err)
	}
}

// A move and the passes it forces are stored together or not at all.
func TestAppendSeveral(t *testing.T) {
	s, _ := openTest(t)
	ctx := t.Context()
	if err := s.Create(ctx, sample("aaaaaaaaaa")); err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	two := []Event{{Seq: 1, Kind: "move", Seat: "white", Move: "C3D4", At: at}, {Seq: 2, Kind: "move", Seat: "black", Move: "PASS", At: at}}
	if err := s.Append(ctx, "aaaaaaaaaa", two, nil); err != nil {
		t.Fatal(err)
	}
	gap := []Event{{Seq: 3, Kind: "move", Seat: "white", Move: "x", At: at}, {Seq: 5, Kind: "move", Seat: "black", Move: "y", At: at}}
	if err := s.Append(ctx, "aaaaaaaaaa", gap, nil); err == nil {
		t.Fatal("events with a gap in their numbers were stored")
	}
	if g, events, err := s.Load(ctx, "aaaaaaaaaa"); err != nil || g.Version != 2 || len(events) != 2 {
		t.Fatalf("after a refused pair: version %d, %d events, %v", g.Version, len(events), err)
	}
	if err := s.Append(ctx, "aaaaaaaaaa", nil, nil); err == nil {
		t.Fatal("an empty append succeeded")
	}
}

func TestComputerGames(t *testing.T) {
	s, _ := openTest(t)
	ctx := t.Context()
	people := sample("people0001")
	people.Status = "playing"
	versus := sample("computer01")
	versus.Status, versus.Computer, versus.Level, versus.BlackHash = "playing", "black", 5, []byte("nobody")
	done := sample("computer02")
	done.Status, done.Computer, done.Level = "over", "white", 1
	for _, g := range []Game{people, versus, done} {
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	got, _, err := s.Load(ctx, versus.ID)
	if err != nil || got.Computer != "black" || got.Level != 5 {
		t.Fatalf("load: computer %q level %d, %v", got.Computer, got.Level, err)
	}
	ids, err := s.ComputerGames(ctx)
	if err != nil || !reflect.DeepEqual(ids, []string{versus.ID}) {
		t.Errorf("games against the computer in play: %v, %v", ids, err)
	}
}

func TestCreateWithEvents(t *testing.T) {
	s, _ := openTest(t)
	ctx := t.Context()
	g := sample("played0001")
	at := g.Created
	events := []Event{{Seq: 1, Kind: "move", Seat: "white", Move: "e5", At: at}, {Seq: 2, Kind: "move", Seat: "black", Move: "d4", At: at}}
	if err := s.Create(ctx, g, events...); err != nil {
		t.Fatal(err)
	}
	got, gotEvents, err := s.Load(ctx, g.ID)
	if err != nil || got.Version != 2 || !reflect.DeepEqual(gotEvents, events) {
		t.Fatalf("load: version %d, %+v, %v", got.Version, gotEvents, err)
	}
	if err := s.Append(ctx, g.ID, []Event{{Seq: 2, Kind: "move", Seat: "black", Move: "c3", At: at}}, nil); !errors.Is(err, ErrConflict) {
		t.Errorf("a second event 2: %v", err)
	}
	bad := sample("played0002")
	if err := s.Create(ctx, bad, Event{Seq: 2, Kind: "move", Seat: "white", Move: "e5", At: at}); err == nil {
		t.Error("a game starting with event 2 was stored")
	}
	if _, _, err := s.Load(ctx, bad.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("the refused game was half stored: %v", err)
	}
}

func TestTimedGames(t *testing.T) {
	s, _ := openTest(t)
	ctx := t.Context()
	live := sample("timedlive1")
	live.Status, live.Clock = "playing", clock.Control{Initial: 300 * time.Second, Increment: 2500 * time.Millisecond}
	slow := sample("timedslow1")
	slow.Status, slow.Clock = "playing", clock.Control{Days: 3}
	untimed := sample("untimed001")
	untimed.Status = "playing"
	for _, g := range []Game{live, slow, untimed} {
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []Game{live, slow} {
		got, _, err := s.Load(ctx, want.ID)
		if err != nil || got.Clock != want.Clock {
			t.Errorf("load %s: clock %+v, %v; want %+v", want.ID, got.Clock, err, want.Clock)
		}
	}
	ids, err := s.TimedGames(ctx)
	if err != nil || !reflect.DeepEqual(ids, []string{live.ID, slow.ID}) {
		t.Errorf("games with a clock in play: %v, %v", ids, err)
	}
}

func TestChat(t *testing.T) {
	s, _ := openTest(t)
	ctx := t.Context()
	g := sample("chatgame01")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	at := g.Created
	for i, text := range []string{"hello", "<b>hi</b> 😀"} {
		l, err := s.Say(ctx, g.ID, ChatLine{Seat: "white", Text: text, At: at})
		if err != nil || l.Seq != i+1 {
			t.Fatalf("say %q: %+v %v", text, l, err)
		}
	}
	lines, err := s.Chat(ctx, g.ID)
	if err != nil || len(lines) != 2 || lines[1].Text != "<b>hi</b> 😀" || !lines[1].At.Equal(at) {
		t.Fatalf("chat: %+v %v", lines, err)
	}
	if _, err := s.Say(ctx, "nosuchgame", ChatLine{Seat: "white", Text: "x", At: at}); err == nil {
		t.Error("a chat line for no game was stored")
	}
}

func TestSettingsAndSubscriptions(t *testing.T) {
	s, _ := openTest(t)
	ctx := t.Context()
	if v, err := s.Setting(ctx, "key", "first"); err != nil || v != "first" {
		t.Fatalf("first setting: %q %v", v, err)
	}
	if v, err := s.Setting(ctx, "key", "second"); err != nil || v != "first" {
		t.Fatalf("the setting changed: %q %v", v, err)
	}
	g := sample("pushgame01")
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	sub := Subscription{Game: g.ID, Seat: "white", Endpoint: "https://push.example/a", P256DH: "k", Auth: "a", Lang: "de"}
	for range 2 { // the same subscription twice is kept once
		if err := s.Subscribe(ctx, sub); err != nil {
			t.Fatal(err)
		}
	}
	if subs, err := s.Subscriptions(ctx, g.ID, "white"); err != nil || len(subs) != 1 || subs[0] != sub {
		t.Fatalf("subscriptions: %+v %v", subs, err)
	}
	if subs, _ := s.Subscriptions(ctx, g.ID, "black"); len(subs) != 0 {
		t.Fatalf("Black has %+v", subs)
	}
	if err := s.Unsubscribe(ctx, g.ID, "", sub.Endpoint); err != nil {
		t.Fatal(err)
	}
	if subs, _ := s.Subscriptions(ctx, g.ID, "white"); len(subs) != 0 {
		t.Fatalf("after unsubscribing: %+v", subs)
	}
}
