package havannah

import (
	"math/bits"
	"math/rand/v2"

	"bretter/game"
)

// RandomPlayout fills s with uniformly random stones, alternating as the
// rules do, until the game ends, and returns the winner (game.Nobody for a
// draw). It never swaps. It does not allocate, so a search can run it
// millions of times on copies of one position.
func (s *State) RandomPlayout(rng *rand.Rand) game.Player {
	var empties [gridSize]int16
	n := 0
	if s.stones == 0 {
		n = copy(empties[:], s.geo.cells)
	} else {
		for _, c := range s.geo.cells {
			if s.cell[c] == empty {
				empties[n] = c
				n++
			}
		}
	}
	// One draw from rng seeds a generator that the loop can inline: a
	// call through rand.Rand per stone would cost a fifth of the playout.
	r := wyrand(rng.Uint64())
	for n > 0 && s.won == 0 {
		i := r.below(n) & gridMask
		c := empties[i]
		n--
		empties[i] = empties[n&gridMask]
		s.place(int(c))
	}
	return s.Outcome().Winner
}

// wyrand is a small, fast generator of good statistical quality.
type wyrand uint64

func (w *wyrand) next() uint64 {
	*w += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(uint64(*w), uint64(*w)^0xe7037ed1a0b428db)
	return hi ^ lo
}

// below returns a number in [0, n). Its bias, n/2^64, is far below what
// any playout could notice.
func (w *wyrand) below(n int) int {
	hi, _ := bits.Mul64(w.next(), uint64(n))
	return int(hi)
}
