package server

import (
	"net/http"
	"strings"
	"sync"
	"testing"
)

func (ts *testServer) offer(t *testing.T, id, secret, kind string) (int, errorBody) {
	t.Helper()
	var e errorBody
	code := ts.call(t, "POST", "/api/games/"+id+"/offer", secret, map[string]string{"kind": kind}, &e)
	return code, e
}

func (ts *testServer) answer(t *testing.T, id, secret, kind string, accept bool) (int, errorBody) {
	t.Helper()
	var e errorBody
	code := ts.call(t, "POST", "/api/games/"+id+"/answer", secret, map[string]any{"kind": kind, "accept": accept}, &e)
	return code, e
}

func TestDrawOffer(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5}}`)
	ts.play(t, g, "c3 d4")
	if code, e := ts.offer(t, g.id, g.white, "draw"); code != http.StatusOK {
		t.Fatalf("offer: %d %+v", code, e)
	}
	if o := ts.state(t, g.id, "").Offer; o == nil || o.Kind != "draw" || o.By != "white" {
		t.Fatalf("the offer: %+v", o)
	}
	if code, _ := ts.offer(t, g.id, g.white, "draw"); code != http.StatusConflict {
		t.Errorf("the same offer twice: %d", code)
	}
	if code, e := ts.answer(t, g.id, g.white, "draw", true); code != http.StatusConflict || e.Code != "no_offer" {
		t.Errorf("accepting one's own offer: %d %+v", code, e)
	}
	// Declined, then offered again and cancelled by a move.
	if code, _ := ts.answer(t, g.id, g.black, "draw", false); code != http.StatusOK {
		t.Fatalf("decline: %d", code)
	}
	if s := ts.state(t, g.id, ""); s.Offer != nil || s.Status != "playing" {
		t.Fatalf("after declining: %+v %s", s.Offer, s.Status)
	}
	ts.offer(t, g.id, g.black, "draw")
	ts.moveAt(t, g, 2, "e5")
	if code, e := ts.answer(t, g.id, g.white, "draw", true); code != http.StatusConflict || e.Code != "no_offer" {
		t.Errorf("accepting an offer a move cancelled: %d %+v", code, e)
	}
	// Offered and accepted: a draw by agreement.
	ts.offer(t, g.id, g.white, "draw")
	if code, _ := ts.answer(t, g.id, g.black, "draw", true); code != http.StatusOK {
		t.Fatalf("accept: %d", code)
	}
	s := ts.state(t, g.id, "")
	if s.Status != "over" || s.Result == nil || s.Result.Winner != "none" || s.Result.Reason != "agreement" {
		t.Fatalf("after accepting: %s %+v", s.Status, s.Result)
	}
	if code, _ := ts.offer(t, g.id, g.white, "draw"); code != http.StatusConflict {
		t.Errorf("an offer after the end: %d", code)
	}
}

func TestTakeback(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5}}`)
	ts.play(t, g, "c3 d4 e5")
	// White made the last move: only it goes back.
	ts.offer(t, g.id, g.white, "takeback")
	if code, _ := ts.answer(t, g.id, g.black, "takeback", true); code != http.StatusOK {
		t.Fatalf("accept: %d", code)
	}
	s := ts.state(t, g.id, g.white)
	if got := strings.Join(s.Moves, " "); got != "c3 d4" || s.ToMove != "white" || len(s.Legal) == 0 {
		t.Fatalf("after taking back e5: %q, %s to move", got, s.ToMove)
	}
	ts.moveAt(t, g, 2, "a1")
	ts.moveAt(t, g, 3, "b2")
	// Black has replied since White's move: both go back.
	ts.offer(t, g.id, g.white, "takeback")
	ts.answer(t, g.id, g.black, "takeback", true)
	s = ts.state(t, g.id, "")
	if got := strings.Join(s.Moves, " "); got != "c3 d4" || s.ToMove != "white" {
		t.Fatalf("after taking back a1 b2: %q, %s to move", got, s.ToMove)
	}
	kinds := []string{}
	for _, e := range s.Events {
		kinds = append(kinds, e.Kind)
	}
	if got := strings.Join(kinds, " "); got != "move move move offer takeback move move offer takeback" {
		t.Errorf("the events: %s", got)
	}
	// The store rebuilds the same game.
	again := restartOn(t, ts)
	if s2 := again.state(t, g.id, ""); strings.Join(s2.Moves, " ") != "c3 d4" || s2.Version != s.Version {
		t.Errorf("after a restart: %v at version %d", s2.Moves, s2.Version)
	}
	// Declined: nothing changes; nothing to take back: refused.
	ts.offer(t, g.id, g.black, "takeback")
	ts.answer(t, g.id, g.white, "takeback", false)
	if s := ts.state(t, g.id, ""); len(s.Moves) != 2 {
		t.Errorf("a declined takeback took back: %v", s.Moves)
	}
	fresh := ts.newGame(t, `{"game":"havannah","options":{"size":5}}`)
	if code, _ := ts.offer(t, fresh.id, fresh.white, "takeback"); code != http.StatusConflict {
		t.Errorf("a takeback with no move: %d", code)
	}
}

func TestAbort(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"dvonn"}`)
	ts.play(t, g, "C1")
	if code, _ := ts.offer(t, g.id, g.black, "abort"); code != http.StatusOK {
		t.Fatalf("abort after one move: %d", code)
	}
	if s := ts.state(t, g.id, ""); s.Status != "over" || s.Result.Winner != "none" || s.Result.Reason != "aborted" {
		t.Fatalf("aborted: %s %+v", s.Status, s.Result)
	}
	g = ts.newGame(t, `{"game":"dvonn"}`)
	ts.play(t, g, "C1 C2")
	if code, e := ts.offer(t, g.id, g.white, "abort"); code != http.StatusConflict || e.Code != "too_late" {
		t.Errorf("abort after both moved: %d %+v", code, e)
	}
	// Waiting for the friend: the creator may call it off.
	creator := ts.browser(t)
	c := createAs(t, ts, creator, `{"game":"dvonn"}`)
	seatPage := func() string {
		_, page := get(t, creator, ts.URL+"/g/"+c.ID, "Accept-Language", "en")
		return page
	}
	if page := seatPage(); !strings.Contains(page, `id="chat"`) || !strings.Contains(page, `id="notices"`) {
		t.Fatal("the creator's page offers no chat or notices while waiting")
	}
	if code, _ := ts.offer(t, c.ID, c.Secret, "abort"); code != http.StatusOK {
		t.Errorf("abort while waiting: %d", code)
	}
	// Nobody will come to read a chat line or to take a turn.
	if page := seatPage(); strings.Contains(page, `id="chat"`) || strings.Contains(page, `id="notices"`) || !strings.Contains(page, `id="name-form"`) {
		t.Error("the creator's page of a game called off before the friend came offers chat or notices")
	}
	// Called off before anyone joined, it seats nobody and has nobody
	// to play again.
	invite := c.InviteURL[strings.LastIndex(c.InviteURL, "/")+1:]
	var e errorBody
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": invite}, &e); code != http.StatusConflict || e.Code != "game_over" {
		t.Errorf("joining a game called off: %d %+v", code, e)
	}
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/rematch", c.Secret, nil, &e); code != http.StatusConflict || e.Code != "no_friend" {
		t.Errorf("a new game after a game nobody joined: %d %+v", code, e)
	}
	// Its invitation's page neither says it was used nor tries to join,
	// nor does its preview invite anybody.
	_, page := get(t, ts.browser(t), c.InviteURL, "Accept-Language", "en")
	boot := page[strings.Index(page, `id="boot">`):]
	boot = boot[:strings.Index(boot, "</script>")]
	if strings.Contains(boot, `"invite"`) || strings.Contains(boot, `"used"`) || strings.Contains(metaTags(page)["og:description"], "invited") {
		t.Errorf("the invitation of a game called off: %s, %q", boot, metaTags(page)["og:description"])
	}
	// Nor does it offer its moves to step through: it has none.
	if d := metaTags(page)["og:description"]; d != "A game of DVONN on bretter, called off before its first move." {
		t.Errorf("the preview of a game called off before its first move: %q", d)
	}
	// A game over with both seats taken says so, as any game with both.
	done := finished(t, ts)
	if code := ts.call(t, "POST", "/api/games/"+done.id+"/join", "", map[string]string{"invite": done.invite}, &e); code != http.StatusConflict || e.Code != "seat_taken" {
		t.Errorf("joining a finished game: %d %+v", code, e)
	}
	if s := ts.state(t, c.ID, ""); s.Players.Black.Seated || s.Offer != nil || s.Version != 1 {
		t.Errorf("after the refusals: black seated %v, offer %+v, version %d", s.Players.Black.Seated, s.Offer, s.Version)
	}
}

func TestOffersRefuseBadRequests(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5}}`)
	ts.play(t, g, "c3 d4")
	for _, tt := range []struct {
		path, secret, body string
		code               int
	}{
		{"offer", g.white, `{"kind":"peace"}`, http.StatusBadRequest},
		{"offer", "", `{"kind":"draw"}`, http.StatusForbidden},
		{"offer", "wrong", `{"kind":"draw"}`, http.StatusForbidden},
		{"offer", g.white, `{"kind":`, http.StatusBadRequest},
		// An offer is not an answer: "accept" would be ignored.
		{"offer", g.white, `{"kind":"draw","accept":true}`, http.StatusBadRequest},
		{"answer", g.black, `{"kind":"peace","accept":true}`, http.StatusBadRequest},
		{"answer", g.black, `{"kind":"draw"}`, http.StatusBadRequest},
		{"answer", g.black, `{"kind":"draw","accept":true}`, http.StatusConflict},
	} {
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/"+tt.path, tt.secret, tt.body, nil); code != tt.code {
			t.Errorf("%s %s: %d, want %d", tt.path, tt.body, code, tt.code)
		}
	}
	if s := ts.state(t, g.id, ""); s.Version != 2 {
		t.Errorf("bad requests changed the game: version %d", s.Version)
	}
	// A refusal says what stands in the way, with a code a page can
	// translate.
	ts.offer(t, g.id, g.white, "takeback")
	ts.answer(t, g.id, g.black, "takeback", true)
	if code, e := ts.offer(t, g.id, g.white, "takeback"); code != http.StatusConflict || e.Code != "no_takeback" {
		t.Errorf("a takeback of a move taken back: %d %+v", code, e)
	}
	ts.offer(t, g.id, g.black, "draw")
	if code, e := ts.offer(t, g.id, g.black, "takeback"); code != http.StatusConflict || e.Code != "offer_pending" {
		t.Errorf("an offer beside one waiting: %d %+v", code, e)
	}
}

// A new game is offered through a request of its own: asked for as an
// offer, in play or after the end, the refusal names that request instead
// of saying the game is over, and changes nothing.
func TestARematchIsOfferedOnItsOwnRequest(t *testing.T) {
	ts := newTestServer(t)
	playing := ts.newGame(t, `{"game":"havannah","options":{"size":5}}`)
	ts.play(t, playing, "c3 d4")
	over := finished(t, ts)
	for _, g := range []testGame{playing, over} {
		before := ts.state(t, g.id, "").Version
		code, e := ts.offer(t, g.id, g.white, "rematch")
		if code != http.StatusBadRequest || e.Code != "bad_request" || !strings.Contains(e.Error, "POST /api/games/"+g.id+"/rematch") {
			t.Errorf("a new game offered as an offer: %d %+v", code, e)
		}
		// Any kind there is not is refused as such, also after the end.
		if code, e := ts.offer(t, g.id, g.white, "peace"); code != http.StatusBadRequest || e.Code != "bad_request" {
			t.Errorf("an offer of no kind: %d %+v", code, e)
		}
		if s := ts.state(t, g.id, ""); s.Version != before || s.Offer != nil {
			t.Errorf("the refusals changed the game: version %d, was %d, offer %+v", s.Version, before, s.Offer)
		}
	}
	c := ts.dial(t, over.id, over.black, "")
	c.next("state")
	c.send(map[string]any{"type": "offer", "id": 3, "kind": "rematch"})
	if e := c.next("error"); e.ID != 3 || e.Code != "bad_request" || !strings.Contains(e.Error, `"rematch" message`) {
		t.Errorf("a new game offered as an offer on the live connection: %+v", e)
	}
}

// Before the friend has joined there is nothing to answer, and the game
// is not over: the refusal says that it waits for the friend.
func TestAnswerBeforeTheFriendJoins(t *testing.T) {
	ts := newTestServer(t)
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":5}}`, &c)
	for _, kind := range []string{"draw", "takeback"} {
		if code, e := ts.answer(t, c.ID, c.Secret, kind, true); code != http.StatusConflict || e.Code != "waiting" {
			t.Errorf("answering a %s before the friend joined: %d %+v", kind, code, e)
		}
	}
}

func TestComputerGrantsTakebacksAndPlaysDrawsOut(t *testing.T) {
	ts := newTestServer(t)
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":5},"opponent":"computer","level":1}`, &c)
	ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, map[string]any{"ply": 0, "move": "c3"}, nil)
	s := ts.waitFor(t, c.ID, c.Secret, "the computer's reply", func(s Snapshot) bool { return len(s.Moves) == 2 })
	if code, _ := ts.offer(t, c.ID, c.Secret, "takeback"); code != http.StatusOK {
		t.Fatalf("takeback: %d", code)
	}
	if s = ts.state(t, c.ID, c.Secret); len(s.Moves) != 0 || s.ToMove != "white" || s.Offer != nil {
		t.Fatalf("after the takeback: %v, %s to move, offer %+v", s.Moves, s.ToMove, s.Offer)
	}
	ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, map[string]any{"ply": 0, "move": "c3"}, nil)
	ts.waitFor(t, c.ID, c.Secret, "the computer's reply", func(s Snapshot) bool { return len(s.Moves) == 2 })
	ts.offer(t, c.ID, c.Secret, "draw")
	if s = ts.state(t, c.ID, c.Secret); s.Status != "playing" || s.Offer != nil {
		t.Fatalf("after offering the computer a draw: %s, offer %+v", s.Status, s.Offer)
	}
}

// A player accepting a draw races the other's move: exactly one of them
// lands, every time.
func TestOfferRacesMove(t *testing.T) {
	ts := newTestServer(t)
	for range 20 {
		g := ts.newGame(t, `{"game":"havannah","options":{"size":5}}`)
		ts.play(t, g, "c3 d4")
		ts.offer(t, g.id, g.black, "draw")
		var wg sync.WaitGroup
		var moved, accepted int
		wg.Go(func() {
			moved = ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, map[string]any{"ply": 2, "move": "e5"}, nil)
		})
		wg.Go(func() { accepted, _ = ts.answer(t, g.id, g.white, "draw", true) })
		wg.Wait()
		s := ts.state(t, g.id, "")
		switch {
		case moved == http.StatusOK && accepted != http.StatusOK:
			if s.Status != "playing" || len(s.Moves) != 3 {
				t.Fatalf("the move won, but the game is %s after %v", s.Status, s.Moves)
			}
		case accepted == http.StatusOK && moved != http.StatusOK:
			if s.Status != "over" || len(s.Moves) != 2 {
				t.Fatalf("the draw won, but the game is %s after %v", s.Status, s.Moves)
			}
		default:
			t.Fatalf("move %d, accept %d: want exactly one", moved, accepted)
		}
	}
}

func TestOffersOverTheLiveProtocol(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":5}}`)
	ts.play(t, g, "c3 d4")
	white, black := ts.dial(t, g.id, g.white, ""), ts.dial(t, g.id, g.black, "")
	white.next("state")
	black.next("state")
	white.send(map[string]any{"type": "offer", "id": 1, "kind": "takeback"})
	if ack := white.next("ack"); ack.ID != 1 || ack.Version != 3 {
		t.Fatalf("ack: %+v", ack)
	}
	if m := black.next("event"); m.Change.Offer == nil || m.Change.Offer.Kind != "takeback" {
		t.Fatalf("Black sees %+v", m.Change.Offer)
	}
	black.send(map[string]any{"type": "answer", "id": 7, "kind": "takeback"})
	if e := black.next("error"); e.ID != 7 || e.Code != "bad_request" {
		t.Fatalf("an answer without accept: %+v", e)
	}
	// An offer is not an answer, over the live connection as over
	// HTTP, and the refusal says so in plain words.
	black.send(map[string]any{"type": "offer", "id": 9, "kind": "takeback", "accept": true})
	if e := black.next("error"); e.ID != 9 || e.Code != "bad_request" || e.Error != `an "offer" message has no "accept"` {
		t.Fatalf("an offer with accept: %+v", e)
	}
	black.send(map[string]any{"type": "answer", "id": 8, "kind": "takeback", "accept": true})
	black.next("ack")
	// A takeback shortens the game: the pages get the whole state again.
	if m := white.next("state"); len(m.State.Moves) != 0 || m.State.Offer != nil || m.Version != 4 {
		t.Fatalf("White sees %v, offer %+v", m.State.Moves, m.State.Offer)
	}
}
