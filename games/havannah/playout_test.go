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

// With nothing urgent, a rollout answers the opponent's last stone with
// the remembered reply when its cell is empty, and plays elsewhere when
// it is taken.
func TestRolloutPlaysTheLastGoodReply(t *testing.T) {
	start, _ := New(8, false)
	for _, m := range []string{"e5", "h8"} {
		mv, err := start.ParseMove(m)
		if err != nil {
			t.Fatal(err)
		}
		if err := start.Play(mv); err != nil {
			t.Fatal(err)
		}
	}
	cell := func(name string) int {
		mv, err := start.ParseMove(name)
		if err != nil {
			t.Fatal(err)
		}
		return start.MoveIndex(mv)
	}
	firstReply := func(replies *game.Replies, seed uint64) string {
		s := *start
		record, _ := s.RolloutReplying(rand.New(rand.NewPCG(seed, 1)), nil, replies)
		return start.FormatMove(record[0])
	}
	replies := game.NewReplies(start.MoveIndexes())
	replies.Learn(game.White, cell("h8"), cell("c3"), true)
	for seed := range uint64(20) {
		if got := firstReply(replies, seed); got != "c3" {
			t.Fatalf("seed %d: White answered h8 with %s, want the reply c3", seed, got)
		}
	}
	replies.Learn(game.White, cell("h8"), cell("e5"), true)
	seen := map[string]bool{}
	for seed := range uint64(20) {
		seen[firstReply(replies, seed)] = true
	}
	if seen["e5"] || len(seen) < 2 {
		t.Fatalf("with the reply's cell taken the first moves were %v, want random empty cells", seen)
	}
}
