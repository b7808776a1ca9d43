package fanorona

import "bretter/game"

// A turn is packed into game.Move so that search code can hold it as a plain
// value. The first word holds the start point, the number of steps, whether
// the turn is a paika, and the first 13 steps; the second word holds the
// rest. Each step is 4 bits: its direction, and 1 for a capture by
// withdrawal (0 for approach, and for a paika). Unused bits are 0, so two
// equal turns are equal values.
//
//	A: bits 0-5 start point, 6-10 step count, 11 paika, 12-63 steps 0-12
//	B: bits 0-35 steps 13-21
//
// Every capturing step removes at least one of at most 22 enemy pieces, so
// no chain has more than 22 steps.
const (
	maxSteps   = 22
	stepsInA   = 13
	firstStepA = 12
	paikaFlag  = 1 << 11
	withdrawal = 8 // the step bit for a capture by withdrawal
)

func moveStart(m game.Move) int { return int(m.A & 63) }

func moveLen(m game.Move) int { return int(m.A >> 6 & 31) }

func isPaika(m game.Move) bool { return m.A&paikaFlag != 0 }

// moveStep returns step i: its direction and whether it captures by
// withdrawal.
func moveStep(m game.Move, i int) (d int, withdraw bool) {
	var s uint64
	if i < stepsInA {
		s = m.A >> uint(firstStepA+4*i)
	} else {
		s = m.B >> uint(4*(i-stepsInA))
	}
	return int(s & 7), s&withdrawal != 0
}

// chainStart is the empty capture chain from p, to be extended by addStep.
func chainStart(p int) game.Move { return game.Move{A: uint64(p)} }

// addStep appends a step to a move holding n steps.
func addStep(m game.Move, n, d int, withdraw bool) game.Move {
	s := uint64(d)
	if withdraw {
		s |= withdrawal
	}
	if n < stepsInA {
		m.A |= s << uint(firstStepA+4*n)
	} else {
		m.B |= s << uint(4*(n-stepsInA))
	}
	m.A = m.A&^(31<<6) | uint64(n+1)<<6
	return m
}

// prefix returns m cut to its first n steps.
func prefix(m game.Move, n int) game.Move {
	if n < stepsInA {
		m.A &= 1<<uint(firstStepA+4*n) - 1
		m.B = 0
	} else {
		m.B &= 1<<uint(4*(n-stepsInA)) - 1
	}
	m.A = m.A&^(31<<6) | uint64(n)<<6
	return m
}

func paikaMove(p, d int) game.Move {
	return game.Move{A: uint64(p) | 1<<6 | paikaFlag | uint64(d)<<firstStepA}
}

// wellFormed reports whether m is a value this package could have made:
// a start on the board, 1 to 22 steps, a paika of one plain step, and no
// stray bits. Whether the steps stay on lines is for the caller to see.
func wellFormed(m game.Move) bool {
	n := moveLen(m)
	if moveStart(m) >= points || n < 1 || n > maxSteps {
		return false
	}
	if isPaika(m) {
		if _, w := moveStep(m, 0); n != 1 || w {
			return false
		}
	}
	// A shift by 64 gives 0, so a full first word passes.
	if m.A>>uint(firstStepA+4*min(n, stepsInA)) != 0 {
		return false
	}
	return m.B>>uint(4*max(n-stepsInA, 0)) == 0
}
