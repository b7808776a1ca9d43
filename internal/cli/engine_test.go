package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"bretter/game"
	"bretter/game/gametest"
	"bretter/games/dvonn"
	"bretter/games/fanorona"
	"bretter/games/havannah"
)

var testGames = []game.Game{havannah.Game(), dvonn.Game(), fanorona.Game()}

func runCmd(t *testing.T, stdin string, args ...string) (string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run(args, testGames, strings.NewReader(stdin), &out, &errOut)
	return strings.TrimSpace(out.String()), code
}

func TestJudgeHavannah(t *testing.T) {
	tests := []struct {
		moves string
		args  []string
		want  string
		code  int
	}{
		{"a1 a2 a3\n\tb4 ", []string{"-size", "4"}, `{"plies":4,"result":"ongoing","reason":"","structures":[]}`, 0},
		{"", nil, `{"plies":0,"result":"ongoing","reason":"","structures":[]}`, 0},
		{"d4 swap a1", []string{"-size", "4", "-swap"}, `{"plies":3,"result":"ongoing","reason":"","structures":[]}`, 0},
		{"d4 swap a1", []string{"-size", "4"}, `{"plies":3,"result":"ongoing","reason":"","structures":[]}`, 0},
		{"d4 swap", []string{"-size", "4", "-swap=false"}, `{"error":"illegal move swap: this game is played without the swap rule","ply":2}`, 1},
		{"d4 a1 swap", []string{"-size", "4"}, `{"error":"illegal move swap: swap is only allowed as the second move","ply":3}`, 1},
		{"d4 d4", []string{"-size", "4"}, `{"error":"illegal move d4: the cell is taken","ply":2}`, 1},
		{"d4 zz", []string{"-size", "4"}, `{"error":"malformed move \"zz\": not a cell (a letter and a number, like e5)","ply":2}`, 1},
		{"d1 a1 d2 a2 d3 a3 d4 a4 b4", []string{"-size", "4"}, `{"error":"game is over: b4 comes after the end","ply":9}`, 1},
		{"", []string{"-size", "11"}, `{"error":"option size must be between 4 and 10, not 11","ply":0}`, 1},
	}
	for _, tt := range tests {
		got, code := runCmd(t, tt.moves, append([]string{"judge", "havannah"}, tt.args...)...)
		if got != tt.want || code != tt.code {
			t.Errorf("judge %v < %q:\n got %s (exit %d)\nwant %s (exit %d)", tt.args, tt.moves, got, code, tt.want, tt.code)
		}
	}
}

// The judge agrees with every random game of the Havannah reference data:
// the winner, the structures and the move that ended the game.
func TestJudgeHavannahRandomGames(t *testing.T) {
	for _, row := range gametest.Corpus(t, "havannah", "random-games.tsv") {
		structures, _ := json.Marshal(strings.Split(row["structure"], "+"))
		result := map[string]string{"W": "white", "B": "black"}[row["winner"]]
		want := fmt.Sprintf(`{"plies":%s,"result":%q,"reason":%q,"structures":%s}`, row["end_at"], result, row["castro_wintype"], structures)
		if got, code := runCmd(t, row["moves"], "judge", "havannah", "-size", row["size"]); got != want || code != 0 {
			t.Fatalf("game %s: got %s (exit %d), want %s", row["game"], got, code, want)
		}
	}
}

func TestJudgeDVONN(t *testing.T) {
	// The first plies of the first random game, before any score.
	row := gametest.Corpus(t, "dvonn", "random-games.tsv")[0]
	moves, legal := strings.Fields(row["moves"])[:3], strings.Split(row["legal_counts"], ",")[:3]
	got, code := runCmd(t, strings.Join(moves, " "), "judge", "dvonn")
	want := `{"plies":3,"result":"ongoing","score":{"white":0,"black":0},"legal":[` + strings.Join(legal, ",") + `]}`
	if got != want || code != 0 {
		t.Fatalf("got %s (exit %d), want %s", got, code, want)
	}
	got, code = runCmd(t, "F5 F5", "judge", "dvonn")
	if !strings.Contains(got, `"ply":2`) || code != 1 {
		t.Fatalf("illegal move: got %s (exit %d)", got, code)
	}
}

func TestJudgeFanorona(t *testing.T) {
	// The first two turns of the first random game; the pieces left are
	// the engine's own count.
	row := gametest.Corpus(t, "fanorona", "random-games.tsv")[0]
	turns, legal := strings.Fields(row["turns"])[:2], strings.Split(row["legal_turns"], ",")[:2]
	s, _, err := game.Replay(fanorona.Game(), nil, turns)
	if err != nil {
		t.Fatal(err)
	}
	w, b := s.(*fanorona.State).Pieces()
	got, code := runCmd(t, strings.Join(turns, " "), "judge", "fanorona")
	want := fmt.Sprintf(`{"plies":2,"result":"ongoing","reason":"","pieces":{"white":%d,"black":%d},"legal":[%s]}`, w, b, strings.Join(legal, ","))
	if got != want || code != 0 {
		t.Fatalf("got %s (exit %d), want %s", got, code, want)
	}
	got, code = runCmd(t, "d2-e3", "judge", "fanorona")
	if got != `{"error":"illegal move d2-e3: capture is compulsory: a paika is not allowed","ply":1}` || code != 1 {
		t.Fatalf("paika while a capture exists: got %s (exit %d)", got, code)
	}
}

func TestPerft(t *testing.T) {
	// On an empty board every cell is a move, then every other cell.
	cells := havannah.Cells(4)
	got, code := runCmd(t, "", "perft", "havannah", "-size", "4", "-depth", "2")
	if want := fmt.Sprintf("%d\n%d", cells, cells*(cells-1)); got != want || code != 0 {
		t.Fatalf("havannah perft: got %q (exit %d), want %q", got, code, want)
	}
	row := gametest.Corpus(t, "dvonn", "perft.tsv")[0]
	got, code = runCmd(t, row["moves"], "perft", "dvonn", "-depth", "3")
	if want := row["perft1"] + "\n" + row["perft2"] + "\n" + row["perft3"]; got != want || code != 0 {
		t.Fatalf("dvonn perft of %s: got %q (exit %d), want %q", row["id"], got, code, want)
	}
	var want []string
	for _, row := range gametest.Corpus(t, "fanorona", "perft.tsv")[:4] {
		want = append(want, row["turns"])
	}
	got, code = runCmd(t, "", "perft", "fanorona", "-depth", "4")
	if got != strings.Join(want, "\n") || code != 0 {
		t.Fatalf("fanorona perft: got %q (exit %d), want %q", got, code, want)
	}
	if _, code := runCmd(t, "", "perft", "dvonn"); code != 2 {
		t.Fatalf("perft without -depth: exit %d", code)
	}
	if _, code := runCmd(t, "Z9", "perft", "dvonn", "-depth", "1"); code != 1 {
		t.Fatalf("perft after a bad move: exit %d", code)
	}
}

func TestUnknownCommandAndGame(t *testing.T) {
	if _, code := runCmd(t, "", "frobnicate"); code != 2 {
		t.Fatalf("unknown command: exit %d", code)
	}
	if got, code := runCmd(t, "", "judge", "chess"); code != 1 || !strings.Contains(got, `unknown game \"chess\"`) {
		t.Fatalf("unknown game: %s (exit %d)", got, code)
	}
}

// The judge agrees with the reference data on every Little Golem game,
// swaps included.
func TestJudgeLittleGolemGames(t *testing.T) {
	for _, row := range gametest.Corpus(t, "havannah", "littlegolem.tsv") {
		fields := strings.Fields(row["moves"])
		if fields[len(fields)-1] == "resign" {
			fields = fields[:len(fields)-1] // not a move: the judge reads moves only
		}
		moves := strings.Join(fields, " ")
		got, code := runCmd(t, moves, "judge", "havannah", "-size", row["size"])
		var v struct {
			Plies      int
			Result     string
			Reason     string
			Structures []string
		}
		if code != 0 || json.Unmarshal([]byte(got), &v) != nil {
			t.Fatalf("game %s: %s (exit %d)", row["id"], got, code)
		}
		want := map[string]string{"W": "white", "B": "black", "draw": "draw", "none": "ongoing"}[row["castro_winner"]]
		structures := strings.Join(v.Structures, "+")
		if structures == "" {
			structures = "-"
		}
		if v.Result != want || structures != row["structure"] || v.Plies != len(strings.Fields(moves)) {
			t.Errorf("game %s: judged %s, want %s %s", row["id"], got, want, row["structure"])
		}
	}
}

// The judge agrees with the reference data of DVONN and Fanorona: every
// legal-move count, the scores or pieces left, and the result.
func TestJudgeReferenceGames(t *testing.T) {
	type verdict struct {
		Plies  int
		Result string
		Reason string
		Score  struct{ White, Black int }
		Pieces struct{ White, Black int }
		Legal  []int
	}
	judge := func(t *testing.T, game, moves string) verdict {
		t.Helper()
		got, code := runCmd(t, moves, "judge", game)
		var v verdict
		if code != 0 || json.Unmarshal([]byte(got), &v) != nil {
			t.Fatalf("%s: %s (exit %d)", game, got, code)
		}
		return v
	}
	counts := func(list string) string { return "[" + list + "]" }
	for _, row := range gametest.Corpus(t, "dvonn", "random-games.tsv") {
		v := judge(t, "dvonn", row["moves"])
		legal, _ := json.Marshal(v.Legal)
		want := map[string]string{"W": "white", "B": "black", "D": "draw"}[row["winner"]]
		if v.Result != want || fmt.Sprint(v.Score.White) != row["white_score"] || fmt.Sprint(v.Score.Black) != row["black_score"] ||
			string(legal) != counts(row["legal_counts"]) {
			t.Fatalf("dvonn %s: judged %+v, want %s %s:%s", row["id"], v, want, row["white_score"], row["black_score"])
		}
	}
	for _, row := range gametest.Corpus(t, "fanorona", "random-games.tsv") {
		v := judge(t, "fanorona", row["turns"])
		legal, _ := json.Marshal(v.Legal)
		all := strings.Split(row["legal_turns"], ",")
		want := map[string]string{"white": "white all_captured", "black": "black all_captured", "draw50": "draw fifty_turns"}[row["result"]]
		if v.Result+" "+v.Reason != want || fmt.Sprint(v.Pieces.White) != row["white_left"] || fmt.Sprint(v.Pieces.Black) != row["black_left"] ||
			string(legal) != counts(strings.Join(all[:len(all)-1], ",")) {
			t.Fatalf("fanorona %s: judged %+v, want %s", row["game"], v, row["result"])
		}
	}
}
