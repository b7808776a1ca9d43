package server

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	mrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bretter/internal/store"
)

// pushService stands in for a browser's push service and the browser
// behind it: it checks each message's VAPID signature against the site's
// public key and decrypts it with the subscription's private keys.
type pushService struct {
	*httptest.Server
	key      *ecdh.PrivateKey // the browser's
	auth     []byte
	siteKey  string       // the site's public key, as GET /api/push/key gives it
	status   atomic.Int32 // to answer with
	messages chan map[string]string
	errs     chan error
}

func newPushService(t *testing.T, siteKey string) *pushService {
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ps := &pushService{key: key, auth: make([]byte, 16), siteKey: siteKey,
		messages: make(chan map[string]string, 10), errs: make(chan error, 10)}
	ps.status.Store(http.StatusCreated)
	rand.Read(ps.auth)
	ps.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		msg, err := ps.receive(r)
		if err != nil {
			ps.errs <- err
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		msg["ttl"] = r.Header.Get("TTL") // how long the service may keep it
		// The answer is chosen before the test hears of the message,
		// which may change it for the next one.
		status := int(ps.status.Load())
		ps.messages <- msg
		w.WriteHeader(status)
	}))
	t.Cleanup(ps.Close)
	return ps
}

// pushing starts ts's sender of notices and n stand-in push services,
// the only addresses it may send to.
func pushing(t *testing.T, ts *testServer, n int) []*pushService {
	go ts.srv.push.run(t.Context())
	var key struct{ Key string }
	ts.call(t, "GET", "/api/push/key", "", nil, &key)
	services := make([]*pushService, n)
	ts.srv.push.allowed = nil
	for i := range services {
		services[i] = newPushService(t, key.Key)
		ts.srv.push.allowed = append(ts.srv.push.allowed, services[i].URL+"/")
	}
	return services
}

// subscription is what the browser's PushSubscription.toJSON gives.
func (ps *pushService) subscription(path string) map[string]any {
	b64 := base64.RawURLEncoding.EncodeToString
	return map[string]any{"endpoint": ps.URL + path, "expirationTime": nil, "keys": map[string]string{"p256dh": b64(ps.key.PublicKey().Bytes()), "auth": b64(ps.auth)}}
}

func (ps *pushService) receive(r *http.Request) (map[string]string, error) {
	if err := ps.checkVAPID(r); err != nil {
		return nil, err
	}
	if r.Header.Get("Content-Encoding") != "aes128gcm" || r.Header.Get("TTL") == "" {
		return nil, fmt.Errorf("headers %v", r.Header)
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	plain, err := ps.decrypt(body)
	if err != nil {
		return nil, err
	}
	var msg map[string]string
	return msg, json.Unmarshal(plain, &msg)
}

// checkVAPID verifies "vapid t=JWT, k=KEY" (RFC 8292).
func (ps *pushService) checkVAPID(r *http.Request) error {
	var token, key string
	for _, part := range strings.Split(strings.TrimPrefix(r.Header.Get("Authorization"), "vapid "), ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch name {
		case "t":
			token = value
		case "k":
			key = value
		}
	}
	if key != ps.siteKey {
		return fmt.Errorf("signed with key %q, the site's is %q", key, ps.siteKey)
	}
	raw, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil {
		return err
	}
	x, y := elliptic.Unmarshal(elliptic.P256(), raw)
	if x == nil {
		return errors.New("the key is no P-256 point")
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return errors.New("malformed token")
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return errors.New("malformed signature")
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(&ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return errors.New("the signature does not verify")
	}
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil {
		return err
	}
	if claims.Aud != ps.URL || claims.Exp < time.Now().Unix() || !strings.HasPrefix(claims.Sub, "mailto:") && !strings.HasPrefix(claims.Sub, "https://") {
		return fmt.Errorf("claims %+v", claims)
	}
	return nil
}

// decrypt undoes RFC 8291's aes128gcm encryption.
func (ps *pushService) decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 || len(body) < 21+int(body[20]) {
		return nil, errors.New("short body")
	}
	salt, idlen := body[:16], int(body[20])
	serverKey, err := ecdh.P256().NewPublicKey(body[21 : 21+idlen])
	if err != nil {
		return nil, err
	}
	shared, err := ps.key.ECDH(serverKey)
	if err != nil {
		return nil, err
	}
	mac := func(key []byte, parts ...[]byte) []byte {
		h := hmac.New(sha256.New, key)
		for _, p := range parts {
			h.Write(p)
		}
		return h.Sum(nil)
	}
	info := append([]byte("WebPush: info\x00"), ps.key.PublicKey().Bytes()...)
	info = append(info, serverKey.Bytes()...)
	ikm := mac(mac(ps.auth, shared), info, []byte{1})
	prk := mac(salt, ikm)
	cek := mac(prk, []byte("Content-Encoding: aes128gcm\x00\x01"))[:16]
	nonce := mac(prk, []byte("Content-Encoding: nonce\x00\x01"))[:12]
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, body[21+idlen:], nil)
	if err != nil {
		return nil, err
	}
	end := len(plain) - 1
	for end >= 0 && plain[end] == 0 {
		end--
	}
	if end < 0 || plain[end] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:end], nil
}

func (ps *pushService) next(t *testing.T) map[string]string {
	t.Helper()
	select {
	case m := <-ps.messages:
		return m
	case err := <-ps.errs:
		t.Fatalf("the push service refused a message: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no push message came")
	}
	return nil
}

func TestPushNotices(t *testing.T) {
	ts := newTestServer(t)
	go ts.srv.push.run(t.Context())
	var key struct{ Key string }
	if code := ts.call(t, "GET", "/api/push/key", "", nil, &key); code != http.StatusOK || key.Key == "" {
		t.Fatalf("key: %d %+v", code, key)
	}
	var again struct{ Key string }
	ts.call(t, "GET", "/api/push/key", "", nil, &again)
	if again.Key != key.Key {
		t.Fatal("the site's key changed between two requests")
	}
	ps := newPushService(t, key.Key)
	ts.srv.push.allowed = []string{ps.URL + "/"}

	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":5},"clock":{"days":3}}`, &c)
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/push", c.Secret, map[string]any{"subscription": ps.subscription("/send/white")}, nil); code != http.StatusOK {
		t.Fatalf("subscribe: %d", code)
	}
	invite := c.InviteURL[strings.LastIndex(c.InviteURL, "/")+1:]
	var j struct{ Secret string }
	ts.call(t, "POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": invite}, &j)
	// A player away for days still finds their news when back online:
	// the service keeps it the four weeks it may.
	if m := ps.next(t); m["body"] != "Havannah: your friend has joined the game." || m["url"] != "/g/"+c.ID || m["ttl"] != "2419200" {
		t.Fatalf("the notice of the friend joining: %+v", m)
	}
	g := testGame{id: c.ID, white: c.Secret, black: j.Secret}
	ts.moveAt(t, g, 0, "c3")
	ts.moveAt(t, g, 1, "d4")
	// A turn lasts until the player's three days are up.
	if m := ps.next(t); !strings.Contains(m["body"], "your turn (d4 was played)") || !wholeIn(m["ttl"], 3*24*3600-10, 3*24*3600) {
		t.Fatalf("the notice of White's turn: %+v", m)
	}
	// The browser dropped the subscription: the service says 410, and it
	// is forgotten.
	ps.status.Store(http.StatusGone)
	ts.moveAt(t, g, 2, "e5")
	ts.moveAt(t, g, 3, "a1")
	ps.next(t)
	deadline := time.Now().Add(5 * time.Second)
	for {
		subs, _ := ts.store.SubscriptionsOf(t.Context(), []store.SeatOf{{Game: c.ID, Seat: "white"}})
		if len(subs) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a subscription the service called gone is kept")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// wholeIn says whether s is a whole number from lo to hi.
func wholeIn(s string, lo, hi int) bool {
	n, err := strconv.Atoi(s)
	return err == nil && lo <= n && n <= hi
}

func TestPushRefusesOtherAddresses(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"dvonn"}`)
	good := map[string]string{"p256dh": base64.RawURLEncoding.EncodeToString(make([]byte, 65)), "auth": base64.RawURLEncoding.EncodeToString(make([]byte, 16))}
	for _, endpoint := range []string{"https://evil.example/push", "http://fcm.googleapis.com/x", "https://fcm.googleapis.com.evil.example/x",
		"https://user@fcm.googleapis.com/x", "https://wns2-evil.example/", "https://notify.windows.com.evil/", "not a url",
		"https://fcm.googleapis.com/fcm/send/" + strings.Repeat("x", maxEndpoint)} {
		body := map[string]any{"subscription": map[string]any{"endpoint": endpoint, "keys": good}}
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/push", g.white, body, nil); code != http.StatusBadRequest {
			t.Errorf("endpoint %s: %d", endpoint, code)
		}
	}
	ok := map[string]any{"endpoint": "https://fcm.googleapis.com/fcm/send/abc", "keys": good}
	for _, tt := range []struct {
		secret string
		body   any
		code   int
	}{
		{g.white, map[string]any{"subscription": ok}, http.StatusOK},
		{g.white, map[string]any{"subscription": map[string]any{"endpoint": "https://x.notify.windows.com/w", "keys": good}}, http.StatusOK},
		{"", map[string]any{"subscription": ok}, http.StatusForbidden},
		{g.white, map[string]any{"subscription": map[string]any{"endpoint": ok["endpoint"], "keys": map[string]string{"p256dh": "short", "auth": "x"}}}, http.StatusBadRequest},
		{g.white, map[string]any{}, http.StatusBadRequest},
	} {
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/push", tt.secret, tt.body, nil); code != tt.code {
			t.Errorf("%v: %d, want %d", tt.body, code, tt.code)
		}
	}
	// Switching off names what to switch off: without it nothing would
	// be, and the answer would not say so.
	for _, body := range []string{`{}`, `{"endpoint":""}`} {
		var e errorBody
		if code := ts.call(t, "DELETE", "/api/games/"+g.id+"/push", g.white, body, &e); code != http.StatusBadRequest || e.Code != "bad_request" {
			t.Errorf("switching off %s: %d %+v", body, code, e)
		}
	}
	if code := ts.call(t, "DELETE", "/api/games/"+g.id+"/push", g.white, map[string]string{"endpoint": "https://fcm.googleapis.com/fcm/send/abc"}, nil); code != http.StatusOK {
		t.Errorf("switching off: %d", code)
	}
	if subs, _ := ts.store.SubscriptionsOf(t.Context(), []store.SeatOf{{Game: g.id, Seat: "white"}}); len(subs) != 1 {
		t.Errorf("after switching one off: %+v", subs)
	}
}

// The other player is told of an offer of a new game, in the language of
// the page that subscribed; a withdrawal tells nobody.
func TestPushNoticeOfRematchOffer(t *testing.T) {
	ts := newTestServer(t)
	ps := pushing(t, ts, 1)[0]
	ft := useFakeTime(ts)
	g := finished(t, ts)

	body, _ := json.Marshal(map[string]any{"subscription": ps.subscription("/send/black")})
	req, _ := http.NewRequest("POST", ts.URL+"/api/games/"+g.id+"/push", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+g.black)
	req.Header.Set("Accept-Language", "de")
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("subscribe: %v %v", res, err)
	}
	res.Body.Close()

	ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, nil, nil)
	if m := ps.next(t); m["body"] != "Havannah: Dein Gegenüber bietet eine neue Partie an." || m["url"] != "/g/"+g.id {
		t.Fatalf("the notice of the offer: %+v", m)
	}
	ts.call(t, "DELETE", "/api/games/"+g.id+"/rematch", g.white, nil, nil)
	// New terms a minute later are told again. Notices go out in order:
	// had the withdrawal been told, its notice would come first.
	ft.advance(time.Minute)
	ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, `{"options":{"size":6}}`, nil)
	if m := ps.next(t); m["body"] != "Havannah: Dein Gegenüber bietet eine neue Partie an." {
		t.Fatalf("the notice after the withdrawal: %+v", m)
	}
}

// lookups is a push store that records which seat of which game it was
// asked about, taking its time over each, and knows no subscription. It
// answers nothing until gate is closed.
type lookups struct {
	mu    sync.Mutex
	seen  map[string][]string
	n     int
	calls int
	all   chan struct{}
	want  int
	gate  chan struct{}
}

func (l *lookups) Setting(ctx context.Context, name, value string) (string, error) { return value, nil }
func (l *lookups) Subscribe(ctx context.Context, sub store.Subscription) error     { return nil }
func (l *lookups) Unsubscribe(ctx context.Context, gameID, seat, endpoint string) error {
	return nil
}

func (l *lookups) SubscribedSeats(ctx context.Context) ([]store.SeatOf, error) { return nil, nil }

func (l *lookups) SubscriptionsOf(ctx context.Context, seats []store.SeatOf) ([]store.Subscription, error) {
	<-l.gate
	time.Sleep(time.Duration(mrand.IntN(200)) * time.Microsecond)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	for _, s := range seats {
		l.seen[s.Game] = append(l.seen[s.Game], s.Seat)
		if l.n++; l.n == l.want {
			close(l.all)
		}
	}
	return nil, nil
}

// Notices are looked up by several workers at once, but those of one game
// one after the other, in the order they came. Those that wait are looked
// up together.
func TestPushNoticesOfAGameKeepTheirOrder(t *testing.T) {
	const games, each = 8, 100
	l := &lookups{seen: map[string][]string{}, all: make(chan struct{}), want: games * each, gate: make(chan struct{})}
	p := newPusher(l, nil, slog.New(slog.DiscardHandler), nil, "")
	go p.run(t.Context())
	want := map[string][]string{}
	for i := range each {
		for g := range games {
			id := fmt.Sprintf("game%05d", g)
			// A different order of seats for every game.
			seat := []string{"white", "black"}[(i*(g+1)/3)%2]
			want[id] = append(want[id], seat)
			p.tell(notice{game: id, seat: seat, kind: "turn"})
		}
	}
	close(l.gate)
	select {
	case <-l.all:
	case <-time.After(30 * time.Second):
		t.Fatalf("%d of %d notices were looked up", l.n, l.want)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, seats := range want {
		if !slices.Equal(l.seen[id], seats) {
			t.Fatalf("%s: looked up %v, told %v", id, l.seen[id], seats)
		}
	}
	// Each worker may have taken one notice alone before the rest came;
	// the others waited, and went in batches.
	if most := games * each / 10; l.calls > most {
		t.Errorf("%d notices took %d lookups, want at most %d", games*each, l.calls, most)
	}
}

// Each way a turn comes or a game ends has its own notice, with nothing
// left unsaid in any language: a move taken back, a pass the rules made,
// a game called off.
func TestNoticeKinds(t *testing.T) {
	ts := newTestServer(t)
	var mu sync.Mutex
	var sent []notice
	ts.srv.hub.notify = func(n notice) { mu.Lock(); sent = append(sent, n); mu.Unlock() }
	last := func() notice {
		mu.Lock()
		defer mu.Unlock()
		if len(sent) == 0 {
			t.Fatal("no notice")
		}
		return sent[len(sent)-1]
	}

	g := ts.newGame(t, `{"game":"havannah","options":{"size":5}}`)
	ts.play(t, g, "c3 d4")
	ts.offer(t, g.id, g.black, "takeback")
	ts.answer(t, g.id, g.white, "takeback", true)
	if n := last(); n.seat != "black" || n.kind != "takeback" || n.text != nil {
		t.Errorf("after a takeback: %+v", n)
	}

	g = ts.newGame(t, `{"game":"havannah","options":{"size":5}}`)
	ts.play(t, g, "c3")
	ts.offer(t, g.id, g.black, "abort")
	mu.Lock()
	ends := sent[len(sent)-2:]
	mu.Unlock()
	if ends[0].kind != "aborted" || ends[1].kind != "aborted" {
		t.Errorf("after calling off: %+v", ends)
	}

	g = ts.newGame(t, `{"game":"dvonn","start":"me"}`)
	plan := dvonnWithPass(t)
	ts.playBeforeThePass(t, g, plan)
	if n := last(); n.seat != plan.seats[plan.before-2] || n.kind != "again" {
		t.Errorf("after a forced pass: %+v, want %s to move again", n, plan.seats[plan.before-2])
	}

	for _, lang := range []string{"en", "de", "pl"} {
		for _, kind := range []string{"turn", "again", "takeback", "joined", "won", "lost", "draw", "aborted"} {
			if text := ts.srv.site.T(lang, "push."+kind, "game", "Havannah", "move", "c3"); strings.ContainsAny(text, "{}") || !strings.HasPrefix(text, "Havannah") {
				t.Errorf("%s push.%s: %q", lang, kind, text)
			}
		}
	}
}

// A player whose page of the game is on screen sees the news there, and
// gets no notice of it; once the page is hidden or closed, notices come
// again.
func TestNoNoticeWhileLooking(t *testing.T) {
	ts := newTestServer(t)
	var mu sync.Mutex
	var sent []notice
	ts.srv.hub.notify = func(n notice) { mu.Lock(); sent = append(sent, n); mu.Unlock() }
	told := func() []notice {
		mu.Lock()
		defer mu.Unlock()
		told := sent
		sent = nil
		return told
	}
	// The waits of spared notices are run by the test: spare() runs those
	// due by then.
	var waits []func()
	ts.srv.hub.afterFunc = func(d time.Duration, f func()) *time.Timer {
		if d != sparedWait {
			return time.AfterFunc(d, f)
		}
		mu.Lock()
		waits = append(waits, f)
		mu.Unlock()
		return time.NewTimer(time.Hour) // never fires
	}
	spare := func() {
		mu.Lock()
		due := waits
		waits = nil
		mu.Unlock()
		for _, f := range due {
			f()
		}
	}
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5},"start":"me"}`)
	told() // the friend's coming
	black := ts.dial(t, g.id, g.black, "")
	black.next("state")
	// A page's messages are carried out in order, and a refused one is
	// answered: once it is, the page's shown has been taken.
	shown := func(c *client, on bool) {
		t.Helper()
		c.send(map[string]any{"type": "shown", "shown": on})
		c.send(map[string]any{"type": "shown", "id": 99})
		if e := c.next("error"); e.ID != 99 {
			t.Fatalf("answer %+v", e)
		}
	}

	// round plays a move of Black's at ply, then one of White's.
	round := func(ply int, b, w string) {
		t.Helper()
		ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.black, map[string]any{"ply": ply, "move": b}, nil)
		ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, map[string]any{"ply": ply + 1, "move": w}, nil)
	}

	shown(black, true)
	ts.play(t, g, "c3")
	if n := told(); len(n) != 0 {
		t.Errorf("black, looking, was told %+v", n)
	}
	// A second page of the same seat, hidden, does not hide the first.
	second := ts.dial(t, g.id, g.black, "")
	second.next("state")
	shown(second, false)
	round(1, "d4", "e5")
	if n := told(); len(n) != 1 || n[0].seat != "white" {
		t.Errorf("with black looking, and white not: %+v", n)
	}

	shown(black, false)
	round(3, "b2", "c4")
	if n := told(); len(n) != 2 || n[1].seat != "black" || n[1].kind != "turn" {
		t.Errorf("with black's page hidden: %+v", n)
	}

	// A page that closes while on screen is looking no more.
	watcher := ts.dial(t, g.id, "", "")
	watcher.next("state")
	second.conn.CloseNow()
	shown(black, true)
	black.conn.CloseNow()
	watcher.presence("black", false)
	round(5, "d2", "e2")
	if n := told(); len(n) != 2 || n[1].seat != "black" {
		t.Errorf("after black's page on screen closed: %+v", n)
	}

	// A page on screen that goes without saying it was put away may have
	// died with the news unseen: the notice spared for it goes, once the
	// page has had time to come back.
	last := ts.dial(t, g.id, g.black, "")
	last.next("state")
	shown(last, true)
	round(7, "b1", "c1")
	if n := told(); len(n) != 1 || n[0].seat != "white" {
		t.Errorf("with black's last page on screen: %+v", n)
	}
	last.conn.CloseNow()
	watcher.presence("black", false)
	if n := told(); len(n) != 0 {
		t.Errorf("at once after black's page on screen died: %+v", n)
	}
	spare()
	if n := told(); len(n) != 1 || n[0].seat != "black" || n[0].text[1] != "c1" {
		t.Errorf("after black's page on screen died: %+v", n)
	}

	// A page that comes back and is on screen, even for a moment, shows
	// the news: dropped as too slow, say, or its connection broken.
	back := ts.dial(t, g.id, g.black, "")
	back.next("state")
	shown(back, true)
	round(9, "d1", "e1")
	told()
	back.conn.CloseNow()
	watcher.presence("black", false)
	back = ts.dial(t, g.id, g.black, "")
	back.next("state")
	shown(back, true)
	shown(back, false)
	spare()
	if n := told(); len(n) != 0 {
		t.Errorf("black's page came back: %+v", n)
	}
	back.conn.CloseNow()
	watcher.presence("black", false)

	// The site shutting down closes every page itself: no page died, and
	// no notice goes.
	final := ts.dial(t, g.id, g.black, "")
	final.next("state")
	shown(final, true)
	round(11, "a1", "a2")
	told()
	ts.srv.hub.stop()
	ts.srv.hub.closeAll()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		conns := -1
		ts.srv.hub.withCached(t.Context(), g.id, func(g *liveGame) error { conns = g.presence[1].conns; return nil })
		if conns == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("black's page is still there after the shutdown")
		}
	}
	if n := told(); len(n) != 0 {
		t.Errorf("notices as the site shut down: %+v", n)
	}
}

// The notices are signed with a contact the push services take: Apple's
// refuses one at localhost, so a site with a public address gives that.
func TestPushContact(t *testing.T) {
	for _, tt := range []struct{ given, public, want string }{
		{"", "https://bretter.example", "https://bretter.example"},
		{"admin@bretter.example", "https://bretter.example", "admin@bretter.example"},
		{"", "http://bretter.example", "bretter@localhost"},
		{"", "", "bretter@localhost"},
	} {
		if got := pushContact(tt.given, tt.public); got != tt.want {
			t.Errorf("given %q, public %q: %q, want %q", tt.given, tt.public, got, tt.want)
		}
	}
}

// subscribeAs subscribes the holder of secret in game id to ps, as a page
// in lang would.
func subscribeAs(t *testing.T, ts *testServer, ps *pushService, id, secret, lang string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"subscription": ps.subscription("/send")})
	req, _ := http.NewRequest("POST", ts.URL+"/api/games/"+id+"/push", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Accept-Language", lang)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("subscribe: %v %v", res, err)
	}
	res.Body.Close()
}

// "New game, same friend" keeps the notices its players asked for: the
// one who offered it hears that it has begun, and each hears of their
// turn in it, as in the game before, without asking again.
func TestPushNoticesFollowTheNewGame(t *testing.T) {
	ts := newTestServer(t)
	services := pushing(t, ts, 2)
	white, black := services[0], services[1]
	g := finished(t, ts)
	subscribeAs(t, ts, white, g.id, g.white, "pl")
	subscribeAs(t, ts, black, g.id, g.black, "de")

	ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, nil, nil)
	black.next(t) // the offer
	var next struct{ ID string }
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.black, nil, &next); code != http.StatusCreated {
		t.Fatalf("accepting the new game: %d", code)
	}
	if m := white.next(t); m["body"] != "Havannah: znajomy przyjął propozycję: nowa partia się zaczęła." || m["url"] != "/g/"+next.ID {
		t.Fatalf("the offer's maker is told %+v", m)
	}
	// Colours swapped: the friend begins, and the one who offered is
	// told of their turn in the new game.
	ts.call(t, "POST", "/api/games/"+next.ID+"/moves", g.black, map[string]any{"ply": 0, "move": "a1"}, nil)
	if m := white.next(t); m["body"] != "Havannah: twój ruch (zagrano a1)." || m["url"] != "/g/"+next.ID {
		t.Fatalf("the turn in the new game: %+v", m)
	}
	ts.call(t, "POST", "/api/games/"+next.ID+"/moves", g.white, map[string]any{"ply": 1, "move": "d4"}, nil)
	if m := black.next(t); m["body"] != "Havannah: Du bist am Zug (d4 wurde gespielt)." || m["url"] != "/g/"+next.ID {
		t.Fatalf("the friend's turn in the new game: %+v", m)
	}
}

// A page asks whether its browser's subscription gets the seat's
// notices: so it does once carried over to a new game, same friend.
func TestPushSubscribedAsked(t *testing.T) {
	ts := newTestServer(t)
	ps := newPushService(t, "")
	ts.srv.push.allowed = []string{ps.URL + "/"}
	g := finished(t, ts)
	subscribeAs(t, ts, ps, g.id, g.white, "en")
	ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, nil, nil)
	var next struct{ ID string }
	ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.black, nil, &next)
	type answer struct {
		Seat       string
		Subscribed bool
	}
	ask := func(id, secret, endpoint string) (int, answer) {
		var a answer
		code := ts.call(t, "GET", "/api/games/"+id+"/push?endpoint="+url.QueryEscape(endpoint), secret, nil, &a)
		return code, a
	}
	mine := ps.URL + "/send"
	if code, a := ask(next.ID, g.white, mine); code != http.StatusOK || a != (answer{"black", true}) {
		t.Fatalf("the subscription carried over: %d %+v", code, a)
	}
	if code, a := ask(next.ID, g.white, mine+"/other"); code != http.StatusOK || a.Subscribed {
		t.Fatalf("another browser's endpoint: %d %+v", code, a)
	}
	if code, a := ask(next.ID, g.black, mine); code != http.StatusOK || a != (answer{"white", false}) {
		t.Fatalf("the friend, who asked for no notices: %d %+v", code, a)
	}
	if code, _ := ask(next.ID, g.white, ""); code != http.StatusBadRequest {
		t.Fatalf("no endpoint: %d", code)
	}
	if code, _ := ask(next.ID, "", mine); code != http.StatusForbidden {
		t.Fatalf("a watcher: %d", code)
	}
}

// A swap is told in words, in the player's language, as the page's list
// of moves says it, not in the notation's one English word.
func TestPushNoticeOfASwap(t *testing.T) {
	for lang, want := range map[string]string{
		"en": "Havannah: your turn: your first stone was taken over by a swap.",
		"de": "Havannah: Du bist am Zug: Dein erster Stein wurde per Tausch übernommen.",
		"pl": "Havannah: twój ruch: przeciwnik przejął zamianą twój pierwszy pionek.",
	} {
		ts := newTestServer(t)
		ps := pushing(t, ts, 1)[0]
		g := ts.newGame(t, `{"game":"havannah","options":{"size":5,"swap":true},"start":"me"}`)
		subscribeAs(t, ts, ps, g.id, g.white, lang)
		ts.moveAt(t, g, 0, "c3")
		ts.moveAt(t, g, 1, "swap")
		if m := ps.next(t); m["body"] != want {
			t.Errorf("%s: the notice of a swap says %q, want %q", lang, m["body"], want)
		}
	}
}
