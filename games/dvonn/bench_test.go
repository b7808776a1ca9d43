package dvonn

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"bretter/game"
)

// filledPositions returns n positions at the start of the stacking phase,
// each reached by placing on uniformly random empty spaces.
func filledPositions(n int, rng *rand.Rand) []State {
	out := make([]State, n)
	for i := range out {
		s := New()
		for s.Placing() {
			empty := board &^ s.occ
			s.place(selectBit(empty, rng.IntN(bits.OnesCount64(empty))))
		}
		out[i] = *s
	}
	return out
}

func TestRandomPlayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var buf []game.Move
	for i := range 200 {
		s := New()
		if i%2 == 1 {
			s = &filledPositions(1, rng)[0]
		}
		c := *s
		winner := c.RandomPlayout(rng)
		out := c.Outcome()
		if !out.Over || out.Winner != winner || len(c.Legal(buf[:0])) != 0 {
			t.Fatalf("playout %d ended with %+v, returned %s", i, out, winner)
		}
	}
	starts := filledPositions(50, rng)
	i := 0
	if n := testing.AllocsPerRun(len(starts)-1, func() {
		starts[i].RandomPlayout(rng)
		i++
	}); n != 0 {
		t.Errorf("RandomPlayout allocates %.0f times", n)
	}
}

func BenchmarkPlayout(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	starts := filledPositions(256, rng)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		s := starts[i%len(starts)]
		s.RandomPlayout(rng)
		i++
	}
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "playouts/s")
}

func BenchmarkLegal(b *testing.B) {
	s := filledPositions(1, rand.New(rand.NewPCG(7, 8)))[0]
	buf := make([]game.Move, 0, 6*SpaceCount)
	b.ReportAllocs()
	for b.Loop() {
		buf = s.Legal(buf[:0])
	}
}

func BenchmarkPerft5(b *testing.B) {
	rows := readTSV(b, "perft.tsv")
	s := perftPosition(b, rows[0])
	b.ReportAllocs()
	for b.Loop() {
		s.Perft(5)
	}
}
