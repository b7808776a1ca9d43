package havannah

import (
	"math/rand/v2"
	"testing"

	"bretter/game"
)

func TestPlayoutEndsTheGame(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := MinSize; n <= MaxSize; n++ {
		start, _ := New(n, false)
		for range 50 {
			s := *start
			winner := s.RandomPlayout(rng)
			out := s.Outcome()
			if !out.Over || out.Winner != winner || len(s.Legal(nil)) != 0 {
				t.Fatalf("side %d: playout stopped at %+v", n, out)
			}
			if out.Winner != game.Nobody && s.colourAt(s.winCell) != out.Winner {
				t.Fatal("winner is not the owner of the winning stone")
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
