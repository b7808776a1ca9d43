package ai_test

import (
	"context"
	"math/rand/v2"
	"syscall"
	"testing"

	"bretter/ai"
	"bretter/game"
	"bretter/games/dvonn"
	"bretter/games/fanorona"
	"bretter/games/havannah"
)

// cpuSeconds is the CPU time this process has used: on a shared,
// noisy machine it measures speed better than the clock on the wall.
func cpuSeconds() float64 {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return float64(u.Utime.Nano()+u.Stime.Nano()) / 1e9
}

// benchSearch reports Monte-Carlo iterations per second and per CPU
// second of one search from start, with the game's own settings.
func benchSearch(b *testing.B, name string, start func() game.State, iterations int) {
	total := 0
	cpu := cpuSeconds()
	for b.Loop() {
		c := ai.Tuning(name)
		c.AlphaBeta, c.Iterations = false, iterations
		r, err := ai.New(start(), c).Search(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		total += r.Iterations
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "iter/s")
	b.ReportMetric(float64(total)/(cpuSeconds()-cpu), "iter/cpu-s")
	b.ReportMetric(float64(ai.NodeBytes), "B/node")
}

func BenchmarkSearchHavannah8(b *testing.B) {
	benchSearch(b, "havannah", func() game.State { s, _ := havannah.New(8, false); return s }, 20000)
}

func BenchmarkSearchHavannah10(b *testing.B) {
	benchSearch(b, "havannah", func() game.State { s, _ := havannah.New(10, false); return s }, 20000)
}

func BenchmarkSearchDvonn(b *testing.B) {
	benchSearch(b, "dvonn", func() game.State { return dvonn.New() }, 20000)
}

func BenchmarkSearchFanorona(b *testing.B) {
	benchSearch(b, "fanorona", func() game.State { return fanorona.New() }, 20000)
}

// BenchmarkAlphaBetaDvonn reports positions evaluated per second by the
// depth-first search, from positions early in the stacking phase.
func BenchmarkAlphaBetaDvonn(b *testing.B) {
	starts := make([]game.State, 8)
	for i := range starts {
		starts[i] = randomPosition(dvonn.New(), dvonn.PlacementPlies+2, rand.New(rand.NewPCG(uint64(i), 3)))
	}
	total, i := 0, 0
	cpu := cpuSeconds()
	for b.Loop() {
		s := ai.New(starts[i%len(starts)], ai.Config{AlphaBeta: true, Iterations: 200000})
		r, err := s.Search(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		total += r.Iterations
		i++
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "pos/s")
	b.ReportMetric(float64(total)/(cpuSeconds()-cpu), "pos/cpu-s")
	b.ReportMetric(float64(ai.ABEntryBytes), "B/entry")
}
