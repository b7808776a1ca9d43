package fanorona

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"bretter/game"
)

// position sets up a position from a picture: five rows of nine points,
// rank 5 first, each W, B or '.'; spaces are ignored.
func position(t *testing.T, toMove game.Player, rows ...string) *State {
	t.Helper()
	s := fromBoard(boardString(t, rows...), toMove)
	if w, b := s.Pieces(); w > 22 || b > 22 {
		t.Fatalf("a side has more than 22 pieces: %d, %d", w, b)
	}
	s.settle()
	return s
}

// boardString turns a picture into View's board string, a1 first.
func boardString(t *testing.T, rows ...string) string {
	t.Helper()
	if len(rows) != ranks {
		t.Fatalf("picture has %d rows, want %d", len(rows), ranks)
	}
	var b strings.Builder
	for r := ranks - 1; r >= 0; r-- {
		row := strings.ReplaceAll(rows[r], " ", "")
		if len(row) != files || strings.Trim(row, "WB.") != "" {
			t.Fatalf("bad picture row %q", rows[r])
		}
		b.WriteString(row)
	}
	return b.String()
}

func legalStrings(s *State) []string {
	var out []string
	for _, m := range s.Legal(nil) {
		out = append(out, s.FormatMove(m))
	}
	slices.Sort(out)
	return out
}

func play(t *testing.T, s *State, text string) error {
	t.Helper()
	m, err := s.ParseMove(text)
	if err != nil {
		t.Fatalf("ParseMove(%q): %v", text, err)
	}
	return s.Play(m)
}

// TestLegalTurns checks the complete list of legal turns in small positions,
// one rule at a time. White is to move in each.
func TestLegalTurns(t *testing.T) {
	tests := []struct {
		name    string
		picture []string
		want    []string
	}{{
		name: "approach",
		picture: []string{
			".........",
			".........",
			".........",
			".........",
			"W.B......",
		},
		want: []string{"a1-b1A"},
	}, {
		name: "withdrawal",
		picture: []string{
			".........",
			".........",
			".........",
			".........",
			"BW.......",
		},
		want: []string{"b1-c1W"},
	}, {
		name: "a step that could capture both ways is two turns",
		picture: []string{
			".........",
			".........",
			".........",
			".........",
			".BW.B....",
		},
		want: []string{"c1-d1A", "c1-d1W"},
	}, {
		name: "capture is compulsory over all pieces",
		picture: []string{
			".........",
			".........",
			".........",
			"........W",
			"W.B......",
		},
		want: []string{"a1-b1A"},
	}, {
		name: "every prefix of a chain is a turn",
		picture: []string{
			".........",
			".........",
			".B.......",
			".........",
			"W.B......",
		},
		want: []string{"a1-b1A", "a1-b1A-b2A"},
	}, {
		// Without the rule b1-c1W-d1A would be a turn.
		name: "no step straight on after a withdrawal",
		picture: []string{
			".........",
			".........",
			".........",
			".........",
			"BW..B....",
		},
		want: []string{"b1-c1W"},
	}, {
		// After b1-c1W, stepping back to b1 would capture d1 by withdrawal.
		name: "the start point counts as visited",
		picture: []string{
			".........",
			".........",
			".........",
			"........B",
			"BW.B.....",
		},
		want: []string{"b1-c1A", "b1-c1W"},
	}, {
		name: "weak points have no diagonals",
		picture: []string{
			"........B",
			".........",
			"...B.....",
			".........",
			".W.......",
		},
		want: []string{"b1-a1", "b1-b2", "b1-c1"},
	}, {
		name: "strong points have diagonals",
		picture: []string{
			"........B",
			".........",
			".........",
			".........",
			"..W......",
		},
		want: []string{"c1-b1", "c1-b2", "c1-c2", "c1-d1", "c1-d2"},
	}, {
		name: "diagonal captures from strong points",
		picture: []string{
			".........",
			".........",
			"....B....",
			".........",
			"..W......",
		},
		want: []string{"c1-d2A"},
	}, {
		name: "a side with pieces but no turn has none",
		picture: []string{
			".........",
			".........",
			".........",
			"BB.......",
			"WB.......",
		},
		want: nil,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := position(t, game.White, tt.picture...)
			if got := legalStrings(s); !slices.Equal(got, tt.want) {
				t.Errorf("legal turns %q, want %q", got, tt.want)
			}
			own, enemy := s.pieces[game.White], s.pieces[game.Black]
			if n := s.Perft(1); n != uint64(len(tt.want)) || countTurns(own, enemy) != n {
				t.Errorf("Perft(1) = %d, countTurns = %d, want %d", n, countTurns(own, enemy), len(tt.want))
			}
		})
	}
}

// TestTurns plays one turn and checks the board after it.
func TestTurns(t *testing.T) {
	tests := []struct {
		name          string
		before        []string
		turn          string
		after         []string
		captured, ply int
	}{{
		name: "approach takes the line up to an empty point",
		before: []string{
			".........",
			".........",
			".........",
			".........",
			"W.BBB.B..",
		},
		turn: "a1-b1A",
		after: []string{
			".........",
			".........",
			".........",
			".........",
			".W....B..",
		},
		captured: 3,
	}, {
		name: "approach takes the line up to an own piece",
		before: []string{
			".........",
			".........",
			".........",
			".........",
			"W.BBWB...",
		},
		turn: "a1-b1A",
		after: []string{
			".........",
			".........",
			".........",
			".........",
			".W..WB...",
		},
		captured: 2,
	}, {
		name: "approach takes the line up to the edge",
		before: []string{
			".........",
			".........",
			".........",
			".........",
			"W.BBBBBBB",
		},
		turn: "a1-b1A",
		after: []string{
			".........",
			".........",
			".........",
			".........",
			".W.......",
		},
		captured: 7,
	}, {
		name: "withdrawal takes the line behind the start",
		before: []string{
			".........",
			".........",
			".........",
			".........",
			"WBBW.....",
		},
		turn: "d1-e1W",
		after: []string{
			".........",
			".........",
			".........",
			".........",
			"W...W....",
		},
		captured: 2,
	}, {
		name: "diagonal withdrawal takes a diagonal line",
		before: []string{
			"...B.....",
			"...B.....",
			"..B......",
			".W.......",
			".........",
		},
		turn: "b2-a1W",
		after: []string{
			"...B.....",
			".........",
			".........",
			".........",
			"W........",
		},
		captured: 2,
	}, {
		name: "approach alone leaves the line behind",
		before: []string{
			".........",
			".........",
			".........",
			".........",
			".BW.B....",
		},
		turn: "c1-d1A",
		after: []string{
			".........",
			".........",
			".........",
			".........",
			".B.W.....",
		},
		captured: 1,
	}, {
		name: "a chain may land on a point emptied earlier in the turn",
		before: []string{
			".........",
			".........",
			"BB.......",
			".........",
			"W.B......",
		},
		turn: "a1-b1A-b2A-c1W",
		after: []string{
			".........",
			".........",
			".........",
			".........",
			"..W......",
		},
		captured: 3,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := position(t, game.White, tt.before...)
			if err := play(t, s, tt.turn); err != nil {
				t.Fatal(err)
			}
			if got, want := s.View().(View).Board, boardString(t, tt.after...); got != want {
				t.Errorf("board after %s:\n got %s\nwant %s", tt.turn, got, want)
			}
			if s.LastCaptured() != tt.captured {
				t.Errorf("LastCaptured() = %d, want %d", s.LastCaptured(), tt.captured)
			}
			if s.ToMove() != game.Black || s.Ply() != 1 || s.Counter() != 0 {
				t.Errorf("after a capture: to move %v, ply %d, counter %d", s.ToMove(), s.Ply(), s.Counter())
			}
		})
	}
}

// TestIllegal checks that illegal turns are refused with their reason and
// change nothing.
func TestIllegal(t *testing.T) {
	startRows := []string{
		"BBBBBBBBB",
		"BBBBBBBBB",
		"BWBW.BWBW",
		"WWWWWWWWW",
		"WWWWWWWWW",
	}
	tests := []struct {
		name    string
		picture []string
		toMove  game.Player
		turn    string
		reason  string
	}{{
		name:    "paika while a capture exists",
		picture: startRows,
		turn:    "d2-e3",
		reason:  "capture is compulsory: a paika is not allowed",
	}, {
		name:    "step onto a piece",
		picture: startRows,
		turn:    "b3-c3",
		reason:  "c3 is not empty",
	}, {
		name: "paika while a capture exists elsewhere",
		picture: []string{
			".........",
			".........",
			".........",
			"........W",
			"W.B......",
		},
		turn:   "i2-i3",
		reason: "capture is compulsory: a paika is not allowed",
	}, {
		name: "approach that captures nothing",
		picture: []string{
			".........",
			"....B....",
			".........",
			".........",
			"........W",
		},
		toMove: game.Black,
		turn:   "e4-e3A",
		reason: "e4-e3 captures nothing by approach",
	}, {
		name: "withdrawal that captures nothing",
		picture: []string{
			".........",
			"....B....",
			".........",
			"....W....",
			".........",
		},
		toMove: game.Black,
		turn:   "e4-e3W",
		reason: "e4-e3 captures nothing by withdrawal",
	}, {
		name: "second step straight on",
		picture: []string{
			".........",
			".........",
			".........",
			".........",
			"BW..B....",
		},
		turn:   "b1-c1W-d1A",
		reason: "a chain may not move twice in the same direction",
	}, {
		name:    "back onto the start point",
		picture: startRows,
		turn:    "d3-e3W-d3W",
		reason:  "d3 was already visited this turn",
	}, {
		name: "back onto a point of the chain",
		picture: []string{
			".........",
			".........",
			"B..BB....",
			".W.......",
			"....B....",
		},
		turn:   "b2-c1W-d1A-d2A-c1W",
		reason: "c1 was already visited this turn",
	}, {
		name: "a chain goes on by capturing only",
		picture: []string{
			".........",
			".........",
			".........",
			".........",
			"W.B.....B",
		},
		turn:   "a1-b1A-b2A",
		reason: "b1-b2 captures nothing by approach",
	}, {
		name:    "no own piece on the start point",
		picture: startRows,
		turn:    "e3-e4",
		reason:  "there is no white piece on e3",
	}, {
		name:    "an enemy piece on the start point",
		picture: startRows,
		turn:    "f3-e3A",
		reason:  "there is no white piece on f3",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := position(t, tt.toMove, tt.picture...)
			before := *s
			err := play(t, s, tt.turn)
			if !errors.Is(err, game.ErrIllegalMove) {
				t.Fatalf("%s gave %v, want ErrIllegalMove", tt.turn, err)
			}
			if want := "illegal move " + tt.turn + ": " + tt.reason; err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
			if *s != before {
				t.Errorf("refused turn changed the state")
			}
		})
	}
}

// TestMalformedMoves checks values that no parse can produce.
func TestMalformedMoves(t *testing.T) {
	tests := []struct {
		m      game.Move
		reason string
	}{
		{game.Move{}, "not a well-formed Fanorona turn"},
		{game.Move{A: 45 | 1<<6}, "not a well-formed Fanorona turn"},
		{game.Move{A: 3 | 1<<6, B: 1}, "not a well-formed Fanorona turn"},
		{addStep(paikaMove(3, east), 1, east, false), "not a well-formed Fanorona turn"},
		{paikaMove(9, northEast), "no line leads northeast from a2"},
		{addStep(chainStart(8), 0, east, false), "no line leads east from i1"},
	}
	s := New()
	for _, tt := range tests {
		err := s.Play(tt.m)
		if !errors.Is(err, game.ErrIllegalMove) || !strings.HasSuffix(err.Error(), ": "+tt.reason) {
			t.Errorf("Play(%+v) = %v, want %q", tt.m, err, tt.reason)
		}
		if *s != *New() {
			t.Fatalf("refused move changed the state")
		}
	}
}

func TestAllCaptured(t *testing.T) {
	s := position(t, game.White,
		".........",
		".........",
		".........",
		".........",
		"W.B......",
	)
	s.counter = 49
	if err := play(t, s, "a1-b1A"); err != nil {
		t.Fatal(err)
	}
	want := game.Outcome{Over: true, Winner: game.White, Reason: "all_captured"}
	if got := s.Outcome(); got != want {
		t.Errorf("outcome %+v, want %+v", got, want)
	}
	if n := len(s.Legal(nil)); n != 0 || s.Perft(1) != 0 {
		t.Errorf("%d legal turns after the end", n)
	}
	if err := play(t, s, "b1-c1"); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("turn after the end gave %v, want ErrGameOver", err)
	}
}

func TestNoMoves(t *testing.T) {
	// Black's a1 and a2 are walled in, and no white piece can capture
	// them: every point next to them is taken, and so is every point a
	// white piece could withdraw to.
	s := position(t, game.White,
		"........W",
		"W........",
		"WWW......",
		"BWW......",
		"BWW......",
	)
	if s.Outcome().Over {
		t.Fatalf("over before the turn: %+v", s.Outcome())
	}
	if err := play(t, s, "i5-h5"); err != nil {
		t.Fatal(err)
	}
	want := game.Outcome{Over: true, Winner: game.White, Reason: "no_moves"}
	if got := s.Outcome(); got != want {
		t.Errorf("outcome %+v, want %+v", got, want)
	}
	if n := len(s.Legal(nil)); n != 0 {
		t.Errorf("%d legal turns after the end", n)
	}
}

func TestFiftyTurns(t *testing.T) {
	rows := []string{
		"B........",
		".........",
		".........",
		".........",
		"........W",
	}
	// The counter counts turns: each side's paika adds one.
	s := position(t, game.White, rows...)
	for i, turn := range []string{"i1-h1", "a5-b5", "h1-i1", "b5-a5"} {
		if err := play(t, s, turn); err != nil {
			t.Fatal(err)
		}
		if s.Counter() != i+1 {
			t.Errorf("after %d paikas the counter is %d", i+1, s.Counter())
		}
	}

	s = position(t, game.White, rows...)
	s.counter = 48
	if err := play(t, s, "i1-h1"); err != nil {
		t.Fatal(err)
	}
	if s.Outcome().Over || s.Perft(1) == 0 {
		t.Fatalf("over at counter 49: %+v", s.Outcome())
	}
	if err := play(t, s, "a5-b5"); err != nil {
		t.Fatal(err)
	}
	want := game.Outcome{Over: true, Winner: game.Nobody, Reason: "fifty_turns"}
	if got := s.Outcome(); got != want || s.Counter() != 50 {
		t.Errorf("outcome %+v at counter %d, want %+v", got, s.Counter(), want)
	}
	if n := len(s.Legal(nil)); n != 0 || s.Perft(1) != 0 {
		t.Errorf("%d legal turns after the draw", n)
	}

	// Any capturing turn sets the counter back to 0, however many steps
	// it has.
	s = position(t, game.White,
		"........B",
		".........",
		".B.......",
		".........",
		"W.B......",
	)
	s.counter = 49
	if err := play(t, s, "a1-b1A-b2A"); err != nil {
		t.Fatal(err)
	}
	if s.Outcome().Over || s.Counter() != 0 {
		t.Errorf("after a capture at counter 49: outcome %+v, counter %d", s.Outcome(), s.Counter())
	}
	if err := play(t, s, "i5-h5"); err != nil {
		t.Fatal(err)
	}
	if s.Counter() != 1 {
		t.Errorf("counter %d after one paika", s.Counter())
	}
}
