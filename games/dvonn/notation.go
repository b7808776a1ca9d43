package dvonn

import (
	"fmt"

	"bretter/game"
)

// A move is packed into game.Move.A: the destination cell in bits 0–7, the
// source cell of a stack move in bits 8–15 and the kind in bits 16–17. The
// zero Move has no kind, so it is never a move. B is always 0.
const (
	kindPlace = 1 << 16
	kindStack = 2 << 16
	kindPass  = 3 << 16
	kindMask  = 3 << 16
)

var passMove = game.Move{A: kindPass}

func placeMove(c int) game.Move { return game.Move{A: kindPlace | uint64(c)} }

func stackMove(from, to int) game.Move {
	return game.Move{A: kindStack | uint64(from)<<8 | uint64(to)}
}

// decode splits m into its kind and cells. ok is false for a value no move
// of this package packs into.
func decode(m game.Move) (kind uint64, from, to int, ok bool) {
	if m.B != 0 || m.A&^(kindMask|0xffff) != 0 {
		return 0, 0, 0, false
	}
	kind, from, to = m.A&kindMask, int(m.A>>8&0xff), int(m.A&0xff)
	switch kind {
	case kindPlace:
		return kind, 0, to, from == 0 && isSpace(to)
	case kindStack:
		return kind, from, to, isSpace(from) && isSpace(to) && from != to
	case kindPass:
		return kind, 0, 0, m.A == kindPass
	}
	return 0, 0, 0, false
}

func isSpace(c int) bool { return c >= 0 && c < cells && board&(1<<c) != 0 }

// spaceName writes cell c as a space, such as "C3".
func spaceName(c int) string {
	col, row := colRow(c)
	return string([]byte{'A' + byte(col), '1' + byte(row)})
}

// parseSpace reads one space, in either case.
func parseSpace(s string) (int, bool) {
	if len(s) != 2 {
		return 0, false
	}
	letter, digit := s[0]|0x20, s[1] // |0x20 lowers an ASCII letter
	if letter < 'a' || letter > 'k' || digit < '1' || digit > '5' {
		return 0, false
	}
	col, row := int(letter-'a'), int(digit-'1')
	if !onBoard(col, row) {
		return 0, false
	}
	return cellOf(col, row), true
}

// ParseMove reads a placement ("C3"), a stack move ("C3D4") or "PASS". Lower
// case, as Little Golem writes, is accepted too. Only the form is checked:
// both spaces must be on the board and a stack move must leave its space.
func (s *State) ParseMove(text string) (game.Move, error) {
	return ParseMove(text)
}

// ParseMove is State.ParseMove, for callers without a position.
func ParseMove(text string) (game.Move, error) {
	switch len(text) {
	case 2:
		if c, ok := parseSpace(text); ok {
			return placeMove(c), nil
		}
	case 4:
		if isPass(text) {
			return passMove, nil
		}
		from, ok1 := parseSpace(text[:2])
		to, ok2 := parseSpace(text[2:])
		if ok1 && ok2 {
			if from == to {
				return game.Move{}, game.Malformed(text, game.Because("why.dvonn.stay", "a stack move must leave its space"))
			}
			return stackMove(from, to), nil
		}
	}
	return game.Move{}, game.Malformed(text, game.Because("why.dvonn.not_a_move", "want a space such as C3, two spaces such as C3D4, or PASS"))
}

func isPass(s string) bool {
	const want = "PASS"
	for i := range len(want) {
		if s[i]&^0x20 != want[i] { // &^0x20 raises an ASCII letter
			return false
		}
	}
	return true
}

// FormatMove writes m in upper case, such as "C3", "C3D4" or "PASS".
func (s *State) FormatMove(m game.Move) string { return FormatMove(m) }

// FormatMove is State.FormatMove, for callers without a position.
func FormatMove(m game.Move) string {
	kind, from, to, ok := decode(m)
	if !ok {
		return fmt.Sprintf("invalid(%#x,%#x)", m.A, m.B)
	}
	switch kind {
	case kindPlace:
		return spaceName(to)
	case kindStack:
		return spaceName(from) + spaceName(to)
	}
	return "PASS"
}
