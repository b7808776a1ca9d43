package ai

import "bretter/game"

// expand gives leaf i its children, the legal moves of st. A move that
// wins at once becomes the only child, proven; when the opponent threatens
// to win at once, only the moves that block are kept. It reports false
// when the tree is full.
func (s *Searcher) expand(i int32, st game.State) bool {
	moves := st.Legal(s.legal[:0])
	s.legal = moves
	if !s.tree.room(len(moves)) {
		return false
	}
	if len(moves) == 0 {
		return false
	}
	if s.wins != nil {
		for _, m := range moves {
			if s.wins.WinsNow(m) {
				s.tree.add(i, []game.Move{m})
				s.tree.at(s.tree.at(i).first).proof = 1
				return true
			}
		}
	}
	if s.threats != nil {
		if blocks := s.threats.Threats(moves[len(moves):]); len(blocks) > 0 {
			moves = blocks
		}
	}
	s.tree.add(i, moves)
	kids := s.tree.children(i)
	if s.wins == nil {
		s.probeEnds(st, kids)
	}
	if s.prior != nil && s.cfg.Prior > 0 {
		for k := range kids {
			p := s.prior.Prior(kids[k].move)
			kids[k].raveVisits = s.cfg.Prior
			kids[k].raveWins = s.cfg.Prior * p
		}
	}
	return true
}

// probeEnds plays each child's move on a copy of st, for engines that
// cannot tell a winning move without playing it, and marks the moves that
// end the game with a win or a loss for their mover.
func (s *Searcher) probeEnds(st game.State, kids []node) {
	mover := st.ToMove()
	for k := range kids {
		s.copyInto(&s.probe, st)
		if err := s.probe.Play(kids[k].move); err != nil {
			continue
		}
		out := s.probe.Outcome()
		switch {
		case !out.Over || out.Winner == game.Nobody:
		case out.Winner == mover:
			kids[k].proof = 1
		default:
			kids[k].proof = -1
		}
	}
}

// copyInto makes *dst a copy of src, in place when the engine allows it.
func (s *Searcher) copyInto(dst *game.State, src game.State) {
	if c, ok := (*dst).(game.Copier); ok {
		c.CopyFrom(src)
		return
	}
	*dst = src.Clone()
}
