package ai

import (
	"context"
	"testing"

	"bretter/game"
	"bretter/games/havannah"
)

// sum adds up the visits of every node under i, and counts them.
func (t *tree) sum(i int32) (visits float64, nodes int) {
	n := t.at(i)
	visits, nodes = float64(n.visits), 1
	for k := range t.children(i) {
		v, c := t.sum(n.first + int32(k))
		visits += v
		nodes += c
	}
	return visits, nodes
}

// Rerooting keeps the chosen subtree exactly, across chunks.
func TestRerootKeepsTheSubtree(t *testing.T) {
	s0, _ := havannah.New(6, false)
	s := New(s0, Config{Iterations: 30000, Seed: 2})
	r, err := s.Search(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.tree.chunks) < 2 {
		t.Fatalf("the tree fits one chunk (%d nodes): the test needs more", s.tree.used)
	}
	var child int32 = -1
	for k, kid := range s.tree.children(0) {
		if kid.move == r.Move {
			child = s.tree.at(0).first + int32(k)
		}
	}
	wantVisits, wantNodes := s.tree.sum(child)
	if err := s.Play(r.Move); err != nil {
		t.Fatal(err)
	}
	gotVisits, gotNodes := s.tree.sum(0)
	if gotVisits != wantVisits || gotNodes != wantNodes || s.tree.used != wantNodes {
		t.Errorf("after rerooting: %v visits in %d nodes (%d counted), want %v in %d", gotVisits, gotNodes, s.tree.used, wantVisits, wantNodes)
	}
	if _, err := s.Search(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// A family that exactly fills a chunk leaves the next one to be made.
func TestTreeFillsChunksExactly(t *testing.T) {
	tr := newTree(4 * chunkSize)
	moves := make([]game.Move, 1000)
	for i := range moves {
		moves[i].A = uint64(i)
	}
	parent := int32(0)
	rest := chunkSize - 1 // the root takes the first node
	for rest > 0 {
		n := min(rest, len(moves))
		tr.add(parent, moves[:n])
		parent = tr.at(parent).first
		rest -= n
	}
	if len(tr.chunks) != 1 || tr.next != chunkSize {
		t.Fatalf("%d chunks, next %d: want one full chunk", len(tr.chunks), tr.next)
	}
	tr.add(parent, moves[:10])
	if kids := tr.children(parent); len(kids) != 10 || kids[9].move.A != 9 || len(tr.chunks) != 2 {
		t.Fatalf("after a full chunk: %d children in %d chunks", len(kids), len(tr.chunks))
	}
}

func TestFinalChoiceBreaksTiesByBlendedValue(t *testing.T) {
	// One visit each, as in a search of fewer iterations than moves: the
	// first won its playout, but the engine's prior thinks little of it.
	weak := node{visits: 1, wins: 1, raveVisits: 30, raveWins: 3}
	liked := node{visits: 1, wins: 0, raveVisits: 30, raveWins: 27}
	if !better(&liked, &weak, 0.0005) || better(&weak, &liked, 0.0005) {
		t.Error("a lucky playout outweighs the prior among equally visited moves")
	}
	// More visits still decide first.
	liked.visits, weak.visits = 1, 2
	if !better(&weak, &liked, 0.0005) {
		t.Error("the blended value outweighs visits")
	}
}

// A filling tree asks more visits of a leaf before expanding it.
func TestExpandAtRisesAsTheTreeFills(t *testing.T) {
	s, _ := havannah.New(4, false)
	sr := New(s, Config{Iterations: 1, Nodes: 1000, Expand: 2})
	for _, c := range []struct {
		used int
		want float32
	}{{1, 2}, {250, 2}, {251, 4}, {501, 8}, {751, 16}, {1000, 16}} {
		sr.tree.used = c.used
		if got := sr.expandAt(); got != c.want {
			t.Errorf("%d of 1000 nodes used: expand at %v visits, want %v", c.used, got, c.want)
		}
	}
}

// A search of a game with a reply policy fills the memory of last good
// replies, and keeps it for the next move.
func TestSearchLearnsReplies(t *testing.T) {
	s, _ := havannah.New(5, false)
	sr := New(s, Config{Iterations: 200, Seed: 1})
	if sr.replies == nil {
		t.Fatal("havannah offers a reply policy but the searcher keeps no replies")
	}
	r, err := sr.Search(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	learnt := func() int {
		n := 0
		for p := range 2 {
			for prev := range s.MoveIndexes() {
				if sr.replies.Reply(game.Player(p), prev) >= 0 {
					n++
				}
			}
		}
		return n
	}
	before := learnt()
	if before == 0 {
		t.Fatal("200 iterations learnt no reply")
	}
	if err := sr.Play(r.Move); err != nil {
		t.Fatal(err)
	}
	if got := learnt(); got != before {
		t.Fatalf("playing a move changed the replies from %d to %d", before, got)
	}
}

// Compact gives back the chunks a move cut off the tree, and the searcher
// goes on from the part it kept.
func TestCompactKeepsTheTree(t *testing.T) {
	s, _ := havannah.New(4, false)
	sr := New(s, Config{Iterations: 6000, Seed: 2})
	r, err := sr.Search(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := sr.Play(r.Move); err != nil {
		t.Fatal(err)
	}
	before, kept := sr.Bytes(), sr.tree.used
	sr.Compact()
	if after := sr.Bytes(); after >= before {
		t.Fatalf("compact kept %d of %d bytes", after, before)
	}
	if sr.tree.used != kept || kept < 2 {
		t.Fatalf("compact changed the tree from %d to %d nodes", kept, sr.tree.used)
	}
	if _, err := sr.Search(context.Background()); err != nil {
		t.Fatal(err)
	}
}
