package cli

import (
	"strconv"
	"strings"

	"bretter/games/havannah"
)

// drawHavannah writes the board as text, laid out like Castro's showboard
// so that a reader of either program finds the same picture: row letters
// on the left, column numbers along the top and down the right-hand side,
// O for white, @ for black and the last stone in brackets.
//
//	     1 2 3 4
//	   a . . . . 5
//	  b . . O . . 6
//	 c . . . . . . 7
//	d . . . .[@]. .
//	 e . . . . . .
//	  f . . . . .
//	   g . . . .
func drawHavannah(s *havannah.State) string {
	v := s.View().(havannah.View)
	n := v.Size
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", n+2))
	for c := 1; c <= n; c++ {
		b.WriteString(" " + strconv.Itoa(c))
	}
	next := 0 // index into v.Stones, which is row-major from a1
	for r := 0; r <= 2*n-2; r++ {
		b.WriteByte('\n')
		indent := r - (n - 1)
		if indent < 0 {
			indent = -indent
		}
		row := []byte(strings.Repeat(" ", 1+indent) + string(rune('a'+r)) + " ")
		first, last := max(0, r-n+1), min(2*n-2, r+n-1)
		for c := first; c <= last; c++ {
			at := len(row)
			row = append(row, stoneChar(v.Stones[next]), ' ')
			if v.Last == string(rune('a'+r))+strconv.Itoa(c+1) {
				row[at-1], row[at+1] = '[', ']'
			}
			next++
		}
		if r < n-1 {
			row = append(row, strconv.Itoa(last+2)...)
		}
		b.WriteString(strings.TrimRight(string(row), " "))
	}
	return b.String()
}

// stoneChar is how a cell of the view's stones looks on the text board.
func stoneChar(c byte) byte {
	switch c {
	case 'w':
		return 'O'
	case 'b':
		return '@'
	}
	return '.'
}
