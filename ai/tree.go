package ai

import (
	"math"
	"unsafe"

	"bretter/game"
)

// node is one position of the search tree, reached by move from its
// parent. Its statistics are from the view of the player who made move.
// Children sit next to each other, from first to first+count.
type node struct {
	move   game.Move
	first  int32 // index of the first child; 0 while unexpanded (the root is at 0)
	count  uint16
	proof  int8 // +1: move wins by force; -1: it loses by force; 0: unknown
	visits float32
	wins   float32 // draws count one half
	// All-moves-as-first statistics (RAVE), seeded with the engine's prior.
	raveVisits float32
	raveWins   float32
}

// NodeBytes is the memory one node of the search tree takes.
const NodeBytes = int(unsafe.Sizeof(node{}))

// The tree lives in chunks of nodes that are never moved, so it grows
// without copying, and a node's index names its chunk and its place. A
// family of children always fits in one chunk.
const (
	chunkBits = 16
	chunkSize = 1 << chunkBits
	chunkMask = chunkSize - 1
)

// tree is the search tree; the root is always node 0.
type tree struct {
	chunks [][]node
	spare  [][]node // chunks of an earlier tree, to be used again
	used   int      // nodes in the tree
	next   int32    // index of the next free node
	limit  int      // most nodes the tree may hold
}

func newTree(limit int) tree {
	t := tree{limit: limit}
	t.reset()
	return t
}

// reset leaves a tree of the root alone, keeping its chunks for reuse.
func (t *tree) reset() {
	t.spare = append(t.spare, t.chunks...)
	t.chunks = t.chunks[:0]
	t.chunks = append(t.chunks, t.chunk())
	t.chunks[0][0] = node{}
	t.used, t.next = 1, 1
}

// chunk returns a zeroed chunk, a spare one if there is one.
func (t *tree) chunk() []node {
	if n := len(t.spare); n > 0 {
		c := t.spare[n-1]
		t.spare = t.spare[:n-1]
		clear(c)
		return c
	}
	return make([]node, chunkSize)
}

func (t *tree) at(i int32) *node { return &t.chunks[i>>chunkBits][i&chunkMask] }

// room reports whether n more nodes fit.
func (t *tree) room(n int) bool { return t.used+n <= t.limit && n <= chunkSize }

// add gives parent one child for each move.
func (t *tree) add(parent int32, moves []game.Move) {
	first := t.alloc(len(moves))
	kids := t.chunks[first>>chunkBits][first&chunkMask : int(first&chunkMask)+len(moves)]
	for i, m := range moves {
		kids[i] = node{move: m}
	}
	p := t.at(parent)
	p.first, p.count = first, uint16(len(moves))
}

// alloc reserves n consecutive nodes in one chunk.
func (t *tree) alloc(n int) int32 {
	// A full chunk leaves next at the start of one not yet made.
	if int(t.next>>chunkBits) == len(t.chunks) || int(t.next&chunkMask)+n > chunkSize {
		t.chunks = append(t.chunks, t.chunk())
		t.next = int32(len(t.chunks)-1) << chunkBits
	}
	first := t.next
	t.next += int32(n)
	t.used += n
	return first
}

func (t *tree) children(i int32) []node {
	n := t.at(i)
	if n.first == 0 {
		return nil
	}
	return t.family(n.first, n.count)
}

// family is the count nodes from first.
func (t *tree) family(first int32, count uint16) []node {
	c := t.chunks[first>>chunkBits]
	return c[first&chunkMask : int(first&chunkMask)+int(count)]
}

// reroot keeps only the subtree of the child of the root that moved by m,
// with the child as the new root. It returns false, and a tree of an
// empty root, when the root has no such child.
func (t *tree) reroot(m game.Move) bool {
	kids := t.children(0)
	at := int32(-1)
	for i := range kids {
		if kids[i].move == m {
			at = t.at(0).first + int32(i)
			break
		}
	}
	if at < 0 {
		t.reset()
		return false
	}
	old := *t
	t.chunks, t.spare = nil, old.spare
	t.reset()
	*t.at(0) = *old.at(at)
	// Breadth first: each node's children are copied as one family, and
	// the node's first is changed from the old tree's index to the new.
	for i := int32(0); i < t.next; i++ {
		n := t.at(i)
		if n.first == 0 {
			continue
		}
		fam := old.family(n.first, n.count)
		first := t.alloc(len(fam))
		copy(t.chunks[first>>chunkBits][first&chunkMask:], fam)
		t.at(i).first = first
	}
	t.spare = append(t.spare, old.chunks...)
	return true
}

// value scores a child for selection from its parent's view: the mean
// result blended with the RAVE mean, plus an exploration bonus.
func (c *node) value(logParent, explore, raveBias float32) float32 {
	if c.proof != 0 {
		return float32(c.proof) * 1e6
	}
	if c.visits == 0 {
		if c.raveVisits == 0 {
			return 1e3 // untried with no opinion: try first
		}
		return c.raveWins/c.raveVisits + 1
	}
	q := c.wins / c.visits
	if c.raveVisits > 0 {
		beta := c.raveVisits / (c.raveVisits + c.visits + raveBias*c.raveVisits*c.visits)
		q = (1-beta)*q + beta*c.raveWins/c.raveVisits
	}
	if explore > 0 {
		q += explore * float32(math.Sqrt(float64(logParent/c.visits)))
	}
	return q
}
