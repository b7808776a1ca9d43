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

// ReplyRollouter is a Rollouter whose policy, where the game's own
// knowledge insists on no move, answers the opponent's last move with the
// reply that replies remembers, when that move is legal (last good reply).
type ReplyRollouter interface {
	RolloutReplying(rng *rand.Rand, record []Move, replies *Replies) ([]Move, Outcome)
}

// Replies is the memory of the last-good-reply policy that a search keeps
// across its rollouts: for each player and each move of the opponent (by
// MoveIndex), the answer that player gave in the latest rollout it won.
// A reply played in a lost rollout is forgotten, so that the memory does
// not keep repeating a reply that stopped working.
type Replies struct{ next [2][]int32 }

// NewReplies returns an empty memory for a game of moveIndexes move indexes.
func NewReplies(moveIndexes int) *Replies {
	return &Replies{next: [2][]int32{make([]int32, moveIndexes), make([]int32, moveIndexes)}}
}

// Reply returns the move index that p last answered prev with and won, or
// -1 when there is none.
func (r *Replies) Reply(p Player, prev int) int { return int(r.next[p][prev]) - 1 }

// Learn records that p answered prev with reply, in a rollout p won or lost.
func (r *Replies) Learn(p Player, prev, reply int, won bool) {
	at := &r.next[p][prev]
	switch {
	case won:
		*at = int32(reply) + 1
	case *at == int32(reply)+1:
		*at = 0
	}
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
