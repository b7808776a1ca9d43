package fanorona

import (
	"strconv"
	"strings"
	"testing"

	"bretter/game"
	"bretter/game/gametest"
)

// readTSV reads a table of the Fanorona reference data.
func readTSV(t *testing.T, name string) []map[string]string {
	t.Helper()
	return gametest.Corpus(t, "fanorona", name)
}

func atoi(t *testing.T, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("bad number in corpus: %v", err)
	}
	return n
}

// perftStats is what perft.tsv lists for one depth.
type perftStats struct {
	turns, captures, paikas, firstSteps uint64
}

// walkStats computes perftStats through the public API alone (Legal, Play,
// the packed moves), so it checks the fast Perft by another road.
func walkStats(t *testing.T, s *State, depth int, st *perftStats) {
	moves := s.Legal(nil)
	if depth == 1 {
		firsts := make(map[[3]int]bool)
		for _, m := range moves {
			st.turns++
			if isPaika(m) {
				st.paikas++
			} else {
				st.captures++
			}
			d, w := moveStep(m, 0)
			firsts[[3]int{moveStart(m), d, boolInt(w)}] = true
		}
		st.firstSteps += uint64(len(firsts))
		return
	}
	for _, m := range moves {
		c := *s
		if err := c.Play(m); err != nil {
			t.Fatalf("listed turn refused: %v", err)
		}
		walkStats(t, &c, depth-1, st)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestPerft checks the turn counts to depth 7, the deepest that two
// programs agree on; depth 7 alone takes about four CPU seconds, so the
// depths share the cores.
func TestPerft(t *testing.T) {
	for _, row := range readTSV(t, "perft.tsv") {
		depth := int(atoi(t, row["depth"]))
		if depth > 7 {
			continue
		}
		want := perftStats{atoi(t, row["turns"]), atoi(t, row["capture_turns"]), atoi(t, row["paika_turns"]), atoi(t, row["first_steps"])}
		t.Run(row["depth"], func(t *testing.T) {
			t.Parallel()
			if got := New().Perft(depth); got != want.turns {
				t.Errorf("Perft(%d) = %d, want %d", depth, got, want.turns)
			}
			if depth > 6 {
				return
			}
			var got perftStats
			walkStats(t, New(), depth, &got)
			if got != want {
				t.Errorf("depth %d through Legal and Play: got %+v, want %+v", depth, got, want)
			}
		})
	}
}

func TestRandomGames(t *testing.T) {
	rows := readTSV(t, "random-games.tsv")
	if len(rows) != 300 {
		t.Fatalf("random-games.tsv has %d games, want 300", len(rows))
	}
	var buf []game.Move
	for _, row := range rows {
		name := "game " + row["game"]
		turns := strings.Fields(row["turns"])
		counts := strings.Split(row["legal_turns"], ",")
		if len(turns) != int(atoi(t, row["plies"])) || len(counts) != len(turns)+1 {
			t.Fatalf("%s: %d turns, %d counts, plies %s", name, len(turns), len(counts), row["plies"])
		}
		s := New()
		for i, text := range turns {
			buf = s.Legal(buf[:0])
			if want := int(atoi(t, counts[i])); len(buf) != want {
				t.Fatalf("%s, ply %d: %d legal turns, want %d", name, i+1, len(buf), want)
			}
			own, enemy := s.pieces[s.toMove], s.pieces[s.toMove.Other()]
			if n := countTurns(own, enemy); n != uint64(len(buf)) {
				t.Fatalf("%s, ply %d: countTurns = %d, Legal lists %d", name, i+1, n, len(buf))
			}
			m, err := s.ParseMove(text)
			if err != nil {
				t.Fatalf("%s, ply %d: %v", name, i+1, err)
			}
			if back := s.FormatMove(m); back != text {
				t.Fatalf("%s, ply %d: %q formats back as %q", name, i+1, text, back)
			}
			if !containsMove(buf, m) {
				t.Fatalf("%s, ply %d: %s is not among the legal turns", name, i+1, text)
			}
			if err := s.Play(m); err != nil {
				t.Fatalf("%s, ply %d: %v", name, i+1, err)
			}
			if i < len(turns)-1 && s.Outcome().Over {
				t.Fatalf("%s, ply %d: game over early: %+v", name, i+1, s.Outcome())
			}
		}
		// The last count ignores the draw rule.
		own, enemy := s.pieces[s.toMove], s.pieces[s.toMove.Other()]
		if got, want := len(appendTurns(nil, own, enemy)), int(atoi(t, counts[len(turns)])); got != want {
			t.Errorf("%s, end: %d legal turns, want %d", name, got, want)
		}
		var want game.Outcome
		switch row["result"] {
		case "white":
			want = game.Outcome{Over: true, Winner: game.White, Reason: "all_captured"}
		case "black":
			want = game.Outcome{Over: true, Winner: game.Black, Reason: "all_captured"}
		case "draw50":
			want = game.Outcome{Over: true, Winner: game.Nobody, Reason: "fifty_turns"}
		default:
			t.Fatalf("%s: unexpected result %q", name, row["result"])
		}
		if got := s.Outcome(); got != want {
			t.Errorf("%s: outcome %+v, want %+v", name, got, want)
		}
		w, b := s.Pieces()
		if w != int(atoi(t, row["white_left"])) || b != int(atoi(t, row["black_left"])) {
			t.Errorf("%s: %d white and %d black left, want %s and %s", name, w, b, row["white_left"], row["black_left"])
		}
	}
}

// countTurns counts the turns of own the way Playout does.
func countTurns(own, enemy uint64) uint64 {
	movers, _, total := captureCounts(own, enemy)
	if movers == 0 {
		return paikaCount(own, enemy)
	}
	return total
}

func containsMove(list []game.Move, m game.Move) bool {
	for _, x := range list {
		if x == m {
			return true
		}
	}
	return false
}
