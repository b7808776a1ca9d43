package server

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"bretter/internal/store"
)

// rawEvent reads until an event of the given version arrives and returns
// its bytes as sent.
func (c *client) rawEvent(version int) []byte {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.t.Context(), 5*time.Second)
	defer cancel()
	for {
		_, data, err := c.conn.Read(ctx)
		if err != nil {
			c.t.Fatal(err)
		}
		var m message
		if json.Unmarshal(data, &m) == nil && m.Type == "event" && m.Version == version {
			return data
		}
	}
}

// An event's message says what changed, not the whole game: it does not
// grow as the game does, and everyone but the player to move gets the
// same bytes.
func TestEventsAreChangesOfConstantSize(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":8}}`)
	white, black, watcher := ts.dial(t, g.id, g.white, ""), ts.dial(t, g.id, g.black, ""), ts.dial(t, g.id, "", "")
	for _, c := range []*client{white, black, watcher} {
		c.next("state")
	}
	moves := strings.Fields("a1 a2 a3 a4 a5 a6 a7 a8 b1 b2 b3 b4 b5 b6 b7 b8 b9 c1 c2 c3 c4 c5 c6 c7 c8 c9 c10 d1 d2 d3 d4 d5 d6 d7 d8 d9 d10 d11")
	var sizes []int
	for ply, m := range moves {
		secret, mover, other := g.white, white, black
		if ply%2 == 1 {
			secret, mover, other = g.black, black, white
		}
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", secret, map[string]any{"ply": ply, "move": m}, nil); code != 200 {
			t.Fatalf("move %d %s: %d", ply+1, m, code)
		}
		seen, next, toMover := watcher.rawEvent(ply+1), other.rawEvent(ply+1), mover.rawEvent(ply+1)
		if string(seen) != string(toMover) {
			t.Fatalf("move %d: the watcher and the player who moved got different messages", ply+1)
		}
		var got message
		if err := json.Unmarshal(next, &got); err != nil || len(got.Legal) == 0 || got.Change == nil || got.Change.ToMove == "" {
			t.Fatalf("move %d: the player to move got %s", ply+1, next)
		}
		if strings.Contains(string(seen), `"legal"`) || strings.Contains(string(seen), `"moves"`) {
			t.Fatalf("move %d: the message for everyone carries %s", ply+1, seen)
		}
		sizes = append(sizes, len(seen))
	}
	if first, last := sizes[1], sizes[len(sizes)-1]; last > first+32 {
		t.Fatalf("an event's message grew from %d bytes at move 2 to %d at move %d", first, last, len(sizes))
	}
}

// The message for the player to move is the message for everyone with the
// legal moves added, byte for byte as if it had been encoded whole.
func TestWithLegalEncodesAsWhole(t *testing.T) {
	m := eventMessage{Type: "event", Version: 7, Event: store.Event{Seq: 7, Kind: "move", Seat: "black", Move: "e5", At: time.UnixMilli(1_790_000_000_000)},
		Change: &Change{Status: "playing", ToMove: "white", View: map[string]string{"stones": `.wb"<`}}}
	everyone := encode(m)
	for _, legal := range [][]string{{"a1", "b2", `"quoted"`, "<&>", "tab\there", "é"}, {"swap"}} {
		whole := struct {
			eventMessage
			Legal []string `json:"legal,omitempty"`
		}{m, legal}
		if got, want := withList(everyone, len(legal), slices.Values(legal)), encode(whole); string(got) != string(want) {
			t.Errorf("with %q:\n%s\nwant\n%s", legal, got, want)
		}
	}
}
