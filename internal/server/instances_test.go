package server

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bretter/game"
	"bretter/games/havannah"

	"github.com/coder/websocket"
)

// Three instances: White on the first, Black on the second, a watcher on
// the third play a whole game over the live protocol. Every page sees
// every event, in order; presence, chat and the next game cross the
// instances; each push notice is sent once, by the instance that stored
// the move.
func TestThreeInstancesPlayAGame(t *testing.T) {
	c := newCluster(t, 3)
	a, b, w := c.nodes[0], c.nodes[1], c.nodes[2]
	g := a.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	white := a.open(t, "white", g.id, g.white, -1)
	black := b.open(t, "black", g.id, g.black, -1)
	watcher := w.open(t, "watcher", g.id, "", -1)
	// Each player sees the other online, though on another instance.
	online := func(seat string) func(message) bool {
		return func(m message) bool { return m.Players[seat].Online }
	}
	white.untilType("presence", online("black"))
	black.untilType("presence", online("white"))

	pages := []*page{white, black, watcher}
	id := int64(0)
	// say sends a message from a page and waits until every page has the
	// event it makes.
	say := func(from *page, msg map[string]any) {
		t.Helper()
		id++
		ack := from.send(id, msg)
		if ack.Type != "ack" {
			t.Fatalf("%s %v: %+v", from.name, msg, ack)
		}
		for _, p := range pages {
			p.until(ack.Version)
		}
	}
	// Offers and answers are events too.
	say(white, map[string]any{"type": "offer", "kind": "draw"})
	say(black, map[string]any{"type": "answer", "kind": "draw", "accept": false})
	for moves := 0; ; moves++ {
		s := b.state(t, g.id, "")
		if s.Status == "over" {
			break
		}
		if moves == 4 {
			// White takes the last move back, with Black's leave.
			say(white, map[string]any{"type": "offer", "kind": "takeback"})
			say(black, map[string]any{"type": "answer", "kind": "takeback", "accept": true})
			continue
		}
		mover, node, secret := white, a, g.white
		if s.ToMove == "black" {
			mover, node, secret = black, b, g.black
		}
		ply, move := firstLegal(t, node, g.id, secret)
		say(mover, map[string]any{"type": "move", "ply": ply, "move": move})
	}
	want := c.stored(g.id)
	for _, p := range pages {
		if !sameEvents(p.events, want) {
			t.Errorf("%s saw %s\nthe store has %s", p.name, eventsText(p.events), eventsText(want))
		}
	}
	if len(want) != int(id) {
		t.Errorf("%d events acknowledged, %d stored", id, len(want))
	}
	for _, n := range c.nodes {
		if s := n.state(t, g.id, ""); !sameEvents(s.Events, want) || s.Status != "over" {
			t.Errorf("%s shows %s %s", n.name, s.Status, eventsText(s.Events))
		}
	}

	// One notice for the join, one for each move and takeback that hands
	// over the turn, one for each player at the end, each from the
	// instance where it happened.
	turns := 0
	for _, e := range want {
		if e.Kind == "move" || e.Kind == "takeback" {
			turns++
		}
	}
	var sent []notice
	for _, n := range c.nodes {
		sent = append(sent, n.noticesSent()...)
	}
	if len(sent) != 1+turns-1+2 {
		t.Errorf("%d notices for a join and %d moves and takebacks: %+v", len(sent), turns, sent)
	}
	if n := w.noticesSent(); len(n) != 0 {
		t.Errorf("the watcher's instance sent notices: %+v", n)
	}

	// Chat goes to the other player, on another instance, not to the
	// watcher.
	if ack := white.send(1000, map[string]any{"type": "chat", "text": "gg"}); ack.Type != "ack" {
		t.Fatalf("chat: %+v", ack)
	}
	black.untilType("chat", func(message) bool { return true })
	// A new game, offered on one instance, is seen on all; accepted on
	// another, every page hears of it.
	offer := white.send(1001, map[string]any{"type": "rematch"})
	if offer.Type != "ack" || offer.Next != "" || offer.Version == 0 {
		t.Fatalf("offering a new game: %+v", offer)
	}
	isOffer := func(m message) bool { return strings.Contains(string(m.Event), `"kind":"rematch"`) }
	black.untilType("event", isOffer)
	watcher.untilType("event", isOffer)
	rep := black.send(1002, map[string]any{"type": "rematch"})
	// As asking again once it has started: the new game, and no
	// version, as the finished game has no event of it.
	if rep.Type != "ack" || rep.Next == "" || rep.Version != 0 {
		t.Fatalf("accepting the new game: %+v", rep)
	}
	for _, p := range []*page{white, watcher} {
		if m := p.untilType("next", func(message) bool { return true }); m.Game != rep.Next {
			t.Errorf("%s was told of %q, not %q", p.name, m.Game, rep.Next)
		}
	}
	for _, m := range watcher.other {
		if m.Type == "chat" {
			t.Errorf("the watcher was sent the chat: %+v", m)
		}
	}
	// Black leaves: White's page, on another instance, sees it.
	black.conn.CloseNow()
	white.untilType("presence", func(m message) bool { return !m.Players["black"].Online })
}

// A player's page on an instance that dies is shown away on the others
// once the dead instance has gone quiet for a while.
func TestDeadInstancesPlayersGoAway(t *testing.T) {
	c := newCluster(t, 2)
	a, b := c.nodes[0], c.nodes[1]
	g := a.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	white := a.open(t, "white", g.id, g.white, -1)
	b.open(t, "black", g.id, g.black, -1)
	white.untilType("presence", func(m message) bool { return m.Players["black"].Online })
	ft := &fakeTime{now: time.Now()}
	useFakeTimeAt(a.testServer, ft)
	b.kill()
	a.srv.hub.sweep()
	ft.mu.Lock()
	ft.now = ft.now.Add(presenceLasts + time.Second)
	ft.mu.Unlock()
	a.srv.hub.sweep()
	white.untilType("presence", func(m message) bool { return !m.Players["black"].Online })
}

// The case of a stale copy: one instance loaded a game that was waiting;
// then, on another instance whose news never arrive, the friend joined
// and 101 moves were played. The first instance must answer from the
// game as stored, and take the next move.
func TestNoAnswerFromAStaleCopy(t *testing.T) {
	c := newCluster(t, 1)
	deaf := c.start(nodeOptions{run: true, wrap: func(b Bus) Bus { return &droppingBus{Bus: b, drop: func(busMessage) bool { return true }} }})
	a := c.nodes[0]
	var created createResponse
	if code := a.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":10},"start":"me"}`, &created); code != http.StatusCreated {
		t.Fatal(code)
	}
	if s := a.state(t, created.ID, ""); s.Status != "waiting" {
		t.Fatalf("a new game is %s", s.Status)
	}
	invite := created.InviteURL[strings.LastIndex(created.InviteURL, "/")+1:]
	var j struct{ Seat, Secret string }
	if code := deaf.call(t, "POST", "/api/games/"+created.ID+"/join", "", map[string]string{"invite": invite}, &j); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	g := testGame{id: created.ID, white: created.Secret, black: j.Secret}
	deaf.play(t, g, strings.Join(quietHavannah(t, 10, 101), " "))
	s := a.state(t, g.id, "")
	if s.Status != "playing" || len(s.Moves) != 101 || s.ToMove != "black" {
		t.Fatalf("the other instance says %s with %d moves, %s to move", s.Status, len(s.Moves), s.ToMove)
	}
	ply, move := firstLegal(t, a, g.id, g.black)
	if code := a.call(t, "POST", "/api/games/"+g.id+"/moves", g.black, map[string]any{"ply": ply, "move": move}, nil); code != http.StatusOK {
		t.Fatalf("Black's move on the other instance: %d", code)
	}
}

// Moves for one ply sent to two instances at once: exactly one lands,
// and both instances then show it.
func TestRacingMovesOnTwoInstances(t *testing.T) {
	c := newCluster(t, 2)
	g := c.nodes[0].newGame(t, `{"game":"havannah","options":{"size":10},"start":"me"}`)
	for _, n := range c.nodes {
		n.state(t, g.id, "") // both hold the game
	}
	cells := havannahCells(t, 10)
	const racers = 16
	codes := make([]int, racers)
	var wg sync.WaitGroup
	for i := range racers {
		n := c.nodes[i%2]
		wg.Go(func() {
			codes[i] = n.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, map[string]any{"ply": 0, "move": cells[i]}, nil)
		})
	}
	wg.Wait()
	landed := 0
	for _, code := range codes {
		switch code {
		case http.StatusOK:
			landed++
		case http.StatusConflict:
		default:
			t.Fatalf("a racing move got %d", code)
		}
	}
	events := c.stored(g.id)
	if landed != 1 || len(events) != 1 {
		t.Fatalf("%d racing moves landed, the store has %s", landed, eventsText(events))
	}
	for _, n := range c.nodes {
		if s := n.state(t, g.id, ""); len(s.Moves) != 1 || s.Moves[0] != events[0].Move {
			t.Errorf("%s shows %v, the store %s", n.name, s.Moves, eventsText(events))
		}
	}
}

// The instance Black plays on dies in the middle of the game. Black's page
// reconnects to another instance, from the last version it knew, and the
// game goes on: nothing acknowledged is lost, nothing is doubled; an
// instance started again serves the game as it is.
func TestInstanceDiesMidGame(t *testing.T) {
	c := newCluster(t, 3)
	a, b, w := c.nodes[0], c.nodes[1], c.nodes[2]
	g := a.newGame(t, `{"game":"havannah","options":{"size":6},"start":"me"}`)
	white := a.open(t, "white", g.id, g.white, -1)
	black := b.open(t, "black", g.id, g.black, -1)
	watcher := w.open(t, "watcher", g.id, "", -1)
	acked := 0
	play := func(id int64, whiteNode, blackNode *node, black *page) {
		t.Helper()
		mover, node, secret := white, whiteNode, g.white
		if id%2 == 0 {
			mover, node, secret = black, blackNode, g.black
		}
		ply, move := firstLegal(t, node, g.id, secret)
		if ack := mover.send(id, map[string]any{"type": "move", "ply": ply, "move": move}); ack.Type != "ack" {
			t.Fatalf("move %d: %+v", ply+1, ack)
		}
		acked++
		for _, p := range []*page{white, black, watcher} {
			p.until(acked)
		}
	}
	for id := int64(1); id <= 10; id++ {
		play(id, a, b, black)
	}
	b.kill()
	// The page finds its connection gone, and reconnects elsewhere.
	black.conn.CloseNow()
	again := w.open(t, "black", g.id, g.black, len(black.events))
	again.events = black.events
	for id := int64(11); id <= 20; id++ {
		play(id, a, w, again)
	}
	want := c.stored(g.id)
	if len(want) != acked {
		t.Fatalf("%d moves acknowledged, the store has %s", acked, eventsText(want))
	}
	for _, p := range []*page{white, again, watcher} {
		if !sameEvents(p.events, want) {
			t.Errorf("%s saw %s\nthe store has %s", p.name, eventsText(p.events), eventsText(want))
		}
	}
	restarted := c.start(nodeOptions{run: true})
	if s := restarted.state(t, g.id, ""); len(s.Events) != acked || !sameEvents(s.Events, want) {
		t.Fatalf("the restarted instance shows %s", eventsText(s.Events))
	}
}

// A lost bus message leaves a gap in versions, which the instance
// repairs from the store: its pages get the state with what they missed.
// Lost news with no message after it is found when the bus says news may
// have been lost.
func TestLostBusMessageIsRepaired(t *testing.T) {
	c := newCluster(t, 1)
	var mu sync.Mutex
	dropNext := false
	a := c.start(nodeOptions{run: true, wrap: func(b Bus) Bus {
		return &droppingBus{Bus: b, drop: func(m busMessage) bool {
			mu.Lock()
			defer mu.Unlock()
			if m.Kind == "events" && dropNext {
				dropNext = false
				return true
			}
			return false
		}}
	}})
	b := c.nodes[0]
	g := a.newGame(t, `{"game":"havannah","options":{"size":6},"start":"me"}`)
	watcher := b.open(t, "watcher", g.id, "", -1)
	moves := quietHavannah(t, 6, 5)
	play := func(ply int) {
		t.Helper()
		secret := g.white
		if ply%2 == 1 {
			secret = g.black
		}
		if code := a.call(t, "POST", "/api/games/"+g.id+"/moves", secret, map[string]any{"ply": ply, "move": moves[ply]}, nil); code != http.StatusOK {
			t.Fatalf("move %d: %d", ply+1, code)
		}
	}
	drop := func() { mu.Lock(); dropNext = true; mu.Unlock() }
	play(0)
	play(1)
	watcher.until(2)
	drop()
	play(2) // lost on its way
	play(3) // a gap: the watcher's instance loads the game again
	watcher.until(4)
	if !sameEvents(watcher.events, c.stored(g.id)) {
		t.Fatalf("the watcher saw %s", eventsText(watcher.events))
	}
	drop()
	play(4) // lost, and nothing follows
	// The bus says news may have been lost (a reconnection, say), and
	// goes on saying so.
	for range 5 {
		b.srv.hub.missed()
	}
	watcher.until(5)
	if !sameEvents(watcher.events, c.stored(g.id)) {
		t.Fatalf("the watcher saw %s", eventsText(watcher.events))
	}
}

// Events an instance stored without telling the others (it died in
// between; here its message is lost, and nothing follows) are found by the
// next instance that loads the game again for a page, and it has the
// others check too: their pages do not wait for ever.
func TestUntoldEventsAreFound(t *testing.T) {
	c := newCluster(t, 2)
	var dropNext atomic.Bool
	a := c.start(nodeOptions{run: true, wrap: func(b Bus) Bus {
		return &droppingBus{Bus: b, drop: func(m busMessage) bool {
			return m.Kind == "events" && dropNext.CompareAndSwap(true, false)
		}}
	}})
	b, w := c.nodes[0], c.nodes[1]
	g := a.newGame(t, `{"game":"havannah","options":{"size":6},"start":"me"}`)
	watcher := b.open(t, "watcher", g.id, "", -1)
	other := w.open(t, "watcher", g.id, "", -1)
	moves := quietHavannah(t, 6, 3)
	for ply, move := range moves {
		secret := g.white
		if ply%2 == 1 {
			secret = g.black
		}
		dropNext.Store(ply == len(moves)-1)
		if code := a.call(t, "POST", "/api/games/"+g.id+"/moves", secret, map[string]any{"ply": ply, "move": move}, nil); code != http.StatusOK {
			t.Fatalf("move %d: %d", ply+1, code)
		}
	}
	// A player's page opens on w, which checks its copy of the game
	// against the store, finds it behind, and loads the game again.
	player := w.open(t, "black", g.id, g.black, -1)
	want := c.stored(g.id)
	for _, p := range []*page{player, other, watcher} {
		p.until(len(moves))
		if !sameEvents(p.events[len(p.events)-len(want):], want) {
			t.Errorf("%s saw %s\nthe store has %s", p.name, eventsText(p.events), eventsText(want))
		}
	}
}

// quietHavannah is n moves on a board of side size that end nothing.
func quietHavannah(t *testing.T, size, n int) []string {
	t.Helper()
	first, err := havannah.New(size, false)
	if err != nil {
		t.Fatal(err)
	}
	var st game.State = first
	r := rand.New(rand.NewPCG(1, 2))
	var out []string
	for len(out) < n {
		legal := st.Legal(nil)
		r.Shuffle(len(legal), func(i, j int) { legal[i], legal[j] = legal[j], legal[i] })
		played := false
		for _, m := range legal {
			next := st.Clone()
			if next.Play(m) != nil || next.Outcome().Over {
				continue
			}
			out = append(out, st.FormatMove(m))
			st, played = next, true
			break
		}
		if !played {
			t.Fatalf("no quiet move after %d", len(out))
		}
	}
	return out
}

// droppingBus loses the messages drop picks, as a network might.
type droppingBus struct {
	Bus
	drop func(busMessage) bool
}

func (d *droppingBus) Publish(game string, data []byte) error {
	var m busMessage
	if err := json.Unmarshal(data, &m); err == nil && d.drop(m) {
		return nil
	}
	return d.Bus.Publish(game, data)
}

// The flag falls on the three instances' timers at once: one timeout is
// stored, every instance shows it, and each player is told once.
func TestFlagFallsOnceAcrossInstances(t *testing.T) {
	c := newCluster(t, 3)
	ft := &fakeTime{now: time.UnixMilli(1_790_000_000_000)}
	for _, n := range c.nodes {
		useFakeTimeAt(n.testServer, ft)
	}
	a := c.nodes[0]
	g := a.newGame(t, `{"game":"dvonn","clock":{"initial_s":15,"increment_s":0}}`)
	a.play(t, g, "C1 C2")
	for _, n := range c.nodes {
		n.state(t, g.id, "") // each instance holds the game, with its timer
	}
	ft.mu.Lock()
	ft.now = ft.now.Add(16 * time.Second)
	due := ft.timers
	ft.timers = nil
	ft.mu.Unlock()
	if len(due) < 3 {
		t.Fatalf("%d timers armed on three instances", len(due))
	}
	var wg sync.WaitGroup
	for _, f := range due {
		wg.Go(f.f)
	}
	wg.Wait()
	events := c.stored(g.id)
	timeouts := 0
	for _, e := range events {
		if e.Kind == "timeout" {
			timeouts++
		}
	}
	if timeouts != 1 {
		t.Fatalf("%d timeouts stored: %s", timeouts, eventsText(events))
	}
	ends := 0
	for _, n := range c.nodes {
		if s := n.state(t, g.id, ""); s.Status != "over" || s.Result == nil || s.Result.Reason != "timeout" {
			t.Errorf("%s shows %s %+v", n.name, s.Status, s.Result)
		}
		for _, x := range n.noticesSent() {
			if x.kind == "won" || x.kind == "lost" {
				ends++
			}
		}
	}
	if ends != 2 {
		t.Errorf("%d notices of the end, want one for each player", ends)
	}
}

// The computer's move after a person's is searched on the instance that
// stored the person's move, and on no other.
func TestComputerMovesOnceAcrossInstances(t *testing.T) {
	c := newCluster(t, 3)
	a, b := c.nodes[0], c.nodes[1]
	var created createResponse
	if code := a.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"opponent":"computer","level":1,"start":"me"}`, &created); code != http.StatusCreated {
		t.Fatal(code)
	}
	for _, n := range c.nodes {
		n.state(t, created.ID, "")
	}
	for round := range 3 {
		ply, move := firstLegal(t, b, created.ID, created.Secret)
		if code := b.call(t, "POST", "/api/games/"+created.ID+"/moves", created.Secret, map[string]any{"ply": ply, "move": move}, nil); code != http.StatusOK {
			t.Fatalf("my move: %d", code)
		}
		b.waitFor(t, created.ID, created.Secret, "the computer's move", func(s Snapshot) bool { return len(s.Moves) == ply+2 || s.Status == "over" })
		if got := b.srv.hub.searches.Load(); got != int64(round+1) {
			t.Fatalf("the instance that stored my move searched %d times in %d rounds", got, round+1)
		}
	}
	for _, n := range []*node{a, c.nodes[2]} {
		if got := n.srv.hub.searches.Load(); got != 0 {
			t.Errorf("%s searched %d times", n.name, got)
		}
	}
	if events := c.stored(created.ID); len(events) != 6 {
		t.Errorf("the store has %s", eventsText(events))
	}
}

// The computer's lease is held by an instance searching a position the
// game has left: a move was taken back and another made on a second
// instance, which then finds the lease taken. The second asks again
// until the holder lets go, and the computer moves without waiting for
// the sweep.
func TestSearchAfterAStaleLease(t *testing.T) {
	c := newCluster(t, 0)
	a := c.start(nodeOptions{})
	b := c.start(nodeOptions{})
	var created createResponse
	if code := b.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"opponent":"computer","level":1,"start":"me"}`, &created); code != http.StatusCreated {
		t.Fatal(code)
	}
	release, ok, err := a.bus.Hold(t.Context(), "computer."+created.ID)
	if err != nil || !ok {
		t.Fatalf("taking the lease: %v %v", ok, err)
	}
	ft := &fakeTime{now: time.Now()}
	useFakeTimeAt(b.testServer, ft)
	idle := func() {
		for {
			if running, waiting := b.srv.hub.thinkers.load(); running == 0 && waiting == 0 {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	ply, move := firstLegal(t, b, created.ID, created.Secret)
	if code := b.call(t, "POST", "/api/games/"+created.ID+"/moves", created.Secret, map[string]any{"ply": ply, "move": move}, nil); code != http.StatusOK {
		t.Fatalf("my move: %d", code)
	}
	idle()
	if got := b.srv.hub.searches.Load(); got != 0 {
		t.Fatalf("%d searches while another instance held the lease", got)
	}
	ft.advance(leaseRetry) // asked again: the lease is still held
	idle()
	release()
	ft.advance(leaseRetry)
	idle()
	if events := c.stored(created.ID); len(events) != 2 || events[1].Seat != "black" {
		t.Fatalf("the store has %s", eventsText(events))
	}
	if got := b.srv.hub.searches.Load(); got != 1 {
		t.Errorf("%d searches", got)
	}
}

// Instances started on a store with a game waiting for the computer all
// find it; one of them searches, and one move is stored.
func TestRestartedInstancesSearchOnce(t *testing.T) {
	c := newCluster(t, 0)
	first := c.start(nodeOptions{})
	var created createResponse
	// The computer opens: its search is queued on the instance that
	// created the game, which dies before it runs.
	first.srv.hub.thinkers.close()
	if code := first.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"opponent":"computer","level":1,"start":"friend"}`, &created); code != http.StatusCreated {
		t.Fatal(code)
	}
	first.kill()
	nodes := []*node{c.start(nodeOptions{}), c.start(nodeOptions{}), c.start(nodeOptions{})}
	var wg sync.WaitGroup
	for _, n := range nodes {
		wg.Go(func() { n.srv.hub.resume(t.Context(), retryAfter) })
	}
	wg.Wait()
	nodes[0].waitFor(t, created.ID, created.Secret, "the computer's move", func(s Snapshot) bool { return len(s.Moves) == 1 })
	searches := int64(0)
	for _, n := range nodes {
		for {
			if running, waiting := n.srv.hub.thinkers.load(); running == 0 && waiting == 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		searches += n.srv.hub.searches.Load()
	}
	if searches != 1 {
		t.Errorf("%d searches on three instances", searches)
	}
	if events := c.stored(created.ID); len(events) != 1 {
		t.Errorf("the store has %s", eventsText(events))
	}
}

// The instance searching for the computer's move dies. Once its lease
// has lapsed, another instance that holds the game finds it waiting
// and searches; one move is stored.
func TestComputerMoveSurvivesItsSearcher(t *testing.T) {
	c := newCluster(t, 0)
	c.leaseTTL = 2 * time.Second
	a := c.start(nodeOptions{})
	b := c.start(nodeOptions{})
	// The computer opens, but a's search is not to run: a takes the lease
	// as its search would, and dies holding it.
	a.srv.hub.thinkers.close()
	var created createResponse
	if code := a.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"opponent":"computer","level":1,"start":"friend"}`, &created); code != http.StatusCreated {
		t.Fatal(code)
	}
	if _, ok, err := a.bus.Hold(t.Context(), "computer."+created.ID); err != nil || !ok {
		t.Fatalf("taking the lease: %v %v", ok, err)
	}
	a.kill()
	b.state(t, created.ID, "")
	ft := &fakeTime{now: time.Now().Add(2*heartbeat + time.Second)}
	useFakeTimeAt(b.testServer, ft)
	// Only to end a test that hangs; not a measure of speed.
	deadline := time.Now().Add(time.Minute)
	for len(c.stored(created.ID)) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("nobody made the computer's move")
		}
		b.srv.hub.sweep()
		for {
			if running, waiting := b.srv.hub.thinkers.load(); running == 0 && waiting == 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if got := b.srv.hub.searches.Load(); got != 1 {
		t.Errorf("%d searches", got)
	}
	if events := c.stored(created.ID); len(events) != 1 || events[0].Seat != "white" {
		t.Errorf("the store has %s", eventsText(events))
	}
}

// An instance that dies between storing a move and telling the others
// leaves them nothing to notice: no gap follows, as nobody moves until
// the move is seen. The others check their quiet games with pages open
// against the store, and the pages get the move within seconds.
func TestQuietGamesAreChecked(t *testing.T) {
	c := newCluster(t, 1)
	ft := &fakeTime{now: time.UnixMilli(1_790_000_000_000)}
	var dropNext atomic.Bool
	a := c.start(nodeOptions{wrap: func(b Bus) Bus {
		return &droppingBus{Bus: b, drop: func(m busMessage) bool {
			return m.Kind == "events" && dropNext.CompareAndSwap(true, false)
		}}
	}})
	b := c.nodes[0]
	useFakeTimeAt(a.testServer, ft)
	useFakeTimeAt(b.testServer, ft)
	g := a.newGame(t, `{"game":"havannah","options":{"size":6},"start":"me"}`)
	moves := quietHavannah(t, 6, 3)
	a.play(t, g, strings.Join(moves[:2], " "))
	black := b.open(t, "black", g.id, g.black, -1)
	black.until(2)
	dropNext.Store(true)
	// White's move, told to nobody.
	if code := a.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, map[string]any{"ply": 2, "move": moves[2]}, nil); code != http.StatusOK {
		t.Fatalf("move 3: %d", code)
	}
	b.srv.hub.sweep() // too soon to ask the store
	ft.advance(2*heartbeat + time.Second)
	b.srv.hub.sweep()
	black.until(3)
	if !sameEvents(black.events, c.stored(g.id)) {
		t.Fatalf("black saw %s", eventsText(black.events))
	}
	// Checks grow rarer with the quiet: the next comes after twice the
	// time, not at every heartbeat.
	bg := b.srv.hub.entry(g.id)
	bg.mu.Lock()
	checked := bg.checked
	bg.mu.Unlock()
	ft.advance(heartbeat)
	b.srv.hub.sweep()
	bg.mu.Lock()
	again := bg.checked
	bg.mu.Unlock()
	if checked.IsZero() || !again.Equal(checked) {
		t.Errorf("checked at %v, then at %v a heartbeat later", checked, again)
	}
}

// The games with a clock that only a dead instance held in memory still
// end on time: the others look for clocks without a timer once a minute,
// and any request ends a game whose time ran out before it is answered.
func TestDeadInstancesClocksRunOut(t *testing.T) {
	c, a, b, ft := twoOnFakeTime(t)
	asked := a.newGame(t, `{"game":"dvonn","clock":{"initial_s":15,"increment_s":0}}`)
	alone := a.newGame(t, `{"game":"dvonn","clock":{"initial_s":15,"increment_s":0}}`)
	a.play(t, asked, "C1 C2")
	a.play(t, alone, "C1 C2")
	a.kill()
	ft.mu.Lock()
	ft.now = ft.now.Add(16 * time.Second)
	ft.timers = nil // the dead instance's
	ft.mu.Unlock()
	if s := b.state(t, asked.id, ""); s.Status != "over" || s.Result == nil || s.Result.Reason != "timeout" {
		t.Errorf("the first answer of another instance: %s %+v", s.Status, s.Result)
	}
	b.srv.hub.sweep()
	c.untilTimeout(t, alone.id, "white")
}

// A timer for a game out of memory here keeps the deadline this instance
// last saw: news that another instance changed the game drops it, and the
// look for clocks without a timer loads the game anew.
func TestStaleTimerIsDropped(t *testing.T) {
	c, a, b, ft := twoOnFakeTime(t)
	g := a.newGame(t, `{"game":"havannah","options":{"size":5},"clock":{"initial_s":300,"increment_s":0}}`)
	a.play(t, g, "c3 d4")
	ft.advance(10 * time.Second)
	a.moveAt(t, g, 2, "e5")
	ft.advance(200 * time.Second)
	a.moveAt(t, g, 3, "a1") // Black has 100 s left, White 290 s
	b.state(t, g.id, "")    // b's timer: White's deadline
	b.srv.hub.evictIdle(-time.Hour)
	ft.advance(10 * time.Second)
	a.moveAt(t, g, 4, "b2")                 // Black to move, 100 s left: earlier than b's timer
	deadline := time.Now().Add(time.Minute) // only to end a test that hangs
	for {
		b.srv.hub.clocksMu.Lock()
		stale := b.srv.hub.clocks[g.id] != nil
		b.srv.hub.clocksMu.Unlock()
		if !stale {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b kept the timer of a game changed elsewhere")
		}
		time.Sleep(10 * time.Millisecond)
	}
	a.kill()
	ft.mu.Lock()
	ft.now = ft.now.Add(101 * time.Second)
	ft.timers = nil
	ft.mu.Unlock()
	b.srv.hub.sweep()
	c.untilTimeout(t, g.id, "black")
}

// twoOnFakeTime starts two instances on one fake clock: b runs (its sweep
// is called by hand), a only serves.
func twoOnFakeTime(t *testing.T) (c *cluster, a, b *node, ft *fakeTime) {
	t.Helper()
	c = newCluster(t, 1)
	ft = &fakeTime{now: time.UnixMilli(1_790_000_000_000)}
	a, b = c.start(nodeOptions{}), c.nodes[0]
	useFakeTimeAt(a.testServer, ft)
	useFakeTimeAt(b.testServer, ft)
	return c, a, b, ft
}

// untilTimeout waits until the store ends game id with seat's time out.
func (c *cluster) untilTimeout(t *testing.T, id, seat string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute) // only to end a test that hangs
	for {
		events := c.stored(id)
		if last := events[len(events)-1]; last.Kind == "timeout" && last.Seat == seat {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s's time ran out and nobody ended the game: %s", seat, eventsText(events))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A player's page on screen spares the player notices from every
// instance, not only from its own: also from one that loads the game only
// for the move, and so knows nothing yet of the pages elsewhere.
func TestLookingAcrossInstances(t *testing.T) {
	c := newCluster(t, 2)
	a, b := c.nodes[0], c.nodes[1]
	b.srv.hub.noticeWait = 2 * presenceEvery
	g := a.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	black := a.open(t, "black", g.id, g.black, -1)
	black.until(0)
	// A shown message is not answered; a refused one after it is, once
	// the page's messages before it are carried out.
	shown := func(on bool) {
		t.Helper()
		if err := black.conn.Write(t.Context(), websocket.MessageText, fmt.Appendf(nil, `{"type":"shown","shown":%v}`, on)); err != nil {
			t.Fatal(err)
		}
		if m := black.send(99, map[string]any{"type": "shown"}); m.Type != "error" {
			t.Fatalf("answer %+v", m)
		}
	}
	toldBlack := func() (n int) {
		for _, x := range append(a.noticesSent(), b.noticesSent()...) {
			if x.seat == "black" && x.kind == "turn" {
				n++
			}
		}
		return n
	}
	move := func(n *node, secret string, ply int, m string) {
		t.Helper()
		if code := n.call(t, "POST", "/api/games/"+g.id+"/moves", secret, map[string]any{"ply": ply, "move": m}, nil); code != http.StatusOK {
			t.Fatalf("move %d %s: %d", ply, m, code)
		}
	}
	// settled waits past the notices' wait.
	settled := func() { time.Sleep(b.srv.hub.noticeWait + time.Second) }

	shown(true)
	move(b, g.white, 0, "a1") // b loads the game for it
	settled()
	if n := toldBlack(); n != 0 {
		t.Errorf("black, looking on another instance, got %d notices", n)
	}
	shown(false)
	move(a, g.black, 1, "b1")
	move(b, g.white, 2, "c1")
	settled()
	if n := toldBlack(); n != 1 {
		t.Errorf("black, not looking, got %d notices", n)
	}

	// A page on screen that dies unseen (a phone losing its network as
	// it goes to sleep) may not have shown the news: the notice spared
	// for it goes from its instance, though another stored the move.
	shown(true)
	move(a, g.black, 3, "d1")
	move(b, g.white, 4, "a2")
	settled()
	if n := toldBlack(); n != 1 {
		t.Errorf("black, looking again, got %d notices", n-1)
	}
	black.conn.CloseNow()
	// Only to end a test that hangs; not a measure of speed.
	for deadline := time.Now().Add(time.Minute); toldBlack() == 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no notice once black's page on screen died")
		}
	}
	settled()
	if n := toldBlack(); n != 2 {
		t.Errorf("black's page died: %d notices, not 1", n-1)
	}
}
