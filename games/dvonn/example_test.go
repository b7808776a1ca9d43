package dvonn_test

import (
	"fmt"
	"strings"

	"bretter/game"
	"bretter/games/dvonn"
)

func Example() {
	// Fill the board in row-major order: the three DVONN pieces go on A1,
	// B1 and C1, then Black and White take turns.
	moves := strings.Fields("A1 B1 C1 D1 E1 F1 G1 H1 I1 A2 B2 C2 D2 E2 F2 G2 H2 I2 J2 " +
		"A3 B3 C3 D3 E3 F3 G3 H3 I3 J3 K3 B4 C4 D4 E4 F4 G4 H4 I4 J4 K4 C5 D5 E5 F5 G5 H5 I5 J5 K5")
	s, _, err := game.Replay(dvonn.Game(), nil, moves)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.ToMove(), "moves first;", len(s.Legal(nil)), "stack moves")
	m, _ := s.ParseMove("d3d4")
	fmt.Println(s.Play(m))
	m, _ = s.ParseMove("e1e2")
	fmt.Println(s.Play(m))
	w, b := s.(*dvonn.State).Score()
	fmt.Println("score", w, b)
	// Output:
	// white moves first; 37 stack moves
	// illegal move D3D4: the stack at D3 is surrounded
	// <nil>
	// score 24 22
}
