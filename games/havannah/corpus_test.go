package havannah

import (
	"strconv"
	"strings"
	"testing"

	"bretter/game"
	"bretter/game/gametest"
)

// readTSV reads a table of the Havannah reference data.
func readTSV(t *testing.T, name string) []map[string]string {
	t.Helper()
	return gametest.Corpus(t, "havannah", name)
}

// verdict replays moves (swap allowed, resign ignored) and reports where the
// rules ended the game (1-based, 0 if they did not), which structures the
// winning move completed, and the outcome after the last placement.
//
// The corpus's structure_at column is documented as the move of the first
// structure, but for its one full-board draw (game 1260811) it holds the
// move that filled the board: it is the move where the rules ended the game.
type verdict struct {
	at         int
	structures string
	outcome    game.Outcome
}

func replay(t *testing.T, size int, moves []string) verdict {
	t.Helper()
	s, err := New(size, true)
	if err != nil {
		t.Fatal(err)
	}
	var v verdict
	for i, text := range moves {
		if text == "resign" {
			if i != len(moves)-1 {
				t.Fatalf("resign at %d is not the last entry", i+1)
			}
			break
		}
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatalf("move %d %q: %v", i+1, text, err)
		}
		if err := s.Play(m); err != nil {
			t.Fatalf("move %d %q: %v", i+1, text, err)
		}
		if s.over() && v.at == 0 {
			v.at = i + 1
			v.structures = strings.Join(s.won.Names(), "+")
		}
	}
	v.outcome = s.Outcome()
	return v
}

func winnerLetter(o game.Outcome) string {
	switch {
	case !o.Over:
		return "none"
	case o.Winner == game.White:
		return "W"
	case o.Winner == game.Black:
		return "B"
	}
	return "draw"
}

func TestLittleGolemGames(t *testing.T) {
	rows := readTSV(t, "littlegolem.tsv")
	if len(rows) != 2115 {
		t.Fatalf("littlegolem.tsv has %d games, want 2115", len(rows))
	}
	for _, row := range rows {
		size, _ := strconv.Atoi(row["size"])
		moves := strings.Fields(row["moves"])
		if n, _ := strconv.Atoi(row["nmoves"]); n != len(moves) {
			t.Fatalf("game %s: %d moves, nmoves says %d", row["id"], len(moves), n)
		}
		v := replay(t, size, moves)
		at := "-"
		if v.at > 0 {
			at = strconv.Itoa(v.at)
		}
		structures := v.structures
		if structures == "" {
			structures = "-"
		}
		if got := winnerLetter(v.outcome); got != row["castro_winner"] || at != row["structure_at"] || structures != row["structure"] {
			t.Errorf("game %s (side %d): got winner %s, structure at %s: %s; want %s, %s: %s",
				row["id"], size, got, at, structures, row["castro_winner"], row["structure_at"], row["structure"])
		}
	}
}

func TestRandomGames(t *testing.T) {
	rows := readTSV(t, "random-games.tsv")
	if len(rows) != 2000 {
		t.Fatalf("random-games.tsv has %d games, want 2000", len(rows))
	}
	for _, row := range rows {
		size, _ := strconv.Atoi(row["size"])
		moves := strings.Fields(row["moves"])
		v := replay(t, size, moves)
		want := row["winner"] + " " + row["end_at"] + " " + row["structure"]
		got := winnerLetter(v.outcome) + " " + strconv.Itoa(len(moves)) + " " + v.structures
		if v.at != len(moves) && !(v.at == 0 && row["winner"] == "draw") {
			got = winnerLetter(v.outcome) + " " + strconv.Itoa(v.at) + " " + v.structures
		}
		if got != want || v.outcome.Over && v.outcome.Winner != game.Nobody && v.outcome.Reason != row["castro_wintype"] {
			t.Errorf("game %s (side %d): got %s (%s), want %s (%s)", row["game"], size, got, v.outcome.Reason, want, row["castro_wintype"])
		}
	}
}
