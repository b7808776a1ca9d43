package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"bretter/internal/clock"
	"bretter/internal/store/pgtest"
)

// testStore is what both stores offer.
type testStore interface {
	Create(ctx context.Context, g Game, events ...Event) error
	Load(ctx context.Context, id string) (Game, []Event, error)
	Append(ctx context.Context, id string, events []Event, end *Ending) error
	Join(ctx context.Context, id, seat string, hash []byte, key JoinKey, at time.Time) error
	Follow(ctx context.Context, id string, next Game) error
	ComputerGames(ctx context.Context) ([]string, error)
	TimedGames(ctx context.Context) ([]string, error)
	Say(ctx context.Context, id string, line ChatLine) (ChatLine, error)
	Chat(ctx context.Context, id string) ([]ChatLine, error)
	Setting(ctx context.Context, name, value string) (string, error)
	Subscribe(ctx context.Context, sub Subscription) error
	Unsubscribe(ctx context.Context, gameID, seat, endpoint string) error
	SubscriptionsOf(ctx context.Context, seats []SeatOf) ([]Subscription, error)
	SubscribedSeats(ctx context.Context) ([]SeatOf, error)
	Hold(ctx context.Context, browser []byte, h Holding) error
	Holding(ctx context.Context, browser []byte, gameID string) (Holding, error)
	Holdings(ctx context.Context, browser []byte, limit int) ([]Holding, error)
	Ping(ctx context.Context) error
	SeenUp(ctx context.Context, now time.Time, gap, grace time.Duration) ([]clock.Outage, error)
	Close() error
}

// opener opens a store on a test's own database; each call reaches the
// same data, as a restart would. The store is closed when the test ends.
type opener func(t testing.TB) testStore

// eachStore runs test on SQLite and on PostgreSQL, each on an empty
// database of its own.
func eachStore(t *testing.T, test func(t *testing.T, open opener)) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "games.db")
		test(t, func(t testing.TB) testStore {
			t.Helper()
			s, err := OpenSQLite(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		})
	})
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.URL(t)
		test(t, func(t testing.TB) testStore {
			t.Helper()
			s, err := OpenPostgres(t.Context(), url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		})
	})
}

func sample(id string) Game {
	now := time.UnixMilli(1_790_000_000_000)
	return Game{ID: id, Game: "havannah", Options: map[string]int{"size": 8, "swap": 0},
		WhiteHash: []byte("white-hash"), InviteHash: []byte("invite-hash"), Creator: "white",
		Created: now, Updated: now, Status: "waiting"}
}

// An event before the friend joins, a player's name, leaves the game
// waiting: only a join starts it, and an ending ends it.
func TestEventsBeforeTheJoin(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := t.Context()
		g := sample("waitingabc")
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		at := g.Created.Add(time.Second)
		if err := s.Append(ctx, g.ID, []Event{{Seq: 1, Kind: "name", Seat: "white", Move: "Ada", At: at}}, nil); err != nil {
			t.Fatal(err)
		}
		if got, events, err := s.Load(ctx, g.ID); err != nil || got.Status != "waiting" || len(events) != 1 {
			t.Fatalf("after a name: status %q, %d events, %v", got.Status, len(events), err)
		}
		if err := s.Join(ctx, g.ID, "black", []byte("black-hash"), JoinKey{}, at); err != nil {
			t.Fatal(err)
		}
		if got, _, err := s.Load(ctx, g.ID); err != nil || got.Status != "playing" {
			t.Fatalf("after the join: status %q, %v", got.Status, err)
		}

		// The moves a game is created from are counted as such.
		given := sample("givenmoves")
		given.Given = 2
		moves := []Event{{Seq: 1, Kind: "move", Seat: "white", Move: "e5", At: given.Created}, {Seq: 2, Kind: "move", Seat: "black", Move: "d4", At: given.Created}}
		if err := s.Create(ctx, given, moves...); err != nil {
			t.Fatal(err)
		}
		if got, events, err := s.Load(ctx, given.ID); err != nil || got.Given != 2 || len(events) != 2 {
			t.Fatalf("a game created from moves: given %d, %d events, %v", got.Given, len(events), err)
		}

		h := sample("abortedabc")
		if err := s.Create(ctx, h); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, h.ID, []Event{{Seq: 1, Kind: "abort", Seat: "white", At: at}}, &Ending{Reason: "abort"}); err != nil {
			t.Fatal(err)
		}
		if got, _, err := s.Load(ctx, h.ID); err != nil || got.Status != "over" || got.Reason != "abort" {
			t.Fatalf("after an abort: status %q, reason %q, %v", got.Status, got.Reason, err)
		}
		// Nobody joins a game that ended first, however the two race.
		if err := s.Join(ctx, h.ID, "black", []byte("black-hash"), JoinKey{}, at); !errors.Is(err, ErrConflict) {
			t.Errorf("joining a game called off: %v", err)
		}
		if got, _, err := s.Load(ctx, h.ID); err != nil || got.BlackHash != nil || got.Status != "over" {
			t.Errorf("after the refused join: black %q, status %q, %v", got.BlackHash, got.Status, err)
		}
	})
}

func TestGameLifecycle(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
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
		if err := s.Join(ctx, g.ID, "black", []byte("black-hash"), JoinKey{Hash: []byte("key-hash"), Sealed: []byte("sealed")}, at); err != nil {
			t.Fatal(err)
		}
		if err := s.Join(ctx, g.ID, "black", []byte("another"), JoinKey{}, at); !errors.Is(err, ErrConflict) {
			t.Fatalf("second join: %v", err)
		}
		if err := s.Join(ctx, "nonexistent", "black", []byte("x"), JoinKey{}, at); !errors.Is(err, ErrNotFound) {
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
		// An offer of a new game may follow the end, and leaves the result
		// be; nothing after the end may end the game again.
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

		// Everything is still there after reopening the database.
		s.Close()
		got, events, err = open(t).Load(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := g
		want.BlackHash, want.Status, want.Winner, want.Reason, want.Next, want.Version, want.Updated = []byte("black-hash"), "over", "white", "resign", next.ID, 3, at
		want.JoinKey = JoinKey{Hash: []byte("key-hash"), Sealed: []byte("sealed")}
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(events, []Event{e1, e2, e3}) {
			t.Fatalf("after reopening:\n%+v\n%+v\nwant\n%+v\n%+v", got, events, want, []Event{e1, e2, e3})
		}
	})
}

// Appends that arrive together share a transaction; a refused one must not
// take the others down with it, and of two for the same number exactly one
// lands.
func TestConcurrentAppends(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
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
	})
}

// A move and the passes it forces are stored together or not at all.
func TestAppendSeveral(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
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
	})
}

func TestComputerGames(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
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
	})
}

func TestCreateWithEvents(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
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
	})
}

func TestTimedGames(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
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
	})
}

func TestChat(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
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
	})
}

func TestSettingsAndSubscriptions(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
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
		white, black := SeatOf{g.ID, "white"}, SeatOf{g.ID, "black"}
		if subs, err := s.SubscriptionsOf(ctx, []SeatOf{white}); err != nil || len(subs) != 1 || subs[0] != sub {
			t.Fatalf("subscriptions: %+v %v", subs, err)
		}
		if subs, _ := s.SubscriptionsOf(ctx, []SeatOf{black}); len(subs) != 0 {
			t.Fatalf("Black has %+v", subs)
		}
		// Several seats in one question, named more than once, of games
		// with and without subscriptions.
		other := sample("pushgame02")
		if err := s.Create(ctx, other); err != nil {
			t.Fatal(err)
		}
		theirs := Subscription{Game: other.ID, Seat: "black", Endpoint: "https://push.example/b", P256DH: "k2", Auth: "a2", Lang: "en"}
		if err := s.Subscribe(ctx, theirs); err != nil {
			t.Fatal(err)
		}
		subs, err := s.SubscriptionsOf(ctx, []SeatOf{black, {other.ID, "black"}, white, {"nosuchgame", "white"}, white, {other.ID, "white"}})
		slices.SortFunc(subs, func(a, b Subscription) int { return strings.Compare(a.Endpoint, b.Endpoint) })
		if err != nil || !slices.Equal(subs, []Subscription{sub, theirs}) {
			t.Fatalf("subscriptions of six seats: %+v %v", subs, err)
		}
		// More seats than one query takes, the same named far apart.
		many := []SeatOf{white}
		for i := range 130 {
			many = append(many, SeatOf{fmt.Sprintf("game%04d", i), "white"})
		}
		many = append(many, white, SeatOf{other.ID, "black"})
		subs, err = s.SubscriptionsOf(ctx, many)
		slices.SortFunc(subs, func(a, b Subscription) int { return strings.Compare(a.Endpoint, b.Endpoint) })
		if err != nil || !slices.Equal(subs, []Subscription{sub, theirs}) {
			t.Fatalf("subscriptions of %d seats: %+v %v", len(many), subs, err)
		}
		// A second browser on the same seat: the seat is listed once.
		second := sub
		second.Endpoint = "https://push.example/c"
		if err := s.Subscribe(ctx, second); err != nil {
			t.Fatal(err)
		}
		seats, err := s.SubscribedSeats(ctx)
		slices.SortFunc(seats, func(a, b SeatOf) int { return strings.Compare(a.Game, b.Game) })
		if err != nil || !slices.Equal(seats, []SeatOf{white, {other.ID, "black"}}) {
			t.Fatalf("subscribed seats: %+v %v", seats, err)
		}
		for _, endpoint := range []string{sub.Endpoint, second.Endpoint} {
			if err := s.Unsubscribe(ctx, g.ID, "", endpoint); err != nil {
				t.Fatal(err)
			}
		}
		if subs, _ := s.SubscriptionsOf(ctx, []SeatOf{white}); len(subs) != 0 {
			t.Fatalf("after unsubscribing: %+v", subs)
		}
		if seats, err := s.SubscribedSeats(ctx); err != nil || !slices.Equal(seats, []SeatOf{{other.ID, "black"}}) {
			t.Fatalf("subscribed seats after unsubscribing: %+v %v", seats, err)
		}

		// A seat keeps its newest subscriptions; one subscribing again is
		// its newest.
		endpoint := func(i int) string { return fmt.Sprintf("https://push.example/n%d", i) }
		for i := range SubscriptionsPerSeat + 3 {
			n := sub
			n.Endpoint = endpoint(i)
			if err := s.Subscribe(ctx, n); err != nil {
				t.Fatal(err)
			}
			if i == 5 {
				n.Endpoint = endpoint(0)
				if err := s.Subscribe(ctx, n); err != nil {
					t.Fatal(err)
				}
			}
		}
		subs, err = s.SubscriptionsOf(ctx, []SeatOf{white})
		var kept []string
		for _, x := range subs {
			kept = append(kept, x.Endpoint)
		}
		slices.Sort(kept)
		if want := []string{endpoint(0), endpoint(4), endpoint(5), endpoint(6), endpoint(7)}; err != nil || !slices.Equal(kept, want) {
			t.Fatalf("a seat keeps %v, want %v (%v)", kept, want, err)
		}
		if subs, _ := s.SubscriptionsOf(ctx, []SeatOf{{other.ID, "black"}}); len(subs) != 1 {
			t.Fatalf("another seat's subscriptions went: %+v", subs)
		}
	})
}

func TestHoldings(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := t.Context()
		at := time.UnixMilli(1_790_000_000_000)
		for i := range 3 {
			if err := s.Create(ctx, sample(fmt.Sprintf("holdgame0%d", i))); err != nil {
				t.Fatal(err)
			}
		}
		me, other := []byte("browser-one"), []byte("browser-two")
		if _, err := s.Holding(ctx, me, "holdgame00"); !errors.Is(err, ErrNotFound) {
			t.Fatalf("a seat held before any was kept: %v", err)
		}
		for i := range 3 {
			h := Holding{Game: fmt.Sprintf("holdgame0%d", i), Sealed: []byte{byte(i)}, At: at.Add(time.Duration(i) * time.Minute)}
			if err := s.Hold(ctx, me, h); err != nil {
				t.Fatal(err)
			}
		}
		// Taking another seat in a game replaces the one held before.
		if err := s.Hold(ctx, me, Holding{Game: "holdgame00", Sealed: []byte("new"), At: at.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if err := s.Hold(ctx, other, Holding{Game: "holdgame01", Sealed: []byte("theirs"), At: at}); err != nil {
			t.Fatal(err)
		}
		hs, err := s.Holdings(ctx, me, 2)
		if err != nil {
			t.Fatal(err)
		}
		created := sample("").Created
		want := []Holding{
			{Game: "holdgame00", Sealed: []byte("new"), At: at.Add(time.Hour), Status: "waiting", Updated: created},
			{Game: "holdgame02", Sealed: []byte{2}, At: at.Add(2 * time.Minute), Status: "waiting", Updated: created},
		}
		if !reflect.DeepEqual(hs, want) {
			t.Fatalf("holdings: %+v, want %+v", hs, want)
		}
		if h, err := s.Holding(ctx, me, "holdgame01"); err != nil || string(h.Sealed) != "\x01" {
			t.Fatalf("holding: %+v %v", h, err)
		}
		if err := s.Hold(ctx, me, Holding{Game: "nosuchgame", Sealed: []byte("x"), At: at}); err == nil {
			t.Error("a seat in no game was kept")
		}
	})
}

// Two chat lines said at once get the numbers one and two, on any store.
func TestConcurrentChat(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := t.Context()
		g := sample("chatrace01")
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		const lines = 8
		var wg sync.WaitGroup
		for i := range lines {
			wg.Go(func() {
				if _, err := s.Say(ctx, g.ID, ChatLine{Seat: "white", Text: fmt.Sprint(i), At: g.Created}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		got, err := s.Chat(ctx, g.ID)
		if err != nil || len(got) != lines {
			t.Fatalf("chat: %d lines, %v", len(got), err)
		}
		for i, l := range got {
			if l.Seq != i+1 {
				t.Fatalf("line %d has number %d", i+1, l.Seq)
			}
		}
	})
}

// Two stores on one database, as two instances of the site: an append
// made from a stale version on one fails as it would on one store.
func TestTwoStoresOneDatabase(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		a, b := open(t), open(t)
		ctx := t.Context()
		g := sample("twostores1")
		if err := a.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		at := g.Created
		if err := a.Append(ctx, g.ID, []Event{{Seq: 1, Kind: "move", Seat: "white", Move: "e5", At: at}}, nil); err != nil {
			t.Fatal(err)
		}
		if err := b.Append(ctx, g.ID, []Event{{Seq: 1, Kind: "move", Seat: "white", Move: "d4", At: at}}, nil); !errors.Is(err, ErrConflict) {
			t.Fatalf("an append at a stale version: %v", err)
		}
		if err := b.Append(ctx, g.ID, []Event{{Seq: 2, Kind: "move", Seat: "black", Move: "d4", At: at}}, nil); err != nil {
			t.Fatal(err)
		}
		if got, events, err := a.Load(ctx, g.ID); err != nil || got.Version != 2 || events[0].Move != "e5" || events[1].Move != "d4" {
			t.Fatalf("after appends from two stores: version %d, %+v, %v", got.Version, events, err)
		}
		if v, err := b.Setting(ctx, "k", "from b"); err != nil || v != "from b" {
			t.Fatalf("setting: %q %v", v, err)
		}
		if v, err := a.Setting(ctx, "k", "from a"); err != nil || v != "from b" {
			t.Fatalf("the other store's setting: %q %v", v, err)
		}
	})
}

// A closed store says so when pinged, and refuses appends.
func TestPingClosed(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := t.Context()
		if err := s.Ping(ctx); err != nil {
			t.Fatalf("ping: %v", err)
		}
		if err := s.Create(ctx, sample("closed0001")); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if err := s.Ping(ctx); err == nil {
			t.Fatal("a closed store answers a ping")
		}
		if err := s.Append(ctx, "closed0001", []Event{{Seq: 1, Kind: "move", Seat: "white", Move: "e5", At: time.Now()}}, nil); err == nil {
			t.Fatal("a closed store took an append")
		}
	})
}

// Opening a database brought up to date changes nothing, and a database
// from a newer program is refused rather than misread.
func TestSchemaVersion(t *testing.T) {
	check := func(t *testing.T, open func() (testStore, error), bump func(testStore) error) {
		ctx := t.Context()
		s, err := open()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Create(ctx, sample("schema0001")); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if s, err = open(); err != nil {
			t.Fatalf("opening again: %v", err)
		}
		if _, _, err := s.Load(ctx, "schema0001"); err != nil {
			t.Fatalf("after opening again: %v", err)
		}
		err = bump(s)
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		if s, err := open(); err == nil {
			s.Close()
			t.Fatal("a database of a newer schema was opened")
		}
	}
	const bump = `UPDATE schema_version SET version = version + 1`
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "games.db")
		check(t, func() (testStore, error) { return OpenSQLite(path) }, func(s testStore) error {
			_, err := s.(*SQLite).write.ExecContext(t.Context(), bump)
			return err
		})
	})
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.URL(t)
		check(t, func() (testStore, error) { return OpenPostgres(t.Context(), url) }, func(s testStore) error {
			_, err := s.(*Postgres).pool.Exec(t.Context(), bump)
			return err
		})
	})
}

// Both dialects have the same migrations, one for one, and they build the
// same tables, columns and indexes.
func TestMigrationsMatch(t *testing.T) {
	if len(postgresMigrations) != len(migrations) {
		t.Fatalf("%d PostgreSQL migrations, %d SQLite ones", len(postgresMigrations), len(migrations))
	}
	ctx := t.Context()
	lite, err := OpenSQLite(filepath.Join(t.TempDir(), "games.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	pg, err := OpenPostgres(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()

	// Each schema as lines "table column nullable" and "index name".
	// SQLite lets a primary key of text be null, an old quirk that no
	// row here uses: its primary keys count as not null.
	var liteSchema, pgSchema []string
	rows, err := lite.read.QueryContext(ctx, `SELECT m.name, c.name, c."notnull" = 0 AND c.pk = 0 FROM sqlite_master m, pragma_table_info(m.name) c
		WHERE m.type = 'table' UNION ALL SELECT 'index', name, 0 FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var table, column string
		var nullable bool
		if err := rows.Scan(&table, &column, &nullable); err != nil {
			t.Fatal(err)
		}
		liteSchema = append(liteSchema, fmt.Sprint(table, " ", column, " ", nullable))
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	pgRows, err := pg.pool.Query(ctx, `SELECT table_name::text, column_name::text, is_nullable = 'YES' FROM information_schema.columns
		WHERE table_schema = current_schema() UNION ALL SELECT 'index', indexname::text, false FROM pg_indexes
		WHERE schemaname = current_schema() AND indexname NOT LIKE '%_pkey'`)
	if err != nil {
		t.Fatal(err)
	}
	for pgRows.Next() {
		var table, column string
		var nullable bool
		if err := pgRows.Scan(&table, &column, &nullable); err != nil {
			t.Fatal(err)
		}
		pgSchema = append(pgSchema, fmt.Sprint(table, " ", column, " ", nullable))
	}
	if err := pgRows.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(liteSchema)
	slices.Sort(pgSchema)
	if !slices.Equal(liteSchema, pgSchema) {
		t.Fatalf("the schemas differ:\nSQLite     %q\nPostgreSQL %q", liteSchema, pgSchema)
	}
}

// benchStores open an empty store of each kind for a benchmark.
var benchStores = map[string]func(b *testing.B) testStore{
	"sqlite": func(b *testing.B) testStore {
		s, err := OpenSQLite(filepath.Join(b.TempDir(), "games.db"))
		if err != nil {
			b.Fatal(err)
		}
		return s
	},
	"postgres": func(b *testing.B) testStore {
		s, err := OpenPostgres(b.Context(), pgtest.URL(b))
		if err != nil {
			b.Fatal(err)
		}
		return s
	},
}

// BenchmarkAppend measures storing one move, as a player's move is stored,
// on each store.
func BenchmarkAppend(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			s := benchStores[name](b)
			defer s.Close()
			ctx := b.Context()
			g := sample("benchmark1")
			if err := s.Create(ctx, g); err != nil {
				b.Fatal(err)
			}
			at := time.Now()
			seq := 0
			for b.Loop() {
				seq++
				if err := s.Append(ctx, g.ID, []Event{{Seq: seq, Kind: "move", Seat: "white", Move: "e5", At: at}}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendParallel measures moves stored per second when many
// games move at once, each append for a game of its own: 32 games (16 per
// core), and 1,000 as in a load test of 1,000 games played flat out. It
// also reports the process's CPU time per append.
func BenchmarkAppendParallel(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres"} {
		for _, games := range []int{32, 1000} {
			b.Run(fmt.Sprintf("%s/games=%d", name, games), func(b *testing.B) {
				s := benchStores[name](b)
				defer s.Close()
				ctx := b.Context()
				procs := runtime.GOMAXPROCS(0)
				b.SetParallelism((games + procs - 1) / procs)
				// Every goroutine RunParallel starts gets a game made
				// before the clock starts.
				ids := make(chan string, (games+procs-1)/procs*procs)
				for i := range cap(ids) {
					id := fmt.Sprintf("parallel%04d", i)
					if err := s.Create(ctx, sample(id)); err != nil {
						b.Fatal(err)
					}
					ids <- id
				}
				cpu := cpuTime(b)
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					id := <-ids
					at := time.Now()
					for seq := 1; pb.Next(); seq++ {
						if err := s.Append(ctx, id, []Event{{Seq: seq, Kind: "move", Seat: "white", Move: "e5", At: at}}, nil); err != nil {
							b.Error(err)
							return
						}
					}
				})
				b.ReportMetric(float64((cpuTime(b)-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
			})
		}
	}
}

// BenchmarkAppendSpread measures SQLite storing the moves of many slow
// games, one after the other, each in a commit of its own, as at 9,900
// games whose players think for seconds. Besides the CPU time it reports
// the bytes written per move (to the log, and by checkpoints to the
// database file): what the disk must take in.
func BenchmarkAppendSpread(b *testing.B) {
	const games = 9900
	s, err := OpenSQLiteSync(filepath.Join(b.TempDir(), "games.db"), SyncOS)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := b.Context()
	ids := make([]string, games)
	for i := range ids {
		ids[i] = fmt.Sprintf("spread%04d", i)
		if err := s.Create(ctx, sample(ids[i])); err != nil {
			b.Fatal(err)
		}
	}
	at := time.Now()
	cpu, written := cpuTime(b), bytesWritten(b)
	b.ResetTimer()
	for i := range b.N {
		if err := s.Append(ctx, ids[i%games], []Event{{Seq: i/games + 1, Kind: "move", Seat: "white", Move: "e5", At: at}}, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime(b)-cpu).Microseconds())/float64(b.N), "cpu-µs/op")
	b.ReportMetric(float64(bytesWritten(b)-written)/float64(b.N), "written-B/op")
}

// bytesWritten is how many bytes the process has handed to write calls
// so far.
func bytesWritten(b *testing.B) int64 {
	io, err := os.ReadFile("/proc/self/io")
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.Lines(string(io)) {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return n
		}
	}
	b.Fatal("no wchar in /proc/self/io")
	return 0
}

// cpuTime is the CPU time the process has used so far, in user and
// kernel mode.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Instances started together on a new PostgreSQL database bring its schema
// up to date once between them.
func TestPostgresConcurrentOpen(t *testing.T) {
	url := pgtest.URL(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			s, err := OpenPostgres(t.Context(), url)
			if err != nil {
				t.Error(err)
				return
			}
			s.Close()
		})
	}
	wg.Wait()
}

// A move stores only its event: the game's version and its last change
// come from its events, in every place that shows them, and the row of
// the game is left as it was.
func TestMovesChangeOnlyTheirEvents(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := t.Context()
		older, newer := sample("lastmove01"), sample("lastmove02")
		older.Computer, newer.Computer = "black", "black"
		newer.Created, newer.Updated = older.Created.Add(time.Minute), older.Created.Add(time.Minute)
		for _, g := range []Game{older, newer} {
			if err := s.Create(ctx, g); err != nil {
				t.Fatal(err)
			}
			if err := s.Join(ctx, g.ID, "black", []byte("black-hash"), JoinKey{}, g.Created); err != nil {
				t.Fatal(err)
			}
		}
		row := func() (updated int64) {
			t.Helper()
			var err error
			switch s := s.(type) {
			case *SQLite:
				err = s.read.QueryRowContext(ctx, `SELECT updated_at FROM games WHERE id = ?`, older.ID).Scan(&updated)
			case *Postgres:
				err = s.pool.QueryRow(ctx, `SELECT updated_at FROM games WHERE id = $1`, older.ID).Scan(&updated)
			}
			if err != nil {
				t.Fatal(err)
			}
			return updated
		}
		before := row()
		moved := older.Created.Add(time.Hour)
		for seq, cell := range []string{"e5", "d4"} {
			if err := s.Append(ctx, older.ID, []Event{{Seq: seq + 1, Kind: "move", Seat: "white", Move: cell, At: moved}}, nil); err != nil {
				t.Fatal(err)
			}
		}
		if after := row(); after != before {
			t.Errorf("a move changed the game's row: updated_at %d, before %d", after, before)
		}
		g, _, err := s.Load(ctx, older.ID)
		if err != nil || g.Version != 2 || !g.Updated.Equal(moved) || g.Status != "playing" {
			t.Errorf("load: version %d, updated %v, status %q, %v; want 2, %v, playing", g.Version, g.Updated, g.Status, err, moved)
		}
		var m Mark
		switch s := s.(type) {
		case *SQLite:
			m, err = s.Mark(ctx, older.ID)
		case *Postgres:
			m, err = s.Mark(ctx, older.ID)
		}
		if err != nil || m.Version != 2 {
			t.Errorf("mark: version %d, %v; want 2", m.Version, err)
		}
		browser := []byte("browser-one")
		if err := s.Hold(ctx, browser, Holding{Game: older.ID, Sealed: []byte{1}, At: older.Created}); err != nil {
			t.Fatal(err)
		}
		if hs, err := s.Holdings(ctx, browser, 1); err != nil || len(hs) != 1 || !hs[0].Updated.Equal(moved) {
			t.Errorf("holdings: %+v, %v; want updated %v", hs, err, moved)
		}
		// The game moved last waits longest for nothing: it comes last.
		if ids, err := s.ComputerGames(ctx); err != nil || !reflect.DeepEqual(ids, []string{newer.ID, older.ID}) {
			t.Errorf("games against the computer: %v, %v; want %v", ids, err, []string{newer.ID, older.ID})
		}
		// The game's end is kept in its row, after which its events stay
		// the latest change until something follows.
		ended := moved.Add(time.Minute)
		end := &Ending{Winner: "black", Reason: "resign"}
		if err := s.Append(ctx, older.ID, []Event{{Seq: 3, Kind: "resign", Seat: "white", At: ended}}, end); err != nil {
			t.Fatal(err)
		}
		if g, _, err := s.Load(ctx, older.ID); err != nil || g.Version != 3 || g.Status != "over" || g.Winner != "black" || !g.Updated.Equal(ended) {
			t.Errorf("after the end: %+v, %v", g, err)
		}
		if err := s.Append(ctx, older.ID, []Event{{Seq: 4, Kind: "move", Seat: "black", Move: "c3", At: ended}}, nil); !errors.Is(err, ErrConflict) {
			t.Errorf("a move after the end: %v, want a conflict", err)
		}
	})
}

// A game whose events have a gap is not loaded as if whole.
func TestLoadRefusesAGap(t *testing.T) {
	eachStore(t, func(t *testing.T, open opener) {
		s := open(t)
		ctx := t.Context()
		g := sample("gapgame001")
		at := g.Created
		events := []Event{{Seq: 1, Kind: "move", Seat: "white", Move: "e5", At: at}, {Seq: 2, Kind: "move", Seat: "black", Move: "d4", At: at}}
		if err := s.Create(ctx, g, events...); err != nil {
			t.Fatal(err)
		}
		var err error
		switch s := s.(type) {
		case *SQLite:
			_, err = s.write.ExecContext(ctx, `DELETE FROM events WHERE game_id = ? AND seq = 1`, g.ID)
		case *Postgres:
			_, err = s.pool.Exec(ctx, `DELETE FROM events WHERE game_id = $1 AND seq = 1`, g.ID)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Load(ctx, g.ID); err == nil || !strings.Contains(err.Error(), "event 2 stored where 1 was expected") {
			t.Errorf("load of a game without its first event: %v", err)
		}
	})
}
