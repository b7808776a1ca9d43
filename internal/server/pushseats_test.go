package server

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"testing"

	"bretter/internal/store"
)

// subscriptionStore keeps subscriptions in memory and records which seats
// it was asked about. listing, unless nil, is told when a list has been
// read and must be answered before it is returned.
type subscriptionStore struct {
	mu      sync.Mutex
	subs    []store.Subscription
	asked   [][]store.SeatOf
	lists   int
	listErr error
	listing chan chan struct{}
}

func (f *subscriptionStore) Setting(ctx context.Context, name, value string) (string, error) {
	return value, nil
}

func (f *subscriptionStore) Subscribe(ctx context.Context, sub store.Subscription) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subs = append(f.subs, sub)
	return nil
}

func (f *subscriptionStore) Unsubscribe(ctx context.Context, gameID, seat, endpoint string) error {
	return nil
}

func (f *subscriptionStore) SubscriptionsOf(ctx context.Context, seats []store.SeatOf) ([]store.Subscription, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, slices.Clone(seats))
	var out []store.Subscription
	for _, sub := range f.subs {
		if slices.Contains(seats, store.SeatOf{Game: sub.Game, Seat: sub.Seat}) {
			out = append(out, sub)
		}
	}
	return out, nil
}

func (f *subscriptionStore) SubscribedSeats(ctx context.Context) ([]store.SeatOf, error) {
	f.mu.Lock()
	f.lists++
	err := f.listErr
	var seats []store.SeatOf
	for _, sub := range f.subs {
		seats = append(seats, store.SeatOf{Game: sub.Game, Seat: sub.Seat})
	}
	f.mu.Unlock()
	if f.listing != nil {
		answer := make(chan struct{})
		f.listing <- answer
		<-answer
	}
	return seats, err
}

// lastAsked returns the seats of the store's last lookup, and how many
// lookups there were.
func (f *subscriptionStore) lastAsked() ([]store.SeatOf, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.asked) == 0 {
		return nil, 0
	}
	return f.asked[len(f.asked)-1], len(f.asked)
}

// An instance alone asks its store only about seats with subscriptions:
// those made before it started and those made through it.
func TestOnlySubscribedSeatsAreLookedUp(t *testing.T) {
	ctx := t.Context()
	early := store.Subscription{Game: "game00001", Seat: "white", Endpoint: "https://push.example/a"}
	f := &subscriptionStore{subs: []store.Subscription{early}}
	k := &knownSubscribers{pushStore: f}
	white, black := store.SeatOf{Game: "game00001", Seat: "white"}, store.SeatOf{Game: "game00001", Seat: "black"}
	other := store.SeatOf{Game: "game00002", Seat: "white"}

	subs, err := k.SubscriptionsOf(ctx, []store.SeatOf{black, white, other})
	if err != nil || !slices.Equal(subs, []store.Subscription{early}) {
		t.Fatalf("subscriptions: %+v %v", subs, err)
	}
	if asked, n := f.lastAsked(); n != 1 || !slices.Equal(asked, []store.SeatOf{white}) {
		t.Fatalf("the store was asked %d times, last about %v; want once, about White", n, asked)
	}
	if subs, err := k.SubscriptionsOf(ctx, []store.SeatOf{black, other}); err != nil || subs != nil {
		t.Fatalf("seats without subscriptions: %+v %v", subs, err)
	}
	if _, n := f.lastAsked(); n != 1 || f.lists != 1 {
		t.Fatalf("after seats without subscriptions: %d lookups and %d lists, want 1 and 1", n, f.lists)
	}

	late := store.Subscription{Game: other.Game, Seat: other.Seat, Endpoint: "https://push.example/b"}
	if err := k.Subscribe(ctx, late); err != nil {
		t.Fatal(err)
	}
	if subs, err := k.SubscriptionsOf(ctx, []store.SeatOf{black, other}); err != nil || !slices.Equal(subs, []store.Subscription{late}) {
		t.Fatalf("after subscribing: %+v %v", subs, err)
	}
	if asked, _ := f.lastAsked(); !slices.Equal(asked, []store.SeatOf{other}) {
		t.Fatalf("after subscribing the store was asked about %v", asked)
	}
}

// When the store cannot list the subscribed seats, every seat is looked
// up, and the list is read the next time.
func TestSubscribedSeatsUnlisted(t *testing.T) {
	ctx := t.Context()
	sub := store.Subscription{Game: "game00001", Seat: "black", Endpoint: "https://push.example/a"}
	f := &subscriptionStore{subs: []store.Subscription{sub}, listErr: errors.New("the disk is gone")}
	k := &knownSubscribers{pushStore: f}
	seats := []store.SeatOf{{Game: "game00001", Seat: "white"}, {Game: "game00001", Seat: "black"}}
	if subs, err := k.SubscriptionsOf(ctx, seats); err != nil || !slices.Equal(subs, []store.Subscription{sub}) {
		t.Fatalf("subscriptions: %+v %v", subs, err)
	}
	if asked, _ := f.lastAsked(); !slices.Equal(asked, seats) {
		t.Fatalf("without a list the store was asked about %v, want %v", asked, seats)
	}
	f.mu.Lock()
	f.listErr = nil
	f.mu.Unlock()
	if subs, err := k.SubscriptionsOf(ctx, seats); err != nil || !slices.Equal(subs, []store.Subscription{sub}) {
		t.Fatalf("subscriptions: %+v %v", subs, err)
	}
	if asked, n := f.lastAsked(); n != 2 || f.lists != 2 || !slices.Equal(asked, seats[1:]) {
		t.Fatalf("listed %d times, %d lookups, the last about %v; want 2, 2 and Black", f.lists, n, asked)
	}
}

// A subscription stored while the list is being read, too late for it,
// is still known once the list is.
func TestSubscribedWhileListing(t *testing.T) {
	ctx := t.Context()
	f := &subscriptionStore{listing: make(chan chan struct{})}
	k := &knownSubscribers{pushStore: f}
	seat := store.SeatOf{Game: "game00001", Seat: "white"}
	looked := make(chan []store.Subscription)
	go func() {
		subs, _ := k.SubscriptionsOf(ctx, []store.SeatOf{{Game: "game00009", Seat: "white"}})
		looked <- subs
	}()
	answer := <-f.listing // the list is read, without the subscription
	subscribed := make(chan error)
	go func() {
		subscribed <- k.Subscribe(ctx, store.Subscription{Game: seat.Game, Seat: seat.Seat, Endpoint: "https://push.example/a"})
	}()
	// The subscription is stored before the list is returned.
	for {
		f.mu.Lock()
		n := len(f.subs)
		f.mu.Unlock()
		if n == 1 {
			break
		}
		runtime.Gosched()
	}
	close(answer)
	<-looked
	if err := <-subscribed; err != nil {
		t.Fatal(err)
	}
	f.listing = nil
	if subs, err := k.SubscriptionsOf(ctx, []store.SeatOf{seat}); err != nil || len(subs) != 1 {
		t.Fatalf("the subscription made while listing: %+v %v", subs, err)
	}
}

// Once the subscribed seats are known, a notice for any other seat is not
// even queued.
func TestNoticesForNobodyAreNotQueued(t *testing.T) {
	ctx := t.Context()
	f := &subscriptionStore{subs: []store.Subscription{{Game: "game00001", Seat: "white", Endpoint: "https://push.example/a"}}}
	p := newPusher(f, nil, nil, nil, "")
	p.knowSubscribers()
	queued := func() int {
		n := 0
		for _, q := range p.queues {
			n += len(q)
		}
		return n
	}
	p.tell(notice{game: "game00001", seat: "black", kind: "turn"})
	if n := queued(); n != 1 {
		t.Fatalf("before the seats are listed: %d notices queued, want 1", n)
	}
	if _, err := p.store.SubscriptionsOf(ctx, []store.SeatOf{{Game: "game00001", Seat: "black"}}); err != nil {
		t.Fatal(err)
	}
	p.tell(notice{game: "game00001", seat: "black", kind: "turn"})
	p.tell(notice{game: "game00002", seat: "white", kind: "turn"})
	if n := queued(); n != 1 {
		t.Fatalf("notices for seats without subscriptions were queued: %d in all, want 1", n)
	}
	p.tell(notice{game: "game00001", seat: "white", kind: "turn"})
	if err := p.store.Subscribe(ctx, store.Subscription{Game: "game00002", Seat: "white", Endpoint: "https://push.example/b"}); err != nil {
		t.Fatal(err)
	}
	p.tell(notice{game: "game00002", seat: "white", kind: "turn"})
	if n := queued(); n != 3 {
		t.Fatalf("notices for subscribed seats: %d queued in all, want 3", n)
	}
}
