package havannah

import "strconv"

// The board lives in a fixed 21×21 grid with a border of off-board cells, so
// that every neighbour of an on-board cell is a valid index and the six
// neighbour offsets are constants, whatever the board's side.
const (
	MinSize     = 4
	MaxSize     = 10
	DefaultSize = 8

	stride    = 2*MaxSize + 1
	gridCells = stride * stride

	// Arrays over the grid have gridSize entries, a power of two, and hot
	// code indexes them with i&gridMask: the compiler then knows the index
	// is in range and checks nothing.
	gridSize = 512
	gridMask = gridSize - 1
)

// dirs are the six neighbour offsets in circular order around a cell, so
// that dirs[i] and dirs[(i+1)%6] point at cells that touch each other.
// In (row, column) terms: (0,-1) (-1,-1) (-1,0) (0,+1) (+1,+1) (+1,0).
const (
	left, upLeft, up, right, downRight, down = -1, -stride - 1, -stride, +1, stride + 1, stride
)

var dirs = [6]int{left, upLeft, up, right, downRight, down}

// A cell's edge mask: bits 0–5 for the six sides (corners excluded), bits
// 6–11 for the six corners.
const (
	sideBits   = 0x3f
	cornerBits = 0xfc0
)

// geometry is what depends on the board's side only. It is built once per
// side and never changed, so states may share it.
type geometry struct {
	size  int
	cells []int16 // on-board cells in row-major order
	on    [gridSize]bool
	edge  [gridSize]uint16
	// names are the cells' notation, made once: every move sent to a
	// player comes with the list of the legal ones.
	names [gridSize]string
}

var geometries = func() (g [MaxSize + 1]*geometry) {
	for n := MinSize; n <= MaxSize; n++ {
		g[n] = newGeometry(n)
	}
	return g
}()

func newGeometry(n int) *geometry {
	g := &geometry{size: n}
	last := 2*n - 2
	for r := 0; r <= last; r++ {
		for c := 0; c <= last; c++ {
			if abs(r-c) > n-1 {
				continue
			}
			i := index(r, c)
			g.on[i] = true
			g.cells = append(g.cells, int16(i))
			g.edge[i] = edgeMask(n, r, c)
			g.names[i] = string(rune('a'+r)) + strconv.Itoa(c+1)
		}
	}
	return g
}

func edgeMask(n, r, c int) uint16 {
	last := 2*n - 2
	corners := [6][2]int{{0, 0}, {0, n - 1}, {n - 1, last}, {last, last}, {last, n - 1}, {n - 1, 0}}
	for i, k := range corners {
		if r == k[0] && c == k[1] {
			return 1 << (6 + i)
		}
	}
	sides := [6]bool{r == 0, c-r == n-1, c == last, r == last, r-c == n-1, c == 0}
	var m uint16
	for i, on := range sides {
		if on {
			m |= 1 << i
		}
	}
	return m
}

// index is the grid index of the cell in row r, column c (both from 0).
func index(r, c int) int { return (r+1)*stride + c + 1 }

// rowCol is the inverse of index.
func rowCol(i int) (r, c int) { return i/stride - 1, i%stride - 1 }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Cells returns the number of cells of a board with side n.
func Cells(n int) int { return 3*n*(n-1) + 1 }
