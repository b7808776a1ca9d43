package server

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"bretter/internal/store"
	"bretter/internal/web"
)

// Web Push (RFC 8030, encrypted by RFC 8291, signed by RFC 8292): a player
// who allowed it is told that it is their turn, that their friend has
// joined, or that the game is over, while the page is closed. The server
// only ever sends to the push services' own addresses, so that nobody can
// make it post elsewhere.

// PushServices are the address prefixes of the browsers' push services.
var PushServices = []string{
	"https://fcm.googleapis.com/",
	"https://updates.push.services.mozilla.com/",
	"https://web.push.apple.com/",
	"https://push.services.mozilla.com/",
	"https://*.notify.windows.com/",
}

// pushStore is what pushing needs of the store.
type pushStore interface {
	Setting(ctx context.Context, name, value string) (string, error)
	Subscribe(ctx context.Context, sub store.Subscription) error
	Unsubscribe(ctx context.Context, gameID, seat, endpoint string) error
	SubscriptionsOf(ctx context.Context, seats []store.SeatOf) ([]store.Subscription, error)
	SubscribedSeats(ctx context.Context) ([]store.SeatOf, error)
}

// notice is one thing to tell one seat of a game.
type notice struct {
	game, gameName, seat string
	kind                 string // "turn", "again", "takeback", "joined", "won", "lost", "draw", "aborted", "rematch", "next" or "swapped"
	text                 []any  // name, value pairs for the message
	// life is how long a push service may keep the notice for a device
	// that is offline; 0 for noticeLife.
	life time.Duration
}

// noticeLife is how long a push service keeps a notice for a device that
// is offline, at most: the four weeks the services allow. A slow game's
// player may be away for days, and their turn waits for them.
const noticeLife = 28 * 24 * time.Hour

// pusher sends notices from queues of its own, so that no command waits
// for a push service.
type pusher struct {
	store   pushStore
	site    *web.Site
	log     *slog.Logger
	allowed []string
	contact string
	client  *http.Client
	queues  [pushWorkers]chan notice
	seed    maphash.Seed // picks a game's queue
	keys    func(ctx context.Context) (private, public string, err error)
	// unwanted, unless nil, tells notices that are surely for nobody.
	unwanted func(store.SeatOf) bool
}

// pushWorkers is how many batches of notices are looked up and sent at
// once: a push service that is slow to answer holds up only the notices
// behind it in its worker. The notices of one game go through one
// worker, in order.
const pushWorkers = 4

// pushLookup is how many waiting notices a worker looks up in one query.
// One query a move took about 7% of the site's CPU at thousands of
// moves a second.
const pushLookup = 64

func newPusher(st pushStore, site *web.Site, log *slog.Logger, allowed []string, contact string) *pusher {
	p := &pusher{store: st, site: site, log: log, allowed: allowed, contact: contact,
		client: &http.Client{Timeout: 15 * time.Second}, seed: maphash.MakeSeed()}
	for i := range p.queues {
		p.queues[i] = make(chan notice, 1024)
	}
	p.keys = p.vapidKeys
	return p
}

// vapidKeys returns the site's key pair, made on first use and kept in
// the store, where every instance finds the same.
func (p *pusher) vapidKeys(ctx context.Context) (private, public string, err error) {
	priv, pub, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		return "", "", err
	}
	pair, err := p.store.Setting(ctx, "vapid", priv+" "+pub)
	if err != nil {
		return "", "", err
	}
	private, public, ok := strings.Cut(pair, " ")
	if !ok {
		return "", "", fmt.Errorf("the stored key pair is malformed")
	}
	return private, public, nil
}

// allows reports whether endpoint is an address of a known push service.
func (p *pusher) allows(endpoint string) bool {
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || u.User != nil {
		return false
	}
	for _, prefix := range p.allowed {
		// "https://*.host/" admits every host under host.
		if suffix, ok := strings.CutPrefix(prefix, "https://*."); ok {
			host, _, _ := strings.Cut(suffix, "/")
			if u.Scheme == "https" && strings.HasSuffix(u.Host, "."+host) {
				return true
			}
			continue
		}
		if strings.HasPrefix(endpoint, prefix) && (u.Scheme == "https" || strings.HasPrefix(prefix, "http://")) {
			return true
		}
	}
	return false
}

// tell queues a notice; a full queue drops it rather than slow a move.
func (p *pusher) tell(n notice) {
	if p.unwanted != nil && p.unwanted(store.SeatOf{Game: n.game, Seat: n.seat}) {
		return
	}
	select {
	case p.queues[maphash.String(p.seed, n.game)%pushWorkers] <- n:
	default:
		p.log.Warn("push queue full: a notice was dropped", "game", n.game)
	}
}

// run sends the queued notices until ctx ends.
func (p *pusher) run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, q := range p.queues {
		wg.Go(func() {
			for {
				select {
				case <-ctx.Done():
					return
				case n := <-q:
					batch := []notice{n}
				more:
					for len(batch) < pushLookup {
						select {
						case n := <-q:
							batch = append(batch, n)
						default:
							break more
						}
					}
					p.send(ctx, batch)
				}
			}
		})
	}
	wg.Wait()
}

// send looks up who is to be told of notices, all at once, and tells
// them, in order.
func (p *pusher) send(ctx context.Context, notices []notice) {
	seats := make([]store.SeatOf, len(notices))
	for i, n := range notices {
		seats[i] = store.SeatOf{Game: n.game, Seat: n.seat}
	}
	found, err := p.store.SubscriptionsOf(ctx, seats)
	if err != nil {
		p.log.Error("push: reading subscriptions", "game", notices[0].game, "notices", len(notices), "err", err)
		return
	}
	if len(found) == 0 {
		return
	}
	subs := map[store.SeatOf][]store.Subscription{}
	for _, sub := range found {
		seat := store.SeatOf{Game: sub.Game, Seat: sub.Seat}
		subs[seat] = append(subs[seat], sub)
	}
	private, public, err := p.keys(ctx)
	if err != nil {
		p.log.Error("push: the site's keys", "err", err)
		return
	}
	for i, n := range notices {
		subs[seats[i]] = p.sendOne(ctx, n, subs[seats[i]], private, public)
	}
}

// sendOne tells n to each of subs, and returns those still subscribed.
func (p *pusher) sendOne(ctx context.Context, n notice, subs []store.Subscription, private, public string) []store.Subscription {
	kept := subs[:0]
	for _, sub := range subs {
		kept = append(kept, sub)
		if !p.allows(sub.Endpoint) {
			continue // the list of services changed since it was stored
		}
		body, _ := json.Marshal(map[string]string{
			"title": p.site.T(sub.Lang, "push.title"),
			"body":  p.site.T(sub.Lang, "push."+n.kind, append([]any{"game", p.site.T(sub.Lang, "game."+n.gameName+".name")}, n.text...)...),
			"url":   "/g/" + n.game,
			"tag":   n.game,
		})
		res, err := webpush.SendNotificationWithContext(ctx, body, &webpush.Subscription{Endpoint: sub.Endpoint,
			Keys: webpush.Keys{P256dh: sub.P256DH, Auth: sub.Auth}},
			&webpush.Options{HTTPClient: p.client, Subscriber: p.contact, VAPIDPublicKey: public, VAPIDPrivateKey: private,
				TTL: int(cmp.Or(n.life, noticeLife).Seconds()), Urgency: webpush.UrgencyHigh, Topic: n.game})
		if err != nil {
			p.log.Warn("push: sending", "game", n.game, "err", err)
			continue
		}
		io.Copy(io.Discard, io.LimitReader(res.Body, 4096))
		res.Body.Close()
		switch {
		case res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusGone:
			// The browser has dropped the subscription: so do we.
			kept = kept[:len(kept)-1]
			if err := p.store.Unsubscribe(ctx, n.game, "", sub.Endpoint); err != nil {
				p.log.Error("push: forgetting a subscription", "game", n.game, "err", err)
			}
		case res.StatusCode >= 300:
			p.log.Warn("push: the service refused a notice", "game", n.game, "status", res.StatusCode)
		}
	}
	return kept
}

// carry subscribes seat to, of a new game, same friend, to what seat
// from of the game before was subscribed to: a player who asked to be
// told of their turn is told in the next game too, and hears that it has
// begun.
func (p *pusher) carry(ctx context.Context, from, to store.SeatOf) error {
	subs, err := p.store.SubscriptionsOf(ctx, []store.SeatOf{from})
	if err != nil {
		return err
	}
	for _, sub := range subs {
		sub.Game, sub.Seat = to.Game, to.Seat
		if err := p.store.Subscribe(ctx, sub); err != nil {
			return err
		}
	}
	return nil
}

// pushContact is the contact the site signs its notices with: the one
// given, else the public address. Apple's push service refuses a contact
// at localhost, the last resort of a site that has neither.
func pushContact(given, publicURL string) string {
	switch {
	case given != "":
		return given
	case strings.HasPrefix(publicURL, "https://"):
		return publicURL
	}
	return "bretter@localhost"
}

// subscribeRequest is the body of POST /api/games/{id}/push: the
// browser's PushSubscription, as its toJSON gives it.
type subscribeRequest struct {
	Subscription *struct {
		Endpoint string `json:"endpoint"`
		// When the subscription ends, if the service says (usually null);
		// not kept: a service answers an ended one with 404 or 410.
		ExpirationTime *float64 `json:"expirationTime"`
		Keys           struct {
			P256dh string `json:"p256dh"`
			Auth   string `json:"auth"`
		} `json:"keys"`
	} `json:"subscription"`
}

func (s *Server) apiPushKey(w http.ResponseWriter, r *http.Request) {
	_, public, err := s.push.keys(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"key": public})
}

func (s *Server) apiSubscribe(w http.ResponseWriter, r *http.Request) {
	var req subscribeRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	sub := req.Subscription
	if sub == nil || len(sub.Endpoint) > maxEndpoint || !s.push.allows(sub.Endpoint) {
		writeError(w, refuse(http.StatusBadRequest, "bad_request", "the subscription must name a known push service"))
		return
	}
	if !keyOfLength(sub.Keys.P256dh, 65) || !keyOfLength(sub.Keys.Auth, 16) {
		writeError(w, refuse(http.StatusBadRequest, "bad_request", "the subscription's keys are malformed"))
		return
	}
	s.asSeat(w, r, func(id, seat string) error {
		return s.push.store.Subscribe(r.Context(), store.Subscription{Game: id, Seat: seat, Endpoint: sub.Endpoint,
			P256DH: sub.Keys.P256dh, Auth: sub.Keys.Auth, Lang: s.site.Lang(r)})
	})
}

func (s *Server) apiUnsubscribe(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Endpoint string `json:"endpoint"`
	}
	if err := readJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Endpoint == "" {
		writeError(w, refuse(http.StatusBadRequest, "bad_request", `give the "endpoint" of the subscription to switch off`))
		return
	}
	s.asSeat(w, r, func(id, seat string) error {
		return s.push.store.Unsubscribe(r.Context(), id, seat, req.Endpoint)
	})
}

// apiSubscribed says whether the seat gets notices at the endpoint the
// query names: the page of a new game, same friend, finds the notices of
// the game before carried over, which its browser did not ask for there.
func (s *Server) apiSubscribed(w http.ResponseWriter, r *http.Request) {
	endpoint := r.URL.Query().Get("endpoint")
	if endpoint == "" || len(endpoint) > maxEndpoint {
		writeError(w, refuse(http.StatusBadRequest, "bad_request", "give the endpoint of a subscription (at most %d bytes)", maxEndpoint))
		return
	}
	id := r.PathValue("id")
	seat, err := within(r.Context(), s.hub, id, func(g *liveGame) (string, error) { return g.seat(s.secret(r, id)) })
	var subs []store.Subscription
	if err == nil {
		subs, err = s.push.store.SubscriptionsOf(r.Context(), []store.SeatOf{{Game: id, Seat: seat}})
	}
	if err != nil {
		writeError(w, err)
		return
	}
	subscribed := slices.ContainsFunc(subs, func(sub store.Subscription) bool { return sub.Endpoint == endpoint })
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"seat": seat, "subscribed": subscribed})
}

// maxEndpoint bounds a subscription's address: the push services give
// a few hundred bytes.
const maxEndpoint = 1024

// keyOfLength reports whether key is base64url for n bytes.
func keyOfLength(key string, n int) bool {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(key, "="))
	return err == nil && len(b) == n
}

// asSeat runs f for the seat whose secret the request carries, in the game
// its path names, and answers with that seat or with what went wrong.
func (s *Server) asSeat(w http.ResponseWriter, r *http.Request, f func(id, seat string) error) {
	id := r.PathValue("id")
	seat, err := within(r.Context(), s.hub, id, func(g *liveGame) (string, error) { return g.seat(s.secret(r, id)) })
	if err == nil {
		err = f(id, seat)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"seat": seat})
}
