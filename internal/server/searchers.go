package server

import (
	"slices"
	"sync"

	"bretter/ai"
	"bretter/game"
)

// searchers keeps the computer's search trees from one of its moves to
// the next, as the computer of `bretter match` does, so that the site's
// computer plays as strong as it was measured: each search starts with
// what the last one learnt about the moves that were played since. A
// full-strength tree holds tens of megabytes, so only the games searched
// most recently keep theirs, within a budget of bytes; the others start
// afresh, which costs strength and nothing else.
type searchers struct {
	mu     sync.Mutex
	budget int // bytes all kept trees may hold together
	kept   []keptSearch
}

// keptSearch is one game's searcher and the moves it has followed.
type keptSearch struct {
	id     string
	level  int
	moves  []string
	search *ai.Searcher
}

func newSearchers(budget int) *searchers { return &searchers{budget: budget} }

// take returns game id's kept searcher, brought up to moves, or nil when
// there is none for this level or it cannot follow: a takeback, or a
// record it does not know. The searcher leaves the cache until put back.
func (c *searchers) take(id string, level int, moves []string) *ai.Searcher {
	c.mu.Lock()
	i := slices.IndexFunc(c.kept, func(k keptSearch) bool { return k.id == id })
	if i < 0 {
		c.mu.Unlock()
		return nil
	}
	k := c.kept[i]
	c.kept = slices.Delete(c.kept, i, i+1)
	c.mu.Unlock()
	if k.level != level || len(k.moves) > len(moves) || !slices.Equal(k.moves, moves[:len(k.moves)]) {
		return nil
	}
	for _, text := range moves[len(k.moves):] {
		if !follow(k.search, text) {
			return nil
		}
	}
	return k.search
}

// follow plays one move of the record on s.
func follow(s *ai.Searcher, text string) bool {
	m, err := s.State().ParseMove(text)
	return err == nil && s.Play(m) == nil
}

// put keeps s for game id, which has reached moves, as the most recent,
// and drops the least recent trees beyond the budget.
func (c *searchers) put(id string, level int, moves []string, s *ai.Searcher) {
	s.Compact()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kept = append(c.kept, keptSearch{id: id, level: level, moves: slices.Clone(moves), search: s})
	total := 0
	for i := len(c.kept) - 1; i >= 0; i-- {
		if total += c.kept[i].search.Bytes(); total > c.budget {
			c.kept = slices.Delete(c.kept, 0, i+1)
			return
		}
	}
}

// searcherFor returns a searcher at start for game id: the kept one when
// it has followed the game, otherwise a new one.
func (c *searchers) searcherFor(id string, level int, moves []string, start game.State, cfg ai.Config) *ai.Searcher {
	if s := c.take(id, level, moves); s != nil && s.State().Ply() == start.Ply() {
		return s
	}
	return ai.New(start, cfg)
}
