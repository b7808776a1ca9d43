package cli

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"bretter/game"
	"bretter/games/fanorona"
)

// captures returns how many pieces m takes in s.
func captures(t *testing.T, s game.State, m game.Move) int {
	t.Helper()
	after := s.Clone()
	if err := after.Play(m); err != nil {
		t.Fatal(err)
	}
	return after.(game.Capturer).LastCaptured()
}

// The greedy player takes a capture as big as any, all through random
// Fanorona games, and breaks ties by its seed.
func TestGreedyTakesMost(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for g := range 20 {
		var s game.State = fanorona.New()
		p := &greedyPlayer{rng: rand.New(rand.NewPCG(uint64(g), 0))}
		for !s.Outcome().Over {
			legal := s.Legal(nil)
			most := 0
			for _, m := range legal {
				most = max(most, captures(t, s, m))
			}
			text, err := p.move(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			m, err := s.ParseMove(text)
			if err != nil {
				t.Fatal(err)
			}
			if n := captures(t, s, m); n != most {
				t.Fatalf("game %d ply %d: greedy %s takes %d, %d was possible", g, s.Ply(), text, n, most)
			}
			// Random moves between the greedy ones reach varied positions.
			if err := s.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
	}

	// The start has several captures of two: two seeds do not always pick
	// the same.
	picked := map[string]bool{}
	for seed := range uint64(20) {
		p := &greedyPlayer{rng: rand.New(rand.NewPCG(seed, 0))}
		text, err := p.move(context.Background(), fanorona.New())
		if err != nil {
			t.Fatal(err)
		}
		picked[text] = true
	}
	if len(picked) < 2 {
		t.Errorf("20 seeds picked only %v", picked)
	}
}

func TestMatchGreedy(t *testing.T) {
	out, code := runCmd(t, "", "match", "-game", "fanorona", "-a", "greedy", "-b", "level:1", "-games", "2", "-v")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	checkMatch(t, out, testGames[2], nil, 2)
	if !strings.HasPrefix(strings.Split(out, "\n")[4], "a greedy vs b level:1, fanorona, 2 games") {
		t.Errorf("summary:\n%s", out)
	}

	// Havannah has no captures to be greedy for.
	for _, args := range [][]string{
		{"-game", "havannah", "-a", "greedy", "-b", "level:1"},
		{"-game", "fanorona", "-a", "greedy:2", "-b", "level:1"},
	} {
		if out, code := runCmd(t, "", append([]string{"match"}, args...)...); code != 2 {
			t.Errorf("match %v: exit %d\n%s", args, code, out)
		}
	}
}
