package server

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"bretter/games/havannah"
	"bretter/internal/web"
)

// Many goroutines post the same ply at once: exactly one move lands.
func TestRacingMoves(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":10},"start":"me"}`)
	cells := havannahCells(t, 10)
	const racers = 32
	var wg sync.WaitGroup
	codes := make([]int, racers)
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i] = ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, map[string]any{"ply": 0, "move": cells[i]}, nil)
		}()
	}
	wg.Wait()
	won := 0
	for _, c := range codes {
		switch c {
		case http.StatusOK:
			won++
		case http.StatusConflict:
		default:
			t.Fatalf("a racing move got %d", c)
		}
	}
	s := ts.state(t, g.id, "")
	if won != 1 || s.Version != 1 || len(s.Moves) != 1 {
		t.Fatalf("%d racing moves landed, game at version %d with moves %v", won, s.Version, s.Moves)
	}
	_, events, err := ts.store.Load(t.Context(), g.id)
	if err != nil || len(events) != 1 {
		t.Fatalf("the store holds %d events: %v", len(events), err)
	}
}

// A second server process on the same database is another writer: the
// store alone must make sure only one of two moves for a ply lands.
func TestRacingServers(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":8},"start":"me"}`)
	site, _ := web.New(testGames)
	other := httptest.NewServer(New(Config{Store: ts.store, Games: testGames, Site: site, Log: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	defer other.Close()
	// Both servers know the game before either move.
	ts.state(t, g.id, "")
	second := &testServer{Server: other, store: ts.store}
	second.state(t, g.id, "")
	if code := ts.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, `{"ply":0,"move":"a1"}`, nil); code != 200 {
		t.Fatalf("first server: %d", code)
	}
	var e errorBody
	if code := second.call(t, "POST", "/api/games/"+g.id+"/moves", g.white, `{"ply":0,"move":"a2"}`, &e); code != http.StatusConflict {
		t.Fatalf("second server, same ply: %d %+v", code, e)
	}
	if s := second.state(t, g.id, ""); strings.Join(s.Moves, " ") != "a1" {
		t.Fatalf("second server now says %v", s.Moves)
	}
}

func havannahCells(t testing.TB, size int) []string {
	s, err := havannah.New(size, false)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range s.Legal(nil) {
		out = append(out, s.FormatMove(m))
	}
	return out
}

// A command that meets a change another server stored is judged again on
// the game as it now is, not refused for the copy it was first judged on.
func TestConflictJudgedAgain(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":8},"start":"me"}`)
	other := serverOn(t, ts.store)
	other.state(t, g.id, "") // the other server holds the game at version 2
	ts.play(t, g, "a1")
	var got map[string]int
	if code := other.call(t, "POST", "/api/games/"+g.id+"/resign", g.black, nil, &got); code != http.StatusOK {
		t.Fatalf("a resignation on the server that missed a move: %d %v", code, got)
	}
	if s := other.state(t, g.id, ""); s.Status != "over" || len(s.Moves) != 1 || s.Result == nil || s.Result.Reason != "resign" {
		t.Fatalf("after the resignation: %+v", s)
	}
}
