package fanorona

import (
	"math/rand/v2"
	"testing"

	"bretter/game"
)

// afterTurns maps both sides' pieces after each legal turn of s, mover's
// first, to the pieces that turn captures.
func afterTurns(t *testing.T, s *State) map[[2]uint64]int {
	t.Helper()
	out := map[[2]uint64]int{}
	for _, m := range s.Legal(nil) {
		c := *s
		if err := c.Play(m); err != nil {
			t.Fatal(err)
		}
		out[[2]uint64{c.pieces[s.toMove], c.pieces[s.toMove.Other()]}] = c.LastCaptured()
	}
	return out
}

// Every turn the policy's pieces make is a legal turn: the biggest capture
// is one of the biggest, and a safe paika leaves no capture when one can.
func TestPolicyTurns(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 30 {
		s := New()
		for !s.Outcome().Over {
			own, enemy := s.pieces[s.toMove], s.pieces[s.toMove.Other()]
			turns := afterTurns(t, s)
			most, safeExists := 0, false
			for pos, n := range turns {
				most = max(most, n)
				if n == 0 && captureMovers(pos[1], pos[0]) == 0 {
					safeExists = true
				}
			}
			if movers := captureMovers(own, enemy); movers != 0 {
				o, e := biggestCapture(own, enemy, movers)
				n, ok := turns[[2]uint64{o, e}]
				if !ok || n != most {
					t.Fatalf("ply %d: biggest capture takes %d (legal %v), the most is %d", s.ply, n, ok, most)
				}
			} else {
				for _, safe := range []bool{false, true} {
					o, ok := paika(rng, own, enemy, safe)
					if _, legal := turns[[2]uint64{o, enemy}]; !ok || !legal {
						t.Fatalf("ply %d: paika to %x is not a legal turn", s.ply, o)
					}
					if safe && safeExists && captureMovers(enemy, o) != 0 {
						t.Fatalf("ply %d: an unsafe paika where a safe one exists", s.ply)
					}
				}
			}
			legal := s.Legal(nil)
			if err := s.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Rollouts by any policy end, by the rules or by material when cut short,
// leave the state as it was and allocate nothing.
func TestPlayoutWith(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, pol := range []Policy{{}, {Greedy: 1}, {Safe: 1}, {Greedy: 0.5, Safe: 0.5}, {Greedy: 1, Safe: 1, Turns: 10}} {
		s := New()
		for range 30 {
			legal := s.Legal(nil)
			if len(legal) == 0 {
				break
			}
			before := *s
			for range 200 {
				out := s.PlayoutWith(rng, pol)
				if !out.Over || pol.Turns == 0 && out.Reason == "material" {
					t.Fatalf("%+v: playout ended with %+v", pol, out)
				}
			}
			if *s != before {
				t.Fatalf("%+v: PlayoutWith changed the state", pol)
			}
			if err := s.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		if n := testing.AllocsPerRun(20, func() { New().PlayoutWith(rng, pol) }); n != 0 {
			t.Errorf("%+v: PlayoutWith allocates %.1f times", pol, n)
		}
	}

	// Cut short, the side with more pieces wins.
	s := position(t, game.White,
		".........",
		"....B....",
		".........",
		"..W...W..",
		".........",
	)
	if out := s.PlayoutWith(rng, Policy{Turns: 1, Safe: 1}); out.Winner != game.White || out.Reason != "material" {
		t.Errorf("two pieces against one, cut short: %+v", out)
	}
	// Greedy rollouts from the start end sooner than random ones: the big
	// captures come first.
	wins := map[game.Player]int{}
	for range 1000 {
		wins[New().PlayoutWith(rng, Policy{Greedy: 1, Safe: 1}).Winner]++
	}
	if wins[game.White] == 0 || wins[game.Black] == 0 {
		t.Errorf("greedy rollouts: %v", wins)
	}
	// A finished game plays out to its own result.
	end := position(t, game.Black,
		".........",
		".........",
		".........",
		".........",
		"W........",
	)
	if got := end.PlayoutWith(rng, Policy{Greedy: 1}); got != end.Outcome() {
		t.Errorf("playout of a finished game: %+v, want %+v", got, end.Outcome())
	}
}

// Equal positions hash alike whatever the turns that led there; the side
// to move, the pieces and the draw counter tell positions apart.
func TestHashAndEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	seen := map[uint64]State{}
	for range 50 {
		s := New()
		for !s.Outcome().Over {
			key := State{pieces: s.pieces, toMove: s.toMove, counter: s.counter}
			if old, ok := seen[s.Hash()]; ok && old != key {
				t.Fatalf("two positions share the key %x", s.Hash())
			}
			seen[s.Hash()] = key
			w, b := s.Pieces()
			v := s.Evaluate()
			if s.toMove == game.Black {
				w, b = b, w
			}
			if d := v - 100*int32(w-b); d != 0 && d != 10 {
				t.Fatalf("ply %d: %d against %d pieces evaluated %d", s.ply, w, b, v)
			}
			legal := s.Legal(nil)
			if err := s.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The same position again after each side went away and came back.
	a := position(t, game.White,
		"........B",
		".........",
		".........",
		".........",
		"W........",
	)
	b := *a
	for _, m := range []string{"a1-b1", "i5-h5", "b1-a1", "h5-i5"} {
		if err := play(t, &b, m); err != nil {
			t.Fatal(err)
		}
	}
	if b.counter == a.counter || a.Hash() == b.Hash() {
		t.Errorf("counters %d and %d, keys %x and %x", a.counter, b.counter, a.Hash(), b.Hash())
	}
	b.counter = a.counter
	if a.Hash() != b.Hash() {
		t.Errorf("the same position has the keys %x and %x", a.Hash(), b.Hash())
	}
}
