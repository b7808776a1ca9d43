package dvonn

import (
	"math/rand/v2"
	"testing"

	"bretter/game"
)

// samePosition reports whether two states are the same position for the
// game: the stacks, who tops them and who is to move.
func samePosition(a, b *State) bool {
	return a.stack == b.stack && a.white == b.white && a.black == b.black && a.ToMove() == b.ToMove()
}

// randomGame plays a random game from the start and returns every state
// it passed through.
func randomGame(rng *rand.Rand) []State {
	s := New()
	out := []State{*s}
	for !s.Outcome().Over {
		moves := s.Legal(nil)
		if err := s.Play(moves[rng.IntN(len(moves))]); err != nil {
			panic(err)
		}
		out = append(out, *s)
	}
	return out
}

func TestHashEqualForTranspositions(t *testing.T) {
	// Black's two placements swapped.
	a, b := New(), New()
	play(t, a, "A1", "B1", "C1", "D1", "E1", "F1", "G1")
	play(t, b, "A1", "B1", "C1", "F1", "E1", "D1", "G1")
	if !samePosition(a, b) || a.Hash() != b.Hash() {
		t.Errorf("placements in another order: keys %x and %x", a.Hash(), b.Hash())
	}

	// Stack moves: White m1, Black r, White m2 against m2, r, m1.
	rng := rand.New(rand.NewPCG(7, 7))
	found := 0
	for g := 0; g < 40 && found < 20; g++ {
		for _, s := range randomGame(rng) {
			if s.Placing() || s.over || s.ToMove() != game.White {
				continue
			}
			first := s.Legal(nil)
			if len(first) < 2 {
				continue
			}
			m1, m2 := first[rng.IntN(len(first))], first[rng.IntN(len(first))]
			x := s
			if m1 == m2 || x.Play(m1) != nil || x.over {
				continue
			}
			replies := x.Legal(nil)
			r := replies[rng.IntN(len(replies))]
			y := s
			if x.Play(r) != nil || x.Play(m2) != nil || y.Play(m2) != nil || y.Play(r) != nil || y.Play(m1) != nil {
				continue
			}
			if !samePosition(&x, &y) {
				continue
			}
			found++
			if x.Hash() != y.Hash() {
				t.Fatalf("%s %s %s and %s %s %s reach one position with keys %x and %x",
					FormatMove(m1), FormatMove(r), FormatMove(m2), FormatMove(m2), FormatMove(r), FormatMove(m1), x.Hash(), y.Hash())
			}
		}
	}
	if found == 0 {
		t.Fatal("no transposition found: the test checks nothing")
	}
}

func TestHashChangesWithEveryMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		states := randomGame(rng)
		seen := map[uint64]int{}
		for i := range states {
			h := states[i].Hash()
			if j, ok := seen[h]; ok && !samePosition(&states[i], &states[j]) {
				t.Fatalf("plies %d and %d have the key %x", j, i, h)
			}
			seen[h] = i
			c := states[i]
			if c2 := c.Clone().(*State); c2.Hash() != h {
				t.Fatal("a clone has another key")
			}
		}
	}
}

func TestEvaluateIsFromTheMoversView(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for range 30 {
		for _, s := range randomGame(rng) {
			if s.over {
				continue
			}
			v := s.Evaluate()
			if v > 1e6 || v < -1e6 {
				t.Fatalf("ply %d: %d is out of range", s.ply, v)
			}
			if s.Placing() || s.ply == PlacementPlies {
				continue
			}
			// The same board with the other player to move.
			o := s
			o.ply++
			if sum := v + o.Evaluate(); sum != 2*evTempo {
				t.Fatalf("ply %d: %d for %s and %d for %s", s.ply, v, s.ToMove(), o.Evaluate(), o.ToMove())
			}
		}
	}
}

func TestEvaluateLikesMore(t *testing.T) {
	// White tops three stacks next to the DVONN piece, Black one far off.
	s := position(t, "C1:W1:0 D1:W1:0 C2:W2:0 D2:R1:1 E2:W1:0 E3:B1:0 F4:B1:0 F5:B2:0", 51)
	if s.ToMove() != game.White {
		t.Fatal("set-up: want White to move")
	}
	if v := s.Evaluate(); v <= 0 {
		t.Errorf("White's better position scores %d for White", v)
	}
}

func TestHemmedCountsMissingRoom(t *testing.T) {
	// Against a count by distances, on random sets of pieces.
	rng := rand.New(rand.NewPCG(5, 8))
	for range 200 {
		var own uint64
		for _, c := range spaces {
			if rng.IntN(3) > 0 {
				own |= 1 << c
			}
		}
		var want int32
		for _, c := range spaces {
			if own&(1<<c) == 0 {
				continue
			}
			free := 0
			for _, d := range spaces {
				if distance(int(c), int(d)) == 1 && own&(1<<d) == 0 {
					free++
				}
			}
			if free < 2 {
				want += int32(2 - free)
			}
		}
		if got := hemmed(own); got != want {
			t.Fatalf("pieces %x: hemmed %d, want %d", own, got, want)
		}
	}
}

func TestPlacementWantsRoomAroundPieces(t *testing.T) {
	// The DVONN pieces on F3, A1 and K5 are symmetric under the half turn
	// about F3, so D2 and its image H4 are alike but for what is around
	// them: White's pieces on five of D2's six neighbours.
	s := State{dvonn: 1<<cellOf(5, 2) | 1<<cellOf(0, 0) | 1<<cellOf(10, 4)}
	x, image := cellOf(3, 1), cellOf(7, 3)
	for d := range 5 {
		s.white |= 1 << cellOf(3+dirCol[d], 1+dirRow[d])
	}
	crowded, roomy := s, s
	crowded.white |= 1 << x
	roomy.white |= 1 << image
	if hemmed(crowded.white) <= hemmed(roomy.white) {
		t.Fatalf("set-up: hemmed %d next to White, %d away", hemmed(crowded.white), hemmed(roomy.white))
	}
	if c, r := crowded.placementScore(game.White), roomy.placementScore(game.White); c >= r {
		t.Errorf("a piece among White's own scores %d, one with room %d", c, r)
	}
}
