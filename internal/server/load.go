package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"bretter/internal/store"
)

// ensureLoaded rebuilds g from the store unless it is loaded. When that
// fails, g is dropped from the hub and its open pages are let go.
func (h *hub) ensureLoaded(ctx context.Context, id string, g *liveGame) error {
	if g.loaded {
		return nil
	}
	// Pages open across a reload have seen every event up to here.
	known := g.rec.Version
	reloaded := g.rec.ID != ""
	// A reload must not fail because one caller gave up waiting.
	if err := h.load(context.WithoutCancel(ctx), id, g); err != nil {
		h.letGo(id, g)
		return err
	}
	if len(g.subs) > 0 {
		h.catchUpPages(g, known)
	}
	if reloaded && g.rec.Version > known {
		// Events were stored that this instance was not told of: their
		// instance may have died between storing and telling, or the
		// news came late. The others may not know of them either, and
		// pages open there would wait for them for ever.
		h.publish(g, busMessage{Kind: "changed"})
		// As for news the bus brings: the notice of the last is kept for
		// a player whose page here is on screen, should it die unseen.
		if len(g.events) > 0 {
			h.spareForPagesHere(g, g.events[len(g.events)-1])
		}
	}
	if h.bus != nil && !g.asked {
		g.asked = true
		h.publish(g, busMessage{Kind: "ask"})
	}
	return nil
}

// catchUpPages sends every page of g, which knew g at version known,
// what a page reconnecting from there is sent: the events it missed,
// then the state. The watchers get theirs after what still waits for
// them.
func (h *hub) catchUpPages(g *liveGame, known int) {
	made := map[string][][]byte{}
	playerLeft, watched := false, false
	for sub := range g.subs {
		if sub.seat == "" {
			watched = true
			continue
		}
		msgs, ok := made[sub.seat]
		if !ok {
			msgs = g.catchUp(sub.seat, known)
			made[sub.seat] = msgs
		}
		for _, msg := range msgs {
			if !h.deliver(g, sub, msg, false) {
				playerLeft = playerLeft || sub.seat != ""
				break
			}
		}
	}
	if watched {
		h.queueForWatchers(g, g.catchUp("", known)...)
	}
	if playerLeft {
		h.broadcastPresence(g)
	}
}

// letGo drops g, which could not be loaded, from the hub. Open pages
// reconnect and find the game again, or not.
func (h *hub) letGo(id string, g *liveGame) {
	for sub := range g.subs {
		sub.drop()
	}
	g.evicted = true
	h.drop(id, g)
}

// load rebuilds a game from the store by replaying its moves.
func (h *hub) load(ctx context.Context, id string, g *liveGame) error {
	rec, events, err := h.store.Load(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	chat, err := h.store.Chat(ctx, id)
	if err != nil {
		return err
	}
	return h.rebuild(g, rec, events, chat)
}

// rebuild makes g the game rec, with its events and chat, by replaying
// its moves.
func (h *hub) rebuild(g *liveGame, rec store.Game, events []store.Event, chat []store.ChatLine) error {
	engine, ok := h.games[rec.Game]
	if !ok {
		return fmt.Errorf("game %s: unknown game %q", rec.ID, rec.Game)
	}
	state, _, err := engine.Start(rec.Options)
	if err != nil {
		return fmt.Errorf("game %s: %w", rec.ID, err)
	}
	// Pages that are open stay subscribed when a game is reloaded.
	if g.subs == nil {
		g.subs = map[*subscriber]struct{}{}
	}
	g.replayed = replayed{rec: rec, engine: engine, state: state, chat: chat}
	for _, e := range events {
		if err := g.apply(e, nil); err != nil {
			return fmt.Errorf("game %s: replaying event %d: %w", rec.ID, e.Seq, err)
		}
	}
	g.view = g.state.View()
	g.loaded = true
	h.armClockLoaded(g)
	h.stopStaleSearch(g) // the store may hold what no news told of
	return nil
}

// remember keeps a game just created in memory, as loading it from the
// store would find it: the creator's page and the friend who joins come
// next, and need not read it back. Should that fail, the game is loaded
// from the store when first asked for, as any other. client is the
// creator's address (see liveGame.client).
func (h *hub) remember(rec store.Game, events []store.Event, client string) {
	g := h.entry(rec.ID)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.loaded || g.evicted {
		return
	}
	// The store keeps times to the millisecond.
	rec.Created, rec.Updated = storedTime(rec.Created), storedTime(rec.Updated)
	rec.Version = len(events)
	events = slices.Clone(events)
	for i := range events {
		events[i].At = storedTime(events[i].At)
		rec.Updated = later(rec.Updated, events[i].At)
	}
	if err := h.rebuild(g, rec, events, nil); err != nil {
		g.loaded = false
		h.log.Error("keeping a new game in memory", "game", rec.ID, "err", err)
	}
	g.used = h.now()
	g.client = client
}

// storedTime is t as the store gives it back.
func storedTime(t time.Time) time.Time { return time.UnixMilli(t.UnixMilli()) }

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
