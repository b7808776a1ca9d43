package ai

import (
	"context"
	"testing"

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
