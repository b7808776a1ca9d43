// Package dvonn is the rules engine for DVONN: two players first fill the 49
// spaces of the board with their pieces and three red DVONN pieces, then
// move stacks onto other stacks; stacks cut off from every DVONN piece leave
// the board, and whoever tops the most pieces at the end wins. The rules,
// the coordinates and the notation are those of CodeCup 2011 and Little
// Golem. Positions are small plain values and move generation works on bit
// masks, so the engine is fast enough for random playouts.
package dvonn

import (
	"math/bits"

	"bretter/game"
)

const (
	// PlacementPlies is the length of the placement phase: one ply per space.
	PlacementPlies = SpaceCount
	dvonnPieces    = 3

	// A stack is packed into one byte: its height in the low six bits (at
	// most 49) and how many DVONN pieces it holds in the top two (at most 3).
	// Two stacks merge by adding their bytes.
	heightMask = 0x3f
	dvonnShift = 6
)

// Top colours of a removed stack, kept in State.gone above its height. A
// removed stack never holds a DVONN piece, so its top is never red.
const (
	topWhite = iota
	topBlack
)

// State is a DVONN position. It holds no history beyond the ply count and
// what the last move did, so copying the struct is a complete clone.
type State struct {
	stack [cells]uint8 // height and DVONN count of the stack on each cell, 0 when empty

	occ   uint64 // cells holding a stack
	white uint64 // stacks whose top piece is white
	black uint64 // stacks whose top piece is black
	dvonn uint64 // stacks holding at least one DVONN piece

	ply  int
	over bool // neither player can move a stack

	last    game.Move // the last move played, zero before the first
	removed uint64    // cells whose stacks the last move cut off
	// gone holds, for each cell in removed, the height of the stack cut off
	// there with its top colour above bit 6. It is zero everywhere else, so
	// that equal positions compare equal.
	gone [cells]uint8
}

// New returns the empty board before White places the first DVONN piece.
func New() *State { return &State{} }

// Game describes DVONN for the site: it has no options.
func Game() game.Game {
	return game.Game{
		Name: "dvonn",
		New:  func(game.Options) (game.State, error) { return New(), nil },
	}
}

// ToMove is the player whose turn it is. White places on odd plies; once
// the board is full White moves first, so White plays plies 49 and 50.
func (s *State) ToMove() game.Player {
	if (s.ply < PlacementPlies) == (s.ply%2 == 0) {
		return game.White
	}
	return game.Black
}

// Ply is the number of moves played, passes included.
func (s *State) Ply() int { return s.ply }

// Placing reports whether the game is still in the placement phase.
func (s *State) Placing() bool { return s.ply < PlacementPlies }

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// own returns the stacks whose top piece is p's.
func (s *State) own(p game.Player) uint64 {
	if p == game.White {
		return s.white
	}
	return s.black
}

// movable returns p's stacks that are free to move, before looking at
// where they could land. A lone DVONN piece is nobody's, so it never moves.
func (s *State) movable(p game.Player) uint64 {
	return s.own(p) &^ surrounded(s.occ)
}

// targets returns where the stack on c can land.
func (s *State) targets(c int) uint64 {
	h := int(s.stack[c] & heightMask)
	if h > maxReach {
		return 0
	}
	return reach[h][c] & s.occ
}

// hasMove reports whether p has a stack move.
func (s *State) hasMove(p game.Player) bool {
	for m := s.movable(p); m != 0; m &= m - 1 {
		if s.targets(bits.TrailingZeros64(m)) != 0 {
			return true
		}
	}
	return false
}

// Legal appends every legal move to buf: the empty spaces while placing,
// then every stack move, or PASS when the player to move has none.
func (s *State) Legal(buf []game.Move) []game.Move {
	if s.over {
		return buf
	}
	if s.ply < PlacementPlies {
		for m := board &^ s.occ; m != 0; m &= m - 1 {
			buf = append(buf, placeMove(bits.TrailingZeros64(m)))
		}
		return buf
	}
	n := len(buf)
	for m := s.movable(s.ToMove()); m != 0; m &= m - 1 {
		from := bits.TrailingZeros64(m)
		for t := s.targets(from); t != 0; t &= t - 1 {
			buf = append(buf, stackMove(from, bits.TrailingZeros64(t)))
		}
	}
	if len(buf) == n {
		buf = append(buf, passMove)
	}
	return buf
}

// Forced returns PASS when it is the only legal move, so that the site can
// play it without asking the player.
func (s *State) Forced() (game.Move, bool) {
	if s.over || s.ply < PlacementPlies || s.hasMove(s.ToMove()) {
		return game.Move{}, false
	}
	return passMove, true
}

// Play plays m, or says why it is illegal and leaves the state unchanged.
func (s *State) Play(m game.Move) error {
	if s.over {
		return game.AfterEnd(FormatMove(m))
	}
	if why := s.check(m); why.Key != "" {
		return game.Illegal(FormatMove(m), why)
	}
	s.apply(m)
	return nil
}

// check returns why m is illegal, or no reason (an empty Key).
func (s *State) check(m game.Move) game.Reason {
	kind, from, to, ok := decode(m)
	if !ok {
		return game.Because("why.dvonn.not_dvonn", "not a DVONN move")
	}
	if s.ply < PlacementPlies {
		switch {
		case kind == kindStack:
			return game.Because("why.dvonn.still_placing", "stacks move only after all {pieces} pieces are placed", "pieces", PlacementPlies)
		case kind == kindPass:
			return game.Because("why.dvonn.no_pass_placing", "no passing while pieces are placed")
		case s.occ&(1<<to) != 0:
			return game.Because("why.dvonn.occupied", "{space} is occupied", "space", spaceName(to))
		}
		return game.Reason{}
	}
	p := s.ToMove()
	switch kind {
	case kindPlace:
		return game.Because("why.dvonn.all_placed", "all pieces are placed, now stacks move")
	case kindPass:
		if s.hasMove(p) {
			if p == game.White {
				return game.Because("why.dvonn.no_pass_white", "no passing while White can move a stack")
			}
			return game.Because("why.dvonn.no_pass_black", "no passing while Black can move a stack")
		}
		return game.Reason{}
	}
	bit := uint64(1) << from
	switch {
	case s.occ&bit == 0:
		return game.Because("why.dvonn.empty", "{space} is empty", "space", spaceName(from))
	case s.occ&^(s.white|s.black)&bit != 0:
		return game.Because("why.dvonn.lone_dvonn", "a lone DVONN piece never moves")
	case s.own(p)&bit == 0 && p == game.White:
		return game.Because("why.dvonn.black_stack", "the stack at {space} is Black's", "space", spaceName(from))
	case s.own(p)&bit == 0:
		return game.Because("why.dvonn.white_stack", "the stack at {space} is White's", "space", spaceName(from))
	case surrounded(s.occ)&bit != 0:
		return game.Because("why.dvonn.surrounded", "the stack at {space} is surrounded", "space", spaceName(from))
	}
	h := int(s.stack[from] & heightMask)
	if h > maxReach || reach[h][from]&(1<<to) == 0 {
		return game.Because("why.dvonn.height", "a stack moves exactly its height ({height}) in a straight line", "height", h)
	}
	if s.occ&(1<<to) == 0 {
		return game.Because("why.dvonn.land_empty", "a stack must land on another stack, and {space} is empty", "space", spaceName(to))
	}
	return game.Reason{}
}

// apply plays a move that check accepted.
func (s *State) apply(m game.Move) {
	kind, from, to, _ := decode(m)
	switch kind {
	case kindPlace:
		s.place(to)
	case kindStack:
		s.move(from, to)
	default:
		s.pass()
	}
}

// place puts the next piece on the empty cell c.
func (s *State) place(c int) {
	s.clearGone()
	bit := uint64(1) << c
	s.occ |= bit
	switch {
	case s.ply < dvonnPieces:
		s.stack[c] = 1 | 1<<dvonnShift
		s.dvonn |= bit
	case s.ToMove() == game.White:
		s.stack[c] = 1
		s.white |= bit
	default:
		s.stack[c] = 1
		s.black |= bit
	}
	s.last = placeMove(c)
	s.ply++
	if s.ply == PlacementPlies {
		s.settle()
	}
}

// move puts the stack on from on top of the stack on to and removes what
// that cuts off from the DVONN pieces.
func (s *State) move(from, to int) {
	s.clearGone()
	fromBit, toBit := uint64(1)<<from, uint64(1)<<to
	s.stack[to] += s.stack[from]
	s.stack[from] = 0
	s.occ &^= fromBit
	if s.white&fromBit != 0 {
		s.white = s.white&^fromBit | toBit
		s.black &^= toBit
	} else {
		s.black = s.black&^fromBit | toBit
		s.white &^= toBit
	}
	if s.dvonn&fromBit != 0 {
		s.dvonn = s.dvonn&^fromBit | toBit
	}
	s.cutOff()
	s.last = stackMove(from, to)
	s.ply++
	s.settle()
}

// pass hands the turn over. The game cannot end here: PASS is legal only
// when the opponent, who moves next, has a move.
func (s *State) pass() {
	s.clearGone()
	s.last = passMove
	s.ply++
}

// cutOff removes, all at once, every stack not linked to a DVONN piece
// through a chain of neighbouring stacks.
func (s *State) cutOff() {
	keep := s.dvonn
	for {
		next := keep | spread(keep)&s.occ
		if next == keep {
			break
		}
		keep = next
	}
	cut := s.occ &^ keep
	if cut == 0 {
		return
	}
	for m := cut; m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		top := uint8(topBlack)
		if s.white&(1<<c) != 0 {
			top = topWhite
		}
		s.gone[c] = s.stack[c] | top<<dvonnShift
		s.stack[c] = 0
	}
	s.removed = cut
	s.occ &^= cut
	s.white &^= cut
	s.black &^= cut
}

// clearGone forgets what the previous move removed.
func (s *State) clearGone() {
	for m := s.removed; m != 0; m &= m - 1 {
		s.gone[bits.TrailingZeros64(m)] = 0
	}
	s.removed = 0
}

// settle ends the game when, in the stacking phase, neither player can move
// a stack.
func (s *State) settle() {
	p := s.ToMove()
	if !s.hasMove(p) && !s.hasMove(p.Other()) {
		s.over = true
	}
}

// Score returns the total height of the stacks topped by each colour. A
// lone DVONN piece counts for nobody.
func (s *State) Score() (white, black int) {
	for m := s.white; m != 0; m &= m - 1 {
		white += int(s.stack[bits.TrailingZeros64(m)] & heightMask)
	}
	for m := s.black; m != 0; m &= m - 1 {
		black += int(s.stack[bits.TrailingZeros64(m)] & heightMask)
	}
	return white, black
}

// LastCaptured returns how many pieces the last move cut off the board.
func (s *State) LastCaptured() int {
	n := 0
	for m := s.removed; m != 0; m &= m - 1 {
		n += int(s.gone[bits.TrailingZeros64(m)] & heightMask)
	}
	return n
}

// Outcome reports the end of the game: once neither player can move, the
// higher score wins and equal scores draw, both with the reason "score".
func (s *State) Outcome() game.Outcome {
	if !s.over {
		return game.Outcome{Winner: game.Nobody}
	}
	return game.Outcome{Over: true, Winner: s.leader(), Reason: "score"}
}

// leader returns the player with the higher score, or Nobody.
func (s *State) leader() game.Player {
	w, b := s.Score()
	switch {
	case w > b:
		return game.White
	case b > w:
		return game.Black
	}
	return game.Nobody
}
