package dvonn

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"bretter/game"
	"bretter/game/gametest"
)

func TestContract(t *testing.T) {
	gametest.Check(t, func() game.State { return New() }, 1000)
}

// position builds a stacking-phase position from stacks written as in the
// corpus ("C3:W2:1 D3:R1:1"), after the given number of plies (an even
// count puts Black to move). Every stack must reach a DVONN piece, as after
// any real move.
func position(t *testing.T, stacks string, ply int) *State {
	t.Helper()
	s := &State{ply: ply}
	for _, f := range strings.Fields(stacks) {
		parts := strings.Split(f, ":")
		if len(parts) != 3 || len(parts[1]) < 2 {
			t.Fatalf("bad stack %q", f)
		}
		c, ok := parseSpace(parts[0])
		h, d := atoi(t, f, parts[1][1:]), atoi(t, f, parts[2])
		if !ok || h < 1 || d < 0 || d > h || d > dvonnPieces {
			t.Fatalf("bad stack %q", f)
		}
		bit := uint64(1) << c
		s.occ |= bit
		s.stack[c] = uint8(h | d<<dvonnShift)
		if d > 0 {
			s.dvonn |= bit
		}
		switch parts[1][0] {
		case 'W':
			s.white |= bit
		case 'B':
			s.black |= bit
		case 'R':
			if h != 1 || d != 1 {
				t.Fatalf("%q: only a lone DVONN piece is red", f)
			}
		default:
			t.Fatalf("bad owner in %q", f)
		}
	}
	keep := s.dvonn
	for next := keep | spread(keep)&s.occ; next != keep; next = keep | spread(keep)&s.occ {
		keep = next
	}
	if keep != s.occ {
		t.Fatalf("%q: some stacks are cut off from every DVONN piece", stacks)
	}
	if got := s.Stacks(); got != strings.Join(strings.Fields(stacks), " ") {
		t.Fatalf("position %q reads back as %q (list stacks in row-major order)", stacks, got)
	}
	s.settle()
	return s
}

// play parses and plays moves, failing the test on any error.
func play(t *testing.T, s *State, moves ...string) {
	t.Helper()
	for _, text := range moves {
		m, err := ParseMove(text)
		if err == nil {
			err = s.Play(m)
		}
		if err != nil {
			t.Fatalf("ply %d: %s: %v", s.Ply()+1, text, err)
		}
	}
}

func legalText(s *State) []string {
	var out []string
	for _, m := range s.Legal(nil) {
		out = append(out, FormatMove(m))
	}
	return out
}

// rowMajor is every space in row-major order, A1 first.
func rowMajor() []string {
	var out []string
	for _, c := range spaces {
		out = append(out, spaceName(int(c)))
	}
	return out
}

// filled is the position after placing on every space in row-major order:
// DVONN pieces on A1 B1 C1, then black and white in turn from D1.
func filled(t *testing.T) *State {
	s := New()
	play(t, s, rowMajor()...)
	return s
}

func TestGeometry(t *testing.T) {
	all := strings.Join(rowMajor(), " ")
	want := "A1 B1 C1 D1 E1 F1 G1 H1 I1 A2 B2 C2 D2 E2 F2 G2 H2 I2 J2 " +
		"A3 B3 C3 D3 E3 F3 G3 H3 I3 J3 K3 B4 C4 D4 E4 F4 G4 H4 I4 J4 K4 C5 D5 E5 F5 G5 H5 I5 J5 K5"
	if all != want {
		t.Fatalf("spaces:\n got  %s\n want %s", all, want)
	}
	tests := []struct {
		space, neighbours string
	}{
		{"C3", "B2 C2 B3 D3 C4 D4"},
		{"A2", "A1 B2 A3 B3"}, // B1 is not a neighbour
		{"A1", "B1 A2 B2"},
		{"K5", "J4 K4 J5"},
		{"K3", "J2 J3 K4"},
		{"C5", "B4 C4 D5"},
	}
	for _, tt := range tests {
		c, _ := parseSpace(tt.space)
		var got []string
		for _, n := range rowMajor() {
			nc, _ := parseSpace(n)
			if spread(1<<c)&(1<<nc) != 0 {
				got = append(got, n)
			}
		}
		if strings.Join(got, " ") != tt.neighbours {
			t.Errorf("neighbours of %s: %v, want %s", tt.space, got, tt.neighbours)
		}
	}
}

func TestPlacementOrder(t *testing.T) {
	s := New()
	wantTop := []string{"red", "red", "red", "black", "white", "black", "white"}
	wantMover := []game.Player{game.White, game.Black, game.White, game.Black, game.White, game.Black, game.White}
	for i, space := range []string{"E3", "A1", "K5", "F3", "C1", "D3", "K3"} {
		if got := s.ToMove(); got != wantMover[i] {
			t.Fatalf("ply %d: %s to move, want %s", i+1, got, wantMover[i])
		}
		if place := s.view().Place; place != wantTop[i] {
			t.Errorf("ply %d: view says %s is placed next, want %s", i+1, place, wantTop[i])
		}
		play(t, s, space)
		v := s.view()
		at := slices.IndexFunc(v.Stacks, func(st StackView) bool { return st.Space == space })
		st := v.Stacks[at]
		wantDvonns := 0
		if wantTop[i] == "red" {
			wantDvonns = 1
		}
		if st.Top != wantTop[i] || st.Height != 1 || st.Dvonns != wantDvonns {
			t.Errorf("ply %d: %s holds %+v, want one %s piece", i+1, space, st, wantTop[i])
		}
	}
	if r := *s.view().Reserve; r != (Reserve{White: 21, Black: 21, Red: 0}) {
		t.Errorf("after 7 plies the reserve is %+v", r)
	}
	if r := *New().view().Reserve; r != (Reserve{White: 23, Black: 23, Red: 3}) {
		t.Errorf("at the start the reserve is %+v", r)
	}
	if got := legalText(s); len(got) != SpaceCount-7 || slices.Contains(got, "E3") {
		t.Errorf("after 7 placements %d moves are legal: %v", len(got), got)
	}
	w, b := s.Score()
	if w != 2 || b != 2 {
		t.Errorf("after 7 placements the score is %d–%d, want 2–2", w, b)
	}
}

func TestForcedLastPlacement(t *testing.T) {
	s := New()
	all := rowMajor()
	play(t, s, all[:48]...)
	if s.ToMove() != game.White || !s.Placing() {
		t.Fatalf("before ply 49: %s to move, placing %v", s.ToMove(), s.Placing())
	}
	if got := legalText(s); !slices.Equal(got, []string{"K5"}) {
		t.Fatalf("before ply 49 the legal moves are %v, want only K5", got)
	}
	if _, ok := s.Forced(); ok {
		t.Errorf("Forced reports the last placement; only PASS is played for the player")
	}
	play(t, s, "K5")
	if s.Placing() || s.Ply() != 49 {
		t.Fatalf("after ply 49: placing %v, ply %d", s.Placing(), s.Ply())
	}
	if s.view().Phase != "stacking" || s.view().Reserve != nil {
		t.Errorf("after ply 49 the view is in phase %q with reserve %v", s.view().Phase, s.view().Reserve)
	}
}

func TestWhiteMovesTwiceAtPhaseChange(t *testing.T) {
	s := filled(t)
	// Ply 49 (K5) was White's; ply 50 is White's too, then turns alternate.
	if s.ToMove() != game.White {
		t.Fatalf("ply 50: %s to move, want white", s.ToMove())
	}
	play(t, s, "E1E2") // E1 white, E2 black
	if s.ToMove() != game.Black {
		t.Fatalf("ply 51: %s to move, want black", s.ToMove())
	}
	play(t, s, "D1D2")
	if s.ToMove() != game.White {
		t.Fatalf("ply 52: %s to move, want white", s.ToMove())
	}
}

func TestNothingRemovedWhilePlacing(t *testing.T) {
	s := New()
	play(t, s, "A1", "B1", "C1", "K5", "K3")
	// K5 and K3 touch no DVONN piece, and they stay.
	if s.Stacks() != "A1:R1:1 B1:R1:1 C1:R1:1 K3:W1:0 K5:B1:0" || s.LastCaptured() != 0 {
		t.Errorf("placement removed something: %s, captured %d", s.Stacks(), s.LastCaptured())
	}
}

// Positions for the rule tests, all in the stacking phase. An odd ply count
// puts White to move, an even one Black.
const (
	// A3 (height 3) can jump the empty B3 and C3 onto the lone DVONN piece
	// on D3, and nowhere else.
	jumpPosition = "A2:B1:0 B2:B1:0 C2:B1:0 A3:W3:0 D3:R1:1"
	// D3 onto C3 leaves D1–D2 and E4–F5 without a DVONN piece.
	cutPosition = "D1:W3:0 D2:B1:0 C3:R1:1 D3:W1:0 E4:B2:0 F5:W1:0"
	// The white stack on B3 holds a DVONN piece; carrying it to D5 strands A3.
	carryPosition = "A3:B1:0 B3:W2:1 D5:R1:1"
	// The black stack on C3 is too tall to land anywhere; White can move.
	passPosition = "C3:B5:0 D3:W1:0 E3:R1:1"
	// Nobody can move; 3–3 and the lone DVONN piece counts for nobody.
	drawPosition = "C3:W3:1 D3:B3:0 E3:R1:1"
)

func TestLegalMoves(t *testing.T) {
	tests := []struct {
		name   string
		stacks string
		ply    int
		legal  string
	}{
		{"jump over empty spaces", jumpPosition, 51, "A3D3"},
		{"black in the jump position", jumpPosition, 50, "A2B2 A2A3 B2A2 B2C2 C2B2 C2D3"},
		{"a stack holding a DVONN piece is its top's", "C3:W2:1 D3:B1:0 E3:R1:1", 51, "C3E3"},
		{"black beside a DVONN-holding white stack", "C3:W2:1 D3:B1:0 E3:R1:1", 50, "D3C3 D3E3"},
		{"edge stacks only", cutPosition, 51, "D3D2 D3C3 D3E4 F5E4"},
		{"pass when no stack can move", passPosition, 50, "PASS"},
		{"stack too tall for the board", "A3:W11:0 B3:B1:1", 51, "PASS"},
		{"game over", drawPosition, 51, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := position(t, tt.stacks, tt.ply)
			if got := strings.Join(legalText(s), " "); got != tt.legal {
				t.Errorf("legal moves %q, want %q", got, tt.legal)
			}
		})
	}
}

func TestSurroundedAndEdge(t *testing.T) {
	s := filled(t)
	// Only the 24 edge spaces can move at the start of the stacking phase.
	for _, m := range s.Legal(nil) {
		_, from, _, _ := decode(m)
		col, row := colRow(from)
		edge := false
		for d := range 6 {
			edge = edge || !onBoard(col+dirCol[d], row+dirRow[d])
		}
		if !edge {
			t.Errorf("%s moves from a surrounded space", FormatMove(m))
		}
	}
	if got := legalText(s); !slices.Contains(got, "E1E2") || slices.Contains(got, "D3D4") {
		t.Errorf("legal moves %v: want the edge stack E1 to move and not the surrounded D3", got)
	}
}

func TestRemoval(t *testing.T) {
	s := position(t, cutPosition, 51)
	play(t, s, "D3C3")
	if got := s.Stacks(); got != "C3:W2:1" {
		t.Errorf("after D3C3 the stacks are %q, want only C3:W2:1", got)
	}
	if n := s.LastCaptured(); n != 7 {
		t.Errorf("D3C3 captured %d pieces, want 7", n)
	}
	v := s.view()
	want := []StackView{
		{Space: "D1", Height: 3, Top: "white"},
		{Space: "D2", Height: 1, Top: "black"},
		{Space: "E4", Height: 2, Top: "black"},
		{Space: "F5", Height: 1, Top: "white"},
	}
	if !slices.Equal(v.Removed, want) {
		t.Errorf("view removed %+v, want %+v", v.Removed, want)
	}
	if *v.Last != (LastView{From: "D3", To: "C3"}) {
		t.Errorf("view last %+v", *v.Last)
	}
	if out := s.Outcome(); out != (game.Outcome{Over: true, Winner: game.White, Reason: "score"}) {
		t.Errorf("outcome %+v, want White by score", out)
	}
}

func TestCarriedDvonnStrandsStacks(t *testing.T) {
	s := position(t, carryPosition, 51)
	play(t, s, "B3D5")
	if got := s.Stacks(); got != "D5:W3:2" {
		t.Errorf("after B3D5 the stacks are %q, want D5:W3:2", got)
	}
	if n := s.LastCaptured(); n != 1 {
		t.Errorf("B3D5 captured %d pieces, want 1", n)
	}
	// The next move forgets what this one removed.
	s = position(t, jumpPosition, 51)
	play(t, s, "A3D3")
	if n, r := s.LastCaptured(), s.view().Removed; n != 0 || len(r) != 0 {
		t.Errorf("A3D3 captured %d pieces: %v", n, r)
	}
}

func TestPass(t *testing.T) {
	s := position(t, passPosition, 50)
	m, ok := s.Forced()
	if !ok || m != passMove {
		t.Fatalf("Forced() = %v, %v; want PASS", FormatMove(m), ok)
	}
	play(t, s, "PASS")
	if s.ToMove() != game.White || s.Ply() != 51 || s.view().Last.Pass != true {
		t.Fatalf("after PASS: %s to move at ply %d, last %+v", s.ToMove(), s.Ply(), s.view().Last)
	}
	if _, ok := s.Forced(); ok {
		t.Errorf("Forced() is true for White, who can move")
	}
	err := s.Play(passMove)
	if !errors.Is(err, game.ErrIllegalMove) || !strings.Contains(err.Error(), "no passing while White can move") {
		t.Errorf("PASS by White, who can move: %v", err)
	}
	// D3C3 leaves the black stack on C3 cut off from E3: only the lone
	// DVONN piece stays, and it scores for nobody.
	play(t, s, "D3C3")
	if got, n := s.Stacks(), s.LastCaptured(); got != "E3:R1:1" || n != 6 {
		t.Errorf("after D3C3: stacks %q, captured %d", got, n)
	}
	if out := s.Outcome(); out != (game.Outcome{Over: true, Winner: game.Nobody, Reason: "score"}) {
		t.Errorf("outcome %+v, want a draw by score", out)
	}
	if _, ok := New().Forced(); ok {
		t.Errorf("Forced() is true while placing")
	}
}

func TestGameOver(t *testing.T) {
	s := position(t, drawPosition, 50)
	out := s.Outcome()
	if out != (game.Outcome{Over: true, Winner: game.Nobody, Reason: "score"}) {
		t.Fatalf("outcome %+v, want a draw by score", out)
	}
	if w, b := s.Score(); w != 3 || b != 3 {
		t.Errorf("score %d–%d, want 3–3", w, b)
	}
	if _, ok := s.Forced(); ok {
		t.Errorf("Forced() is true after the end")
	}
	// Neither player can move, so PASS is not legal either.
	if err := s.Play(passMove); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("PASS after the end: %v, want ErrGameOver", err)
	}
	if got := position(t, "C3:W3:1 D3:B2:0 E3:R1:1", 50).Outcome(); got.Winner != game.White || !got.Over {
		t.Errorf("3–2: outcome %+v, want White", got)
	}
	if got := position(t, "C3:W3:0 D3:B4:1 E3:R1:1", 50).Outcome(); got.Winner != game.Black || !got.Over {
		t.Errorf("3–4: outcome %+v, want Black", got)
	}
	if got := New().Outcome(); got.Over {
		t.Errorf("the start is over: %+v", got)
	}
}

func TestIllegalMoves(t *testing.T) {
	placing := func(t *testing.T) *State {
		s := New()
		play(t, s, "C3", "D3", "E3")
		return s
	}
	at := func(stacks string, ply int) func(*testing.T) *State {
		return func(t *testing.T) *State { return position(t, stacks, ply) }
	}
	tests := []struct {
		state func(*testing.T) *State
		move  string
		want  string
	}{
		{placing, "C3", "C3 is occupied"},
		{placing, "C3D3", "stacks move only after all 49 pieces are placed"},
		{placing, "PASS", "no passing while pieces are placed"},
		{filled, "C3", "all pieces are placed, now stacks move"},
		{filled, "D3D4", "the stack at D3 is surrounded"},
		{filled, "D1D2", "the stack at D1 is Black's"},
		{filled, "A1A2", "a lone DVONN piece never moves"},
		{filled, "E1E3", "a stack moves exactly its height (1) in a straight line"},
		{filled, "E1F3", "a stack moves exactly its height (1) in a straight line"},
		{filled, "PASS", "no passing while White can move a stack"},
		{at(jumpPosition, 51), "B3C3", "B3 is empty"},
		{at(jumpPosition, 51), "A3B3", "a stack moves exactly its height (3) in a straight line"},
		{at(jumpPosition, 51), "A2B2", "the stack at A2 is Black's"},
		{at(jumpPosition, 50), "B2B3", "a stack must land on another stack, and B3 is empty"},
		{at("C3:W2:1 D3:B1:0 E3:R1:1", 50), "C3E3", "the stack at C3 is White's"},
		{at("A3:W11:0 B3:B1:1", 51), "A3B3", "a stack moves exactly its height (11) in a straight line"},
	}
	for _, tt := range tests {
		s := tt.state(t)
		before := *s
		m, err := ParseMove(tt.move)
		if err != nil {
			t.Fatalf("%s: %v", tt.move, err)
		}
		err = s.Play(m)
		if want := "illegal move " + tt.move + ": " + tt.want; !errors.Is(err, game.ErrIllegalMove) || err.Error() != want {
			t.Errorf("%s: error %v, want ErrIllegalMove saying %q", tt.move, err, want)
		}
		if *s != before {
			t.Errorf("%s: the refused move changed the state", tt.move)
		}
	}
	for _, m := range []game.Move{{}, {A: kindPlace | 11}, {A: kindStack | 0x1b1b}, {A: kindPass | 1}, {A: kindPlace, B: 1}} {
		if err := New().Play(m); !errors.Is(err, game.ErrIllegalMove) || !strings.HasSuffix(err.Error(), ": not a DVONN move") {
			t.Errorf("%#v: %v", m, err)
		}
	}
}

// slowPerft counts through the public interface, as a check on Perft.
func slowPerft(s game.State, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	var n uint64
	for _, m := range s.Legal(nil) {
		c := s.Clone()
		if err := c.Play(m); err != nil {
			panic(err)
		}
		n += slowPerft(c, depth-1)
	}
	return n
}

func TestPerftAcrossPhases(t *testing.T) {
	if got := New().Perft(3); got != 49*48*47 {
		t.Errorf("perft(3) at the start = %d, want %d", got, 49*48*47)
	}
	all := rowMajor()
	for _, ply := range []int{45, 47, 48} {
		s := New()
		play(t, s, all[:ply]...)
		if got, want := s.Perft(4), slowPerft(s, 4); got != want {
			t.Errorf("after %d placements perft(4) = %d, want %d", ply, got, want)
		}
	}
}
