package server

import (
	"encoding/json"
	"testing"
	"time"
)

func TestPresenceIsCoalesced(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	g := ts.newGame(t, `{"game":"havannah","start":"me"}`)
	h := ts.srv.hub
	ctx := t.Context()
	watcher, err := h.subscribe(ctx, g.id, "", -1)
	if err != nil {
		t.Fatal(err)
	}
	// drain returns the presence messages the watcher got so far.
	drain := func() []map[string]Presence {
		var out []map[string]Presence
		h.watchersTold(g.id)
		for _, msg := range watcher.take() {
			var m struct {
				Type    string
				Players map[string]Presence
			}
			json.Unmarshal(msg, &m)
			if m.Type == "presence" {
				out = append(out, m.Players)
			}
		}
		return out
	}
	// White's page comes and goes in a loop.
	for range 100 {
		sub, err := h.subscribe(ctx, g.id, g.white, -1)
		if err != nil {
			t.Fatal(err)
		}
		h.unsubscribe(g.id, sub)
	}
	sub, err := h.subscribe(ctx, g.id, g.white, -1)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-watcher.gone:
		t.Fatal("the watcher was flooded until it was dropped")
	default:
	}
	if got := drain(); len(got) != 1 || !got[0]["white"].Online {
		t.Fatalf("the watcher was told %d times at once: %v", len(got), got)
	}
	// Once the interval is up, the watcher hears the latest state once.
	ft.advance(presenceEvery)
	if got := drain(); len(got) != 1 || !got[0]["white"].Online {
		t.Fatalf("after the interval: %v", got)
	}
	ft.advance(time.Minute)
	if got := drain(); len(got) != 0 {
		t.Fatalf("with nothing new: %v", got)
	}
	// After a quiet interval a change is told at once.
	h.unsubscribe(g.id, sub)
	if got := drain(); len(got) != 1 || got[0]["white"].Online {
		t.Fatalf("White left: %v", got)
	}
}
