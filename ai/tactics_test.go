package ai_test

import (
	"strconv"
	"strings"
	"testing"

	"bretter/ai"
	"bretter/game"
	"bretter/game/gametest"
	"bretter/games/dvonn"
	"bretter/games/fanorona"
	"bretter/games/havannah"
)

// corpusGames returns the start and the moves of the first n games of a
// board's reference games that the rules ended (not by resignation).
func corpusGames(t *testing.T, board string, n int) (starts []game.State, moves [][]string) {
	t.Helper()
	switch board {
	case "havannah":
		for _, row := range gametest.Corpus(t, "havannah", "littlegolem.tsv") {
			if row["ended_by"] != "structure" {
				continue
			}
			size, _ := strconv.Atoi(row["size"])
			s, err := havannah.New(size, row["swap"] == "1")
			if err != nil {
				t.Fatal(err)
			}
			starts, moves = append(starts, s), append(moves, strings.Fields(row["moves"]))
			if len(starts) == n {
				break
			}
		}
	case "dvonn":
		for _, row := range gametest.Corpus(t, "dvonn", "random-games.tsv")[:n] {
			starts, moves = append(starts, dvonn.New()), append(moves, strings.Fields(row["moves"]))
		}
	case "fanorona":
		for _, row := range gametest.Corpus(t, "fanorona", "random-games.tsv")[:n] {
			starts, moves = append(starts, fanorona.New()), append(moves, strings.Fields(row["turns"]))
		}
	}
	return starts, moves
}

// after plays text moves on a copy of s.
func after(t *testing.T, s game.State, moves []string) game.State {
	t.Helper()
	c := s.Clone()
	for i, text := range moves {
		m, err := c.ParseMove(text)
		if err == nil {
			err = c.Play(m)
		}
		if err != nil {
			t.Fatalf("move %d (%s): %v", i+1, text, err)
		}
	}
	return c
}

// winners are the moves of s that win at once for the player to move.
func winners(s game.State) map[game.Move]bool {
	out := map[game.Move]bool{}
	for _, m := range s.Legal(nil) {
		c := s.Clone()
		if c.Play(m) == nil && c.Outcome().Over && c.Outcome().Winner == s.ToMove() {
			out[m] = true
		}
	}
	return out
}

// safe are the moves of s after which the opponent has no win at once.
func safe(s game.State) (ok map[game.Move]bool, all int) {
	ok = map[game.Move]bool{}
	legal := s.Legal(nil)
	for _, m := range legal {
		c := s.Clone()
		if c.Play(m) == nil && !c.Outcome().Over && len(winners(c)) == 0 {
			ok[m] = true
		}
	}
	return ok, len(legal)
}

// TestTakesWinsAndBlocks: in positions near the end of the reference
// games, every level from 2 plays a move that wins at once when there is
// one, and otherwise never leaves the opponent a win at once that it
// could have prevented.
func TestTakesWinsAndBlocks(t *testing.T) {
	for _, b := range boards {
		t.Run(b.name, func(t *testing.T) {
			starts, games := corpusGames(t, b.name, 24)
			wins, blocks := 0, 0
			for g, moves := range games {
				if len(moves) > 0 && moves[len(moves)-1] == "resign" {
					moves = moves[:len(moves)-1]
				}
				for back := 1; back <= 4 && back < len(moves); back++ {
					s := after(t, starts[g], moves[:len(moves)-back])
					if s.Outcome().Over {
						continue
					}
					want := winners(s)
					if len(want) == 0 {
						var all int
						want, all = safe(s)
						if len(want) == 0 || len(want) == all {
							continue // nothing to block, or no way to
						}
						blocks++
					} else {
						wins++
					}
					for level := 2; level <= ai.MaxLevel; level++ {
						c := capped(t, b.name, level, 600)
						if r := search(t, s, c); !want[r.Move] {
							t.Errorf("game %d, %d moves before the end, level %d: played %s, want one of %s",
								g+1, back, level, s.FormatMove(r.Move), names(s, want))
						}
					}
				}
			}
			if wins == 0 || blocks == 0 {
				t.Errorf("found %d positions with a win and %d with a block: the test checks too little", wins, blocks)
			}
			t.Logf("%d positions with a win at once, %d with a win to prevent", wins, blocks)
		})
	}
}

func names(s game.State, set map[game.Move]bool) string {
	var out []string
	for m := range set {
		out = append(out, s.FormatMove(m))
	}
	return strings.Join(out, " ")
}
