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
// The score counts, for each side, what decides the end and what keeps
// stacks alive until then. The stacks a side tops will be its pieces at
// the end if they survive, and stacks next to a DVONN piece are the hardest
// to cut off. Every move a stack has is a choice kept open, more so onto a
// stack by a DVONN piece; a move onto an enemy stack takes it over, and one
// onto a DVONN piece makes the stack safe. The height of the stacks a side
// tops is the result itself; it counts once few stacks are left and little
// can change. While pieces are placed, pieces near the DVONN pieces live
// longest, and pieces on the edge are the only ones free to move when the
// stacking starts.

// Weights of the evaluation, in points; a stack is worth about a hundred.
const (
	evStack     = 100 // a stack topped by the side
	evNearDvonn = 25  // … next to a DVONN piece
	evNearer    = 8   // … two steps from one
	evLatePiece = 20  // a piece in a stack the side tops, once few stacks are left
	evMove      = 25  // a legal stack move
	evMoveNear  = 10  // … onto a stack next to a DVONN piece
	evTake      = 20  // a move onto an enemy stack
	evToDvonn   = 20  // a move onto a stack holding a DVONN piece
	evTempo     = 0   // the side to move (none for now)

	// Placement.
	evPlaceNear   = 14 // a piece next to a DVONN piece
	evPlaceNearer = 6  // two steps away
	evPlaceFar    = -1 // per step from each DVONN piece
	evPlaceEdge   = 6  // on the edge: never surrounded, so free to move first
	evPlaceFriend = -2 // an own piece next to it: clumps give the enemy targets
)

var (
	// edge has a bit for every space with fewer than six neighbours.
	edge = board &^ surrounded(board)

	// centre is how far each cell is from the middle space F3.
	centre = func() (d [cells]int8) {
		for _, c := range spaces {
			d[c] = int8(distance(int(c), cellOf(5, 2)))
		}
		return d
	}()
)

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
	return s.stackScore(p) - s.stackScore(p.Other()) + evTempo
}

// stackScore is what p has in the stacking phase.
func (s *State) stackScore(p game.Player) int32 {
	own, foe := s.own(p), s.own(p.Other())
	near := spread(s.dvonn) & s.occ
	nearer := spread(near) & s.occ &^ near
	stacks := bits.OnesCount64(s.occ)
	perPiece := int32(evLatePiece * max(0, 20-stacks) / 20)

	var score, height int32
	score += evStack * int32(bits.OnesCount64(own))
	score += evNearDvonn * int32(bits.OnesCount64(own&near))
	score += evNearer * int32(bits.OnesCount64(own&nearer))
	free := ^surrounded(s.occ)
	for m := own; m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		h := int(s.stack[c] & heightMask)
		height += int32(h)
		if h > maxReach || free&(1<<c) == 0 {
			continue
		}
		t := s.targets(c)
		score += evMove*int32(bits.OnesCount64(t)) + evMoveNear*int32(bits.OnesCount64(t&near)) +
			evTake*int32(bits.OnesCount64(t&foe)) + evToDvonn*int32(bits.OnesCount64(t&s.dvonn))
	}
	return score + perPiece*height
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
	score += evPlaceEdge * int32(bits.OnesCount64(own&edge))
	for m := own; m != 0; m &= m - 1 {
		around := spread(uint64(1) << bits.TrailingZeros64(m))
		score += evPlaceFriend * int32(bits.OnesCount64(around&own))
	}
	return score
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
