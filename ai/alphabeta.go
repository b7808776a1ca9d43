package ai

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"
	"unsafe"

	"bretter/game"
)

// The depth-first search: negamax with alpha-beta pruning, principal
// variation windows, iterative deepening and a transposition table, for
// games whose engine can evaluate a position (game.Evaluator) and give it
// a key (game.Hasher). Without an Evaluator every unfinished position is
// worth 0, so the search only sees the ends of games; without a Hasher it
// keeps no table.
//
// Scores are from the view of the player to move. Game ends score beyond
// any evaluation: a win is abWin less the plies to reach it, so a quicker
// win scores more and a later loss less. The player to move need not
// alternate (DVONN's White plays twice when the board fills up): a child
// whose player to move is the same is searched without negation.

const (
	abWin      = 1 << 29       // a win at the root
	abWon      = abWin - 1<<16 // at least this: a win found by the search
	abInfinity = abWin + 1
	abMaxPly   = 128

	// abMargin is how much worse than the best, in evaluation units, a
	// move may be at Temperature 1 and still be chosen.
	abMargin = 60
)

// abEntry is one position of the transposition table.
type abEntry struct {
	key   uint64
	value int32
	move  uint16 // 1 + the best move's index in the order Legal gives; 0 for none
	depth int8
	flags uint8 // bound in the low two bits, abExact, the search's generation above
}

// ABEntryBytes is the memory one transposition table entry takes; the
// table holds as many entries as Config.Nodes allows, rounded down to a
// power of two.
const ABEntryBytes = int(unsafe.Sizeof(abEntry{}))

const (
	abLower = 1 // the value is at least .value
	abUpper = 2 // at most
	abBoth  = abLower | abUpper
	abExact = 4 // found from ends of games only, true at any depth
	abGen   = 3 // generation shift
)

// alphaBeta is what the depth-first search of one Searcher keeps from one
// move to the next.
type alphaBeta struct {
	table   []abEntry
	used    int // entries in use
	gen     uint8
	history []int32 // per move index, for engines that number moves

	// One state per ply of the current line, the root's copy at 0.
	states []game.State
	moves  [][]game.Move
	keys   [][]int32
	killer [][2]game.Move

	// This search.
	ctx       context.Context
	start     time.Time
	limit     time.Duration
	budget    int
	evaluated int
	guesses   int // evaluations and inexact table hits: a search without any was exact
	stopped   bool
	allRoot   bool // search every root move with a full window
}

func (s *Searcher) newAlphaBeta() *alphaBeta {
	n := s.cfg.Nodes
	if s.cfg.Iterations > 0 && s.cfg.Time <= 0 {
		// A search bounded by positions needs no more room than it can fill.
		n = min(n, max(1024, 8*s.cfg.Iterations))
	}
	size := 1
	for size*2 <= n {
		size *= 2
	}
	ab := &alphaBeta{table: make([]abEntry, size)}
	if s.indexer != nil {
		ab.history = make([]int32, s.indexer.MoveIndexes())
	}
	return ab
}

// searchAlphaBeta is Search for Config.AlphaBeta.
func (s *Searcher) searchAlphaBeta(ctx context.Context) (Result, error) {
	if s.root.Outcome().Over {
		return Result{}, ErrNoMove
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	if s.ab == nil {
		s.ab = s.newAlphaBeta()
	}
	ab := s.ab
	ab.ctx, ab.start, ab.limit, ab.budget = ctx, time.Now(), s.cfg.Time, s.cfg.Iterations
	if dl, ok := ctx.Deadline(); ok {
		if d := time.Until(dl); ab.limit <= 0 || d < ab.limit {
			ab.limit = max(d, 1)
		}
	}
	ab.evaluated, ab.stopped, ab.allRoot = 0, false, s.cfg.Temperature > 0
	ab.gen = (ab.gen + 1) & 0x1f
	for i := range ab.killer {
		ab.killer[i] = [2]game.Move{}
	}
	for i := range ab.history {
		ab.history[i] /= 8
	}
	ab.setRoot(s.root)

	root := ab.moves[0][:0]
	root = s.root.Legal(root)
	ab.moves[0] = root
	scores := make([]int32, len(root))
	order := make([]int, len(root))
	for i := range order {
		order[i] = i
	}
	// The seed orders moves the engine cannot tell apart, so that games
	// with different seeds differ.
	rng := rand.New(rand.NewPCG(s.cfg.Seed, uint64(s.root.Ply())))
	rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
	if prior, ok := s.root.(game.Prior); ok {
		pr := make([]float32, len(root))
		for i, m := range root {
			pr[i] = prior.Prior(m)
		}
		sort.SliceStable(order, func(a, b int) bool { return pr[order[a]] > pr[order[b]] })
	}
	if key, ok := ab.key(0); ok {
		if e := ab.lookup(key); e != nil && e.move > 0 && int(e.move) <= len(root) {
			toFront(order, int(e.move)-1)
		}
	}

	best, bestScore, depthDone := order[0], int32(0), 0
	maxDepth := abMaxPly - 2
	if s.cfg.Depth > 0 {
		maxDepth = min(maxDepth, s.cfg.Depth)
	}
	for depth := 1; depth <= maxDepth && len(root) > 1; depth++ {
		if depth > 1 && ab.limit > 0 && time.Since(ab.start) > ab.limit/2 {
			break
		}
		guesses := ab.guesses
		v, iterBest, complete := ab.root(s.root, depth, order, scores)
		if iterBest >= 0 {
			// The previous best move is searched first, so even an
			// unfinished iteration knows a move at least as good.
			best, bestScore = iterBest, v
		}
		if !complete {
			break
		}
		depthDone = depth
		toFront(order, best)
		if ab.guesses == guesses || v >= abWon || v <= -abWon {
			break
		}
	}
	if len(root) == 1 {
		best, bestScore = 0, ab.quick(s.root)
	}
	if ab.allRoot && depthDone > 0 {
		best = ab.sample(root, order, scores, best, s.cfg.Temperature, s.cfg.Seed, s.root.Ply())
		bestScore = scores[best]
	}
	r := Result{
		Move:       root[best],
		Iterations: ab.evaluated,
		Nodes:      ab.used,
		Value:      abValue(bestScore),
		Depth:      depthDone,
		Elapsed:    time.Since(ab.start),
	}
	switch {
	case bestScore >= abWon:
		r.Proof = 1
	case bestScore <= -abWon:
		r.Proof = -1
	}
	return r, nil
}

// quick scores a position with one legal move without searching it.
func (ab *alphaBeta) quick(root game.State) int32 {
	if e, ok := root.(game.Evaluator); ok {
		return e.Evaluate()
	}
	return 0
}

// abValue maps a score to the mover's chance, 0 to 1.
func abValue(v int32) float32 {
	switch {
	case v >= abWon:
		return 1
	case v <= -abWon:
		return 0
	}
	return float32(1 / (1 + math.Exp(-float64(v)/400)))
}

func toFront(order []int, i int) {
	for k, o := range order {
		if o == i {
			copy(order[1:k+1], order[:k])
			order[0] = i
			return
		}
	}
}

// setRoot makes the state at ply 0 a copy of root.
func (ab *alphaBeta) setRoot(root game.State) {
	if len(ab.states) == 0 {
		ab.states = make([]game.State, abMaxPly)
		ab.moves = make([][]game.Move, abMaxPly)
		ab.keys = make([][]int32, abMaxPly)
		ab.killer = make([][2]game.Move, abMaxPly)
	}
	copyState(&ab.states[0], root)
}

func copyState(dst *game.State, src game.State) {
	if *dst != nil {
		if c, ok := (*dst).(game.Copier); ok {
			c.CopyFrom(src)
			return
		}
	}
	*dst = src.Clone()
}

// play makes the state at ply+1 the state at ply after m.
func (ab *alphaBeta) play(ply int, m game.Move) game.State {
	copyState(&ab.states[ply+1], ab.states[ply])
	st := ab.states[ply+1]
	if err := st.Play(m); err != nil {
		panic(fmt.Sprintf("ai: the engine refused its own legal move %s: %v", st.FormatMove(m), err))
	}
	return st
}

// root searches every root move to depth, in order, and returns the best
// score, the index of its move, and whether the search finished.
func (ab *alphaBeta) root(st game.State, depth int, order []int, scores []int32) (int32, int, bool) {
	moves := ab.moves[0]
	mover := st.ToMove()
	alpha, best := int32(-abInfinity), -1
	for k, i := range order {
		child := ab.play(0, moves[i])
		same := child.ToMove() == mover
		lo := alpha
		if ab.allRoot {
			lo = -abInfinity
		}
		var v int32
		if k == 0 || lo == -abInfinity {
			v = ab.child(1, depth-1, lo, abInfinity, same)
		} else {
			v = ab.child(1, depth-1, lo, lo+1, same)
			if v > lo && !ab.stopped {
				v = ab.child(1, depth-1, lo, abInfinity, same)
			}
		}
		if ab.stopped {
			return alpha, best, false
		}
		scores[i] = v
		if v > alpha {
			alpha, best = v, i
		}
	}
	if key, ok := ab.key(0); ok {
		ab.store(key, 0, depth, alpha, abBoth, best, false)
	}
	return alpha, best, true
}

// child searches the position at ply, reached from its parent by a move,
// and returns its score for the parent's mover.
func (ab *alphaBeta) child(ply, depth int, alpha, beta int32, same bool) int32 {
	if same {
		return ab.search(ply, depth, alpha, beta)
	}
	return -ab.search(ply, depth, -beta, -alpha)
}

// count notes one position evaluated and checks the budget.
func (ab *alphaBeta) count() {
	ab.evaluated++
	if ab.budget > 0 && ab.evaluated >= ab.budget {
		ab.stopped = true
	}
	if ab.evaluated&255 == 0 {
		if ab.ctx.Err() != nil || ab.limit > 0 && time.Since(ab.start) >= ab.limit {
			ab.stopped = true
		}
	}
}

// search is negamax over the position at ply, to depth more moves.
func (ab *alphaBeta) search(ply, depth int, alpha, beta int32) int32 {
	st := ab.states[ply]
	if out := st.Outcome(); out.Over {
		ab.count()
		switch out.Winner {
		case game.Nobody:
			return 0
		case st.ToMove():
			return abWin - int32(ply)
		}
		return -abWin + int32(ply)
	}
	if ab.stopped {
		return 0
	}
	if depth <= 0 || ply >= abMaxPly-1 {
		ab.count()
		ab.guesses++
		if e, ok := st.(game.Evaluator); ok {
			return e.Evaluate()
		}
		return 0
	}

	ttMove := -1
	key, hashed := ab.key(ply)
	if e := ab.lookup(key); hashed && e != nil {
		ttMove = int(e.move) - 1
		if int(e.depth) >= depth || e.flags&abExact != 0 {
			v := fromTable(e.value, ply)
			bound := e.flags & abBoth
			if bound == abBoth || bound == abLower && v >= beta || bound == abUpper && v <= alpha {
				if e.flags&abExact == 0 {
					ab.guesses++
				}
				return v
			}
		}
	}

	moves := st.Legal(ab.moves[ply][:0])
	ab.moves[ply] = moves
	if ttMove >= len(moves) {
		ttMove = -1
	}
	next := depth - 1
	if len(moves) == 1 {
		next = depth // a forced move costs no depth
	}
	keys := ab.order(ply, depth, st, moves, ttMove)

	mover := st.ToMove()
	guesses := ab.guesses
	alpha0 := alpha
	best, bestV := -1, int32(-abInfinity)
	for k := range moves {
		i := pickNext(keys)
		m := moves[i]
		same := ab.play(ply, m).ToMove() == mover
		var v int32
		if k == 0 {
			v = ab.child(ply+1, next, alpha, beta, same)
		} else {
			v = ab.child(ply+1, next, alpha, alpha+1, same)
			if v > alpha && v < beta && !ab.stopped {
				v = ab.child(ply+1, next, alpha, beta, same)
			}
		}
		if ab.stopped {
			return 0
		}
		if v > bestV {
			best, bestV = i, v
			if v > alpha {
				alpha = v
			}
			if v >= beta {
				ab.cutoff(ply, depth, m, i == ttMove)
				break
			}
		}
		keys[i] = math.MinInt32 // taken
	}
	bound := uint8(abBoth)
	switch {
	case bestV >= beta:
		bound = abLower
	case bestV <= alpha0:
		bound = abUpper
	}
	if hashed {
		ab.store(key, ply, depth, bestV, bound, best, ab.guesses == guesses)
	}
	return bestV
}

// cutoff remembers a move that refuted the opponent's last move.
func (ab *alphaBeta) cutoff(ply, depth int, m game.Move, fromTable bool) {
	if fromTable {
		return
	}
	k := &ab.killer[ply]
	if k[0] != m {
		k[1], k[0] = k[0], m
	}
	if ab.history != nil {
		ix := ab.states[ply].(game.MoveIndexer).MoveIndex(m)
		ab.history[ix] = min(ab.history[ix]+int32(depth*depth), 1<<20)
	}
}

// order gives each move of the position at ply a key, higher first: the
// table's move, the killers, and then, deep in the tree, the evaluation
// of the position the move reaches; nearer the leaves the engine's prior
// and the history of cutoffs.
func (ab *alphaBeta) order(ply, depth int, st game.State, moves []game.Move, ttMove int) []int32 {
	keys := ab.keys[ply][:0]
	prior, _ := st.(game.Prior)
	indexer, _ := st.(game.MoveIndexer)
	mover := st.ToMove()
	deep := depth >= 3 && len(moves) > 1
	for i, m := range moves {
		var key int32
		switch {
		case i == ttMove:
			key = 1 << 30
		case m == ab.killer[ply][0]:
			key = 1<<29 + 1
		case m == ab.killer[ply][1]:
			key = 1 << 29
		case deep && !ab.stopped: // past the budget the order no longer matters
			c := ab.play(ply, m)
			ab.count()
			if e, ok := c.(game.Evaluator); ok && !c.Outcome().Over {
				key = e.Evaluate()
				if c.ToMove() != mover {
					key = -key
				}
			}
		default:
			if prior != nil {
				key = int32(prior.Prior(m) * 1000)
			}
			if indexer != nil && ab.history != nil {
				key += min(ab.history[indexer.MoveIndex(m)], 1<<20)
			}
		}
		keys = append(keys, key)
	}
	ab.keys[ply] = keys
	return keys
}

// pickNext returns the index of the highest key not yet taken.
func pickNext(keys []int32) int {
	best := -1
	for i, key := range keys {
		if key != math.MinInt32 && (best < 0 || key > keys[best]) {
			best = i
		}
	}
	return best
}

// key is the table's key of the position at ply, if the engine gives one.
func (ab *alphaBeta) key(ply int) (uint64, bool) {
	h, ok := ab.states[ply].(game.Hasher)
	if !ok {
		return 0, false
	}
	return h.Hash(), true
}

// lookup returns the table's entry for key, or nil.
func (ab *alphaBeta) lookup(key uint64) *abEntry {
	e := &ab.table[key&uint64(len(ab.table)-1)]
	if e.key != key || e.flags&abBoth == 0 {
		return nil
	}
	return e
}

// store keeps what the search found about the position at ply.
func (ab *alphaBeta) store(key uint64, ply, depth int, v int32, bound uint8, best int, exact bool) {
	e := &ab.table[key&uint64(len(ab.table)-1)]
	if e.flags&abBoth != 0 && e.key != key && e.flags>>abGen == ab.gen && int(e.depth) > depth {
		return // keep the deeper entry of this search
	}
	if e.flags&abBoth == 0 {
		ab.used++
	}
	flags := bound | ab.gen<<abGen
	if exact {
		flags |= abExact
	}
	*e = abEntry{key: key, value: toTable(v, ply), move: uint16(best + 1), depth: int8(min(depth, 127)), flags: flags}
}

// Scores of won and lost games count plies from the root; the table keeps
// them from the position itself.
func toTable(v int32, ply int) int32 {
	switch {
	case v >= abWon:
		return v + int32(ply)
	case v <= -abWon:
		return v - int32(ply)
	}
	return v
}

func fromTable(v int32, ply int) int32 {
	switch {
	case v >= abWon:
		return v - int32(ply)
	case v <= -abWon:
		return v + int32(ply)
	}
	return v
}

// sample picks, for the weak levels, a root move at random among those
// whose score is within Temperature × abMargin of the best. A forced win
// is always taken, and a move that loses by force is never taken when
// another does not.
func (ab *alphaBeta) sample(moves []game.Move, order []int, scores []int32, best int, temp float32, seed uint64, ply int) int {
	top := scores[best]
	if top >= abWon {
		return best
	}
	floor := top - int32(temp*abMargin)
	if top > -abWon {
		floor = max(floor, -abWon+1)
	}
	var near []int
	for _, i := range order {
		if scores[i] >= floor {
			near = append(near, i)
		}
	}
	if len(near) == 0 {
		return best
	}
	rng := rand.New(rand.NewPCG(seed, uint64(ply)))
	return near[rng.IntN(len(near))]
}
