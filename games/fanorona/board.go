package fanorona

import "math/bits"

// The board is 9 files by 5 ranks. A point is numbered rank*9 + file, so a1
// is 0, i1 is 8 and i5 is 44, and a set of points fits in one uint64.
const (
	files  = 9
	ranks  = 5
	points = files * ranks

	allPoints uint64 = 1<<points - 1

	// nowhere stands for the missing neighbour beyond an edge. Its bit lies
	// outside allPoints, so it is never empty, never a piece and never
	// visited, which saves the edge test in the inner loops.
	nowhere = 63
)

// Directions are numbered so that the opposite of d is d^4.
const (
	north = iota
	northEast
	east
	southEast
	south
	southWest
	west
	northWest

	// noDir is the previous direction of a turn's first step, which may go
	// anywhere.
	noDir
)

var dirNames = [8]string{"north", "northeast", "east", "southeast", "south", "southwest", "west", "northwest"}

// delta is the change of point number for one step in each direction.
var delta = [8]int{north: 9, northEast: 10, east: 1, southEast: -8, south: -9, southWest: -10, west: -1, northWest: 8}

// The tables every generator reads, built once from step.
var (
	// neighbour[p][d] is the point next to p along a line in direction d,
	// or nowhere. Row nowhere exists so that lookups need no bounds test.
	neighbour = buildNeighbours()
	// next[p][d] and after[p][d] are the one-point sets of the first and
	// second point from p in direction d, or empty: the same geometry as
	// neighbour, in the form the inner loops test fastest. next[p][noDir]
	// is empty, so a turn's first step excludes nothing.
	next, after = buildNext()
	// towards[p][q] is the direction from p to its neighbour q.
	towards = buildTowards()
	// hasLine[d] holds the points with a line leaving in direction d.
	hasLine = buildHasLine()
	// ray[p][d] holds every point after p along the line in direction d.
	ray = buildRays()
	// near[p] holds the points one or two steps from p along a line: where
	// an enemy must stand for a piece on p to capture at all.
	near = buildNear()
	// adjacent[p] holds the neighbours of p.
	adjacent = buildAdjacent()
)

// eachLine calls f for every point p and direction d in which a line
// leads from p to a neighbour q.
func eachLine(f func(p, d, q int)) {
	for p := range points {
		for d := range 8 {
			if q, ok := step(p, d); ok {
				f(p, d, q)
			}
		}
	}
}

func buildAdjacent() (t [64]uint64) {
	eachLine(func(p, _, q int) { t[p] |= bit(q) })
	return t
}

func buildNeighbours() (t [64][8]uint8) {
	for p := range t {
		for d := range t[p] {
			t[p][d] = nowhere
		}
	}
	eachLine(func(p, d, q int) { t[p][d] = uint8(q) })
	return t
}

func buildTowards() (t [64][64]uint8) {
	eachLine(func(p, d, q int) { t[p][q] = uint8(d) })
	return t
}

func buildNext() (t1 [64][noDir + 1]uint64, t2 [64][8]uint64) {
	eachLine(func(p, d, q int) {
		t1[p][d] = bit(q)
		if r, ok := step(q, d); ok {
			t2[p][d] = bit(r)
		}
	})
	return t1, t2
}

func buildHasLine() (t [8]uint64) {
	eachLine(func(p, d, _ int) { t[d] |= bit(p) })
	return t
}

func buildNear() (t [64]uint64) {
	eachLine(func(p, d, _ int) { t[p] |= next[p][d] | after[p][d] })
	return t
}

func buildRays() (t [64][8]uint64) {
	eachLine(func(p, d, q int) {
		for ok := true; ok; q, ok = step(q, d) {
			t[p][d] |= bit(q)
		}
	})
	return t
}

// step is the geometry from first principles: the neighbour of p in
// direction d, if a line joins them. Diagonals run through strong points
// only, those whose file and rank indices add up to an even number.
func step(p, d int) (int, bool) {
	if p < 0 || p >= points {
		return 0, false
	}
	f, r := p%files, p/files
	df := [8]int{0, 1, 1, 1, 0, -1, -1, -1}[d]
	dr := [8]int{1, 1, 0, -1, -1, -1, 0, 1}[d]
	if df != 0 && dr != 0 && !strong(p) {
		return 0, false
	}
	f, r = f+df, r+dr
	if f < 0 || f >= files || r < 0 || r >= ranks {
		return 0, false
	}
	return r*files + f, true
}

func strong(p int) bool { return (p%files+p/files)%2 == 0 }

func bit(p int) uint64 { return 1 << uint(p) }

// from returns the points whose neighbour in direction d lies in set.
func from(set uint64, d int) uint64 {
	k := delta[d]
	if k > 0 {
		return (set >> uint(k)) & hasLine[d]
	}
	return (set << uint(-k)) & hasLine[d]
}

// line returns the unbroken run of enemy pieces that starts next to p in
// direction d: what a capture toward that side removes. It ends before the
// first point that is empty, holds an own piece, or lies off the board.
func line(p, d int, enemy uint64) uint64 {
	r := ray[p][d]
	stop := r &^ enemy
	if stop == 0 {
		return r
	}
	if delta[d] > 0 {
		// The ray climbs, so its first stop is its lowest bit.
		return r & (stop&-stop - 1)
	}
	last := 63 - bits.LeadingZeros64(stop)
	return r &^ (bit(last)<<1 - 1)
}

func pointName(p int) string {
	return string([]byte{byte('a' + p%files), byte('1' + p/files)})
}
