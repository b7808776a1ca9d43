package server

import (
	"context"
	"testing"

	"bretter/ai"
	"bretter/game"
	"bretter/games/dvonn"
	"bretter/games/havannah"
)

// play returns start after the moves of the record.
func play(t *testing.T, start game.State, moves ...string) game.State {
	t.Helper()
	s := start.Clone()
	for _, text := range moves {
		m, err := s.ParseMove(text)
		if err == nil {
			err = s.Play(m)
		}
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
	}
	return s
}

func TestSearchersFollowTheGame(t *testing.T) {
	start, _ := havannah.New(5, false)
	cfg := ai.Config{Iterations: 300, Seed: 1}
	c := newSearchers(1 << 30)
	s := c.searcherFor("g", 4, nil, start, cfg)
	if _, err := s.Search(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Play(mustParse(t, start, "e5")); err != nil {
		t.Fatal(err)
	}
	c.put("g", 4, []string{"e5"}, s)

	if got := c.searcherFor("g", 4, []string{"e5", "d4"}, play(t, start, "e5", "d4"), cfg); got != s {
		t.Fatal("the kept searcher was not used for the next move")
	} else if got.State().Ply() != 2 {
		t.Fatalf("the kept searcher is at ply %d, want 2", got.State().Ply())
	}
	if got := c.take("g", 4, []string{"e5", "d4"}); got != nil {
		t.Fatal("a searcher in use was handed out twice")
	}

	for _, tt := range []struct {
		name  string
		level int
		moves []string
	}{
		{"another level", 5, []string{"e5", "d4"}},
		{"a takeback", 4, nil},
		{"another record", 4, []string{"d4", "e5"}},
		{"a move it cannot play", 4, []string{"e5", "e5"}},
	} {
		c.put("g", 4, []string{"e5"}, ai.New(play(t, start, "e5"), cfg))
		if got := c.take("g", tt.level, tt.moves); got != nil {
			t.Errorf("after %s the kept searcher was used", tt.name)
		}
	}
}

// Trees beyond the budget are dropped, the least recently kept first.
func TestSearchersKeepWithinTheirBudget(t *testing.T) {
	start := dvonn.New()
	one := ai.New(start, ai.Config{Iterations: 10}).Bytes()
	c := newSearchers(2 * one)
	for _, id := range []string{"a", "b", "c"} {
		c.put(id, 1, nil, ai.New(start, ai.Config{Iterations: 10}))
	}
	if len(c.kept) != 2 || c.kept[0].id != "b" || c.kept[1].id != "c" {
		t.Fatalf("kept %v, want b and c", c.kept)
	}
}

func mustParse(t *testing.T, s game.State, text string) game.Move {
	t.Helper()
	m, err := s.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
