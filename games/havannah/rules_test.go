package havannah

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"bretter/game"
	"bretter/game/gametest"
)

// play plays moves in turn and fails the test on the first refusal.
func play(t *testing.T, s *State, moves string) {
	t.Helper()
	for _, text := range strings.Fields(moves) {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if err := s.Play(m); err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
}

// interleave turns White's and Black's stones into one move list.
func interleave(white, black string) string {
	w, b := strings.Fields(white), strings.Fields(black)
	var out []string
	for i := range w {
		out = append(out, w[i])
		if i < len(b) {
			out = append(out, b[i])
		}
	}
	return strings.Join(out, " ")
}

func newState(t *testing.T, size int, swap bool) *State {
	t.Helper()
	s, err := New(size, swap)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSizes(t *testing.T) {
	for _, n := range []int{3, 11, 0, -1} {
		if _, err := New(n, false); err == nil {
			t.Errorf("New(%d) accepted", n)
		}
	}
	for n := MinSize; n <= MaxSize; n++ {
		s := newState(t, n, false)
		if got, want := len(s.Legal(nil)), 3*n*(n-1)+1; got != want {
			t.Errorf("side %d: %d legal first moves, want %d cells", n, got, want)
		}
	}
	if _, _, err := Game().Start(game.Options{"size": 3}); err == nil {
		t.Error("Game().Start accepted size 3")
	}
}

func TestTurnsAlternateAndStonesStay(t *testing.T) {
	s := newState(t, 5, false)
	if s.ToMove() != game.White {
		t.Fatal("Black moves first")
	}
	play(t, s, "e5")
	if s.ToMove() != game.Black {
		t.Fatal("White moves twice")
	}
	before := s.View()
	m, _ := s.ParseMove("e5")
	err := s.Play(m)
	if !errors.Is(err, game.ErrIllegalMove) || err.Error() != "illegal move e5: the cell is taken" {
		t.Fatalf("playing on a stone: %v", err)
	}
	if v := s.View().(View); refStone(v, "e5") != 'w' || strings.Count(v.Stones, ".") != Cells(5)-1 || !reflect.DeepEqual(v, before) || s.Ply() != 1 {
		t.Fatalf("refused move changed the position: %+v", v)
	}
}

func TestStructures(t *testing.T) {
	tests := []struct {
		name         string
		size         int
		white, black string
		want         string // structures of White's last stone, "" for none
	}{
		{"ring around an empty cell", 5, "e4 d4 d5 e6 f6 f5", "a3 c1 g9 i6 i9", "ring"},
		{"ring around an opponent stone", 5, "e4 d4 d5 e6 f6 f5", "e5 c1 g9 i6 i9", "ring"},
		{"flower closed on its rim", 5, "e5 e4 d4 d5 e6 f6 f5", "a3 c1 g9 i6 i9 h8", "ring"},
		{"ring along a side", 5, "b2 a2 a3 b4 c4 c3", "e5 c1 g9 i6 i9", "ring"},
		{"ring through a corner", 5, "b1 a1 a2 b3 c3 c2", "e5 h4 g9 i6 i9", "ring"},
		{"triangle is no ring", 5, "d4 d5 e5", "a3 c1", ""},
		{"solid blob is no ring", 5, "d4 d5 d6 e4 e5 e6 e7", "a3 c1 g9 i6 i9 h8", ""},
		{"bridge", 5, "a1 a2 a3 a4 a5", "e5 g7 c3 i7", "bridge"},
		{"fork", 5, "a3 b3 c3 d3 d2 d1 e3 f3 g3", "e5 e6 e7 e8 h8 i9 i8 h9", "fork"},
		{"two sides and a corner are no fork", 5, "b1 c1 d1 e1 f2", "e5 g7 c3 i7", ""},
		{"ring and bridge at once", 5, "a1 a2 a3 a4 b4 c5 c6 b6 a5", "e5 g7 e3 i7 h5 f4 g3 i9", "bridge+ring"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newState(t, tt.size, false)
			moves := strings.Fields(interleave(tt.white, tt.black))
			play(t, s, strings.Join(moves[:len(moves)-1], " "))
			if s.Outcome().Over {
				t.Fatalf("game over before the last stone: %+v", s.Outcome())
			}
			last, _ := s.ParseMove(moves[len(moves)-1])
			if got := strings.Join(s.WouldWin(last).Names(), "+"); got != tt.want {
				t.Errorf("WouldWin = %q, want %q", got, tt.want)
			}
			play(t, s, moves[len(moves)-1])
			out := s.Outcome()
			got := strings.Join(s.Structures().Names(), "+")
			if got != tt.want {
				t.Fatalf("structures %q, want %q", got, tt.want)
			}
			if tt.want == "" {
				if out.Over {
					t.Fatalf("game over: %+v", out)
				}
				return
			}
			if !out.Over || out.Winner != game.White || out.Reason != strings.Split(tt.want, "+")[0] {
				t.Fatalf("outcome %+v, want White by %s", out, tt.want)
			}
			if len(s.Legal(nil)) != 0 {
				t.Fatal("moves legal after the end")
			}
			if err := s.Play(last); !errors.Is(err, game.ErrGameOver) {
				t.Fatalf("move after the end: %v", err)
			}
		})
	}
}

// The winning cells are the group that made the structure, never the
// winner's other stones.
func TestWinningCells(t *testing.T) {
	tests := []struct {
		name         string
		white, black string
		want         string // row-major, as WinningCells lists them
	}{
		{"bridge", "a1 a2 a3 a4 a5", "e5 g7 c3 i7", "a1 a2 a3 a4 a5"},
		{"bridge beside another group", "a1 g7 a2 h8 a3 a4 a5", "e5 c3 e3 c5 e7 f4", "a1 a2 a3 a4 a5"},
		{"ring beside two groups", "a1 e4 d4 i9 d5 e6 i8 f6 f5", "c1 g9 a4 b6 h5 c7 i5 g3", "d4 d5 e4 e6 f5 f6"},
		{"fork beside another group", "a3 h5 b3 c3 d3 d2 d1 e3 f3 g3", "e5 e6 e7 e8 h8 i9 i8 h9 b6", "a3 b3 c3 d1 d2 d3 e3 f3 g3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newState(t, 5, false)
			play(t, s, interleave(tt.white, tt.black))
			if out := s.Outcome(); !out.Over || out.Winner != game.White {
				t.Fatalf("outcome %+v, want a win for White", out)
			}
			want := strings.Fields(tt.want)
			v := s.View().(View)
			if got := s.WinningCells(); !reflect.DeepEqual(got, want) || !reflect.DeepEqual(v.Winning, want) {
				t.Fatalf("winning cells %v, view %v; want %v", got, v.Winning, want)
			}
			// The position really has other White stones, and the
			// referee's one winning group is the same.
			if n := strings.Count(v.Stones, "w"); n != len(strings.Fields(tt.white)) {
				t.Fatalf("%d White stones, want %d", n, len(strings.Fields(tt.white)))
			}
			var won []string
			for _, g := range referee(v) {
				if g.structures != 0 {
					won = append(won, strings.Join(g.cells, " "))
				}
			}
			if len(won) != 1 || won[0] != tt.want {
				t.Fatalf("the referee finds the winning groups %q", won)
			}
		})
	}
}

func TestFullBoardIsDraw(t *testing.T) {
	// Little Golem game 1260811 fills a board of side 5 without a structure.
	for _, row := range readTSV(t, "littlegolem.tsv") {
		if row["id"] != "1260811" {
			continue
		}
		s := newState(t, 5, false)
		moves := strings.Fields(row["moves"])
		play(t, s, strings.Join(moves[:len(moves)-1], " "))
		if s.Outcome().Over {
			t.Fatal("over before the board is full")
		}
		play(t, s, moves[len(moves)-1])
		if out := s.Outcome(); out != (game.Outcome{Over: true, Winner: game.Nobody, Reason: "full_board"}) {
			t.Fatalf("outcome %+v, want a full-board draw", out)
		}
		return
	}
	t.Fatal("game 1260811 not found")
}

func TestSwap(t *testing.T) {
	s := newState(t, 6, true)
	play(t, s, "f6")
	if got := s.Legal(nil); got[len(got)-1] != SwapMove() {
		t.Fatal("swap is not offered as the second move")
	}
	play(t, s, "swap")
	if s.ToMove() != game.White || s.View().(View).Stones[strings.IndexAny(s.View().(View).Stones, "wb")] != 'b' {
		t.Fatal("after swap the first stone must be Black's and White must move")
	}
	play(t, s, "a1")
	if err := s.Play(SwapMove()); !errors.Is(err, game.ErrIllegalMove) {
		t.Fatalf("swap as the fourth move: %v", err)
	}
	// Black's swapped stone counts for Black's structures.
	s = newState(t, 4, true)
	play(t, s, "a1 swap g7 a2 g6 a3 f7")
	m, _ := s.ParseMove("a4")
	if got := s.WouldWin(m); got != Bridge {
		t.Fatalf("a4 would complete %v for Black, want a bridge", got.Names())
	}

	s = newState(t, 6, false)
	play(t, s, "f6")
	if err := s.Play(SwapMove()); !errors.Is(err, game.ErrIllegalMove) {
		t.Fatalf("swap without the rule: %v", err)
	}
	s = newState(t, 6, true)
	if err := s.Play(SwapMove()); !errors.Is(err, game.ErrIllegalMove) {
		t.Fatalf("swap as the first move: %v", err)
	}
}

func TestParseMove(t *testing.T) {
	s := newState(t, 4, false)
	for _, bad := range []string{"", "e", "5e", "e0", "e05", "a5", "g3", "h1", "e+1", "e-1", "ee", "e1000", "swapp", "resign"} {
		if _, err := s.ParseMove(bad); !errors.Is(err, game.ErrNotation) {
			t.Errorf("ParseMove(%q) = %v, want ErrNotation", bad, err)
		}
	}
	for text, want := range map[string]string{"a1": "a1", "D4": "d4", "g7": "g7", "SWAP": "swap", "d1": "d1"} {
		m, err := s.ParseMove(text)
		if err != nil || s.FormatMove(m) != want {
			t.Errorf("ParseMove(%q) = %s, %v; want %s", text, s.FormatMove(m), err, want)
		}
	}
}

func TestWouldWinAgreesWithPlay(t *testing.T) {
	for _, row := range readTSV(t, "random-games.tsv")[:300] {
		s := newState(t, atoi(row["size"]), false)
		for _, text := range strings.Fields(row["moves"]) {
			for _, m := range s.Legal(nil) {
				want := s.WouldWin(m)
				c := s.Clone().(*State)
				c.Play(m)
				if c.Structures() != want {
					t.Fatalf("game %s: WouldWin(%s) = %v, playing it gives %v", row["game"], s.FormatMove(m), want.Names(), c.Structures().Names())
				}
			}
			play(t, s, text)
		}
	}
}

func TestEngineContract(t *testing.T) {
	for _, n := range []int{4, 5, 8} {
		for _, swap := range []bool{false, true} {
			gametest.Check(t, func() game.State { s, _ := New(n, swap); return s }, 40)
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
