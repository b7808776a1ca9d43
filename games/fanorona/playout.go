package fanorona

import (
	"math/bits"
	"math/rand/v2"

	"bretter/game"
)

// Playout plays turns chosen uniformly at random among the legal ones until
// the game ends, and returns how it ended. It plays on bit sets of its own,
// so s is unchanged, and it allocates nothing.
func (s *State) Playout(rng *rand.Rand) game.Outcome {
	if s.result != ongoing {
		return s.Outcome()
	}
	side := s.toMove
	own, enemy := s.pieces[side], s.pieces[side.Other()]
	counter := s.counter
	for {
		// The same order of tests as State.settle.
		switch {
		case own == 0:
			return outcome(allCaptured, side.Other())
		case counter >= drawAfter:
			return outcome(fiftyTurns, game.Nobody)
		}
		movers, sizes, total := captureCounts(own, enemy)
		if movers == 0 {
			total = paikaCount(own, enemy)
			if total == 0 {
				return outcome(noMoves, side.Other())
			}
		}
		own, enemy = turnAt(own, enemy, movers, &sizes, rng.Uint64N(total))
		counter++
		if movers != 0 {
			counter = 0
		}
		own, enemy = enemy, own
		side = side.Other()
	}
}

// captureCounts returns the pieces of own that can capture, how many turns
// each of them starts (in the order of their points), and the sum.
func captureCounts(own, enemy uint64) (movers uint64, sizes [maxSteps]uint64, total uint64) {
	movers = captureMovers(own, enemy)
	w := walk{mode: counting}
	for m, i := movers, 0; m != 0; m, i = m&(m-1), i+1 {
		sizes[i] = w.from(own, enemy, bits.TrailingZeros64(m))
		total += sizes[i]
	}
	return movers, sizes, total
}

// turnAt plays turn number r of own, counting in a fixed order, and returns
// both sides' pieces after it. movers and sizes come from captureCounts;
// with no movers, r counts paikas.
func turnAt(own, enemy, movers uint64, sizes *[maxSteps]uint64, r uint64) (newOwn, newEnemy uint64) {
	if movers == 0 {
		empty := allPoints &^ (own | enemy)
		for d := range 8 {
			m := own & from(empty, d)
			if c := uint64(bits.OnesCount64(m)); r >= c {
				r -= c
				continue
			}
			for ; r > 0; r-- {
				m &= m - 1
			}
			p := bits.TrailingZeros64(m)
			return own ^ bit(p) ^ bit(int(neighbour[p][d])), enemy
		}
		panic("fanorona: paika count and walk disagree")
	}
	for m, i := movers, 0; m != 0; m, i = m&(m-1), i+1 {
		if r >= sizes[i] {
			r -= sizes[i]
			continue
		}
		w := walk{mode: picking, r: r}
		if w.from(own, enemy, bits.TrailingZeros64(m)); !w.found {
			break
		}
		return w.own, w.enemy
	}
	panic("fanorona: capture count and walk disagree")
}
