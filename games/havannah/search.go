package havannah

import (
	"math/bits"
	"math/rand/v2"

	"bretter/game"
)

// What the computer opponent needs beyond the rules: a rollout policy
// with the game's knowledge, a cheap test for a winning move, the
// opponent's threats, and a prior opinion of each move.

var (
	_ game.Copier         = (*State)(nil)
	_ game.Rollouter      = (*State)(nil)
	_ game.ReplyRollouter = (*State)(nil)
	_ game.MoveIndexer    = (*State)(nil)
	_ game.WinChecker     = (*State)(nil)
	_ game.ThreatFinder   = (*State)(nil)
	_ game.Prior          = (*State)(nil)
)

// CopyFrom makes s a copy of src, which must be a Havannah state.
func (s *State) CopyFrom(src game.State) { *s = *src.(*State) }

// MoveIndex numbers a move by its grid cell; swap comes after them all.
func (s *State) MoveIndex(m game.Move) int {
	if m == swapMove {
		return gridSize
	}
	return int(m.A & gridMask)
}

// MoveIndexes is one more than the largest move index.
func (s *State) MoveIndexes() int { return gridSize + 1 }

// WinsNow reports whether m completes a ring, bridge or fork.
func (s *State) WinsNow(m game.Move) bool { return s.WouldWin(m) != 0 }

// Threats appends the empty cells where the opponent of the player to
// move would complete a structure.
func (s *State) Threats(buf []game.Move) []game.Move {
	if s.over() {
		return buf
	}
	opp := 2 - uint8(s.ply&1)
	for _, c := range s.geo.cells {
		if s.cell[c] != empty {
			continue
		}
		if own := s.around(int(c), opp); own != 0 {
			if won, _ := s.judge(int(c), opp, own); won != 0 {
				buf = append(buf, game.Move{A: uint64(c)})
			}
		}
	}
	return buf
}

// Prior favours moves next to stones and two-bridges from the mover's
// own stones, and disfavours lone stones on the edge.
func (s *State) Prior(m game.Move) float32 {
	c, ok := s.cellOf(m)
	if !ok {
		return 0.5
	}
	colour := uint8(s.ply&1) + 1
	near := bits.OnesCount8(s.around(c, colour)) + bits.OnesCount8(s.around(c, 3-colour))
	p := float32(0.45)
	if near > 0 {
		p += 0.1
	}
	if s.bridges(c, colour) {
		p += 0.1
	}
	if near == 0 && s.geo.edge[c]&sideBits != 0 {
		p -= 0.15
	}
	return p
}

// bridges reports whether a stone of colour on c would make a two-bridge
// with one of colour's stones: both cells between them empty.
func (s *State) bridges(c int, colour uint8) bool {
	for i, d := range dirs {
		e := dirs[(i+1)%6]
		b := (c + d + e) & gridMask
		if s.geo.on[b] && s.cell[b] == colour && s.isEmpty(c+d) && s.isEmpty(c+e) {
			return true
		}
	}
	return false
}

func (s *State) isEmpty(c int) bool {
	c &= gridMask
	return s.geo.on[c] && s.cell[c] == empty
}

// Rollout plays to the end of the game. Each move takes, in this order: a
// win next to the mover's last stone, a block of the opponent's win next
// to the opponent's last stone, the rescue of a two-bridge that the
// opponent's last stone cut into; otherwise a random empty cell. It never
// swaps, and it records each stone in record.
func (s *State) Rollout(rng *rand.Rand, record []game.Move) ([]game.Move, game.Outcome) {
	return s.RolloutReplying(rng, record, nil)
}

// RolloutReplying is Rollout that, before a random cell, tries the last
// good reply to the opponent's last stone when replies is not nil.
func (s *State) RolloutReplying(rng *rand.Rand, record []game.Move, replies *game.Replies) ([]game.Move, game.Outcome) {
	var empties, pos [gridSize]int16
	n := 0
	for _, c := range s.geo.cells {
		if s.cell[c] == empty {
			pos[c] = int16(n)
			empties[n] = c
			n++
		}
	}
	r := wyrand(rng.Uint64())
	mine, theirs := -1, -1
	if s.stones > 0 {
		theirs = int(s.last)
	}
	for n > 0 && s.won == 0 {
		c := s.urgent(mine, theirs)
		if c < 0 && replies != nil && theirs >= 0 {
			if r := replies.Reply(s.ToMove(), theirs); r >= 0 && r < gridSize && s.isEmpty(r) {
				c = r
			}
		}
		if c < 0 {
			c = int(empties[r.below(n)&gridMask])
		}
		i := pos[c&gridMask]
		n--
		moved := empties[n&gridMask]
		empties[i&gridMask] = moved
		pos[moved&gridMask] = i
		s.place(c)
		record = append(record, game.Move{A: uint64(c)})
		mine, theirs = theirs, c
	}
	return record, s.Outcome()
}

// urgent returns the cell the rollout policy must play, or -1.
func (s *State) urgent(mine, theirs int) int {
	colour := uint8(s.ply&1) + 1
	if mine >= 0 {
		if c := s.winNextTo(mine, colour); c >= 0 {
			return c
		}
	}
	if theirs < 0 {
		return -1
	}
	if c := s.winNextTo(theirs, 3-colour); c >= 0 {
		return c
	}
	own := s.around(theirs, colour)
	for i := range 6 {
		if own>>i&1 == 1 && own>>((i+2)%6)&1 == 1 && own>>((i+1)%6)&1 == 0 {
			if c := theirs + dirs[(i+1)%6]; s.isEmpty(c) {
				return c
			}
		}
	}
	return -1
}

// winNextTo returns an empty neighbour of c where a stone of colour would
// win, or -1; c holds a stone of colour.
func (s *State) winNextTo(c int, colour uint8) int {
	for _, d := range dirs {
		x := c + d
		if !s.isEmpty(x) {
			continue
		}
		own := s.around(x, colour)
		if p := &patterns[own]; p.runs < 2 && p.middles == 0 && s.geo.edge[x&gridMask] == 0 {
			// One run of neighbours, no edge: the stone only grows one
			// group, which has not won, and closes no ring.
			continue
		}
		if won, _ := s.judge(x, colour, own); won != 0 {
			return x
		}
	}
	return -1
}
