package server

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// logBuffer collects a server's log, at every level.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func TestJoinAgainWithTheSameKey(t *testing.T) {
	var log logBuffer
	ts := limitedServer(t, lenient(Config{Log: log.logger()}))
	var c createResponse
	if code := ts.call(t, "POST", "/api/games", "", `{"game":"havannah","start":"me"}`, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	invite := c.InviteURL[strings.LastIndex(c.InviteURL, "/")+1:]
	key, other := "k3y-0f-the-friend_0123456789", "an0ther-friend-key-9876543210"
	type answer struct {
		Seat, Secret string
		Code         string
	}
	join := func(body map[string]string) (int, answer) {
		var a answer
		code := ts.call(t, "POST", "/api/games/"+c.ID+"/join", "", body, &a)
		return code, a
	}
	code, first := join(map[string]string{"invite": invite, "key": key})
	if code != http.StatusOK || first.Seat != "black" || first.Secret == "" {
		t.Fatalf("join: %d %+v", code, first)
	}
	// The answer was lost: the same key again gets the same seat.
	for range 2 {
		if code, again := join(map[string]string{"invite": invite, "key": key}); code != http.StatusOK || again != first {
			t.Fatalf("the same key again: %d %+v, want %+v", code, again, first)
		}
	}
	// Nobody else gets a seat, with another key or none.
	for _, body := range []map[string]string{{"invite": invite, "key": other}, {"invite": invite}} {
		if code, a := join(body); code != http.StatusConflict || a.Code != "seat_taken" || a.Secret != "" {
			t.Fatalf("%v: %d %+v", body, code, a)
		}
	}
	// The key is no way around the invitation, and must be a real key.
	if code, a := join(map[string]string{"invite": "wrong", "key": key}); code != http.StatusForbidden || a.Secret != "" {
		t.Fatalf("the key with a wrong invitation: %d %+v", code, a)
	}
	for _, bad := range []string{"short", strings.Repeat("k", 129), "spaces are not allowed in it"} {
		if code, a := join(map[string]string{"invite": invite, "key": bad}); code != http.StatusBadRequest || a.Secret != "" {
			t.Fatalf("key %q: %d %+v", bad, code, a)
		}
	}
	// The seat works, and survives a restart with its key.
	ts.play(t, testGame{id: c.ID, white: c.Secret, black: first.Secret}, "e5 d4")
	again := restartOn(t, ts)
	var a answer
	if code := again.call(t, "POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": invite, "key": key}, &a); code != http.StatusOK || a.Seat != first.Seat || a.Secret != first.Secret {
		t.Fatalf("after a restart: %d %+v", code, a)
	}
	// What the store keeps opens nothing without the key.
	rec, _, err := ts.store.Load(t.Context(), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.JoinKey.Hash) == 0 || bytes.Contains(rec.JoinKey.Sealed, []byte(first.Secret)) ||
		bytes.Contains(rec.JoinKey.Hash, []byte(key)) || openSecret(c.ID, other, rec.JoinKey.Sealed) == first.Secret {
		t.Fatalf("the store keeps %+v", rec.JoinKey)
	}
	for _, s := range []string{key, other, first.Secret, c.Secret, invite} {
		if strings.Contains(log.String(), s) {
			t.Fatalf("the log holds %q:\n%s", s, log.String())
		}
	}
	if !strings.Contains(log.String(), "/join") {
		t.Fatalf("the joins were not logged at all:\n%s", log.String())
	}
}

func TestJoinWithoutKeyIsOnce(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah"}`)
	// newGame joined without a key: asking again is refused, key or not.
	for _, body := range []map[string]string{{"invite": g.invite}, {"invite": g.invite, "key": "k3y-0f-the-friend_0123456789"}} {
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/join", "", body, nil); code != http.StatusConflict {
			t.Fatalf("%v: %d", body, code)
		}
	}
}
