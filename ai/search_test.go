package ai_test

import (
	"cmp"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"bretter/ai"
	"bretter/game"
	"bretter/games/dvonn"
	"bretter/games/fanorona"
	"bretter/games/havannah"
)

// boards are the games with a fresh start position each.
var boards = []struct {
	name  string
	start func() game.State
}{
	{"havannah", func() game.State { s, _ := havannah.New(8, true); return s }},
	{"dvonn", func() game.State { return dvonn.New() }},
	{"fanorona", func() game.State { return fanorona.New() }},
}

// capped is a level's settings with its budget cut to at most n
// iterations and no time bound, so that tests are quick and repeatable.
func capped(t testing.TB, gameName string, level, n int) ai.Config {
	t.Helper()
	c, err := ai.Level(gameName, level)
	if err != nil {
		t.Fatal(err)
	}
	if c.Iterations == 0 || c.Iterations > n {
		c.Iterations = n
	}
	c.Time = 0
	return c
}

func search(t testing.TB, s game.State, c ai.Config) ai.Result {
	t.Helper()
	r, err := ai.New(s, c).Search(context.Background())
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	return r
}

func isLegal(s game.State, m game.Move) bool {
	for _, l := range s.Legal(nil) {
		if l == m {
			return true
		}
	}
	return false
}

// randomPosition plays n random moves from start, fewer if the game ends.
func randomPosition(start game.State, n int, rng *rand.Rand) game.State {
	s := start
	for range n {
		moves := s.Legal(nil)
		if len(moves) == 0 {
			break
		}
		c := s.Clone()
		if err := c.Play(moves[rng.IntN(len(moves))]); err != nil {
			panic(err)
		}
		if c.Outcome().Over {
			break
		}
		s = c
	}
	return s
}

func TestEveryLevelPlaysLegalMovesToTheEnd(t *testing.T) {
	for _, b := range boards {
		t.Run(b.name, func(t *testing.T) {
			for level := ai.MinLevel; level <= ai.MaxLevel; level++ {
				c := capped(t, b.name, level, 150)
				c.Seed = uint64(level)
				s := b.start()
				if level%2 == 0 {
					s = randomPosition(s, 30+level*5, rand.New(rand.NewPCG(uint64(level), 9)))
				}
				sr := ai.New(s, c)
				for ply := 0; !s.Outcome().Over && ply < 400; ply++ {
					r, err := sr.Search(context.Background())
					if err != nil {
						t.Fatalf("level %d ply %d: %v", level, s.Ply(), err)
					}
					if !isLegal(s, r.Move) {
						t.Fatalf("level %d ply %d: illegal move %s", level, s.Ply(), s.FormatMove(r.Move))
					}
					if err := s.Play(r.Move); err != nil {
						t.Fatal(err)
					}
					if err := sr.Play(r.Move); err != nil {
						t.Fatal(err)
					}
				}
				if !s.Outcome().Over {
					t.Errorf("level %d: game not over after 400 moves", level)
				}
			}
		})
	}
}

func FuzzSearchIsLegal(f *testing.F) {
	for i := range 6 {
		f.Add(uint8(i), uint8(i*13), uint64(i))
	}
	f.Fuzz(func(t *testing.T, board, plies uint8, seed uint64) {
		b := boards[int(board)%len(boards)]
		s := randomPosition(b.start(), int(plies), rand.New(rand.NewPCG(seed, 1)))
		r := search(t, s, ai.Config{Iterations: 60, Seed: seed, Nodes: 500})
		if !isLegal(s, r.Move) {
			t.Fatalf("illegal move %s", s.FormatMove(r.Move))
		}
	})
}

func TestSameSeedAndBudgetSameMove(t *testing.T) {
	for _, b := range boards {
		s := randomPosition(b.start(), 55, rand.New(rand.NewPCG(5, 5)))
		c := capped(t, b.name, 3, 800)
		first := search(t, s, c)
		again := search(t, s, c)
		if first.Move != again.Move || first.Value != again.Value || first.Nodes != again.Nodes {
			t.Errorf("%s: %s (%.4f, %d nodes), then %s (%.4f, %d nodes)", b.name,
				s.FormatMove(first.Move), first.Value, first.Nodes, s.FormatMove(again.Move), again.Value, again.Nodes)
		}
	}
}

func TestGameOverHasNoMove(t *testing.T) {
	s, _ := havannah.New(4, false)
	for _, m := range strings.Fields("a1 d1 a2 d2 a3 d3 a4") {
		mv, _ := s.ParseMove(m)
		if err := s.Play(mv); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Outcome().Over {
		t.Fatal("set-up: a1-a4 should be a bridge")
	}
	if _, err := ai.New(s, ai.Config{}).Search(context.Background()); !errors.Is(err, ai.ErrNoMove) {
		t.Errorf("search after the end: %v, want ErrNoMove", err)
	}
}

func TestCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ai.New(fanorona.New(), ai.Config{}).Search(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v", err)
	}
}

func TestNodeBudgetHolds(t *testing.T) {
	for _, b := range boards {
		r := search(t, b.start(), ai.Config{Iterations: 3000, Nodes: 2000})
		if r.Nodes > 2000 || r.Iterations != 3000 {
			t.Errorf("%s: %d nodes, %d iterations; want at most 2000 nodes and all 3000 iterations", b.name, r.Nodes, r.Iterations)
		}
	}
}

func TestSearchesRunTogether(t *testing.T) {
	var wg sync.WaitGroup
	moves := make([]game.Move, 8)
	for i := range moves {
		wg.Go(func() {
			s, _ := havannah.New(6, false)
			r, err := ai.New(s, ai.Config{Iterations: 1500, Seed: 3}).Search(context.Background())
			if err != nil {
				t.Error(err)
			}
			moves[i] = r.Move
		})
	}
	wg.Wait()
	for _, m := range moves[1:] {
		if m != moves[0] {
			t.Fatalf("the same search run at once gave different moves: %v", moves)
		}
	}
}

// TestTreeIsKeptBetweenMoves: after the searcher's move and a reply it
// still knows the position it reaches.
func TestTreeIsKeptBetweenMoves(t *testing.T) {
	s, _ := havannah.New(5, false)
	sr := ai.New(s, ai.Config{Iterations: 4000, Seed: 1})
	r1, _ := sr.Search(context.Background())
	if err := sr.Play(r1.Move); err != nil {
		t.Fatal(err)
	}
	r2, _ := sr.Search(context.Background())
	if err := sr.Play(r2.Move); err != nil {
		t.Fatal(err)
	}
	if err := sr.Play(game.Move{A: 9999}); err == nil {
		t.Error("an illegal move was followed")
	}
	r3, _ := sr.Search(context.Background())
	if r3.Nodes <= r3.Iterations {
		t.Errorf("tree of %d nodes after %d iterations: nothing was kept", r3.Nodes, r3.Iterations)
	}
}

// TestLevels: each level searches more than the one below it (more
// iterations, or deeper, or without picking by chance), and level 8
// thinks for its time.
func TestLevels(t *testing.T) {
	unbounded := func(n int) int {
		if n == 0 {
			return math.MaxInt
		}
		return n
	}
	for _, b := range boards {
		var prev ai.Config
		for level := ai.MinLevel; level < ai.MaxLevel; level++ {
			c, err := ai.Level(b.name, level)
			if err != nil {
				t.Fatal(err)
			}
			if c.Iterations == 0 && c.Depth == 0 {
				t.Errorf("%s level %d is bounded only by time", b.name, level)
			}
			more := cmp.Or(
				cmp.Compare(unbounded(c.Depth), unbounded(prev.Depth)),
				cmp.Compare(unbounded(c.Iterations), unbounded(prev.Iterations)),
				cmp.Compare(prev.Temperature, c.Temperature))
			if level > ai.MinLevel && more <= 0 {
				t.Errorf("%s level %d (%d iterations, depth %d) searches no more than level %d (%d, %d)",
					b.name, level, c.Iterations, c.Depth, level-1, prev.Iterations, prev.Depth)
			}
			prev = c
		}
		if c, _ := ai.Level(b.name, ai.MaxLevel); c.Time != ai.FullStrength {
			t.Errorf("%s level 8 thinks %v", b.name, c.Time)
		}
		for _, bad := range []int{0, 9, -1} {
			if _, err := ai.Level(b.name, bad); err == nil {
				t.Errorf("level %d accepted", bad)
			}
		}
	}
	if _, err := ai.Level("chess", 3); err == nil {
		t.Error("level for an unknown game")
	}
}
