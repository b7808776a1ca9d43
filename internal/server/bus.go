package server

import (
	"context"
	"encoding/json"
	"time"

	"bretter/internal/store"
)

// Several instances of the site share one store and one bus. The store is
// the record and the judge: a command's events land only at the version
// its instance saw, so of two instances racing, one lands and the other
// loads the game again and judges the command once more. The bus only
// brings news: each instance publishes what it stored, and the others
// apply it to their copies in memory and tell their own pages. A message
// that does not follow the copy's version (one was lost) makes the copy
// load again from the store; and before any request is answered, the
// copy's mark is checked against the store's, so that no answer comes
// from an outdated copy, however late the news. Work that must happen
// once happens where the store's append lands (a clock's flag, a push
// notice), or under a lease (a search for the computer's move).

// Bus carries news of the games between the instances of a site. A
// server without one is the only instance.
type Bus interface {
	// Publish sends data on game's subject, without waiting.
	Publish(game string, data []byte) error
	// Listen calls handle with every message of the other instances, in
	// the order each published them, and lost when some may be missing.
	Listen(handle func(game string, data []byte), lost func()) error
	// Hold takes the lease called key unless another instance holds it.
	Hold(ctx context.Context, key string) (release func(), ok bool, err error)
}

// busMessage is one piece of news of a game.
type busMessage struct {
	From string    `json:"from"` // the instance that sent it
	Kind string    `json:"kind"` // "events", "changed", "next", "chat", "presence" or "ask"
	Sent time.Time `json:"sent"`
	// Kind "events": events just stored and the ending they bring.
	Events []store.Event   `json:"events,omitempty"`
	End    *store.Ending   `json:"end,omitempty"`
	Next   string          `json:"next,omitempty"` // kind "next"
	Line   *store.ChatLine `json:"line,omitempty"` // kind "chat"
	// Kind "presence": the sender's pages of White and Black.
	Presence *remotePresence `json:"presence,omitempty"`
}

// remotePresence is another instance's pages of a game's players.
type remotePresence struct {
	Conns   [2]int       `json:"conns"`
	Looking [2]int       `json:"looking"`
	Since   [2]time.Time `json:"since"`
	heard   time.Time
}

// How often an instance says which players it has online, and how long
// the others believe it.
const (
	heartbeat     = 5 * time.Second
	presenceLasts = 3 * heartbeat
)

// marker is a store that reads a game's mark without loading it.
type marker interface {
	Mark(ctx context.Context, id string) (store.Mark, error)
}

// mark is what the copy in memory knows of the game's mark.
func (g *liveGame) mark() store.Mark {
	m := store.Mark{Version: g.rec.Version, Status: g.rec.Status, Next: g.rec.Next,
		Seated: [2]bool{g.rec.WhiteHash != nil, g.rec.BlackHash != nil}}
	if n := len(g.chat); n > 0 {
		m.Chat = g.chat[n-1].Seq
	}
	return m
}

// storedMark reads game id's mark from the store.
func (h *hub) storedMark(ctx context.Context, id string) (store.Mark, error) {
	if m, ok := h.store.(marker); ok {
		return m.Mark(ctx, id)
	}
	var fresh liveGame
	rec, _, err := h.store.Load(ctx, id)
	if err != nil {
		return store.Mark{}, err
	}
	fresh.rec = rec
	if fresh.chat, err = h.store.Chat(ctx, id); err != nil {
		return store.Mark{}, err
	}
	return fresh.mark(), nil
}

// verify loads g again when the store has changed since g was loaded or
// last heard of. g is locked.
func (h *hub) verify(ctx context.Context, id string, g *liveGame) error {
	m, err := h.storedMark(ctx, id)
	if err != nil {
		return err
	}
	if m == g.mark() {
		return nil
	}
	return h.reload(ctx, id, g)
}

// reload loads g again, and sends its pages what they missed. g is
// locked.
func (h *hub) reload(ctx context.Context, id string, g *liveGame) error {
	g.loaded = false
	return h.ensureLoaded(ctx, id, g)
}

// publish tells the other instances of m about g.
func (h *hub) publish(g *liveGame, m busMessage) {
	if h.bus == nil {
		return
	}
	m.From, m.Sent = h.instance, time.Now()
	if err := h.bus.Publish(g.rec.ID, encode(m)); err != nil {
		// The others see the change when they next check the store.
		h.log.Warn("bus: publishing", "game", g.rec.ID, "kind", m.Kind, "err", err)
	}
}

// publishPresence tells the other instances which players have g open
// here.
func (h *hub) publishPresence(g *liveGame) {
	if h.bus == nil {
		return
	}
	var p remotePresence
	for i := range 2 {
		p.Conns[i], p.Looking[i], p.Since[i] = g.presence[i].conns, g.presence[i].looking, g.presence[i].since
	}
	h.publish(g, busMessage{Kind: "presence", Presence: &p})
}

// listen starts taking the other instances' news.
func (h *hub) listen() error {
	if h.bus == nil {
		return nil
	}
	return h.bus.Listen(h.receive, h.missed)
}

// receive applies one message of another instance to the copy of its
// game here, if there is one: a game that is not in memory is loaded
// from the store when it is next needed.
func (h *hub) receive(id string, data []byte) {
	var m busMessage
	if err := json.Unmarshal(data, &m); err != nil || m.From == h.instance || !validID(id) {
		return
	}
	h.mu.Lock()
	g := h.live[id]
	h.mu.Unlock()
	if g == nil {
		if m.Kind == "events" {
			h.forgetClock(id)
		}
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			g.loaded = false
			h.log.Error("bus: applying a message", "game", id, "kind", m.Kind, "panic", p)
		}
	}()
	if g.evicted || !g.loaded {
		if m.Kind == "events" {
			h.forgetClock(id)
		}
		return
	}
	switch m.Kind {
	case "events":
		h.receiveEvents(id, g, m)
	case "changed":
		// Perhaps known already: loaded since it was sent.
		if err := h.verify(h.ctx, id, g); err != nil && h.ctx.Err() == nil {
			h.log.Error("bus: checking a game against the store", "game", id, "err", err)
		}
	case "next":
		if g.rec.Next == "" && m.Next != "" && validID(m.Next) {
			g.rec.Next = m.Next
			h.broadcastNext(g)
		}
	case "chat":
		switch last := g.mark().Chat; {
		case m.Line == nil || m.Line.Seq <= last:
		case m.Line.Seq == last+1:
			g.chat = append(g.chat, *m.Line)
			h.broadcastChat(g, *m.Line)
		default:
			h.repair(id, g)
		}
	case "presence":
		if m.Presence != nil {
			if g.remote == nil {
				g.remote = map[string]remotePresence{}
			}
			p := *m.Presence
			p.heard = h.now()
			g.remote[m.From] = p
			h.showPresence(g)
		}
	case "ask":
		if g.presence[0].conns+g.presence[1].conns > 0 {
			h.publishPresence(g)
		}
	}
}

// receiveEvents applies events that another instance stored, if they
// follow g's version; a gap means a message was lost, and g is loaded
// again.
func (h *hub) receiveEvents(id string, g *liveGame, m busMessage) {
	if len(m.Events) == 0 {
		return
	}
	first, last := m.Events[0].Seq, m.Events[len(m.Events)-1].Seq
	switch {
	case last <= g.rec.Version:
		return // known already: loaded from the store meanwhile
	case first != g.rec.Version+1:
		h.repair(id, g)
		return
	}
	if h.lag != nil {
		h.lag(time.Since(m.Sent))
	}
	for i, e := range m.Events {
		if e.Seq != first+i {
			h.repair(id, g)
			return
		}
		if err := g.apply(e, nil); err != nil {
			h.log.Error("bus: applying an event", "game", id, "seq", e.Seq, "err", err)
			h.repair(id, g)
			return
		}
		g.rec.Version, g.rec.Updated = e.Seq, e.At
		if i == len(m.Events)-1 && m.End != nil {
			g.rec.Status, g.rec.Winner, g.rec.Reason = "over", m.End.Winner, m.End.Reason
		}
		g.view = g.state.View()
		h.broadcastEvent(g, e)
	}
	h.stopStaleSearch(g)
	h.armClock(g)
	h.spareForPagesHere(g, m.Events[len(m.Events)-1])
}

// repair loads g again from the store, at once if pages are open (they
// are sent what they missed), or else when it is next used. g is locked.
func (h *hub) repair(id string, g *liveGame) {
	if len(g.subs) == 0 {
		g.loaded = false
		return
	}
	if err := h.reload(h.ctx, id, g); err != nil && h.ctx.Err() == nil {
		h.log.Error("bus: loading a game again", "game", id, "err", err)
	}
}

// missed has every game with open pages checked against the store, after
// news may have been lost: at once, or after the check under way, which
// may have passed a game before the loss. However often the bus says so,
// one check runs and one waits.
func (h *hub) missed() {
	if h.recheckQueued.Swap(true) {
		return
	}
	go func() {
		h.recheckMu.Lock()
		defer h.recheckMu.Unlock()
		h.recheckQueued.Store(false)
		h.recheck()
	}()
}

// recheck checks every game with open pages against the store.
func (h *hub) recheck() {
	h.eachLoaded(func(id string, g *liveGame) {
		if len(g.subs) == 0 {
			return
		}
		if err := h.verify(h.ctx, id, g); err != nil && h.ctx.Err() == nil {
			h.log.Error("bus: checking a game against the store", "game", id, "err", err)
		}
	})
}

// eachLoaded runs f on every game loaded in memory, locked, one at a
// time.
func (h *hub) eachLoaded(f func(id string, g *liveGame)) {
	h.each(func(g *liveGame) bool { return g.loaded }, f)
}

// eachOpen runs f on every game with pages open here, loaded or left to
// be loaded again after a failed commit, locked, one at a time.
func (h *hub) eachOpen(f func(id string, g *liveGame)) {
	h.each(func(g *liveGame) bool { return len(g.subs) > 0 }, f)
}

// each runs f on every game in memory that pick picks, locked.
func (h *hub) each(pick func(g *liveGame) bool, f func(id string, g *liveGame)) {
	h.mu.Lock()
	games := make(map[string]*liveGame, len(h.live))
	for id, g := range h.live {
		games[id] = g
	}
	h.mu.Unlock()
	for id, g := range games {
		g.mu.Lock()
		if !g.evicted && pick(g) {
			f(id, g)
		}
		g.mu.Unlock()
	}
}

// sweep runs every heartbeat with other instances about: it says again
// which players are online here, forgets what instances that went quiet
// said, and queues the games that wait for the computer, in case the
// instance searching for them has died (the lease tells). Against news
// that never came (an instance died between storing events and telling
// of them, or a store's answer left unclear whether they were stored), it
// checks quiet games with pages open here against the store, and loads
// again those a failed commit left to be loaded (their pages wait).
func (h *hub) sweep() {
	now := h.now()
	h.eachOpen(func(id string, g *liveGame) {
		if !g.loaded {
			h.repair(id, g)
		} else if quietCheckDue(g, now) {
			g.checked = now
			if err := h.verify(h.ctx, id, g); err != nil && h.ctx.Err() == nil {
				h.log.Error("bus: checking a game against the store", "game", id, "err", err)
			}
		}
	})
	h.eachLoaded(func(id string, g *liveGame) {
		if g.presence[0].conns+g.presence[1].conns > 0 {
			h.publishPresence(g)
		}
		changed := false
		for from, p := range g.remote {
			if now.Sub(p.heard) > presenceLasts {
				delete(g.remote, from)
				changed = true
			}
		}
		if changed {
			h.showPresence(g)
		}
		// The instance that stored the last move searches at once; a
		// game left waiting longer has lost its searcher.
		if now.Sub(g.rec.Updated) > 2*heartbeat {
			h.thinkIfComputerTurn(g)
		}
	})
	h.lookAtClocks()
}

// quietCheckDue says whether g, quiet since its last change, is to be
// checked against the store now: two heartbeats after the change, then
// after waits that double with the quiet, up to five minutes. A game in
// play whose news was lost is quiet here, its players waiting for a move
// their pages never got: they get it within ten seconds or so, while a
// game left for days costs a check every five minutes.
func quietCheckDue(g *liveGame, now time.Time) bool {
	quiet := now.Sub(g.rec.Updated)
	if quiet < 2*heartbeat {
		return false
	}
	return now.Sub(g.checked) >= min(quiet/2, 5*time.Minute)
}

// hold takes the lease key, for work that one instance should do alone;
// without other instances there is nobody to share it with.
func (h *hub) hold(ctx context.Context, key string) (release func(), ok bool, err error) {
	if h.bus == nil {
		return func() {}, true, nil
	}
	return h.bus.Hold(ctx, key)
}
