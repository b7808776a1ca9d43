package dvonn

import "math/bits"

// The 49 spaces live in a grid of 5 rows of 12 cells: columns A–K are 0–10
// and the twelfth column is never on the board. That spare column keeps a
// shift by one cell from wrapping onto a space of the next or previous row,
// so a whole set of spaces (a uint64 with one bit per cell) can be moved to
// its neighbours with six shifts.
const (
	rows      = 5
	rowStride = 12
	cells     = rows * rowStride

	// SpaceCount is the number of spaces on the board.
	SpaceCount = 49
)

// The six directions, as (column, row) steps. (+1,−1) and (−1,+1) are not
// among them: A2 and B1 do not touch.
var dirCol = [6]int{1, 1, 0, -1, -1, 0}
var dirRow = [6]int{0, 1, 1, 0, -1, -1}

// maxReach is the longest straight line from one space to another; a taller
// stack can never move.
const maxReach = 10

func onBoard(col, row int) bool {
	return row >= 0 && row < rows && col >= 0 && col <= 10 && col-row >= -2 && col-row <= 8
}

func cellOf(col, row int) int { return row*rowStride + col }

func colRow(c int) (col, row int) { return c % rowStride, c / rowStride }

var (
	// spaces lists the cells of the board in row-major order (A1 … K5).
	spaces = func() (s [SpaceCount]int8) {
		n := 0
		for row := range rows {
			for col := range rowStride {
				if onBoard(col, row) {
					s[n] = int8(cellOf(col, row))
					n++
				}
			}
		}
		return s
	}()

	// board has a bit for every cell that is a space.
	board = func() (m uint64) {
		for _, c := range spaces {
			m |= 1 << c
		}
		return m
	}()

	// reach[h][c] holds the spaces a stack of height h on c could land on,
	// one in each direction that stays on the board.
	reach = func() (r [maxReach + 1][cells]uint64) {
		for _, c := range spaces {
			col, row := colRow(int(c))
			for h := 1; h <= maxReach; h++ {
				for d := range 6 {
					tc, tr := col+h*dirCol[d], row+h*dirRow[d]
					if onBoard(tc, tr) {
						r[h][c] |= 1 << cellOf(tc, tr)
					}
				}
			}
		}
		return r
	}()
)

// spread returns the cells next to a cell in m. It may include cells that
// are not spaces; callers mask with what is occupied.
func spread(m uint64) uint64 {
	return m<<1 | m>>1 | m<<rowStride | m>>rowStride | m<<(rowStride+1) | m>>(rowStride+1)
}

// surrounded returns the cells of occ whose six neighbours are all in occ.
// A space on the edge has a neighbour outside the board, which is never in
// occ, so it is never surrounded.
func surrounded(occ uint64) uint64 {
	return occ & (occ >> 1) & (occ << 1) & (occ >> rowStride) & (occ << rowStride) &
		(occ >> (rowStride + 1)) & (occ << (rowStride + 1))
}

// selectBit returns the index of the k-th (from 0) set bit of m.
func selectBit(m uint64, k int) int {
	for ; k > 0; k-- {
		m &= m - 1
	}
	return bits.TrailingZeros64(m)
}
