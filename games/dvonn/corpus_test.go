package dvonn

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"bretter/game"
	"bretter/game/gametest"
)

// readTSV reads a table of the DVONN reference data.
func readTSV(t testing.TB, name string) []map[string]string {
	t.Helper()
	return gametest.Corpus(t, "dvonn", name)
}

func atoi(t testing.TB, what, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return n
}

// replay plays a corpus game, checking before each ply the number of legal
// moves and that the recorded move is one of them.
func replay(t *testing.T, row map[string]string) *State {
	t.Helper()
	id := row["id"]
	moves := strings.Fields(row["moves"])
	if n := atoi(t, id+" plies", row["plies"]); n != len(moves) {
		t.Fatalf("%s: plies says %d, moves has %d", id, n, len(moves))
	}
	counts := strings.Split(row["legal_counts"], ",")
	if len(counts) != len(moves) {
		t.Fatalf("%s: %d legal counts for %d moves", id, len(counts), len(moves))
	}
	s := New()
	var buf []game.Move
	for i, text := range moves {
		ply := i + 1
		buf = s.Legal(buf[:0])
		if want := atoi(t, id+" legal_counts", counts[i]); len(buf) != want {
			t.Fatalf("%s ply %d: %d legal moves, corpus says %d", id, ply, len(buf), want)
		}
		if p := s.Perft(1); p != uint64(len(buf)) {
			t.Fatalf("%s ply %d: Perft(1) = %d, Legal has %d", id, ply, p, len(buf))
		}
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatalf("%s ply %d: %v", id, ply, err)
		}
		if !slices.Contains(buf, m) {
			t.Fatalf("%s ply %d: %s is not among the legal moves", id, ply, text)
		}
		if err := s.Play(m); err != nil {
			t.Fatalf("%s ply %d: %s: %v", id, ply, text, err)
		}
	}
	return s
}

func testGames(t *testing.T, file string) {
	for _, row := range readTSV(t, file) {
		id := row["id"]
		s := replay(t, row)
		w, b := s.Score()
		if ww, wb := atoi(t, id, row["white_score"]), atoi(t, id, row["black_score"]); w != ww || b != wb {
			t.Errorf("%s after ply %d: score %d–%d, corpus says %d–%d", id, s.Ply(), w, b, ww, wb)
		}
		winner, finished := row["winner"]
		out := s.Outcome()
		if !finished {
			if out.Over {
				t.Errorf("%s after ply %d: game over, but the record goes on", id, s.Ply())
			}
			continue
		}
		if !out.Over || len(s.Legal(nil)) != 0 {
			t.Errorf("%s after ply %d: game not over (%+v)", id, s.Ply(), out)
		}
		want := map[string]game.Player{"W": game.White, "B": game.Black, "D": game.Nobody}[winner]
		if out.Winner != want || out.Reason != "score" {
			t.Errorf("%s: outcome %+v, corpus says winner %s", id, out, winner)
		}
		if got := s.Stacks(); got != row["final_stacks"] {
			t.Errorf("%s: final stacks\n got  %s\n want %s", id, got, row["final_stacks"])
		}
	}
}

func TestRandomGames(t *testing.T)   { testGames(t, "random-games.tsv") }
func TestEngineGames(t *testing.T)   { testGames(t, "engine-games.tsv") }
func TestRecordedGames(t *testing.T) { testGames(t, "games.tsv") }

// perftPosition replays the line of a perft.tsv row.
func perftPosition(t testing.TB, row map[string]string) *State {
	t.Helper()
	s, i, err := game.Replay(Game(), nil, strings.Fields(row["moves"]))
	if err != nil {
		t.Fatalf("%s: move %d: %v", row["id"], i, err)
	}
	st := s.(*State)
	if want := atoi(t, row["id"], row["plies"]); st.Ply() != want {
		t.Fatalf("%s: %d plies, want %d", row["id"], st.Ply(), want)
	}
	if want := map[string]game.Player{"W": game.White, "B": game.Black}[row["to_move"]]; st.ToMove() != want {
		t.Fatalf("%s: %s to move, want %s", row["id"], st.ToMove(), row["to_move"])
	}
	return st
}

// TestPerft checks every corpus position to depth 5, the deepest the
// reference data gives: about three CPU seconds, so the positions share
// the cores.
func TestPerft(t *testing.T) {
	for _, row := range readTSV(t, "perft.tsv") {
		s := perftPosition(t, row)
		t.Run(row["id"], func(t *testing.T) {
			t.Parallel()
			for d := 1; d <= 5; d++ {
				want := uint64(atoi(t, row["id"], row["perft"+strconv.Itoa(d)]))
				if got := s.Perft(d); got != want {
					t.Errorf("perft(%d) = %d, want %d", d, got, want)
				}
			}
		})
	}
}
