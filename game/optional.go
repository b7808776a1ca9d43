package game

import "math/rand/v2"

// The interfaces below are what an engine may offer beyond State. Each
// names one capability that some user needs and that not every game has;
// users check for it with a type assertion and do without when it is
// missing.

// Perfter counts move sequences faster than the generic Perft.
type Perfter interface {
	Perft(depth int) uint64
}

// Forcer is a game where the rules can leave the player to move with one
// forced move (DVONN's pass). The site makes such a move for the player.
type Forcer interface {
	Forced() (Move, bool)
}

// Capturer tells how many pieces the last move took off the board.
type Capturer interface {
	LastCaptured() int
}

// PieceCounter tells how many pieces each side has on the board.
type PieceCounter interface {
	Pieces() (white, black int)
}

// Copier overwrites a state with another of the same game, so that a
// search can reuse one state for every iteration instead of cloning.
type Copier interface {
	CopyFrom(src State)
}

// Rollouter plays the rest of a game quickly, for Monte-Carlo search, by
// a policy of the engine's own (random, or with the game's knowledge). It
// may leave the state anywhere, so it is called on a scratch copy. If the
// engine is also a MoveIndexer it appends every move it plays to record,
// in order, for statistics of "all moves as first"; otherwise it may
// return record as it was.
type Rollouter interface {
	Rollout(rng *rand.Rand, record []Move) ([]Move, Outcome)
}

// MoveIndexer numbers the moves of a game with small integers below
// MoveIndexes, the same number for the same move in every position, so a
// search can keep statistics per move.
type MoveIndexer interface {
	MoveIndex(m Move) int
	MoveIndexes() int
}

// WinChecker tells cheaply whether a legal move would end the game at once
// with a win for the player who makes it.
type WinChecker interface {
	WinsNow(m Move) bool
}

// ThreatFinder appends the moves with which the opponent of the player to
// move would win at once, were it the opponent's turn.
type ThreatFinder interface {
	Threats(buf []Move) []Move
}

// Prior is the engine's opinion of a legal move before any search: about
// 0.5 for an ordinary move, more for a move the game's knowledge likes,
// less for one it dislikes. A search weighs it as a few virtual games.
type Prior interface {
	Prior(m Move) float32
}

// Evaluator scores a position for a search that looks a fixed number of
// moves ahead: positive when it favours the player to move, negative when
// it favours the opponent, in units of the engine's choosing (at most a
// million either way). Ended games are the search's business, not the
// evaluator's.
type Evaluator interface {
	Evaluate() int32
}

// Hasher gives a position a 64-bit key, equal for equal positions with
// the same player to move, for a search's table of positions seen.
type Hasher interface {
	Hash() uint64
}
