package havannah

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"bretter/game"
)

// A record in Little Golem's layout: numbers count from each row's left end,
// RE[B] is a win for the first mover.
const sampleHGF = `(;FF[4]EV[havannah.in.DEV.1]PB[anna]PW[bert]SZ[8]RU[LG]RE[B]GC[ game #1]SO[http://www.littlegolem.com];W[H3];B[G4];W[F3];B[G3];W[F1];B[G2];W[G1];B[H2];W[H1];B[I1];B[resign])`

func TestParseHGF(t *testing.T) {
	// Black resigns on White's turn: a resignation is labelled by who
	// resigned, whoever was to move.
	rec, err := ParseHGF(sampleHGF)
	if err != nil {
		t.Fatal(err)
	}
	want := Record{Size: 8, White: "anna", Black: "bert", Event: "havannah.in.DEV.1", Rules: "LG", Winner: game.White, HasResult: true,
		Moves: strings.Fields("h3 g4 f3 g3 f1 g2 g1 h2 h1 i2 resign"), Resigned: game.Black}
	if !reflect.DeepEqual(rec, want) {
		t.Fatalf("got %+v\nwant %+v", rec, want)
	}
}

// A player may resign on the other's turn; the record says who did, and
// reading it back without its result still finds the winner.
func TestResignationOutOfTurn(t *testing.T) {
	for _, tt := range []struct {
		moves  []string
		winner string
		last   string
	}{
		{[]string{"e5"}, "black", ";W[resign])"},
		{[]string{"e5"}, "white", ";B[resign])"},
		{[]string{"e5", "d4"}, "black", ";W[resign])"},
		{nil, "black", ";W[resign])"},
	} {
		r := game.Record{Game: "havannah", Options: game.Options{"size": 5, "swap": 0}, Moves: tt.moves, Winner: tt.winner, Reason: "resign"}
		text, err := Game().Records.Write(r)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(strings.TrimSpace(text), tt.last) {
			t.Errorf("%v, %s won: written %s", tt.moves, tt.winner, text)
		}
		bare := strings.Replace(strings.Replace(text, "RE[B]", "", 1), "RE[W]", "", 1)
		back, err := Game().Records.Read(bare)
		if err != nil || back.Winner != tt.winner || back.Reason != "resign" || len(back.Moves) != len(tt.moves) {
			t.Errorf("%v, %s won: read back without its result as %+v, %v", tt.moves, tt.winner, back, err)
		}
	}
}

// A record may name its game, which must then be this one.
func TestParseHGFGame(t *testing.T) {
	for _, text := range []string{"(;FF[4]GM[havannah]SZ[8];W[e5])", "(;FF[4]GM[Havannah]SZ[8];W[e5])"} {
		if rec, err := ParseHGF(text); err != nil || rec.Size != 8 || len(rec.Moves) != 1 {
			t.Errorf("ParseHGF(%q) = %+v, %v", text, rec, err)
		}
	}
}

// How a game ended goes into RE the SGF way where SGF has a word for it,
// and comes back; a win by the rules or a draw says only who won, which
// the moves show.
func TestRecordKeepsHowTheGameEnded(t *testing.T) {
	for _, tt := range []struct{ winner, reason, re, back string }{
		{"black", "timeout", "RE[W+T]", "timeout"},
		{"white", "timeout", "RE[B+T]", "timeout"},
		{"white", "resign", "RE[B+R]", "resign"},
		{"black", "resign", "RE[W+R]", "resign"},
		{"none", "aborted", "RE[Void]", "aborted"},
		{"none", "agreement", "RE[0]", ""},
		{"white", "bridge", "RE[B]", ""},
		{"none", "full_board", "RE[0]", ""},
		{"", "", "", ""},
	} {
		r := game.Record{Game: "havannah", Options: game.Options{"size": 5, "swap": 0}, Moves: []string{"e5", "d4"}, Winner: tt.winner, Reason: tt.reason}
		text, err := writeRecord(r)
		if err != nil {
			t.Fatal(err)
		}
		if tt.re == "" && strings.Contains(text, "RE[") || !strings.Contains(text, tt.re) {
			t.Errorf("%s by %s: written %s, want %s", tt.winner, tt.reason, text, tt.re)
		}
		back, err := readRecord(text)
		if err != nil || back.Winner != tt.winner || back.Reason != tt.back || strings.Join(back.Moves, " ") != "e5 d4" {
			t.Errorf("%s by %s: read back %+v, %v\n%s", tt.winner, tt.reason, back, err, text)
		}
	}
	// The older forms and SGF's long words read too.
	for text, want := range map[string]string{
		"(;SZ[5]RE[W];W[E5])":             "black ",
		"(;SZ[5]RE[B];W[E5];B[resign])":   "white resign",
		"(;SZ[5]RE[0];W[E5])":             "none ",
		"(;SZ[5]RE[draw];W[E5])":          "none ",
		"(;SZ[5]RE[W+Time];W[E5])":        "black timeout",
		"(;SZ[5]RE[B+Resign];W[E5])":      "white resign",
		"(;SZ[5]RE[w+r];W[E5];W[resign])": "black resign",
		"(;SZ[5]RE[void];W[E5])":          "none aborted",
		"(;SZ[5]RE[?];W[E5])":             " ",
	} {
		if r, err := readRecord(text); err != nil || r.Winner+" "+r.Reason != want {
			t.Errorf("%s: read %q by %q, %v; want %q", text, r.Winner, r.Reason, err, want)
		}
	}
}

func TestParseHGFErrors(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"", "starts with ("},
		{"(;FF[4])", "no board side"},
		{"(;SZ[3])", "SZ[3] must be a number from 4 to 10"},
		{"(;SZ[8];W[H3];B[H3])", "move 2 B[H3]: illegal move h3: the cell is taken"},
		{"(;SZ[8];W[Z3])", "move 1 W[Z3]: malformed move \"z3\": not on a board of side 8"},
		{"(;SZ[8];W[z99])", "move 1 W[z99]: malformed move \"z99\": not on a board of side 8"},
		{"(;SZ[8];W[p1])", "move 1 W[p1]: malformed move \"p1\": not on a board of side 8"},
		{"(;SZ[8];W[h16])", "move 1 W[h16]: malformed move \"h16\": not on a board of side 8"},
		{"(;SZ[8];W[A9])", "move 1 W[A9]: malformed move \"a9\": not on a board of side 8"},
		{"(;SZ[8];W[H3];W[H4])", "move 2 is labelled W"},
		{"(;SZ[8];W[o8];B[o9])", "move 2 B[o9]: malformed move \"o9\": not on a board of side 8"},
		{"(;SZ[8];W[resign];B[H3])", "move 1 resigns but more moves follow"},
		{"(;SZ[8];W[H3];B[swap];W[H4];B[swap])", "move 4 B[swap]: illegal move swap: swap is only allowed as the second move"},
		{"(;SZ[8];W[H3", "ends with )"},
		{"(;SZ[8];W[H3)", "not closed"},
		{"(;SZ[8]W[H3])", "a move in the header"},
		{"(;SZ[8];W[H3]x)", "expected a property"},
		{"(x;SZ[8])", "expected ;"},
		{"(;FF[4]SZ[8]SZ[4];W[e5])", "SZ is given more than once"},
		{"(;SZ[8][4];W[e5])", "SZ is given more than once"},
		{"(;SZ[8]PB[anna]PB[bert])", "PB is given more than once"},
		{"(;SZ[8]RE[B]RE[W];W[e5])", "RE is given more than once"},
		{"(;FF[4]GM[chess]SZ[8];W[e5])", "GM[chess] names another game than Havannah"},
		{"(;SZ[5]RE[B+F];W[E5])", "RE[B+F] is not a result"},
		{"(;SZ[5]RE[W+3.5];W[E5])", "RE[W+3.5] is not a result"},
		{"(;SZ[5]RE[x];W[E5])", "RE[x] is not a result"},
		{"(;SZ[5]RE[B+R];W[E5];W[resign])", "RE[B+R] does not agree with move 2, W[resign]"},
		{"(;SZ[5]RE[B];W[E5];W[resign])", "RE[B] does not agree with move 2, W[resign]"},
		{"(;SZ[5]RE[W+T];W[E5];B[resign])", "RE[W+T] does not agree with move 2, B[resign]"},
		{"(;SZ[5]RE[0];W[E5];B[resign])", "RE[0] does not agree with move 2, B[resign]"},
		{"(;SZ[5]RE[Void];W[E5];B[resign])", "RE[Void] does not agree with move 2, B[resign]"},
		{"(;FF[4]GM[1]SZ[8];W[e5])", "GM[1] names another game than Havannah"},
		{"(;FF[4]GM[]SZ[8];W[e5])", "GM[] names another game than Havannah"},
		{"(;SZ[8]AB[e5][f5];W[h3])", "AB sets up a position"},
		{"(;SZ[8]AW[e5];W[h3])", "AW sets up a position"},
		{"(;SZ[8]PL[B];W[h3])", "PL sets up a position"},
		{"(;SZ[8];W[h3];B[e5]AW[f5])", "move 2 is not a single"},
		{"(;SZ[4];W[A1];B[D1];W[A2];B[D2];W[A3];B[D3];W[A4];B[D4])", "move 8 B[D4]: game is over: d4 comes after the end"},
		{"(;SZ[5]GV[x];W[E5])", "GV[x] must be how many of the first moves were given"},
		{"(;SZ[5]GV[-2];W[E5])", "GV[-2] must be how many"},
		{"(;SZ[5]GV[2];W[E5])", "the record says moves 1 to 2 were given, but it has only 1"},
		// A resignation is the players' own.
		{"(;SZ[5]GV[2];W[E5];B[resign])", "the record says moves 1 to 2 were given, but it has only 1"},
	} {
		_, err := ParseHGF(tt.text)
		if err == nil || !errors.Is(err, game.ErrRecord) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseHGF(%q) = %v, want an error with %q", tt.text, err, tt.want)
		}
	}
	// A record's error keeps the engine's reason for callers to branch on.
	for text, want := range map[string]error{
		"(;SZ[8];W[H3];B[H3])": game.ErrIllegalMove,
		"(;SZ[8];W[A9])":       game.ErrNotation,
		"(;SZ[4];W[A1];B[D1];W[A2];B[D2];W[A3];B[D3];W[A4];B[D4])": game.ErrGameOver,
	} {
		if _, err := ParseHGF(text); !errors.Is(err, game.ErrRecord) || !errors.Is(err, want) {
			t.Errorf("ParseHGF(%q) = %v, want %v within a bad record", text, err, want)
		}
	}
}

// A game of the site keeps its swap rule through its record, whether or
// not anyone swapped; a record that does not say infers it from a swap.
func TestRecordKeepsTheSwapRule(t *testing.T) {
	for _, tt := range []struct {
		swap  int
		moves string
	}{{1, "a1 d4"}, {0, "a1 d4"}, {1, "a1 swap d4"}, {1, ""}, {0, ""}} {
		r := game.Record{Game: "havannah", Options: game.Options{"size": 4, "swap": tt.swap}, Moves: strings.Fields(tt.moves)}
		text, err := writeRecord(r)
		if err != nil {
			t.Fatal(err)
		}
		back, err := readRecord(text)
		if err != nil || back.Options["swap"] != tt.swap {
			t.Fatalf("swap %d, moves %q: read back %v, %v\n%s", tt.swap, tt.moves, back.Options, err, text)
		}
	}
	for text, want := range map[string]int{
		"(;SZ[4];W[A1];B[D4])":         0,
		"(;SZ[4];W[A1];B[swap];W[D4])": 1,
		"(;SZ[4]RU[LG];W[A1];B[D4])":   0,
		"(;SZ[4]RU[swap];W[A1];B[D4])": 1,
	} {
		if r, err := readRecord(text); err != nil || r.Options["swap"] != want {
			t.Errorf("%s: swap %v, %v; want %d", text, r.Options["swap"], err, want)
		}
	}
}

// Every corpus game goes out to .hgf and back unchanged, and the written
// cells use Little Golem's numbering.
func TestHGFRoundTrip(t *testing.T) {
	for _, row := range readTSV(t, "littlegolem.tsv") {
		rec := Record{Size: atoi(row["size"]), White: "white ] \\ name", Black: "B", Date: "2026-11-30", Moves: strings.Fields(row["moves"])}
		switch row["winner"] {
		case "W":
			rec.Winner, rec.HasResult = game.White, true
		case "B":
			rec.Winner, rec.HasResult = game.Black, true
		default:
			rec.Winner = game.Nobody
		}
		if row["end"] == "resign" {
			rec.Resigned = rec.Winner.Other()
		}
		text, err := rec.HGF()
		if err != nil {
			t.Fatalf("game %s: %v", row["id"], err)
		}
		back, err := ParseHGF(text)
		if err != nil {
			t.Fatalf("game %s: %v\n%s", row["id"], err, text)
		}
		if !reflect.DeepEqual(back, rec) {
			t.Fatalf("game %s: round trip gives %+v, want %+v", row["id"], back, rec)
		}
		// Little Golem's result field names the colours the other way round
		// from its move labels: the written RE is what its own files say.
		if re := row["re_lg"]; re != "-" && row["winner"] != "-" && !strings.Contains(text, "RE["+re+"]") {
			t.Fatalf("game %s: Little Golem wrote RE[%s], this writes\n%s", row["id"], re, text)
		}
		if row["id"] == "1009692" && !strings.Contains(text, ";W[H3];B[G4];W[F3];B[G3];W[F1];B[G2];W[G1];B[H2];W[H1];B[I1];W[F4];B[I4];W[J2]") {
			t.Fatalf("game 1009692 is not written in Little Golem's numbering:\n%s", text)
		}
	}
}

// A game begun from given moves says how many in GV, and in words in its
// comment, and reads back so.
func TestRecordSaysTheGivenMoves(t *testing.T) {
	r := game.Record{Game: "havannah", Options: game.Options{"size": 5, "swap": 0}, White: "Ada", Black: "Bo",
		Moves: strings.Fields("e5 d4 c3"), Given: 2, Note: "The first 2 moves were given."}
	text, err := writeRecord(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "GC[The first 2 moves were given.]GV[2];W[E5];B[D4];W[C3])") {
		t.Fatalf("the record of a game begun from given moves:\n%s", text)
	}
	back, err := readRecord(text)
	if r.Note = ""; err != nil || !reflect.DeepEqual(back, r) {
		t.Fatalf("read back %+v, %v; want %+v", back, err, r)
	}
}

func FuzzParseHGF(f *testing.F) {
	f.Add(sampleHGF)
	f.Add("(;SZ[4];W[A1];B[swap];W[B2])")
	f.Add(`(;FF[4]EV[ev \] x]PB[anna]PW[bert\\]DT[2026-11-30]SZ[8]RE[W];W[H3];B[swap];W[G4];B[resign])`)
	f.Add("(;SZ[5]RE[0];W[A1])")
	f.Add("(;SZ[5]RE[W+T];W[A1])")
	f.Add("(;SZ[5]RE[Void];W[A1])")
	f.Add("(;SZ[5]RE[B+R];W[A1];B[resign])")
	f.Fuzz(func(t *testing.T, text string) {
		rec, err := ParseHGF(text)
		if err != nil {
			return
		}
		out, err := rec.HGF()
		if err != nil {
			t.Fatalf("parsed record does not write: %v", err)
		}
		again, err := ParseHGF(out)
		if err != nil || !reflect.DeepEqual(again, rec) {
			t.Fatalf("written record does not read back: %v\n%#v\n%#v", err, rec, again)
		}
	})
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e5", "swap", "a1", "s19", "A10", "z0"} {
		f.Add(s)
	}
	s, _ := New(MaxSize, true)
	f.Fuzz(func(t *testing.T, text string) {
		m, err := s.ParseMove(text)
		if err != nil {
			return
		}
		again, err := s.ParseMove(s.FormatMove(m))
		if err != nil || again != m {
			t.Fatalf("%q parses to %v, which does not format back", text, m)
		}
	})
}
