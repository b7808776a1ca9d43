package fanorona

import (
	"math/bits"

	"bretter/game"
)

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
	w := walk{mode: listing, buf: buf}
	for ; movers != 0; movers &= movers - 1 {
		w.from(own, enemy, bits.TrailingZeros64(movers))
	}
	return w.buf
}
