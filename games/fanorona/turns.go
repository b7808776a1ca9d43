package fanorona

import (
	"math/bits"

	"bretter/game"
)

// The generators below share one walk. A capture chain is followed from the
// piece's current point p with rest (the side's other pieces), enemy (what
// is left of the other side), last (the direction of the previous step) and
// visited (every point the piece has stood on this turn, its start
// included). The first step is the same walk with last = noDir, so a
// turn's opening capture and its continuations obey one set of rules. The
// moving piece is left out of rest: its old points are all in visited, so
// open = free points not visited is all a step needs.

// captureMovers returns the pieces of own that can capture: by approach in
// d (the next point empty, the one after it an enemy) or by withdrawal in d
// (the next point empty, the one behind an enemy).
func captureMovers(own, enemy uint64) uint64 {
	empty := allPoints &^ (own | enemy)
	var m uint64
	for d := range 8 {
		m |= from(empty, d) & (from(from(enemy, d), d) | from(enemy, d^4))
	}
	return own & m
}

// canMove reports whether own has any turn at all: a capture needs an empty
// neighbour too, so a piece with none is stuck either way.
func canMove(own, enemy uint64) bool {
	empty := allPoints &^ (own | enemy)
	for d := range 8 {
		if own&from(empty, d) != 0 {
			return true
		}
	}
	return false
}

// paikaCount is the number of paika turns, for a side with no capture.
func paikaCount(own, enemy uint64) uint64 {
	empty := allPoints &^ (own | enemy)
	var n int
	for d := range 8 {
		n += bits.OnesCount64(own & from(empty, d))
	}
	return uint64(n)
}

// chainCount counts the turns that go on from p: every capturing step
// allowed there, each with all of its own continuations.
func chainCount(rest, enemy uint64, p, last int, visited uint64) uint64 {
	open := allPoints &^ (rest | enemy | visited)
	var n uint64
	for c := adjacent[p] & open &^ next[p][last]; c != 0; c &= c - 1 {
		q := bits.TrailingZeros64(c)
		d := int(towards[p][q])
		if enemy&after[p][d] != 0 {
			n++
			// Most chains cannot go on; see that before the call.
			if left := enemy &^ line(q, d, enemy); near[q]&left != 0 {
				n += chainCount(rest, left, q, d, visited|bit(q))
			}
		}
		if enemy&next[p][d^4] != 0 {
			n++
			if left := enemy &^ line(p, d^4, enemy); near[q]&left != 0 {
				n += chainCount(rest, left, q, d, visited|bit(q))
			}
		}
	}
	return n
}

// appendTurns appends every legal turn of own, without the draw rule.
func appendTurns(buf []game.Move, own, enemy uint64) []game.Move {
	movers := captureMovers(own, enemy)
	if movers == 0 {
		empty := allPoints &^ (own | enemy)
		for o := own; o != 0; o &= o - 1 {
			p := bits.TrailingZeros64(o)
			for d := range 8 {
				if empty&bit(int(neighbour[p][d])) != 0 {
					buf = append(buf, paikaMove(p, d))
				}
			}
		}
		return buf
	}
	for ; movers != 0; movers &= movers - 1 {
		p := bits.TrailingZeros64(movers)
		buf = appendChains(buf, chainStart(p), 0, own&^bit(p), enemy, p, noDir, bit(p))
	}
	return buf
}

// appendChains appends m (holding n steps) extended by every capturing step
// allowed from p, each followed by its own continuations.
func appendChains(buf []game.Move, m game.Move, n int, rest, enemy uint64, p, last int, visited uint64) []game.Move {
	if n == maxSteps {
		return buf
	}
	open := allPoints &^ (rest | enemy | visited)
	for c := adjacent[p] & open &^ next[p][last]; c != 0; c &= c - 1 {
		q := bits.TrailingZeros64(c)
		d := int(towards[p][q])
		if enemy&after[p][d] != 0 {
			ext := addStep(m, n, d, false)
			buf = append(buf, ext)
			buf = appendChains(buf, ext, n+1, rest, enemy&^line(q, d, enemy), q, d, visited|bit(q))
		}
		if enemy&next[p][d^4] != 0 {
			ext := addStep(m, n, d, true)
			buf = append(buf, ext)
			buf = appendChains(buf, ext, n+1, rest, enemy&^line(p, d^4, enemy), q, d, visited|bit(q))
		}
	}
	return buf
}
