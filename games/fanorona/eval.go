package fanorona

import (
	"math/bits"

	"bretter/game"
)

var (
	_ game.Evaluator = (*State)(nil)
	_ game.Hasher    = (*State)(nil)
)

// Evaluate scores the position for a depth-first search, from the view of
// the side to move: 100 for each piece more than the opponent, and 10 more
// when the side to move has a capture, since capture is compulsory and
// the side that takes first usually takes more.
func (s *State) Evaluate() int32 {
	own, enemy := s.pieces[s.toMove], s.pieces[s.toMove.Other()]
	v := 100 * int32(bits.OnesCount64(own)-bits.OnesCount64(enemy))
	if captureMovers(own, enemy) != 0 {
		v += 10
	}
	return v
}

// zobrist holds a random key per piece on each point, then one per value
// of the counter of turns without a capture and one for Black to move.
var zobrist = buildZobrist()

func buildZobrist() (t [2*points + drawAfter + 1]uint64) {
	// splitmix64 from a fixed seed: the same keys in every run.
	x := uint64(0x6fa0e7b0c3d2a1f5)
	for i := range t {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		t[i] = z ^ z>>31
	}
	return t
}

// Hash is the position's key: the pieces, the side to move and the count
// of turns without a capture, which decides when the game is drawn.
func (s *State) Hash() uint64 {
	var h uint64
	for side, set := range s.pieces {
		for ; set != 0; set &= set - 1 {
			h ^= zobrist[side*points+bits.TrailingZeros64(set)]
		}
	}
	h ^= zobrist[2*points+min(s.counter, drawAfter-1)]
	if s.toMove == game.Black {
		h ^= zobrist[len(zobrist)-1]
	}
	return h
}
