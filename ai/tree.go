package ai

import (
	"math"
	"unsafe"

	"bretter/game"
)

// node is one position of the search tree, reached by move from its
// parent. Its statistics are from the view of the player who made move.
// Children sit next to each other in the slab, from first to first+count.
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

// tree is a slab of nodes; the root is always nodes[0].
type tree struct {
	nodes []node
	limit int // most nodes the slab may hold
}

func newTree(limit int) tree {
	t := tree{limit: limit, nodes: make([]node, 1, min(limit, 1<<16))}
	return t
}

// room reports whether n more nodes fit.
func (t *tree) room(n int) bool { return len(t.nodes)+n <= t.limit }

// add appends count children with the given moves to parent.
func (t *tree) add(parent int32, moves []game.Move) {
	first := int32(len(t.nodes))
	for _, m := range moves {
		t.nodes = append(t.nodes, node{move: m})
	}
	p := &t.nodes[parent]
	p.first, p.count = first, uint16(len(moves))
}

func (t *tree) children(i int32) []node {
	n := &t.nodes[i]
	return t.nodes[n.first : n.first+int32(n.count)]
}

// reroot keeps only the subtree of the child of the root that moved by m,
// compacted into a fresh slab with the child as the new root. It returns
// false, and an empty tree, when the root has no such child.
func (t *tree) reroot(m game.Move) bool {
	kids := t.children(0)
	at := int32(-1)
	for i := range kids {
		if kids[i].move == m {
			at = t.nodes[0].first + int32(i)
			break
		}
	}
	if at < 0 || t.nodes[0].first == 0 {
		*t = newTree(t.limit)
		return false
	}
	out := make([]node, 1, max(len(t.nodes)/2, 16))
	out[0] = t.nodes[at]
	// Breadth first, so each family stays together.
	for i := 0; i < len(out); i++ {
		n := out[i]
		if n.first == 0 {
			continue
		}
		first := int32(len(out))
		out = append(out, t.nodes[n.first:n.first+int32(n.count)]...)
		out[i].first = first
	}
	t.nodes = out
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
