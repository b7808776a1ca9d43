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

// referee splits the stones of v into groups and finds each group's
// structures.
func referee(v View) []refGroup {
	n := v.Size
	cells := refCells(n)
	at := make(map[refCell]byte, len(cells))
	for i, p := range cells {
		at[p] = v.Stones[i]
	}
	corners := []refCell{{0, 0}, {0, n - 1}, {n - 1, 2*n - 2}, {2*n - 2, 2*n - 2}, {2*n - 2, n - 1}, {n - 1, 0}}
	side := func(p refCell) int {
		if slices.Contains(corners, p) {
			return -1
		}
		for i, on := range []bool{p.r == 0, p.c-p.r == n-1, p.c == 2*n-2, p.r == 2*n-2, p.r-p.c == n-1, p.c == 0} {
			if on {
				return i
			}
		}
		return -1
	}
	seen := make(map[refCell]bool)
	var groups []refGroup
	for _, start := range cells {
		colour := at[start]
		if colour == '.' || seen[start] {
			continue
		}
		member := map[refCell]bool{start: true}
		queue := []refCell{start}
		for len(queue) > 0 {
			p := queue[0]
			queue = queue[1:]
			for _, q := range refNeighbours(n, p) {
				if at[q] == colour && !member[q] {
					member[q] = true
					queue = append(queue, q)
				}
			}
		}
		g := refGroup{colour: colour}
		sides, nCorners := map[int]bool{}, 0
		full := false // a stone whose six neighbours are all in the group
		for _, p := range cells {
			if !member[p] {
				continue
			}
			seen[p] = true
			g.cells = append(g.cells, p.name())
			if s := side(p); s >= 0 {
				sides[s] = true
			} else if slices.Contains(corners, p) {
				nCorners++
			}
			inside := 0
			for _, q := range refNeighbours(n, p) {
				if member[q] {
					inside++
				}
			}
			full = full || inside == 6
		}
		if len(sides) >= 3 {
			g.structures |= Fork
		}
		if nCorners >= 2 {
			g.structures |= Bridge
		}
		if full || refEncloses(n, cells, member) {
			g.structures |= Ring
		}
		groups = append(groups, g)
	}
	return groups
}

// refEncloses reports whether the group cuts some cell off from the rim of
// the board: a flood from the rim's cells outside the group does not reach
// every cell outside the group.
func refEncloses(n int, cells []refCell, member map[refCell]bool) bool {
	reached := make(map[refCell]bool)
	var queue []refCell
	for _, p := range cells {
		if !member[p] && len(refNeighbours(n, p)) < 6 {
			reached[p] = true
			queue = append(queue, p)
		}
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range refNeighbours(n, p) {
			if !member[q] && !reached[q] {
				reached[q] = true
				queue = append(queue, q)
			}
		}
	}
	return len(reached)+len(member) < len(cells)
}

// refStone is the stone on the named cell of v: '.', 'w' or 'b'.
func refStone(v View, name string) byte {
	for i, p := range refCells(v.Size) {
		if p.name() == name {
			return v.Stones[i]
		}
	}
	return '?'
}
