package fanorona

import (
	"math/rand/v2"

	"bretter/game"
)

var (
	_ game.Copier    = (*State)(nil)
	_ game.Rollouter = (*State)(nil)
)

// CopyFrom makes s a copy of src, which must be a Fanorona state.
func (s *State) CopyFrom(src game.State) { *s = *src.(*State) }

// Rollout plays to the end by the computer opponent's policy, for its
// Monte-Carlo search.
func (s *State) Rollout(rng *rand.Rand, record []game.Move) ([]game.Move, game.Outcome) {
	return record, s.PlayoutWith(rng, rollout)
}
