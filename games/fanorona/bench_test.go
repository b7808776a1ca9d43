package fanorona

import (
	"fmt"
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

// BenchmarkPlayoutWith rolls out with the computer opponent's knowledge.
func BenchmarkPlayoutWith(b *testing.B) {
	for _, pol := range []Policy{{Greedy: 1}, {Safe: 1}, {Greedy: 0.5, Safe: 0.5}} {
		b.Run(fmt.Sprintf("greedy%.1f-safe%.1f", pol.Greedy, pol.Safe), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			s := New()
			for b.Loop() {
				s.PlayoutWith(rng, pol)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
		})
	}
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
