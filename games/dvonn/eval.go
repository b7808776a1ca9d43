package dvonn

import (
	"encoding/binary"
	"math/bits"

	"bretter/game"
)

// What the computer opponent's depth-first search asks of DVONN: a score
// for a position (Evaluate), a key for its table of positions (Hash) and
// an opinion of each move to try the likely good ones first (Prior).
//
// The score counts, for each side, what keeps stacks alive until the end.
// Every space has a worth, higher near the DVONN pieces, where stacks are
// the hardest to cut off, and highest on a stack holding one. A side gets
// the worth of each space it tops and of each space its stacks could move
// to, even the stacks that are surrounded now; of a stack free to move,
// a move onto an enemy stack (taking it over) and onto a DVONN piece
// (making the stack safe) count again. Heights count only at the end of
// the game, which the search sees as a win or a loss. While pieces are
// placed, pieces near the DVONN pieces live longest, and a piece needs
// spaces around it that are not its own side's. Spaces on the edge get
// nothing: their pieces are free to move first, but far from the DVONN
// pieces they are the first cut off, and favouring them lost matches.

// Weights of the evaluation, in points; a stack is worth about a hundred.
const (
	evStack   = 100 // a stack topped by the side, on a space of plain worth
	evMove    = 25  // a space a stack of the side could move to
	evTake    = 20  // … an enemy stack, for a stack free to move
	evToDvonn = 20  // … a stack holding a DVONN piece, for a stack free to move
	evTempo   = 0   // the side to move (none for now)

	// Placement.
	evPlaceNear   = 20 // a piece next to a DVONN piece
	evPlaceNearer = 8  // two steps away
	evPlaceFar    = -1 // per step from each DVONN piece
	evPlaceHemmed = -5 // per space a piece lacks of two around it not its side's
)

// centre is how far each cell is from the middle space F3.
var centre = func() (d [cells]int8) {
	for _, c := range spaces {
		d[c] = int8(distance(int(c), cellOf(5, 2)))
	}
	return d
}()

// distance is the number of steps between two spaces.
func distance(a, b int) int {
	ac, ar := colRow(a)
	bc, br := colRow(b)
	dc, dr := bc-ac, br-ar
	if dc*dr > 0 {
		return max(abs(dc), abs(dr))
	}
	return abs(dc) + abs(dr)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Evaluate scores the position for the player to move, in points (a
// stack is about a hundred).
func (s *State) Evaluate() int32 {
	p := s.ToMove()
	if s.ply < PlacementPlies {
		return s.placementScore(p) - s.placementScore(p.Other())
	}
	w := s.worth()
	return (s.stackScore(p, &w)-s.stackScore(p.Other(), &w))/64 + evTempo
}

// worth returns the worth of every space in the stacking phase, in
// 64ths: 64 for any space, and for each DVONN piece 64 more on its own
// space, 16 next to it, 4 two steps away and 1 three steps away. Stacks
// near DVONN pieces are the last to be cut off, and a stack holding one
// never is.
func (s *State) worth() (w [cells]int32) {
	for _, c := range spaces {
		w[c] = 64
	}
	for d := s.dvonn; d != 0; d &= d - 1 {
		near := &dvonnWorth[bits.TrailingZeros64(d)]
		for _, c := range spaces {
			w[c] += int32(near[c])
		}
	}
	return w
}

// dvonnWorth[d][c] is what a DVONN piece on d adds to the worth of c.
var dvonnWorth = func() (t [cells][cells]int8) {
	for _, d := range spaces {
		for _, c := range spaces {
			if k := distance(int(d), int(c)); k <= 3 {
				t[d][c] = int8(64 >> (2 * k))
			}
		}
	}
	return t
}()

// stackScore is what p has in the stacking phase, in 64ths of a point:
// the worth of each space p tops, and of each space one of p's stacks
// could move to, more when the stack is free to move now and the target
// holds a DVONN piece or is the enemy's.
func (s *State) stackScore(p game.Player, w *[cells]int32) int32 {
	own, foe := s.own(p), s.own(p.Other())
	free := ^surrounded(s.occ)
	var stacks, moves, toDvonn, take int32
	for m := own; m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		stacks += w[c]
		t := s.targets(c)
		for tm := t; tm != 0; tm &= tm - 1 {
			moves += w[bits.TrailingZeros64(tm)]
		}
		if free&(1<<c) == 0 {
			continue
		}
		for tm := t & (s.dvonn | foe); tm != 0; tm &= tm - 1 {
			to := bits.TrailingZeros64(tm)
			if s.dvonn&(1<<to) != 0 {
				toDvonn += w[to]
			}
			if foe&(1<<to) != 0 {
				take += w[to]
			}
		}
	}
	return evStack*stacks + evMove*moves + evToDvonn*toDvonn + evTake*take
}

// placementScore is what p's pieces are worth while pieces are placed.
func (s *State) placementScore(p game.Player) int32 {
	own := s.own(p)
	near := spread(s.dvonn) & board
	nearer := spread(near) & board &^ near
	var score int32
	score += evPlaceNear * int32(bits.OnesCount64(own&near))
	score += evPlaceNearer * int32(bits.OnesCount64(own&nearer))
	for d := s.dvonn; d != 0; d &= d - 1 {
		ring := uint64(1) << bits.TrailingZeros64(d)
		seen := ring
		for step := int32(1); step <= 10 && seen != board; step++ {
			ring = spread(ring) & board &^ seen
			seen |= ring
			score += evPlaceFar * step * int32(bits.OnesCount64(own&ring))
		}
	}
	return score + evPlaceHemmed*hemmed(own)
}

// hemmed counts, over the pieces of own, the spaces each lacks of the two
// neighbouring spaces not its side's that it needs: a piece among its own
// can only ever stack onto them, and it gives the enemy a tall stack to
// take over.
func hemmed(own uint64) int32 {
	var n int32
	for m := own; m != 0; m &= m - 1 {
		around := spread(uint64(1)<<bits.TrailingZeros64(m)) & board
		if free := bits.OnesCount64(around &^ own); free < 2 {
			n += int32(2 - free)
		}
	}
	return n
}

// Prior likes moves onto enemy stacks and onto DVONN pieces and dislikes
// moves onto the mover's own stacks; while placing it likes spaces near
// the middle and near DVONN pieces.
func (s *State) Prior(m game.Move) float32 {
	kind, _, to, ok := decode(m)
	if !ok {
		return 0.5
	}
	bit := uint64(1) << to
	switch kind {
	case kindPlace:
		v := 0.6 - 0.03*float32(centre[to])
		if spread(s.dvonn)&bit != 0 {
			v += 0.2
		}
		return v
	case kindStack:
		switch {
		case s.dvonn&bit != 0:
			return 0.6
		case s.own(s.ToMove().Other())&bit != 0:
			return 0.8
		}
		return 0.3
	}
	return 0.5
}

// Hash is a 64-bit key of the position: the stacks, who tops each one and
// the player to move. Equal positions reached by different moves have the
// same key.
func (s *State) Hash() uint64 {
	h := uint64(s.ToMove()) + 0x51ed2701a3b4c5d7
	for i := 0; i+8 <= cells; i += 8 {
		h = hashMix(h ^ binary.LittleEndian.Uint64(s.stack[i:]))
	}
	h = hashMix(h ^ uint64(binary.LittleEndian.Uint32(s.stack[cells-4:])))
	h = hashMix(h ^ s.white)
	return hashMix(h ^ s.black)
}

// hashMix is the finaliser of SplitMix64.
func hashMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
