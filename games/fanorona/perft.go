package fanorona

import "math/bits"

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
	var n uint64
	for ; movers != 0; movers &= movers - 1 {
		p := bits.TrailingZeros64(movers)
		if depth == 1 {
			n += chainCount(own&^bit(p), enemy, p, noDir, bit(p))
		} else {
			n += chainPerft(own&^bit(p), enemy, p, noDir, bit(p), depth)
		}
	}
	return n
}

// chainPerft is perft over the turns that go on from p (see chainCount):
// each capturing step ends one turn, whose position is searched to depth-1,
// and may open longer ones.
func chainPerft(rest, enemy uint64, p, last int, visited uint64, depth int) uint64 {
	open := allPoints &^ (rest | enemy | visited)
	var n uint64
	for c := adjacent[p] & open &^ next[p][last]; c != 0; c &= c - 1 {
		q := bits.TrailingZeros64(c)
		d := int(towards[p][q])
		if enemy&after[p][d] != 0 {
			left := enemy &^ line(q, d, enemy)
			n += perft(left, rest|bit(q), depth-1, 0)
			n += chainPerft(rest, left, q, d, visited|bit(q), depth)
		}
		if enemy&next[p][d^4] != 0 {
			left := enemy &^ line(p, d^4, enemy)
			n += perft(left, rest|bit(q), depth-1, 0)
			n += chainPerft(rest, left, q, d, visited|bit(q), depth)
		}
	}
	return n
}
