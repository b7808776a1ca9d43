package dvonn

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
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
		want, over := refereeStacks(t, c.Stacks())
		if out := c.Outcome(); !over || winner != want || !out.Over || out.Winner != want || len(c.Legal(buf[:0])) != 0 {
			t.Fatalf("playout %d ended with %+v, returned %s; the stacks %s say over %v, winner %s", i, out, winner, c.Stacks(), over, want)
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

// refereeStacks judges the stacks as State.Stacks writes them, from the
// corpus description of the board alone: who leads, and whether neither
// player has a stack move left.
func refereeStacks(t *testing.T, stacks string) (leader game.Player, over bool) {
	t.Helper()
	type space struct{ col, row int } // A = 0, row 1 = 1
	rows := map[int][2]int{1: {0, 8}, 2: {0, 9}, 3: {0, 10}, 4: {1, 10}, 5: {2, 10}}
	on := func(p space) bool { r, ok := rows[p.row]; return ok && p.col >= r[0] && p.col <= r[1] }
	type stack struct {
		owner  byte
		height int
	}
	board := map[space]stack{}
	score := map[byte]int{}
	for _, f := range strings.Fields(stacks) {
		var name string
		var st stack
		var dvonns int
		if _, err := fmt.Sscanf(strings.ReplaceAll(f, ":", " "), "%s %c%d %d", &name, &st.owner, &st.height, &dvonns); err != nil {
			t.Fatalf("stack %q: %v", f, err)
		}
		board[space{int(name[0] - 'A'), int(name[1] - '0')}] = st
		score[st.owner] += st.height
	}
	dirs := [6][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}}
	over = true
	for p, st := range board {
		if st.owner == 'R' {
			continue
		}
		surrounded := true
		for _, d := range dirs {
			q := space{p.col + d[0], p.row + d[1]}
			if _, taken := board[q]; !on(q) || !taken {
				surrounded = false
			}
		}
		for _, d := range dirs {
			q := space{p.col + st.height*d[0], p.row + st.height*d[1]}
			if _, taken := board[q]; !surrounded && taken {
				over = false
			}
		}
	}
	switch {
	case score['W'] > score['B']:
		return game.White, over
	case score['B'] > score['W']:
		return game.Black, over
	}
	return game.Nobody, over
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
