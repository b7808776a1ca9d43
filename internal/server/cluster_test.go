package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"bretter/internal/bus"
	"bretter/internal/store"
	"bretter/internal/store/pgtest"
	"bretter/internal/web"
)

// Several instances of the site in one test process: each with a handle
// of its own on one shared store, as separate processes would have, and
// a connection of its own to one NATS. Each test uses its own subject
// prefix, so that tests running at once do not hear each other.

// testNATS is where the tests find NATS with JetStream.
func testNATS() string {
	if u := os.Getenv("BRETTER_TEST_NATS"); u != "" {
		return u
	}
	return "nats://127.0.0.1:4222"
}

// sharedStore is a store the instances of a test share.
type sharedStore interface {
	Store
	Close() error
}

type cluster struct {
	t        testing.TB
	prefix   string
	dbPath   string
	nodes    []*node
	leaseTTL time.Duration // zero: the default
	pgURL    string
}

// node is one instance of the site.
type node struct {
	*testServer
	name    string
	store   sharedStore
	bus     *bus.NATS
	stop    context.CancelFunc
	stopped chan struct{}
	once    sync.Once

	mu      sync.Mutex
	notices []notice
	lags    []time.Duration
}

// newCluster starts n instances on one new store and one NATS.
func newCluster(t testing.TB, n int) *cluster {
	t.Helper()
	prefix := make([]byte, 6)
	rand.Read(prefix)
	c := &cluster{t: t, prefix: "test" + hex.EncodeToString(prefix), dbPath: filepath.Join(t.TempDir(), "shared.db")}
	t.Cleanup(c.removeLeases)
	for range n {
		c.start(nodeOptions{run: true})
	}
	return c
}

// openStore opens one more handle on the test's shared store: the one
// place to change to share another kind of store.
func (c *cluster) openStore() sharedStore {
	c.t.Helper()
	if c.pgURL == "" {
		c.pgURL = pgtest.URL(c.t)
	}
	st, err := store.OpenPostgres(context.Background(), c.pgURL)
	if err != nil {
		c.t.Fatal(err)
	}
	return st
}

// removeLeases removes the test's lease bucket from NATS.
func (c *cluster) removeLeases() {
	nc, err := nats.Connect(testNATS())
	if err != nil {
		return
	}
	defer nc.Close()
	if js, err := jetstream.New(nc); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		js.DeleteKeyValue(ctx, c.prefix+"_leases")
	}
}

type nodeOptions struct {
	run  bool          // run the server's background work (Run)
	wrap func(Bus) Bus // to stand between the server and the bus
}

// start starts one more instance.
func (c *cluster) start(opt nodeOptions) *node {
	t := c.t
	t.Helper()
	name := fmt.Sprintf("n%d", len(c.nodes))
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	b, err := bus.Dial(t.Context(), bus.Config{URL: testNATS(), Prefix: c.prefix, Name: name, Log: log, LeaseTTL: c.leaseTTL})
	if err != nil {
		t.Fatalf("the tests need NATS with JetStream at %s: %v", testNATS(), err)
	}
	var asBus Bus = b
	if opt.wrap != nil {
		asBus = opt.wrap(b)
	}
	site, err := web.New(testGames)
	if err != nil {
		t.Fatal(err)
	}
	st := c.openStore()
	srv := New(Config{Store: st, Games: testGames, Site: site, Log: log, Bus: asBus,
		CreatesPerMinute: 60000, MovesPerSecond: 100000, ConnsPerClient: 1000, ChatsPerMinute: 60000})
	n := &node{name: name, store: st, bus: b, stopped: make(chan struct{})}
	srv.hub.notify = func(x notice) { n.mu.Lock(); n.notices = append(n.notices, x); n.mu.Unlock() }
	srv.hub.noticeWait = 0 // counted as soon as the event is stored
	srv.hub.lag = func(d time.Duration) { n.mu.Lock(); n.lags = append(n.lags, d); n.mu.Unlock() }
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	n.testServer = &testServer{Server: hs, srv: srv}
	ctx, stop := context.WithCancel(context.Background())
	n.stop = stop
	if opt.run {
		go func() { srv.Run(ctx); close(n.stopped) }()
	} else {
		close(n.stopped)
	}
	t.Cleanup(n.kill)
	c.nodes = append(c.nodes, n)
	return n
}

// kill stops the instance abruptly: its bus connection first, so that it
// says goodbye to nobody, then its pages and its store.
func (n *node) kill() {
	n.once.Do(func() {
		n.bus.Close()
		n.stop()
		<-n.stopped
		n.srv.hub.stop()
		n.srv.hub.thinkers.close()
		n.srv.hub.closeAll()
		n.Server.CloseClientConnections()
		n.Server.Close()
		n.store.Close()
	})
}

func (n *node) noticesSent() []notice {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]notice(nil), n.notices...)
}

// page is a live connection that keeps what it was told and checks that
// it comes in order: every event follows the one before, and once the
// first state has set out the game, every event comes as an event (a
// later state only confirms what the page knows).
type page struct {
	t       *testing.T
	name    string
	conn    *websocket.Conn
	events  []store.Event
	started bool      // the page knows the game: a state may add nothing
	other   []message // messages that are neither events nor states
	acks    map[int64]message
}

func (n *node) open(t *testing.T, name, id, secret string, after int) *page {
	t.Helper()
	q := ""
	if after >= 0 {
		q = fmt.Sprintf("?after=%d", after)
	}
	c := n.dial(t, id, secret, q)
	return &page{t: t, name: name, conn: c.conn, acks: map[int64]message{}, started: after >= 0}
}

// take reads one message and keeps it.
func (p *page) take() message {
	p.t.Helper()
	// Only to end a test that hangs; not a measure of speed.
	ctx, cancel := context.WithTimeout(p.t.Context(), time.Minute)
	defer cancel()
	_, data, err := p.conn.Read(ctx)
	if err != nil {
		p.t.Fatalf("%s: reading: %v", p.name, err)
	}
	var m message
	if err := json.Unmarshal(data, &m); err != nil {
		p.t.Fatal(err)
	}
	switch m.Type {
	case "event":
		var e store.Event
		if err := json.Unmarshal(m.Event, &e); err != nil {
			p.t.Fatal(err)
		}
		// A page that joined while the watchers were being told may get
		// an event its catching up brought already: the same event again,
		// which a page ignores by its version. Anything else out of order
		// is a fault.
		again := e.Seq >= 1 && e.Seq <= len(p.events) && m.Version == e.Seq && sameEvents([]store.Event{e}, p.events[e.Seq-1:e.Seq])
		if !again && (e.Seq != len(p.events)+1 || m.Version != e.Seq) {
			p.t.Fatalf("%s: event %d (version %d) after %d events", p.name, e.Seq, m.Version, len(p.events))
		}
		if !again {
			p.events = append(p.events, e)
		}
	case "state":
		s := m.State
		if s.Version < len(p.events) || len(s.Events) != s.Version {
			p.t.Fatalf("%s: a state at version %d (%d events) after %d events", p.name, s.Version, len(s.Events), len(p.events))
		}
		if !sameEvents(s.Events[:len(p.events)], p.events) {
			p.t.Fatalf("%s: a state that rewrites the events seen", p.name)
		}
		// A takeback comes as a state: it shortens the game, which an
		// event's change cannot say.
		takeback := s.Version == len(p.events)+1 && s.Events[len(p.events)].Kind == "takeback"
		if p.started && s.Version != len(p.events) && !takeback {
			p.t.Fatalf("%s: a state at version %d skipped events after %d", p.name, s.Version, len(p.events))
		}
		p.events = append(p.events, s.Events[len(p.events):]...)
		p.started = true
	case "ack", "error":
		p.acks[m.ID] = m
	default:
		p.other = append(p.other, m)
	}
	return m
}

// until reads until the page knows version v.
func (p *page) until(v int) {
	p.t.Helper()
	for len(p.events) < v {
		p.take()
	}
}

// untilType reads until a message of the kind comes.
func (p *page) untilType(kind string, ok func(message) bool) message {
	p.t.Helper()
	for {
		if m := p.take(); m.Type == kind && ok(m) {
			return m
		}
	}
}

// send sends a message and reads until its answer.
func (p *page) send(id int64, msg map[string]any) message {
	p.t.Helper()
	msg["id"] = id
	data, _ := json.Marshal(msg)
	ctx, cancel := context.WithTimeout(p.t.Context(), time.Minute)
	defer cancel()
	if err := p.conn.Write(ctx, websocket.MessageText, data); err != nil {
		p.t.Fatalf("%s: sending: %v", p.name, err)
	}
	for {
		if m, ok := p.acks[id]; ok {
			return m
		}
		p.take()
	}
}

// sameEvents compares events as stored: the store keeps times to the
// millisecond, so times are not compared.
func sameEvents(a, b []store.Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Seq != y.Seq || x.Kind != y.Kind || x.Seat != y.Seat || x.Move != y.Move {
			return false
		}
	}
	return true
}

// stored reads a game's events from the store.
func (c *cluster) stored(id string) []store.Event {
	c.t.Helper()
	st := c.openStore()
	defer st.Close()
	_, events, err := st.Load(context.Background(), id)
	if err != nil {
		c.t.Fatal(err)
	}
	return events
}

// firstLegal is the first of the legal moves a player's page was sent.
func firstLegal(t *testing.T, n *node, id, secret string) (int, string) {
	t.Helper()
	s := n.state(t, id, secret)
	if len(s.Legal) == 0 {
		t.Fatalf("no legal move in %+v", s)
	}
	return len(s.Moves), s.Legal[len(s.Legal)/2]
}

func eventsText(events []store.Event) string {
	var b strings.Builder
	for _, e := range events {
		fmt.Fprintf(&b, "%d:%s:%s:%s ", e.Seq, e.Kind, e.Seat, e.Move)
	}
	return b.String()
}
