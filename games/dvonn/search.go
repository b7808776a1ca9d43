package dvonn

import (
	"math/bits"
	"math/rand/v2"

	"bretter/game"
)

// Perft counts the move sequences of the given length from s, a forced PASS
// being a move. A finished game has none, so its perft is 0 for depth ≥ 1.
func (s *State) Perft(depth int) uint64 { return perft(*s, depth) }

// perft takes its position by value: each move is tried on a copy that
// lives on the stack, which a recursive method on *State would not allow.
func perft(s State, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	if s.over {
		return 0
	}
	if s.ply < PlacementPlies {
		empty := board &^ s.occ
		if depth == 1 {
			return uint64(bits.OnesCount64(empty))
		}
		var n uint64
		for ; empty != 0; empty &= empty - 1 {
			c := s
			c.place(bits.TrailingZeros64(empty))
			n += perft(c, depth-1)
		}
		return n
	}
	var n uint64
	moved := false
	for m := s.movable(s.ToMove()); m != 0; m &= m - 1 {
		from := bits.TrailingZeros64(m)
		t := s.targets(from)
		moved = moved || t != 0
		if depth == 1 {
			n += uint64(bits.OnesCount64(t))
			continue
		}
		for ; t != 0; t &= t - 1 {
			c := s
			c.move(from, bits.TrailingZeros64(t))
			n += perft(c, depth-1)
		}
	}
	if !moved {
		// Not over, so the opponent can move: PASS is the only move.
		s.pass()
		return perft(s, depth-1)
	}
	return n
}

// RandomPlayout plays from s to the end of the game, choosing each move
// uniformly among the legal ones, and returns the winner (Nobody for a
// draw). It allocates nothing.
func (s *State) RandomPlayout(rng *rand.Rand) game.Player {
	// Each stack that can move, with where it can land: counting the
	// landings and then finding the chosen one costs less than listing
	// every move.
	var from [SpaceCount]uint8
	var to [SpaceCount]uint64
	for !s.over {
		if s.ply < PlacementPlies {
			empty := board &^ s.occ
			s.place(selectBit(empty, rng.IntN(bits.OnesCount64(empty))))
			continue
		}
		stacks, moves := 0, 0
		for m := s.movable(s.ToMove()); m != 0; m &= m - 1 {
			c := bits.TrailingZeros64(m)
			if t := s.targets(c); t != 0 {
				from[stacks], to[stacks] = uint8(c), t
				stacks++
				moves += bits.OnesCount64(t)
			}
		}
		if moves == 0 {
			s.pass()
			continue
		}
		k := rng.IntN(moves)
		i := 0
		for n := bits.OnesCount64(to[i]); k >= n; n = bits.OnesCount64(to[i]) {
			k -= n
			i++
		}
		s.move(int(from[i]), selectBit(to[i], k))
	}
	return s.leader()
}

// CopyFrom makes s a copy of src, which must be a DVONN state.
func (s *State) CopyFrom(src game.State) { *s = *src.(*State) }

// Rollout plays random moves to the end, for the computer opponent.
func (s *State) Rollout(rng *rand.Rand, record []game.Move) ([]game.Move, game.Outcome) {
	s.RandomPlayout(rng)
	return record, s.Outcome()
}
