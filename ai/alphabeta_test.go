package ai_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"bretter/ai"
	"bretter/game"
	"bretter/games/dvonn"
)

func abConfig(n int) ai.Config { return ai.Config{AlphaBeta: true, Iterations: n} }

// TestAlphaBetaPlaysLegalMoves: on every board, with or without the
// engine's evaluation, the depth-first search plays legal moves, and
// Iterations bounds the positions it evaluates.
func TestAlphaBetaPlaysLegalMoves(t *testing.T) {
	for _, b := range boards {
		rng := rand.New(rand.NewPCG(4, 4))
		for i := range 12 {
			s := randomPosition(b.start(), i*9, rng)
			if s.Outcome().Over {
				continue
			}
			r := search(t, s, abConfig(400))
			if !isLegal(s, r.Move) {
				t.Fatalf("%s after %d plies: illegal move %s", b.name, s.Ply(), s.FormatMove(r.Move))
			}
			if r.Iterations > 400 || r.Value < 0 || r.Value > 1 {
				t.Errorf("%s after %d plies: %d positions, value %v", b.name, s.Ply(), r.Iterations, r.Value)
			}
		}
	}
}

// TestAlphaBetaFollowsAGame: one searcher plays both sides of DVONN to
// the end, passes included, keeping its table between moves.
func TestAlphaBetaFollowsAGame(t *testing.T) {
	s := dvonn.New()
	sr := ai.New(s, abConfig(1500))
	passes := 0
	for !s.Outcome().Over {
		r, err := sr.Search(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !isLegal(s, r.Move) {
			t.Fatalf("ply %d: illegal move %s", s.Ply(), s.FormatMove(r.Move))
		}
		if s.FormatMove(r.Move) == "PASS" {
			passes++
		}
		if err := s.Play(r.Move); err != nil {
			t.Fatal(err)
		}
		if err := sr.Play(r.Move); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("game over after %d plies, %d passes", s.Ply(), passes)
}

// TestAlphaBetaForcedMove: when PASS is the only move, it is played.
func TestAlphaBetaForcedMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for range 200 {
		s := randomPosition(dvonn.New(), 200, rng)
		for !s.Outcome().Over {
			if f, ok := s.(game.Forcer).Forced(); ok {
				r := search(t, s, abConfig(300))
				if r.Move != f {
					t.Fatalf("ply %d: played %s, want the forced %s", s.Ply(), s.FormatMove(r.Move), s.FormatMove(f))
				}
				return
			}
			moves := s.Legal(nil)
			if err := s.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Skip("no forced pass in 200 random games")
}

// TestAlphaBetaDepth: Depth stops the deepening there, however many
// positions the budget would still allow, and the result says how deep
// it went.
func TestAlphaBetaDepth(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	checked := 0
	for _, ply := range []int{10, 55, 60} {
		s := randomPosition(dvonn.New(), ply, rng)
		if s.Outcome().Over || len(s.Legal(nil)) < 2 {
			continue
		}
		var evaluated []int
		for depth := 1; depth <= 3; depth++ {
			cfg := abConfig(1 << 30)
			cfg.Depth = depth
			r := search(t, s, cfg)
			if r.Proof != 0 {
				break // a proof ends the deepening early
			}
			if r.Depth != depth {
				t.Errorf("ply %d, depth %d: result says %d", s.Ply(), depth, r.Depth)
			}
			evaluated = append(evaluated, r.Iterations)
			checked++
		}
		for i := 1; i < len(evaluated); i++ {
			if evaluated[i] <= evaluated[i-1] {
				t.Errorf("ply %d: positions by depth %v, want more at each depth", s.Ply(), evaluated)
			}
		}
	}
	if checked < 6 {
		t.Fatalf("only %d searches checked", checked)
	}
}

func TestAlphaBetaSameBudgetSameMoves(t *testing.T) {
	play := func() []game.Move {
		s := randomPosition(dvonn.New(), 40, rand.New(rand.NewPCG(2, 2)))
		sr := ai.New(s, abConfig(3000))
		var out []game.Move
		for range 16 {
			if s.Outcome().Over {
				break
			}
			r, err := sr.Search(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r.Move)
			if err := s.Play(r.Move); err != nil {
				t.Fatal(err)
			}
			if err := sr.Play(r.Move); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	a, b := play(), play()
	if len(a) != len(b) {
		t.Fatalf("%d moves, then %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("move %d differs: %v then %v", i+1, a[i], b[i])
		}
	}
}

func TestAlphaBetaSearchesRunTogether(t *testing.T) {
	s := randomPosition(dvonn.New(), 52, rand.New(rand.NewPCG(6, 6)))
	want := search(t, s, abConfig(20000))
	var wg sync.WaitGroup
	got := make([]ai.Result, 4)
	for i := range got {
		wg.Go(func() {
			r, err := ai.New(s, abConfig(20000)).Search(context.Background())
			if err != nil {
				t.Error(err)
			}
			got[i] = r
		})
	}
	wg.Wait()
	for _, r := range got {
		if r.Move != want.Move || r.Iterations != want.Iterations || r.Nodes != want.Nodes {
			t.Fatalf("searches at once: %+v, alone: %+v", r, want)
		}
	}
}

func TestAlphaBetaCancel(t *testing.T) {
	s := randomPosition(dvonn.New(), 50, rand.New(rand.NewPCG(1, 1)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ai.New(s, ai.Config{AlphaBeta: true}).Search(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the start: %v, want context.Canceled", err)
	}

	// Cancelled while it searches without any other bound: it stops and
	// answers with a legal move (or, on a machine so busy that the search
	// had not begun, with the context's error).
	ctx, cancel = context.WithCancel(context.Background())
	timer := time.AfterFunc(20*time.Millisecond, cancel)
	defer timer.Stop()
	r, err := ai.New(s, ai.Config{AlphaBeta: true, Time: time.Hour}).Search(ctx)
	if err != nil && !errors.Is(err, context.Canceled) || err == nil && !isLegal(s, r.Move) {
		t.Errorf("cancelled search: %s, %v", s.FormatMove(r.Move), err)
	}
}

func TestAlphaBetaTableBound(t *testing.T) {
	if ai.ABEntryBytes != 16 {
		t.Errorf("a table entry takes %d bytes, want 16", ai.ABEntryBytes)
	}
	s := randomPosition(dvonn.New(), 50, rand.New(rand.NewPCG(8, 8)))
	r := search(t, s, ai.Config{AlphaBeta: true, Iterations: 50000, Nodes: 1000})
	if r.Nodes > 1000 || r.Nodes == 0 {
		t.Errorf("%d table entries in use, want 1 to 1000", r.Nodes)
	}
}

// TestAlphaBetaTemperature: the weak level's random choice varies with
// the seed, yet still takes a win at once.
func TestAlphaBetaTemperature(t *testing.T) {
	s := randomPosition(dvonn.New(), 51, rand.New(rand.NewPCG(5, 1)))
	seen := map[game.Move]bool{}
	for seed := range uint64(12) {
		c := capped(t, "dvonn", 1, 300)
		c.Seed = seed
		r := search(t, s, c)
		if !isLegal(s, r.Move) {
			t.Fatalf("illegal move %s", s.FormatMove(r.Move))
		}
		seen[r.Move] = true
	}
	if len(seen) < 2 {
		t.Errorf("level 1 played %d different moves with 12 seeds", len(seen))
	}

	starts, games := corpusGames(t, "dvonn", 24)
	for g, moves := range games {
		for back := 1; back <= 4 && back < len(moves); back++ {
			s := after(t, starts[g], moves[:len(moves)-back])
			want := winners(s)
			if s.Outcome().Over || len(want) == 0 {
				continue
			}
			if r := search(t, s, capped(t, "dvonn", 1, 300)); !want[r.Move] {
				t.Errorf("game %d, %d moves before the end: level 1 played %s, want one of %s",
					g+1, back, s.FormatMove(r.Move), names(s, want))
			}
		}
	}
}
