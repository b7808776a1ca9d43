package fanorona

import (
	"math/rand/v2"
	"testing"

	"bretter/game"
)

func benchmarkPerft(b *testing.B, depth int) {
	s := New()
	var n uint64
	for b.Loop() {
		n = s.Perft(depth)
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}

func BenchmarkPerft6(b *testing.B) { benchmarkPerft(b, 6) }

func BenchmarkPerft7(b *testing.B) { benchmarkPerft(b, 7) }

func BenchmarkPlayout(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := New()
	b.ReportAllocs()
	for b.Loop() {
		s.Playout(rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}

// BenchmarkRandomGame plays random games through the game.State interface,
// as generic code does: Legal, then Play.
func BenchmarkRandomGame(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]game.Move, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		var s game.State = New()
		for !s.Outcome().Over {
			buf = s.Legal(buf[:0])
			if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
