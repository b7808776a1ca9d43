package server

import (
	"context"
	"encoding/json"
	"runtime"
	"sync"
	"time"

	"bretter/internal/store"
)

// A subscriber is one open page (or API stream) of a game. Messages for
// it wait in its queue. A player's page has a goroutine of its own while
// any wait, which writes as many as have gathered and ends when the queue
// is empty, so that an idle page costs no goroutine beyond its reader. A
// game's watchers are written by the one goroutine that tells them, each
// as far as its socket takes at once; only a watcher whose socket is full
// gets a writer of its own for the rest.
type subscriber struct {
	seat    string
	looking bool // the page said it is on screen; under the game's lock

	mu      sync.Mutex
	queue   [][]byte
	held    bool          // nothing is written until release
	writing bool          // a write is under way (or the page failed: none will be)
	conn    pageWriter    // nil until attached
	gone    chan struct{} // closed when the page must go: too slow, or shutting down
	once    sync.Once
}

// A pageWriter writes a page's messages to its connection.
type pageWriter interface {
	// send writes msgs after what try left, waiting for the page as long
	// as it may.
	send(msgs [][]byte) error
	// try writes msgs as far as the page takes them without waiting. Unless
	// all went out, a send must follow with the messages it returns.
	try(msgs [][]byte) (left [][]byte, all bool, err error)
	// stop closes the page, asking it to reconnect.
	stop()
}

// maxQueued is how many messages may wait for a page before it is
// dropped as too slow; it reconnects and resumes from its version.
const maxQueued = 64

func newSubscriber(seat string) *subscriber {
	return &subscriber{seat: seat, gone: make(chan struct{})}
}

// drop tells the page to go; it never blocks, as the hub calls it under
// a game's lock.
func (s *subscriber) drop() {
	s.once.Do(func() {
		close(s.gone)
		s.mu.Lock()
		conn := s.conn
		s.mu.Unlock()
		if conn != nil {
			go conn.stop()
		}
	})
}

// push queues msgs for the page's writer, started if none runs. It
// reports false, queuing none, when too many messages would wait.
func (s *subscriber) push(msgs ...[]byte) bool {
	if !s.enqueue(msgs) {
		return false
	}
	s.startWriter()
	return true
}

// pushNow is push, but the caller writes what waits itself, as far as the
// page's socket takes it without waiting; only the rest goes to a writer.
func (s *subscriber) pushNow(msgs ...[]byte) bool {
	if !s.enqueue(msgs) {
		return false
	}
	s.writeWaiting()
	return true
}

func (s *subscriber) enqueue(msgs [][]byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue)+len(msgs) > maxQueued {
		return false
	}
	s.queue = append(s.queue, msgs...)
	return true
}

// claim takes what waits, for a write, unless a write is under way (which
// writes it next), the page is held or not attached yet, or nothing waits.
func (s *subscriber) claim() (pageWriter, [][]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.writing || s.held || s.conn == nil || len(s.queue) == 0 {
		return nil, nil, false
	}
	s.writing = true
	batch := s.queue
	s.queue = nil
	return s.conn, batch, true
}

// startWriter starts a goroutine that writes what waits.
func (s *subscriber) startWriter() {
	if conn, batch, ok := s.claim(); ok {
		go s.flush(conn, batch)
	}
}

// writeWaiting writes what waits in the calling goroutine, as far as the
// socket takes it without waiting, and hands the rest to a writer.
func (s *subscriber) writeWaiting() {
	for {
		conn, batch, ok := s.claim()
		if !ok {
			return
		}
		left, all, err := conn.try(batch)
		switch {
		case err != nil:
			s.drop() // and the write stays claimed: nothing more is written
			return
		case !all:
			go s.flush(conn, left)
			return
		}
		// What was queued meanwhile is written next.
		s.mu.Lock()
		s.writing = false
		s.mu.Unlock()
	}
}

// hold keeps what is pushed waiting until release, so that it goes out
// in one write with what follows it.
func (s *subscriber) hold() {
	s.mu.Lock()
	s.held = true
	s.mu.Unlock()
}

// release ends hold and writes what waits, as far as the page's socket
// takes it at once; a writer of its own writes the rest.
func (s *subscriber) release() {
	s.mu.Lock()
	s.held = false
	s.mu.Unlock()
	s.writeWaiting()
}

// attach gives the page its connection. What waits already is written at
// once.
func (s *subscriber) attach(conn pageWriter) {
	s.mu.Lock()
	s.conn = conn
	s.mu.Unlock()
	select {
	case <-s.gone: // dropped before it was attached
		go conn.stop()
		return
	default:
	}
	s.writeWaiting()
}

// flush writes first (after what try left unwritten), then what waits,
// waiting for the page as long as it may, until nothing waits. After a
// failed write it writes no more: the page is dropped and reconnects.
func (s *subscriber) flush(conn pageWriter, first [][]byte) {
	batch := first
	for {
		if err := conn.send(batch); err != nil {
			s.drop()
			return
		}
		s.mu.Lock()
		batch = s.queue
		s.queue = nil
		if len(batch) == 0 {
			s.writing = false
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
	}
}

// take empties the queue of a page that has no connection (tests look at
// what the hub sent this way).
func (s *subscriber) take() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	batch := s.queue
	s.queue = nil
	return batch
}

func seatIndex(seat string) int {
	if seat == "black" {
		return 1
	}
	return 0
}

// subscribe adds a page to the game. What it must see first waits in its
// queue: the full state, or, resuming after version after, the events it
// missed and then the state.
func (h *hub) subscribe(ctx context.Context, id, secret string, after int) (*subscriber, error) {
	return within(ctx, h, id, func(g *liveGame) (*subscriber, error) {
		return h.addPage(g, secret, after)
	})
}

// addPage adds a page of g for the holder of secret (or a watcher).
func (h *hub) addPage(g *liveGame, secret string, after int) (*subscriber, error) {
	seat := ""
	if secret != "" {
		if seat = g.seatOf(secret); seat == "" {
			return nil, errWrongSecret
		}
	}
	sub := newSubscriber(seat)
	sub.queue = g.catchUp(sub.seat, after)
	g.subs[sub] = struct{}{}
	if seat != "" {
		g.presence[seatIndex(seat)].conns++
		h.broadcastPresence(g)
	}
	return sub, nil
}

// catchUp is what a page at version after must be sent: the events it
// missed, if it knows of any, then the full state.
func (g *liveGame) catchUp(seat string, after int) [][]byte {
	var out [][]byte
	if after >= 0 && after <= len(g.events) {
		for _, e := range g.events[after:] {
			out = append(out, appendEventMessage(nil, eventMessage{Type: "event", Version: e.Seq, Event: e}))
		}
	}
	snap := g.fullSnapshot(seat)
	return append(out, encode(stateMessage{Type: "state", Version: snap.Version, State: snap}))
}

func (h *hub) resync(ctx context.Context, id string, sub *subscriber, after int) error {
	return h.with(ctx, id, func(g *liveGame) error {
		for _, msg := range g.catchUp(sub.seat, after) {
			h.deliver(g, sub, msg, false)
		}
		return nil
	})
}

// look records whether a player's page is on screen, as the page says.
// Other instances learn it with the presence, at most a second late (see
// hub.tell); pages are told nothing of it.
func (h *hub) look(ctx context.Context, id string, sub *subscriber, shown bool) error {
	if sub.seat == "" {
		return errWatcherLooks
	}
	return h.withCached(ctx, id, func(g *liveGame) error {
		if _, ok := g.subs[sub]; !ok || sub.looking == shown {
			return nil
		}
		sub.looking = shown
		i := seatIndex(sub.seat)
		if shown {
			g.presence[i].looking++
			g.looks[i]++
		} else if g.presence[i].looking--; g.presence[i].looking == 0 {
			g.spared[i] = nil // the page was alive to say so: it showed the news
		}
		if h.bus != nil {
			g.presenceChanged = true
			h.schedulePresence(g)
		}
		return nil
	})
}

func (h *hub) unsubscribe(id string, sub *subscriber) {
	h.withCached(context.Background(), id, func(g *liveGame) error {
		if _, ok := g.subs[sub]; !ok {
			return nil
		}
		h.leave(g, sub)
		if sub.seat != "" {
			h.broadcastPresence(g)
		}
		return nil
	})
}

// eventMessage is one event. Live, it carries what the event changed, the
// same for every page, so that its size does not grow with the game; the
// page of the player to move gets the legal moves with it ("legal", added
// by withLegal), unless the rules make their move. Events a page
// missed come without a change, followed by the full state.
type eventMessage struct {
	Type    string      `json:"type"`
	Version int         `json:"version"`
	Event   store.Event `json:"event"`
	Change  *Change     `json:"change,omitempty"`
}

type stateMessage struct {
	Type    string   `json:"type"`
	Version int      `json:"version"`
	State   Snapshot `json:"state"`
}

func encode(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("encoding a message: " + err.Error())
	}
	return b
}

// broadcast sends every subscriber the message made for its seat; the
// message is built once per seat.
func (h *hub) broadcast(g *liveGame, msg func(seat string) any) {
	made := map[string][]byte{}
	h.fanOut(g, func(seat string) []byte {
		b, ok := made[seat]
		if !ok {
			if m := msg(seat); m != nil {
				b = encode(m)
			}
			made[seat] = b
		}
		return b
	})
}

// fanOut sends each page the bytes made for its seat (nil: none for that
// page). The players' pages get theirs first; the watchers' one message
// is handed out after that by tellWatchers, so that a game with many
// watchers does not keep its players waiting. In a watched game the
// players' messages are written before this returns, as far as their
// sockets take them at once: a writer of their own would have to win a
// processor from tellWatchers, and with a thousand watchers that cost the
// opponent a millisecond or two in one move of twenty.
func (h *hub) fanOut(g *liveGame, msg func(seat string) []byte) {
	playerLeft, watched := false, false
	var buf [4]*subscriber
	players := buf[:0]
	for sub := range g.subs {
		if sub.seat == "" {
			watched = true
		} else {
			players = append(players, sub)
		}
	}
	for _, sub := range players {
		if b := msg(sub.seat); b != nil && !h.deliver(g, sub, b, watched) {
			playerLeft = true
		}
	}
	if watched {
		if b := msg(""); b != nil {
			h.queueForWatchers(g, b)
		}
	}
	if playerLeft {
		h.broadcastPresence(g)
	}
}

// queueForWatchers queues msgs for g's watchers, after what waits for
// them already. Every message to the watchers goes this way, or they could
// get an event before the ones still waiting. g is locked.
func (h *hub) queueForWatchers(g *liveGame, msgs ...[]byte) {
	g.toWatchers = append(g.toWatchers, msgs...)
	if !g.tellingWatchers {
		g.tellingWatchers = true
		go h.tellWatchers(g)
	}
}

// tellWatchers hands the messages waiting for g's watchers to each of
// them, in order, until none wait. A watcher that joined meanwhile may
// get an event its state already holds, which it ignores by its version;
// it never misses one.
func (h *hub) tellWatchers(g *liveGame) {
	// Whatever the players' messages woke up runs first: their writers,
	// and their pages, when they are on this machine.
	giveWay()
	var watchers, slow []*subscriber
	for {
		g.mu.Lock()
		for _, sub := range slow {
			if _, ok := g.subs[sub]; ok {
				h.leave(g, sub)
			}
		}
		msgs := g.toWatchers
		g.toWatchers = nil
		if len(msgs) == 0 || g.evicted {
			g.tellingWatchers = false
			g.mu.Unlock()
			return
		}
		watchers = watchers[:0]
		for sub := range g.subs {
			if sub.seat == "" {
				watchers = append(watchers, sub)
			}
		}
		g.mu.Unlock()
		slow = slow[:0]
		for i, sub := range watchers {
			if i > 0 && i%givingWayEvery == 0 {
				giveWay()
			}
			if !sub.pushNow(msgs...) {
				sub.drop()
				slow = append(slow, sub)
			}
		}
	}
}

// givingWayEvery is how many watchers are written to before tellWatchers
// gives way. A thousand writes keep a processor busy for over ten
// milliseconds, and the system lets a busy thread run out its share
// before one it has just woken gets the processor: a player's page on
// the same machine (in a load test; a database elsewhere) waited up to
// 9 ms that way. Sixty-four writes take about a millisecond.
const givingWayEvery = 64

// giveWay lets the goroutines and the processes that wait for a
// processor run first.
func giveWay() {
	runtime.Gosched()
	yieldProcessor()
}

// deliver queues a message without waiting: a page that cannot keep up is
// dropped, reconnects and resumes from its version. It reports whether
// the page is still there. With now, the message is written at once, as
// far as the page's socket takes it, rather than by the page's writer.
func (h *hub) deliver(g *liveGame, sub *subscriber, msg []byte, now bool) bool {
	pushed := false
	if now {
		pushed = sub.pushNow(msg)
	} else {
		pushed = sub.push(msg)
	}
	if pushed {
		return true
	}
	h.leave(g, sub)
	sub.drop()
	return false
}

// leave removes a page from the game; when it was a player's last, the
// player is away from now on.
func (h *hub) leave(g *liveGame, sub *subscriber) {
	delete(g.subs, sub)
	if sub.seat == "" {
		return
	}
	i := seatIndex(sub.seat)
	p := &g.presence[i]
	p.conns--
	if sub.looking {
		p.looking--
		// The page went without saying it was put away: it may have died
		// with the news unseen (a phone losing its network as it went
		// to sleep). The notice spared for it goes now; not when the
		// site shuts down and closes every page itself.
		if n := g.spared[i]; n != nil && h.ctx.Err() == nil && !g.lookingAt(sub.seat, h.now()) {
			g.spared[i] = nil
			h.sendSparedLater(g, *n)
		}
	}
	if p.conns == 0 {
		p.since = h.now()
	}
}

// sendSparedLater sends n, spared for a page on screen that went without
// saying it was put away, unless within sparedWait a page of its player
// says it is on screen: a page the site dropped as too slow, or whose
// connection broke for a moment, is back by then and shows the news. g
// is locked.
func (h *hub) sendSparedLater(g *liveGame, n notice) {
	i := seatIndex(n.seat)
	looks := g.looks[i]
	h.afterFunc(sparedWait, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if h.ctx.Err() != nil {
			return // the site shut down, closing its pages itself
		}
		// A game dropped from memory meanwhile had no pages here.
		if g.evicted || g.looks[i] == looks && !g.lookingAt(n.seat, h.now()) {
			h.notify(n)
		}
	})
}

// sparedWait is how long a notice spared for a page that went away unseen
// waits for the page to come back (it tries again after half a second,
// then after one and two).
const sparedWait = 5 * time.Second

// broadcastEvent tells every page of an event just applied. A takeback
// shortens the game, which a change cannot say: the pages get the state.
func (h *hub) broadcastEvent(g *liveGame, e store.Event) {
	if e.Kind == "takeback" {
		h.broadcastState(g)
		return
	}
	m := eventMessage{Type: "event", Version: e.Seq, Event: e, Change: g.change(e)}
	everyone := appendEventMessage(make([]byte, 0, 1024), m)
	toMove := ""
	var mover []byte
	// A player whose move the rules make gets no list to choose from.
	if m.Change.Forces == "" {
		mover = g.withLegal(everyone)
	}
	if mover != nil {
		toMove = g.state.ToMove().String()
	}
	h.fanOut(g, func(seat string) []byte {
		if seat != "" && seat == toMove {
			return mover
		}
		return everyone
	})
}

func (h *hub) broadcastState(g *liveGame) {
	h.broadcast(g, func(seat string) any {
		snap := g.snapshot(seat)
		return stateMessage{Type: "state", Version: snap.Version, State: snap}
	})
}

// broadcastPresence tells every page, here and on the other instances,
// that this instance's pages of g's players changed.
func (h *hub) broadcastPresence(g *liveGame) {
	g.presenceChanged = true
	h.showPresence(g)
}

// presenceEvery is the shortest time between two presence messages of a
// game: a player whose connection comes and goes in a loop must not
// flood every watcher, nor the bus.
const presenceEvery = time.Second

// showPresence tells this instance's pages who is online: at once, or,
// when the last message was sent less than presenceEvery ago, once that
// time is up, with the state of that moment.
func (h *hub) showPresence(g *liveGame) {
	g.pagesDue = true
	h.schedulePresence(g)
}

// schedulePresence sends what is due of the presence (see sendPresence)
// now, or once presenceEvery has passed since the last.
func (h *hub) schedulePresence(g *liveGame) {
	if g.presencePending {
		return
	}
	wait := g.presenceSent.Add(presenceEvery).Sub(h.now())
	if wait <= 0 {
		h.sendPresence(g)
		return
	}
	g.presencePending = true
	h.afterFunc(wait, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.presencePending = false
		if !g.evicted {
			h.sendPresence(g)
		}
	})
}

// sendPresence sends who is online to this instance's pages, when due,
// and to the other instances when this instance's pages changed.
func (h *hub) sendPresence(g *liveGame) {
	g.presenceSent = h.now()
	if g.presenceChanged {
		g.presenceChanged = false
		h.publishPresence(g)
	}
	if !g.pagesDue {
		return // only whether a page is on screen changed: pages show nothing of it
	}
	g.pagesDue = false
	players := g.players()
	h.broadcast(g, func(string) any { return map[string]any{"type": "presence", "players": players} })
}

func (h *hub) broadcastNext(g *liveGame) {
	h.broadcast(g, func(string) any { return map[string]any{"type": "next", "game": g.rec.Next} })
}

// closeAll drops every subscriber, for shutdown.
func (h *hub) closeAll() {
	h.mu.Lock()
	games := make([]*liveGame, 0, len(h.live))
	for _, g := range h.live {
		games = append(games, g)
	}
	h.mu.Unlock()
	for _, g := range games {
		g.mu.Lock()
		for sub := range g.subs {
			sub.drop()
		}
		g.mu.Unlock()
	}
}
