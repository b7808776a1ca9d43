package fanorona

import (
	"math/bits"
)

// Perft counts the sequences of depth legal turns from s: the number every
// independent implementation must agree on. Every prefix of a capture chain
// is a turn of its own, and the draw rule applies. It walks bit sets only;
// the last level is counted without playing its turns.
func (s *State) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if s.result != ongoing {
		return 0
	}
	return perft(s.pieces[s.toMove], s.pieces[s.toMove.Other()], depth, s.counter)
}

func perft(own, enemy uint64, depth, counter int) uint64 {
	if counter >= drawAfter {
		return 0
	}
	movers := captureMovers(own, enemy)
	if movers == 0 {
		if depth == 1 {
			return paikaCount(own, enemy)
		}
		empty := allPoints &^ (own | enemy)
		var n uint64
		for d := range 8 {
			for m := own & from(empty, d); m != 0; m &= m - 1 {
				p := bits.TrailingZeros64(m)
				n += perft(enemy, own^bit(p)^bit(int(neighbour[p][d])), depth-1, counter+1)
			}
		}
		return n
	}
	if depth == 1 {
		// The last level only counts the turns.
		w := walk{mode: counting}
		var n uint64
		for ; movers != 0; movers &= movers - 1 {
			n += w.from(own, enemy, bits.TrailingZeros64(movers))
		}
		return n
	}
	// Each capturing turn's position is searched to depth-1.
	w := walk{mode: perfting, depth: depth}
	for ; movers != 0; movers &= movers - 1 {
		w.from(own, enemy, bits.TrailingZeros64(movers))
	}
	return w.n
}
