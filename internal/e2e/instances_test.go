package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"bretter/games/havannah"
	bt "bretter/internal/browsertest"
	"bretter/internal/store/pgtest"
)

// testNATS is where the tests find NATS with JetStream.
func testNATS() string {
	if u := os.Getenv("BRETTER_TEST_NATS"); u != "" {
		return u
	}
	return "nats://127.0.0.1:4222"
}

// event is a game's event as the live protocol sends it.
type event struct {
	Seq  int    `json:"seq"`
	Kind string `json:"kind"`
	Seat string `json:"seat"`
	Move string `json:"move"`
}

// livePage is a game page's live connection: it keeps the events it was
// told and fails the test when they come out of order, or when, after the
// first state, a state brings events that came as no event.
type livePage struct {
	t       *testing.T
	name    string
	conn    *websocket.Conn
	events  []event
	started bool
	acks    map[int64]string // message id → "ack" or the error's code
}

func openPage(t *testing.T, name string, srv *bt.Server, id, secret string, after int) *livePage {
	t.Helper()
	h := map[string][]string{}
	if secret != "" {
		h["Authorization"] = []string{"Bearer " + secret}
	}
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/games/" + id + "/ws"
	if after >= 0 {
		url += fmt.Sprintf("?after=%d", after)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatalf("%s: connecting: %v", name, err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return &livePage{t: t, name: name, conn: conn, acks: map[int64]string{}, started: after >= 0}
}

// take reads one message and returns its type; "" when the connection
// is gone.
func (p *livePage) take() string {
	p.t.Helper()
	// Only to end a test that hangs; not a measure of speed.
	ctx, cancel := context.WithTimeout(p.t.Context(), time.Minute)
	defer cancel()
	_, data, err := p.conn.Read(ctx)
	if err != nil {
		return ""
	}
	var m struct {
		Type    string `json:"type"`
		ID      int64  `json:"id"`
		Code    string `json:"code"`
		Version int    `json:"version"`
		Event   event  `json:"event"`
		State   *struct {
			Version int     `json:"version"`
			Events  []event `json:"events"`
		} `json:"state"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		p.t.Fatalf("%s: %v", p.name, err)
	}
	switch m.Type {
	case "event":
		if m.Event.Seq != len(p.events)+1 {
			p.t.Fatalf("%s: event %d after %d events", p.name, m.Event.Seq, len(p.events))
		}
		p.events = append(p.events, m.Event)
	case "state":
		s := m.State
		if s.Version < len(p.events) || len(s.Events) != s.Version || !equalEvents(s.Events[:len(p.events)], p.events) {
			p.t.Fatalf("%s: a state at version %d does not follow the %d events seen", p.name, s.Version, len(p.events))
		}
		if p.started && s.Version != len(p.events) {
			p.t.Fatalf("%s: a state at version %d skipped events after %d", p.name, s.Version, len(p.events))
		}
		p.events, p.started = s.Events, true
	case "ack":
		p.acks[m.ID] = "ack"
	case "error":
		p.acks[m.ID] = m.Code
	}
	return m.Type
}

func (p *livePage) until(v int) {
	p.t.Helper()
	for len(p.events) < v {
		if p.take() == "" {
			p.t.Fatalf("%s: the connection closed at version %d of %d", p.name, len(p.events), v)
		}
	}
}

func (p *livePage) write(id int64, ply int, move string) error {
	msg, _ := json.Marshal(map[string]any{"type": "move", "id": id, "ply": ply, "move": move})
	ctx, cancel := context.WithTimeout(p.t.Context(), 20*time.Second)
	defer cancel()
	return p.conn.Write(ctx, websocket.MessageText, msg)
}

func equalEvents(a, b []event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Three `bretter serve` processes on one PostgreSQL and one NATS. White plays
// on the first, Black on the second, a watcher follows on the third. The
// second is killed with SIGKILL just after Black sent a move; Black's page
// reconnects to the third and the game goes on. Every page ends with every
// stored event, in order and once; the move acknowledged before the kill
// is there; a server started again serves the game as it is.
func TestInstancesSurviveKill(t *testing.T) {
	prefix := make([]byte, 6)
	rand.Read(prefix)
	env := []string{"BRETTER_BUS=" + testNATS(), "BRETTER_BUS_PREFIX=e2e" + hex.EncodeToString(prefix)}
	t.Cleanup(func() { removeBucket(env[1][len("BRETTER_BUS_PREFIX="):] + "_leases") })
	db := pgtest.URL(t)
	s0 := bt.StartServerEnv(t, db, env...)
	s1 := bt.StartServerEnv(t, db, env...)
	s2 := bt.StartServerEnv(t, db, env...)

	var c struct{ ID, Secret, Invite_URL string }
	if code, err := post(t, s0.URL+"/api/games", "", `{"game":"havannah","options":{"size":8},"start":"me"}`, &c); code != 201 || err != nil {
		t.Fatalf("create: %d %v", code, err)
	}
	var j struct{ Secret string }
	invite := c.Invite_URL[strings.LastIndex(c.Invite_URL, "/")+1:]
	if code, err := post(t, s0.URL+"/api/games/"+c.ID+"/join", "", `{"invite":"`+invite+`"}`, &j); code != 200 || err != nil {
		t.Fatalf("join: %d %v", code, err)
	}
	plan := quietPlan(8, 30)

	white := openPage(t, "white", s0, c.ID, c.Secret, -1)
	black := openPage(t, "black", s1, c.ID, j.Secret, -1)
	watcher := openPage(t, "watcher", s2, c.ID, "", -1)
	pages := func() []*livePage { return []*livePage{white, black, watcher} }
	play := func(ply int) {
		t.Helper()
		mover := white
		if ply%2 == 1 {
			mover = black
		}
		id := int64(ply + 1)
		if err := mover.write(id, ply, plan[ply]); err != nil {
			t.Fatalf("move %d: %v", ply+1, err)
		}
		for mover.acks[id] == "" {
			if mover.take() == "" {
				t.Fatalf("%s: the connection closed before move %d was answered", mover.name, ply+1)
			}
		}
		if got := mover.acks[id]; got != "ack" {
			t.Fatalf("move %d: %s", ply+1, got)
		}
		for _, p := range pages() {
			p.until(ply + 1)
		}
	}
	for ply := range 11 {
		play(ply)
	}
	// Black's move is on its way when its server dies.
	if err := black.write(12, 11, plan[11]); err != nil {
		t.Fatal(err)
	}
	s1.Kill()
	for black.take() != "" {
	}
	acked := black.acks[12] == "ack"
	// The page reconnects to another instance from the last version it
	// knew: it is sent what it missed, then the state.
	again := openPage(t, "black", s2, c.ID, j.Secret, len(black.events))
	again.events = black.events
	for again.take() != "state" {
	}
	black = again
	landed := len(black.events) == 12
	t.Logf("the move sent as the server died: acknowledged %v, stored %v", acked, landed)
	if acked && !landed {
		t.Fatal("a move acknowledged before the kill is lost")
	}
	if landed {
		for _, p := range pages() {
			p.until(12)
		}
	} else {
		play(11)
	}
	for ply := 12; ply < len(plan); ply++ {
		play(ply)
	}

	want := apiEvents(t, s0, c.ID)
	if len(want) != len(plan) {
		t.Fatalf("%d moves played, %d events stored", len(plan), len(want))
	}
	for _, p := range pages() {
		if !equalEvents(p.events, want) {
			t.Errorf("%s saw %v\nthe store has %v", p.name, p.events, want)
		}
	}
	restarted := bt.StartServerEnv(t, db, env...)
	if got := apiEvents(t, restarted, c.ID); !equalEvents(got, want) {
		t.Fatalf("the restarted instance shows %v", got)
	}
}

// apiEvents reads a game's events from a server.
func apiEvents(t *testing.T, srv *bt.Server, id string) []event {
	t.Helper()
	return readState[struct {
		Events []event `json:"events"`
	}](t, srv, id, "").Events
}

// quietPlan is n moves on a board of side size, none of which wins.
func quietPlan(size, n int) []string {
	s, _ := havannah.New(size, false)
	var plan []string
	for _, m := range s.Legal(nil) {
		if len(plan) == n {
			break
		}
		if s.WouldWin(m) != 0 || s.Play(m) != nil {
			continue
		}
		plan = append(plan, s.FormatMove(m))
	}
	return plan
}

// removeBucket removes a test's lease bucket from NATS.
func removeBucket(name string) {
	nc, err := nats.Connect(testNATS())
	if err != nil {
		return
	}
	defer nc.Close()
	if js, err := jetstream.New(nc); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		js.DeleteKeyValue(ctx, name)
	}
}
