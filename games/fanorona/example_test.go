package fanorona_test

import (
	"fmt"

	"bretter/games/fanorona"
)

func Example() {
	s := fanorona.New()
	for _, text := range []string{"d3-e3W", "d4-d3A"} {
		m, err := s.ParseMove(text)
		if err == nil {
			err = s.Play(m)
		}
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	w, b := s.Pieces()
	fmt.Println(w, "white,", b, "black; the last turn took", s.LastCaptured())
	fmt.Println(len(s.Legal(nil)), "legal turns for", s.ToMove())

	m, _ := s.ParseMove("e3-d4")
	fmt.Println(s.Play(m))
	// Output:
	// 20 white, 21 black; the last turn took 2
	// 22 legal turns for white
	// illegal move e3-d4: capture is compulsory: a paika is not allowed
}

func ExampleState_Perft() {
	s := fanorona.New()
	for depth := 1; depth <= 4; depth++ {
		fmt.Println(depth, s.Perft(depth))
	}
	// Output:
	// 1 5
	// 2 39
	// 3 724
	// 4 18026
}
