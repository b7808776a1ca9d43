package server

import (
	"context"
	"sync"

	"bretter/internal/store"
)

// knownSubscribers is the push store of an instance alone with its store
// (one without a bus): every subscription is made through it, so it can
// remember which seats have one and look up only those. Nearly every
// notice is for a seat without: at 9,900 games, one lookup a move (a read
// on a connection whose cache the last commit had just made stale) took
// 12% of the site's time.
//
// A seat stays listed until the instance restarts, even when its browsers
// unsubscribe: one seat too many costs a lookup, one too few a notice.
type knownSubscribers struct {
	pushStore
	mu    sync.Mutex
	seats map[store.SeatOf]bool // nil until listed from the store
}

// knowSubscribers makes p, the pusher of an instance alone with its
// store, remember the seats with subscriptions.
func (p *pusher) knowSubscribers() {
	known := &knownSubscribers{pushStore: p.store}
	p.store, p.unwanted = known, known.surelyNone
}

func (k *knownSubscribers) Subscribe(ctx context.Context, sub store.Subscription) error {
	if err := k.pushStore.Subscribe(ctx, sub); err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	// Unlisted, the store's list will hold it.
	if k.seats != nil {
		k.seats[store.SeatOf{Game: sub.Game, Seat: sub.Seat}] = true
	}
	return nil
}

// surelyNone reports whether seat is known to have no subscription, so
// that a notice for it need not even be queued: flat out, queuing one a
// move and waking a worker for it cost about 2% of the site's time.
// Until the list has been read, no seat is known to have none.
func (k *knownSubscribers) surelyNone(seat store.SeatOf) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.seats != nil && !k.seats[seat]
}

func (k *knownSubscribers) SubscriptionsOf(ctx context.Context, seats []store.SeatOf) ([]store.Subscription, error) {
	subscribed, ok := k.filter(ctx, seats)
	if !ok {
		// The list could not be read: ask about every seat, and try
		// listing again next time.
		return k.pushStore.SubscriptionsOf(ctx, seats)
	}
	if len(subscribed) == 0 {
		return nil, nil
	}
	return k.pushStore.SubscriptionsOf(ctx, subscribed)
}

// filter returns those of seats that have a subscription, listing them
// from the store first if need be. The list is read holding mu, so that a
// subscription the list missed is added by Subscribe after it.
func (k *knownSubscribers) filter(ctx context.Context, seats []store.SeatOf) ([]store.SeatOf, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.seats == nil {
		listed, err := k.pushStore.SubscribedSeats(ctx)
		if err != nil {
			return nil, false
		}
		k.seats = make(map[store.SeatOf]bool, len(listed))
		for _, seat := range listed {
			k.seats[seat] = true
		}
	}
	var subscribed []store.SeatOf
	for _, seat := range seats {
		if k.seats[seat] {
			subscribed = append(subscribed, seat)
		}
	}
	return subscribed, true
}
