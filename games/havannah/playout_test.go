package havannah

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"bretter/game"
)

// Playouts end where the referee says the game ends: the one group that
// made a structure is the winner's, holds the last stone and is the group
// the view marks, or else the board is full and nobody won.
func TestPlayoutEndsTheGame(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := MinSize; n <= MaxSize; n++ {
		start, _ := New(n, false)
		for i := range 50 {
			s := *start
			winner := s.RandomPlayout(rng)
			v := s.View().(View)
			var won []refGroup
			for _, g := range referee(v) {
				if g.structures != 0 {
					won = append(won, g)
				}
			}
			want := game.Nobody
			switch {
			case len(won) == 1:
				want = map[byte]game.Player{'w': game.White, 'b': game.Black}[won[0].colour]
				if won[0].structures != s.Structures() || !slices.Equal(won[0].cells, v.Winning) || !slices.Contains(won[0].cells, v.Last) {
					t.Fatalf("side %d, playout %d: the referee finds %v in %v, the engine %v in %v (last stone %s)",
						n, i, won[0].structures.Names(), won[0].cells, v.Structures, v.Winning, v.Last)
				}
			case len(won) > 1 || strings.Contains(v.Stones, "."):
				t.Fatalf("side %d, playout %d: the referee finds %d winning groups on %s", n, i, len(won), v.Stones)
			}
			if out := s.Outcome(); winner != want || !out.Over || out.Winner != want || len(s.Legal(nil)) != 0 {
				t.Fatalf("side %d, playout %d: returned %s, outcome %+v, the referee says %s", n, i, winner, out, want)
			}
		}
	}
}

func benchmarkPlayout(b *testing.B, size int) {
	start, _ := New(size, false)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s := *start
		s.RandomPlayout(rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}

func BenchmarkPlayout8(b *testing.B)  { benchmarkPlayout(b, 8) }
func BenchmarkPlayout10(b *testing.B) { benchmarkPlayout(b, 10) }
