package havannah

import (
	"slices"
	"strconv"
)

// The referee judges a drawn position the slow, obvious way, from the
// coordinates of the corpus description alone (flood fills, no union-find,
// no edge masks), so that tests can check the engine against something
// that shares none of its code.

// refCell is a cell of a board of side n in the corpus's coordinates.
type refCell struct{ r, c int }

func (p refCell) name() string { return string(rune('a'+p.r)) + strconv.Itoa(p.c+1) }

func refOn(n int, p refCell) bool {
	last := 2*n - 2
	return p.r >= 0 && p.c >= 0 && p.r <= last && p.c <= last && abs(p.r-p.c) <= n-1
}

// refCells lists the cells of a board of side n in row-major order, the
// order of View.Stones.
func refCells(n int) []refCell {
	var out []refCell
	for r := 0; r <= 2*n-2; r++ {
		for c := 0; c <= 2*n-2; c++ {
			if p := (refCell{r, c}); refOn(n, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

func refNeighbours(n int, p refCell) []refCell {
	var out []refCell
	for _, d := range [6][2]int{{0, -1}, {0, 1}, {-1, 0}, {1, 0}, {-1, -1}, {1, 1}} {
		if q := (refCell{p.r + d[0], p.c + d[1]}); refOn(n, q) {
			out = append(out, q)
		}
	}
	return out
}

// refGroup is one group of stones and the structures it makes.
type refGroup struct {
	colour     byte // 'w' or 'b'
	cells      []string
	structures Structure
}

// refBoard is a board's cells in row-major order, each with its
// neighbours (as indexes), its side (0–5, -1 for none) and whether it is
// a corner.
type refBoard struct {
	cells  []refCell
	nb     [][]int
	side   []int
	corner []bool
}

var refBoards = map[int]*refBoard{}

func refBoardOf(n int) *refBoard {
	if b := refBoards[n]; b != nil {
		return b
	}
	b := &refBoard{cells: refCells(n)}
	index := map[refCell]int{}
	for i, p := range b.cells {
		index[p] = i
	}
	corners := []refCell{{0, 0}, {0, n - 1}, {n - 1, 2*n - 2}, {2*n - 2, 2*n - 2}, {2*n - 2, n - 1}, {n - 1, 0}}
	for _, p := range b.cells {
		var nb []int
		for _, q := range refNeighbours(n, p) {
			nb = append(nb, index[q])
		}
		b.nb = append(b.nb, nb)
		corner := slices.Contains(corners, p)
		b.corner = append(b.corner, corner)
		side := -1
		for i, on := range []bool{p.r == 0, p.c-p.r == n-1, p.c == 2*n-2, p.r == 2*n-2, p.r-p.c == n-1, p.c == 0} {
			if on && !corner {
				side = i
			}
		}
		b.side = append(b.side, side)
	}
	refBoards[n] = b
	return b
}

// referee splits the stones of v into groups and finds each group's
// structures.
func referee(v View) []refGroup {
	b := refBoardOf(v.Size)
	seen := make([]bool, len(b.cells))
	var groups []refGroup
	for start := range b.cells {
		colour := v.Stones[start]
		if colour == '.' || seen[start] {
			continue
		}
		member := make([]bool, len(b.cells))
		member[start] = true
		queue := []int{start}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, q := range b.nb[p] {
				if v.Stones[q] == colour && !member[q] {
					member[q] = true
					queue = append(queue, q)
				}
			}
		}
		g := refGroup{colour: colour}
		sides, corners := map[int]bool{}, 0
		full := false // a stone whose six neighbours are all in the group
		size := 0
		for p := range b.cells {
			if !member[p] {
				continue
			}
			size++
			seen[p] = true
			g.cells = append(g.cells, b.cells[p].name())
			if b.side[p] >= 0 {
				sides[b.side[p]] = true
			}
			if b.corner[p] {
				corners++
			}
			inside := 0
			for _, q := range b.nb[p] {
				if member[q] {
					inside++
				}
			}
			full = full || inside == 6
		}
		if len(sides) >= 3 {
			g.structures |= Fork
		}
		if corners >= 2 {
			g.structures |= Bridge
		}
		if full || b.encloses(member, size) {
			g.structures |= Ring
		}
		groups = append(groups, g)
	}
	return groups
}

// encloses reports whether the group cuts some cell off from the rim of
// the board: a flood from the rim's cells outside the group does not reach
// every cell outside the group.
func (b *refBoard) encloses(member []bool, size int) bool {
	reached := make([]bool, len(b.cells))
	n := 0
	var queue []int
	for p := range b.cells {
		if !member[p] && len(b.nb[p]) < 6 {
			reached[p] = true
			n++
			queue = append(queue, p)
		}
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range b.nb[p] {
			if !member[q] && !reached[q] {
				reached[q] = true
				n++
				queue = append(queue, q)
			}
		}
	}
	return n+size < len(b.cells)
}

// refStone is the stone on the named cell of v: '.', 'w' or 'b'.
func refStone(v View, name string) byte {
	for i, p := range refBoardOf(v.Size).cells {
		if p.name() == name {
			return v.Stones[i]
		}
	}
	return '?'
}
