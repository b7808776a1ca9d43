package fanorona

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"bretter/game"
	"bretter/game/gametest"
)

func TestContract(t *testing.T) {
	gametest.Check(t, func() game.State { return New() }, 2000)
}

func TestGame(t *testing.T) {
	g := Game()
	if g.Name != "fanorona" || len(g.Options) != 0 {
		t.Errorf("Game() = %+v", g)
	}
	s, opts, err := g.Start(nil)
	if err != nil || len(opts) != 0 {
		t.Fatalf("Start: %v, %v", opts, err)
	}
	if st, ok := s.(*State); !ok || *st != *New() {
		t.Errorf("Start gave %#v, want the start position", s)
	}
	if _, _, err := g.Start(game.Options{"size": 9}); err == nil {
		t.Error("an unknown option was accepted")
	}
}

func TestStart(t *testing.T) {
	s := New()
	w, b := s.Pieces()
	if w != 22 || b != 22 || s.ToMove() != game.White || s.Ply() != 0 || s.Counter() != 0 || s.LastCaptured() != 0 {
		t.Errorf("start: %d white, %d black, %v to move, ply %d, counter %d", w, b, s.ToMove(), s.Ply(), s.Counter())
	}
	// The picture in the rules, rank 5 first; and its half turn with the
	// colours swapped is the same.
	want := boardString(t,
		"BBBBBBBBB",
		"BBBBBBBBB",
		"BWBW.BWBW",
		"WWWWWWWWW",
		"WWWWWWWWW",
	)
	v := s.View().(View)
	if v.Board != want {
		t.Errorf("start board %s, want %s", v.Board, want)
	}
	for p := range points {
		q := points - 1 - p
		swap := map[byte]byte{'W': 'B', 'B': 'W', '.': '.'}
		if v.Board[q] != swap[v.Board[p]] {
			t.Errorf("start position is not symmetric at %s", pointName(p))
		}
	}
}

func TestView(t *testing.T) {
	s := New()
	empty, err := json.Marshal(s.View())
	if err != nil {
		t.Fatal(err)
	}
	const wantStart = `{"board":"WWWWWWWWWWWWWWWWWWBWBW.BWBWBBBBBBBBBBBBBBBBBB","to_move":"white","ply":0,` +
		`"counter":0,"draw_at":50,"white":22,"black":22,"last_turn":"","captured":[],` +
		`"takes":{"d2-e3A":["f4","g5"],"d3-e3A":["f3"],"d3-e3W":["c3"],"e2-e3A":["e4","e5"],"f2-e3A":["d4","c5"]}}`
	if string(empty) != wantStart {
		t.Errorf("start view\n got %s\nwant %s", empty, wantStart)
	}
	for _, turn := range []string{"d3-e3W", "d4-d3A"} {
		if err := play(t, s, turn); err != nil {
			t.Fatal(err)
		}
	}
	v := s.View().(View)
	checkTakes(t, s, v.Takes)
	v.Takes = nil // checked above: too long to spell out
	got, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	// d3-e3W took c3 behind it; d4-d3A takes the line d2, d1 ahead.
	const want = `{"board":"WWW.WWWWWWWW.WWWWWBW.BWBWBWBBB.BBBBBBBBBBBBBB","to_move":"white","ply":2,` +
		`"counter":0,"draw_at":50,"white":20,"black":21,"last_turn":"d4-d3A","captured":["d1","d2"]}`
	if string(got) != want {
		t.Errorf("view\n got %s\nwant %s", got, want)
	}
}

// checkTakes checks a view's takes against Play: every legal turn that
// captures is there, with the points it captures.
func checkTakes(t *testing.T, s *State, takes map[string][]string) {
	t.Helper()
	n := 0
	for _, m := range s.Legal(nil) {
		c := *s
		if err := c.Play(m); err != nil {
			t.Fatal(err)
		}
		want := c.View().(View).Captured
		if len(want) == 0 {
			continue
		}
		n++
		if got := takes[s.FormatMove(m)]; !slices.Equal(got, want) {
			t.Errorf("takes %s: %v, want %v", s.FormatMove(m), got, want)
		}
	}
	if len(takes) != n {
		t.Errorf("takes has %d turns, want %d", len(takes), n)
	}
}

// TestTurnAt checks the walk random playouts use: turn numbers 0 to n-1
// reach exactly the positions that Legal's turns reach, as often.
func TestTurnAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		s := New()
		for !s.Outcome().Over {
			own, enemy := s.pieces[s.toMove], s.pieces[s.toMove.Other()]
			want := map[[2]uint64]int{}
			legal := s.Legal(nil)
			for _, m := range legal {
				c := *s
				if err := c.Play(m); err != nil {
					t.Fatal(err)
				}
				want[[2]uint64{c.pieces[s.toMove], c.pieces[s.toMove.Other()]}]++
			}
			movers, sizes, total := captureCounts(own, enemy)
			if movers == 0 {
				total = paikaCount(own, enemy)
			}
			if total != uint64(len(legal)) {
				t.Fatalf("ply %d: %d turns counted, %d listed", s.ply, total, len(legal))
			}
			for r := range total {
				o, e := turnAt(own, enemy, movers, &sizes, r)
				want[[2]uint64{o, e}]--
			}
			for pos, n := range want {
				if n != 0 {
					t.Fatalf("ply %d: position %x reached %d times too often by Legal", s.ply, pos, n)
				}
			}
			if err := s.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestPlayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := New()
	before := *s
	results := map[game.Player]int{}
	const games = 2000
	for range games {
		out := s.Playout(rng)
		if !out.Over {
			t.Fatalf("playout ended with %+v", out)
		}
		results[out.Winner]++
	}
	if *s != before {
		t.Error("Playout changed the state")
	}
	// The corpus's 300 uniformly random games: 122 white wins, 155 black
	// wins, 23 draws. The bounds are wide, for chance, but a skewed choice
	// of turns shows.
	for p, corpus := range map[game.Player]float64{game.White: 122, game.Black: 155, game.Nobody: 23} {
		got, want := float64(results[p])/games, corpus/300
		if got < want-0.08 || got > want+0.08 {
			t.Errorf("%v: %.3f of playouts, want about %.3f", p, got, want)
		}
	}
	if n := testing.AllocsPerRun(20, func() { s.Playout(rng) }); n != 0 {
		t.Errorf("Playout allocates %.1f times", n)
	}
	// A finished game plays out to its own result.
	end := position(t, game.Black,
		".........",
		".........",
		".........",
		".........",
		"W........",
	)
	if got := end.Playout(rng); got != end.Outcome() || !got.Over {
		t.Errorf("playout of a finished game: %+v, want %+v", got, end.Outcome())
	}
}
