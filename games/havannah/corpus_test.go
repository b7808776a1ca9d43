package havannah

import (
	"errors"
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
		checkRecordedResult(t, row, size, moves, v)
	}
}

// lgRecord writes a corpus game as Little Golem's .hgf does, by the
// corpus description: its RE value as given, the first mover's moves
// labelled W, cell numbers counted from each row's left end.
func lgRecord(size int, re string, moves []string) string {
	var b strings.Builder
	b.WriteString("(;FF[4]SZ[" + strconv.Itoa(size) + "]")
	if re != "-" {
		b.WriteString("RE[" + re + "]")
	}
	for i, m := range moves {
		b.WriteString(";" + "WB"[i%2:i%2+1] + "[")
		if m == "swap" || m == "resign" {
			b.WriteString(m)
		} else {
			r, c := int(m[0]-'a'), atoi(m[1:])-1
			b.WriteString(strings.ToUpper(m[:1]) + strconv.Itoa(c+1-max(0, r-(size-1))))
		}
		b.WriteString("]")
	}
	return b.String() + ")"
}

// checkRecordedResult reads a Little Golem game the way the site imports
// it (its result checked against its moves) and compares what the record says with the corpus: the swap rule,
// the winner (Little Golem names the colours the other way round), how
// the record ends, how the game was decided, and the raw result written
// back. It reads each resigned game once more without its result, so that
// the winner must come from who resigned.
func checkRecordedResult(t *testing.T, row map[string]string, size int, moves []string, v verdict) {
	t.Helper()
	id := row["id"]
	rec, err := Game().Records.Read(lgRecord(size, row["re_lg"], moves))
	if err != nil {
		t.Fatalf("game %s: %v", id, err)
	}
	// Its result agrees with its moves, as the site checks, but for the
	// game Little Golem gave to the second mover on a full board, which
	// the rules draw: the site refuses it.
	st, _, err := game.Replay(Game(), rec.Options, rec.Moves)
	if err != nil {
		t.Fatalf("game %s: %v", id, err)
	}
	contradicted := row["ended_by"] == "draw_full_board" && row["winner"] != "-"
	if err := rec.Settle(st); (err != nil) != contradicted || err != nil && !errors.Is(err, game.ErrRecord) {
		t.Errorf("game %s (%s, RE[%s]): result checked against the moves: %v", id, row["ended_by"], row["re_lg"], err)
	}
	winner := map[string]string{"W": "white", "B": "black", "-": ""}[row["winner"]]
	if rec.Winner != winner {
		t.Errorf("game %s: read winner %q, corpus %s (RE[%s])", id, rec.Winner, row["winner"], row["re_lg"])
	}
	if got := strconv.Itoa(rec.Options["swap"]); got != row["swap"] {
		t.Errorf("game %s: read swap %s, corpus %s", id, got, row["swap"])
	}
	end := "none"
	switch {
	case rec.Reason == "resign":
		end = "resign"
	case rec.Winner != "":
		end = "move"
	}
	if end != row["end"] {
		t.Errorf("game %s: the record ends by %s, corpus %s", id, end, row["end"])
	}
	var endedBy string
	switch {
	case v.at > 0 && v.structures != "":
		endedBy = "structure"
	case v.at > 0:
		endedBy = "draw_full_board"
	case end == "resign":
		endedBy = "resign"
	case end == "move":
		endedBy = "timeout_inferred"
	default:
		endedBy = "unfinished"
	}
	if endedBy != row["ended_by"] {
		t.Errorf("game %s: decided by %s, corpus %s", id, endedBy, row["ended_by"])
	}
	out, err := Game().Records.Write(rec)
	if err != nil {
		t.Fatalf("game %s: writing: %v", id, err)
	}
	// A resignation is written the SGF way besides Little Golem's.
	re := row["re_lg"]
	if end == "resign" {
		re += "+R"
	}
	if got := strings.Contains(out, "RE["+re+"]"); got != (row["re_lg"] != "-") || row["re_lg"] == "-" && strings.Contains(out, "RE[") {
		t.Errorf("game %s: written back with the wrong result for RE[%s]:\n%s", id, row["re_lg"], out)
	}
	if end == "resign" {
		bare, err := Game().Records.Read(lgRecord(size, "-", moves))
		if err != nil || bare.Winner != winner || bare.Reason != "resign" {
			t.Errorf("game %s without RE: read %q by %q (%v); the one who resigned lost, so %q", id, bare.Winner, bare.Reason, err, winner)
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
