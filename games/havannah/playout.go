package havannah

import (
	"math/rand/v2"

	"bretter/game"
)

// RandomPlayout fills s with uniformly random stones, alternating as the
// rules do, until the game ends, and returns the winner (game.Nobody for a
// draw). It never swaps. It does not allocate, so a search can run it
// millions of times on copies of one position.
func (s *State) RandomPlayout(rng *rand.Rand) game.Player {
	var empties [gridCells]int16
	n := 0
	for _, c := range s.geo.cells {
		if s.cell[c] == empty {
			empties[n] = c
			n++
		}
	}
	for n > 0 && s.won == 0 {
		i := rng.IntN(n)
		c := empties[i]
		n--
		empties[i] = empties[n]
		s.place(int(c))
	}
	return s.Outcome().Winner
}
