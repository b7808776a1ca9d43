package havannah

import (
	"fmt"
	"strconv"
	"strings"

	"bretter/game"
)

// Notation: a cell is its row letter and its column number, both counted
// from the top-left corner a1 (see the corpus description of the board):
// row r is 'a'+r, column c is c+1, and (r, c) is on the board when
// |r−c| ≤ n−1. The pie rule's move is "swap".

// ParseMove reads a cell such as "e5", or "swap". Upper-case letters are
// accepted. It checks that the cell is on this board; Play decides the rest.
func (s *State) ParseMove(text string) (game.Move, error) {
	if strings.EqualFold(text, "swap") {
		return swapMove, nil
	}
	r, c, err := parseCell(text)
	if err != nil {
		return game.Move{}, err
	}
	n := s.geo.size
	if r > 2*n-2 || c > 2*n-2 || abs(r-c) > n-1 {
		return game.Move{}, game.Malformed(text, game.Because("why.havannah.not_on_board", "not on a board of side {side}", "side", n))
	}
	return game.Move{A: uint64(index(r, c))}, nil
}

// parseCell reads a letter and a number into a row and a column from 0.
func parseCell(text string) (r, c int, err error) {
	if len(text) < 2 || len(text) > 3 {
		return 0, 0, notACell(text)
	}
	letter := text[0] | 0x20 // lower case
	num, convErr := strconv.Atoi(text[1:])
	if letter < 'a' || letter > 'z' || convErr != nil || num < 1 || text[1] == '0' || text[1] == '+' || text[1] == '-' {
		return 0, 0, notACell(text)
	}
	return int(letter - 'a'), num - 1, nil
}

func notACell(text string) error {
	return game.Malformed(text, game.Because("why.havannah.not_a_cell", "not a cell (a letter and a number, like e5)"))
}

func (s *State) FormatMove(m game.Move) string {
	if m == swapMove {
		return "swap"
	}
	if c, ok := s.cellOf(m); ok {
		return s.name(c)
	}
	return fmt.Sprintf("?%x:%x", m.A, m.B)
}

// name is the notation of the grid cell c.
func (s *State) name(c int) string {
	return s.geo.names[c]
}
