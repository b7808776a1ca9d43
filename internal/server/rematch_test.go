package server

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"bretter/internal/store"
)

// finished is a Havannah game of side 4 that White has won.
func finished(t *testing.T, ts *testServer) testGame {
	t.Helper()
	g := ts.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	ts.play(t, g, "a1 d4 a2 e5 a3 f6 a4")
	return g
}

type offerAnswer struct {
	Version int    `json:"version"`
	Offer   *Offer `json:"offer"`
}

// The terms of a new game may change; the other player accepts them as
// they stand.
func TestRematchOfferWithNewTerms(t *testing.T) {
	ts := newTestServer(t)
	g := finished(t, ts)
	var a offerAnswer
	body := `{"options":{"size":5},"clock":{"initial_s":300,"increment_s":5},"start":"me"}`
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.black, body, &a); code != http.StatusAccepted {
		t.Fatalf("offer: %d %+v", code, a)
	}
	if a.Offer == nil || a.Offer.By != "black" || a.Offer.Terms == nil {
		t.Fatalf("the offer %+v", a.Offer)
	}
	if got := *a.Offer.Terms; got.Options["size"] != 5 || got.Clock != (ClockTerms{InitialS: 300, IncrementS: 5}) || got.White != "black" {
		t.Fatalf("the terms %+v", got)
	}
	// Asking again with the same terms changes nothing.
	var same offerAnswer
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.black, body, &same); code != http.StatusAccepted || same.Version != a.Version {
		t.Fatalf("the same offer again: %d version %d, was %d", code, same.Version, a.Version)
	}
	var next struct{ ID, Seat string }
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, nil, &next); code != http.StatusCreated || next.Seat != "black" {
		t.Fatalf("accept: %d %+v", code, next)
	}
	s := ts.state(t, next.ID, g.black)
	if s.Seat != "white" || s.Options["size"] != 5 || s.Clock == nil || s.Status != "playing" {
		t.Fatalf("the new game: seat %s, options %v, clock %+v, status %s", s.Seat, s.Options, s.Clock, s.Status)
	}
}

// Different terms from the other player are a counter-offer, not an
// acceptance; answering no declines; nobody is moved to a new game.
func TestRematchCounterOfferAndDecline(t *testing.T) {
	ts := newTestServer(t)
	g := finished(t, ts)
	ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, `{"start":"me"}`, nil)
	var counter offerAnswer
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.black, `{"start":"me"}`, &counter); code != http.StatusAccepted {
		t.Fatalf("counter-offer: %d", code)
	}
	if counter.Offer.By != "black" || counter.Offer.Terms.White != "black" {
		t.Fatalf("counter-offer %+v", counter.Offer)
	}
	var e errorBody
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/answer", g.black, `{"kind":"rematch","accept":false}`, &e); code != http.StatusConflict || e.Code != "no_offer" {
		t.Fatalf("declining one's own offer: %d %+v", code, e)
	}
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/answer", g.white, `{"kind":"rematch","accept":false}`, nil); code != http.StatusOK {
		t.Fatalf("decline: %d", code)
	}
	s := ts.state(t, g.id, "")
	if s.Offer != nil || s.Next != "" || s.Status != "over" || s.Result.Winner != "white" {
		t.Fatalf("after declining: offer %+v, next %q, %s %+v", s.Offer, s.Next, s.Status, s.Result)
	}
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/answer", g.white, `{"kind":"rematch","accept":true}`, &e); code != http.StatusConflict || e.Code != "no_offer" {
		t.Fatalf("accepting a declined offer: %d %+v", code, e)
	}
	// Accepting by answer works as well as asking for the same game.
	ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, nil, nil)
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/answer", g.black, `{"kind":"rematch","accept":true}`, nil); code != http.StatusOK {
		t.Fatalf("accept by answer: %d", code)
	}
	if s := ts.state(t, g.id, ""); s.Next == "" {
		t.Fatal("no new game after accepting")
	}
}

// An offer is stored like a move: a restarted server still has it.
func TestRematchOfferSurvivesARestart(t *testing.T) {
	ts := newTestServer(t)
	g := finished(t, ts)
	ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, `{"options":{"size":6}}`, nil)
	ts2 := restartOn(t, ts)
	s := ts2.state(t, g.id, "")
	if s.Offer == nil || s.Offer.By != "white" || s.Offer.Terms.Options["size"] != 6 || s.Result.Reason != "bridge" {
		t.Fatalf("after a restart: %+v %+v", s.Offer, s.Result)
	}
	var next struct{ ID, Seat string }
	if code := ts2.call(t, "POST", "/api/games/"+g.id+"/rematch", g.black, nil, &next); code != http.StatusCreated || next.Seat != "white" {
		t.Fatalf("accept after a restart: %d %+v", code, next)
	}
}

func TestRematchRefusals(t *testing.T) {
	ts := newTestServer(t)
	g := finished(t, ts)
	for _, tt := range []struct{ name, body, code string }{
		{"unknown option", `{"options":{"sides":5}}`, "bad_request"},
		{"size out of range", `{"options":{"size":40}}`, "bad_request"},
		{"bad start", `{"start":"you"}`, "bad_request"},
		{"bad clock", `{"clock":{"initial_s":1}}`, "bad_request"},
		{"unknown field", `{"colour":"white"}`, "bad_request"},
		{"a field in capitals", `{"Start":"me"}`, "bad_request"},
		{"a clock's field in capitals", `{"clock":{"Days":3}}`, "bad_request"},
		{"a clock's field twice", `{"clock":{"days":3,"days":5}}`, "bad_request"},
	} {
		var e errorBody
		if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, tt.body, &e); code != http.StatusBadRequest || e.Code != tt.code {
			t.Errorf("%s: %d %+v", tt.name, code, e)
		}
	}
	if s := ts.state(t, g.id, ""); s.Offer != nil || s.Version != 7 {
		t.Fatalf("refused offers changed the game: %+v, version %d", s.Offer, s.Version)
	}
	var e errorBody
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", "", nil, &e); code != http.StatusForbidden {
		t.Fatalf("without a secret: %d %+v", code, e)
	}
}

// The one who offered a new game may withdraw the offer; nobody else can,
// and withdrawing what is not there is refused and changes nothing.
func TestRematchWithdraw(t *testing.T) {
	ts := newTestServer(t)
	g := finished(t, ts)
	path := "/api/games/" + g.id + "/rematch"
	var e errorBody
	if code := ts.call(t, "DELETE", path, g.white, nil, &e); code != http.StatusConflict || e.Code != "no_offer" {
		t.Fatalf("withdrawing when nothing is offered: %d %+v", code, e)
	}
	var offered offerAnswer
	if code := ts.call(t, "POST", path, g.white, `{"start":"me"}`, &offered); code != http.StatusAccepted {
		t.Fatalf("offer: %d", code)
	}
	for _, tt := range []struct {
		name, secret string
		status       int
		code         string
	}{
		{"the other player", g.black, http.StatusForbidden, "not_your_offer"},
		{"a watcher", "", http.StatusForbidden, "forbidden"},
		{"a wrong secret", "not-a-secret-of-this-game", http.StatusForbidden, "forbidden"},
	} {
		var e errorBody
		if code := ts.call(t, "DELETE", path, tt.secret, nil, &e); code != tt.status || e.Code != tt.code {
			t.Errorf("withdrawal by %s: %d %+v", tt.name, code, e)
		}
	}
	if s := ts.state(t, g.id, ""); s.Offer == nil || s.Offer.By != "white" || s.Version != offered.Version {
		t.Fatalf("refused withdrawals changed the offer: %+v, version %d, was %d", s.Offer, s.Version, offered.Version)
	}

	var withdrawn struct{ Version int }
	if code := ts.call(t, "DELETE", path, g.white, nil, &withdrawn); code != http.StatusOK || withdrawn.Version != offered.Version+1 {
		t.Fatalf("withdraw: %d version %d", code, withdrawn.Version)
	}
	s := ts.state(t, g.id, "")
	last := s.Events[len(s.Events)-1]
	if s.Offer != nil || last.Kind != "withdraw" || last.Seat != "white" || last.Move != "rematch" || s.Status != "over" {
		t.Fatalf("after withdrawing: offer %+v, last event %+v, status %s", s.Offer, last, s.Status)
	}
	if code := ts.call(t, "DELETE", path, g.white, nil, &e); code != http.StatusConflict || e.Code != "no_offer" {
		t.Fatalf("withdrawing twice: %d %+v", code, e)
	}
	// What was withdrawn cannot be accepted: the other player's asking is
	// an offer of its own.
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/answer", g.black, `{"kind":"rematch","accept":true}`, &e); code != http.StatusConflict || e.Code != "no_offer" {
		t.Fatalf("accepting a withdrawn offer: %d %+v", code, e)
	}
	if code := ts.call(t, "POST", path, g.black, nil, nil); code != http.StatusAccepted {
		t.Fatalf("asking after a withdrawal: %d, want a new offer", code)
	}
	// The withdrawal is stored like the offer.
	ts2 := restartOn(t, ts)
	if s := ts2.state(t, g.id, ""); s.Offer == nil || s.Offer.By != "black" || s.Version != withdrawn.Version+1 {
		t.Fatalf("after a restart: %+v, version %d", s.Offer, s.Version)
	}
	// Once the new game has started, there is nothing to withdraw.
	if code := ts2.call(t, "POST", path, g.white, nil, nil); code != http.StatusCreated {
		t.Fatalf("accept: %d", code)
	}
	if code := ts2.call(t, "DELETE", path, g.black, nil, &e); code != http.StatusConflict || e.Code != "too_late" {
		t.Fatalf("withdrawing after the new game started: %d %+v", code, e)
	}
}

// An offer of a new game is news once: terms changed, or the offer
// withdrawn and made again, tell the other player again only after a
// minute.
func TestRematchOffersToldOnceAMinute(t *testing.T) {
	ts := newTestServer(t)
	ft := useFakeTime(ts)
	var mu sync.Mutex
	told := map[string]int{}
	ts.srv.hub.notify = func(n notice) {
		if n.kind == "rematch" {
			mu.Lock()
			told[n.seat]++
			mu.Unlock()
		}
	}
	g := finished(t, ts)
	ask := func(secret, method, body string, want int) {
		t.Helper()
		if code := ts.call(t, method, "/api/games/"+g.id+"/rematch", secret, body, nil); code != want {
			t.Fatalf("%s %s: %d, want %d", method, body, code, want)
		}
	}
	check := func(when string, white, black int) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if told["white"] != white || told["black"] != black {
			t.Errorf("%s: told %v, want white %d, black %d", when, told, white, black)
		}
	}
	ask(g.white, "POST", "", http.StatusAccepted)
	check("the first offer", 0, 1)
	ask(g.white, "POST", `{"start":"me"}`, http.StatusAccepted)
	ask(g.white, "DELETE", "", http.StatusOK)
	ask(g.white, "POST", "", http.StatusAccepted)
	check("the offer changed, withdrawn and made again", 0, 1)
	ft.advance(time.Minute)
	ask(g.white, "POST", `{"start":"me"}`, http.StatusAccepted)
	check("a minute later", 0, 2)
	ask(g.black, "POST", `{"options":{"size":5}}`, http.StatusAccepted)
	check("the other's offer", 1, 2)
}

// The terms of a new game without a clock say "clock": null, as a request
// says it, wherever they are shown: in the answer to the offer, in the
// game's state, in the live messages and in the event of the offer. Sent
// back as they are, they are accepted. An offer stored before, with an
// empty clock, reads as null too.
func TestRematchTermsWithoutAClock(t *testing.T) {
	ts := newTestServer(t)
	g := finished(t, ts)
	live := ts.dial(t, g.id, g.black, "")
	live.next("state")
	var answer struct {
		Offer struct{ Terms json.RawMessage }
	}
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.white, nil, &answer); code != http.StatusAccepted {
		t.Fatalf("offer: %d", code)
	}
	noClock(t, "the answer to the offer", answer.Offer.Terms)
	event := live.next("event")
	var e store.Event
	if err := json.Unmarshal(event.Event, &e); err != nil || e.Kind != "rematch" {
		t.Fatalf("the live event of the offer: %s", event.Event)
	}
	noClock(t, "the live event of the offer", json.RawMessage(e.Move))
	noClock(t, "the live state", offerTerms(t, func(v any) {
		// The state as it comes, not as a Snapshot would write it again.
		_, data, err := ts.dial(t, g.id, g.black, "").conn.Read(t.Context())
		var m struct{ Type, State json.RawMessage }
		if err != nil || json.Unmarshal(data, &m) != nil || string(m.Type) != `"state"` {
			t.Fatalf("the first live message: %s %v", data, err)
		}
		json.Unmarshal(m.State, v)
	}))
	noClock(t, "the game's state", offerTerms(t, func(v any) { ts.call(t, "GET", "/api/games/"+g.id, "", nil, v) }))

	// Sent back as read, on/off options (written 1 and 0) included.
	var terms struct{ Options, Clock json.RawMessage }
	json.Unmarshal(answer.Offer.Terms, &terms)
	body := `{"options":` + string(terms.Options) + `,"clock":` + string(terms.Clock) + `}`
	var e2 errorBody
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/rematch", g.black, body, &e2); code != http.StatusCreated {
		t.Fatalf("the terms sent back, %s: %d %+v", body, code, e2)
	}

	old := finished(t, ts)
	at := storedTime(ts.srv.hub.now())
	if err := ts.store.Append(t.Context(), old.id, []store.Event{{Seq: 8, Kind: "rematch", Seat: "white", At: at,
		Move: `{"options":{"size":4,"swap":1},"clock":{},"white":"black"}`}}, nil); err != nil {
		t.Fatal(err)
	}
	later := restartOn(t, ts)
	noClock(t, "an offer stored with an empty clock", offerTerms(t, func(v any) { later.call(t, "GET", "/api/games/"+old.id, "", nil, v) }))
}

// offerTerms are the terms of the offer in the state read reads.
func offerTerms(t *testing.T, read func(v any)) json.RawMessage {
	t.Helper()
	var s struct {
		Offer *struct{ Terms json.RawMessage }
	}
	read(&s)
	if s.Offer == nil {
		t.Fatal("no offer in the state")
	}
	return s.Offer.Terms
}

// noClock checks that terms, as JSON, say there is no clock as a request
// does.
func noClock(t *testing.T, where string, terms json.RawMessage) {
	t.Helper()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(terms, &fields); err != nil {
		t.Fatalf("%s: terms %s: %v", where, terms, err)
	}
	if c, ok := fields["clock"]; ok && string(c) != "null" {
		t.Errorf("%s: the terms say clock %s, not null: %s", where, c, terms)
	}
}
