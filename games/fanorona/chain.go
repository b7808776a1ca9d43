package fanorona

import (
	"math/bits"

	"bretter/game"
)

// This file holds the rules of a capturing turn, once. Legal turns, Perft,
// Playout and the check in Play all follow them: the generators through a
// walk, Play by following the steps of the turn it was given.
//
// A capture chain under way is described by the point p of the moving
// piece, the direction last of its previous step (noDir before the first),
// visited (every point it has stood on this turn, its start included), rest
// (the side's other pieces) and enemy (what is left of the other side). The
// moving piece is left out of rest: its old points are all in visited, so
// the free points not visited are all a step needs.

// targets returns the points the piece on p may step to next: neighbours
// along a line that are empty and not visited this turn, save the one
// straight on, as a chain may not move twice in the same direction.
func targets(rest, enemy, visited uint64, p, last int) uint64 {
	open := allPoints &^ (rest | enemy | visited)
	return adjacent[p] & open &^ next[p][last]
}

// dirWords are the directions of dirNames as a reason's words.
var dirWords = [8]game.Word{
	{Key: "why.fanorona.north", Text: "north"}, {Key: "why.fanorona.northeast", Text: "northeast"},
	{Key: "why.fanorona.east", Text: "east"}, {Key: "why.fanorona.southeast", Text: "southeast"},
	{Key: "why.fanorona.south", Text: "south"}, {Key: "why.fanorona.southwest", Text: "southwest"},
	{Key: "why.fanorona.west", Text: "west"}, {Key: "why.fanorona.northwest", Text: "northwest"},
}

// whyNot says why q, the neighbour of p in direction d (or nowhere), is not
// among the targets.
func whyNot(visited uint64, p, last, q, d int) game.Reason {
	switch {
	case q == nowhere:
		return game.Because("why.fanorona.no_line", "no line leads {direction} from {point}",
			"direction", dirWords[d], "point", pointName(p))
	case d == last:
		return game.Because("why.fanorona.same_direction", "a chain may not move twice in the same direction")
	case visited&bit(q) != 0:
		return game.Because("why.fanorona.visited", "{point} was already visited this turn", "point", pointName(q))
	}
	return game.Because("why.fanorona.occupied", "{point} is not empty", "point", pointName(q))
}

// captureLine is where the enemy pieces that a step from p to q in
// direction d captures begin: by approach, the line beyond the landing
// point; by withdrawal, the line behind the start. line(at, dir, enemy)
// gives them; the step captures only if the first point holds an enemy.
func captureLine(p, q, d int, withdraw bool) (at, dir int) {
	if withdraw {
		return p, d ^ 4
	}
	return q, d
}

// walkMode is what a walk does with each turn it finds.
type walkMode uint8

const (
	counting walkMode = iota // count the turns
	listing                  // append them to buf
	perfting                 // add up the perft of each turn's position to depth-1
	picking                  // find the turn after skipping r
)

// A walk visits every capturing turn of one piece in one fixed order:
// targets by point, a capture by approach before one by withdrawal, each
// turn right before its continuations. Counting, listing and picking agree
// on that order, so a turn picked by number is the one listed there.
type walk struct {
	mode  walkMode
	n     uint64      // perfting: the sum
	depth int         // perfting: the depth the turns are searched from
	r     uint64      // picking: the turns still to skip
	found bool        // picking: whether the turn is found
	own   uint64      // picking: own's pieces after the turn found
	enemy uint64      // picking: the enemy's pieces after it
	buf   []game.Move // listing: the turns found
	m     game.Move   // listing: the turn listed last; from sets its start
}

// from walks the turns of own's piece on p, which can capture, and returns
// how many there are. A picking walk stops once it has found its turn.
func (w *walk) from(own, enemy uint64, p int) uint64 {
	w.m = chainStart(p)
	return w.walk(own&^bit(p), enemy, bit(p), p, noDir, false)
}

// walk walks the turns that go on from the piece on p, which came there by
// a step in direction last, capturing by withdrawal or not; with last
// noDir, the piece has not moved yet. A step that arrives ends a turn,
// which walk visits before those that go on from it.
func (w *walk) walk(rest, enemy, visited uint64, p, last int, withdraw bool) uint64 {
	mode := w.mode
	var n uint64
	if last != noDir {
		n = 1
		if mode != counting && w.visit(rest, enemy, visited, p, last, withdraw) {
			return n
		}
	}
	for t := targets(rest, enemy, visited, p, last); t != 0; t &= t - 1 {
		q := bits.TrailingZeros64(t)
		d := int(towards[p][q])
		if at, dir := captureLine(p, q, d, false); enemy&next[at][dir] != 0 {
			n += w.arrive(mode, rest, enemy&^line(at, dir, enemy), visited|bit(q), q, d, false)
		}
		if at, dir := captureLine(p, q, d, true); enemy&next[at][dir] != 0 {
			n += w.arrive(mode, rest, enemy&^line(at, dir, enemy), visited|bit(q), q, d, true)
		}
		if mode == picking && w.found {
			break
		}
	}
	return n
}

// arrive walks the turn whose last step has just brought the piece to p,
// and those that go on from there. A counting walk sees without a call
// that most cannot go on: with no enemy piece one or two steps away, there
// is nothing left to capture from p.
func (w *walk) arrive(mode walkMode, rest, enemy, visited uint64, p, last int, withdraw bool) uint64 {
	if mode == counting && near[p]&enemy == 0 {
		return 1
	}
	return w.walk(rest, enemy, visited, p, last, withdraw)
}

// visit does what the walk is for with the turn whose last step has just
// brought the piece to p. It reports whether a picking walk has found its
// turn.
func (w *walk) visit(rest, enemy, visited uint64, p, last int, withdraw bool) bool {
	switch w.mode {
	case listing:
		// The walk goes depth first, so the turn listed last begins with
		// the steps that led here. Every step captures, so no turn has
		// more steps than a Move holds (see maxSteps).
		n := bits.OnesCount64(visited) - 2
		w.m = addStep(prefix(w.m, n), n, last, withdraw)
		w.buf = append(w.buf, w.m)
	case perfting:
		w.n += perft(enemy, rest|bit(p), w.depth-1, 0)
	case picking:
		switch {
		case w.found:
			return true // found by the other capture of the same step
		case w.r == 0:
			w.own, w.enemy, w.found = rest|bit(p), enemy, true
			return true
		}
		w.r--
	}
	return false
}
