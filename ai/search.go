// Package ai is the computer opponent of every game: one Monte-Carlo tree
// search written against the game contract. It blends the results of the
// tree with all-moves-as-first statistics (RAVE), proves wins and losses
// and backs them up through the tree, keeps the tree from one move to the
// next, and asks the engine for what only the engine knows (a rollout
// policy, a cheap win test, the opponent's threats, priors) through the
// optional interfaces of package game.
package ai

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"bretter/game"
)

// Config bounds and tunes one search. The zero value of a field picks its
// default. A search bounded only by Iterations is deterministic: the same
// position, seed and budget give the same move.
type Config struct {
	Iterations int           // stop after this many iterations
	Time       time.Duration // stop after this much time
	Nodes      int           // most nodes the tree may hold (memory is Nodes × NodeBytes)
	Seed       uint64

	Explore  float32 // weight of the exploration bonus
	RaveBias float32 // how soon RAVE statistics give way to real ones
	Expand   int     // visits a leaf needs before it is expanded
	Prior    float32 // how many virtual games the engine's prior is worth

	// AlphaBeta searches with alpha-beta to a depth instead of Monte-Carlo
	// tree search, for games with a good Evaluator; Iterations then
	// bounds the positions it evaluates.
	AlphaBeta bool
	// Depth, when above 0, is the deepest iteration of the alpha-beta
	// search, in moves; the search stops there even with budget left.
	Depth int

	// Temperature above 0 picks the move at random, each with a chance in
	// proportion to visits^(1/Temperature), among the Choices most visited
	// (all when 0), for the mistakes of the weak levels. A forced win is
	// always taken and a forced loss avoided.
	Temperature float32
	Choices     int
}

// DefaultNodes is the tree's size when Config.Nodes is 0.
const DefaultNodes = 1 << 21

func (c Config) withDefaults() Config {
	if c.Iterations <= 0 && c.Time <= 0 {
		c.Iterations = 10000
	}
	if c.Nodes <= 0 {
		c.Nodes = DefaultNodes
	}
	if c.Expand <= 0 {
		c.Expand = 1
	}
	return c
}

// Result is the move a search chose and what it saw.
type Result struct {
	Move       game.Move
	Iterations int     // iterations of this search
	Nodes      int     // nodes in the tree after it
	Value      float32 // the move's mean result for the mover: 1 win, 0 loss
	Proof      int8    // +1: the move wins by force; -1: every move loses by force
	Depth      int     // alpha-beta: the deepest iteration it finished
	Elapsed    time.Duration
}

// ErrNoMove is returned for a position where the game is over.
var ErrNoMove = errors.New("no move to search: the game is over")

// Searcher plays one game: it follows the moves with Play and finds a move
// for whoever is to move with Search, keeping the part of its tree that
// the moves played since still reach. A Searcher is used by one goroutine
// at a time; any number of them may run at once.
type Searcher struct {
	cfg  Config
	root game.State
	tree tree
	ab   *alphaBeta // the depth-first search's table, for Config.AlphaBeta

	// What the engine offers beyond game.State, nil where it does not.
	copier    game.Copier
	rollouter game.Rollouter
	replier   game.ReplyRollouter
	replies   *game.Replies // the last good replies, kept from search to search
	indexer   game.MoveIndexer
	wins      game.WinChecker
	threats   game.ThreatFinder
	prior     game.Prior

	// Scratch space of one iteration.
	scratch game.State
	probe   game.State
	path    []int32
	movers  []game.Player // the player who made each move of path
	record  []game.Move   // every move of the iteration, tree and rollout
	legal   []game.Move
	marks   []uint8 // per move index: 1 + the player who played it first
}

// New returns a searcher for the game that start begins. It keeps its own
// copy of start.
func New(start game.State, cfg Config) *Searcher {
	cfg = cfg.withDefaults()
	s := &Searcher{cfg: cfg, root: start.Clone(), tree: newTree(cfg.Nodes)}
	s.scratch = s.root.Clone()
	s.probe = s.root.Clone()
	s.copier, _ = s.scratch.(game.Copier)
	s.rollouter, _ = s.scratch.(game.Rollouter)
	s.wins, _ = s.scratch.(game.WinChecker)
	s.threats, _ = s.scratch.(game.ThreatFinder)
	s.prior, _ = s.scratch.(game.Prior)
	if ix, ok := s.scratch.(game.MoveIndexer); ok {
		s.indexer = ix
		s.marks = make([]uint8, ix.MoveIndexes())
		if s.replier, _ = s.scratch.(game.ReplyRollouter); s.replier != nil {
			s.replies = game.NewReplies(ix.MoveIndexes())
		}
	}
	return s
}

// Bytes is the memory the searcher's tree or table holds.
func (s *Searcher) Bytes() int {
	n := (len(s.tree.chunks) + len(s.tree.spare)) * chunkSize * NodeBytes
	if s.ab != nil {
		n += len(s.ab.table) * ABEntryBytes
	}
	return n
}

// Compact lets go of the memory the tree no longer uses, for a searcher
// kept between moves: the chunks that the last move cut away.
func (s *Searcher) Compact() { s.tree.spare = nil }

// State returns a copy of the position the searcher has reached.
func (s *Searcher) State() game.State { return s.root.Clone() }

// Play follows move m by either side. An illegal move is refused with the
// engine's error and changes nothing.
func (s *Searcher) Play(m game.Move) error {
	if err := s.root.Play(m); err != nil {
		return err
	}
	s.tree.reroot(m)
	return nil
}

// Search thinks about the position reached and returns the move it
// prefers for the player to move, without playing it. It stops at the
// budget of the Config, when the position is solved, or when ctx ends;
// ending ctx before the search has done anything returns ctx's error.
func (s *Searcher) Search(ctx context.Context) (Result, error) {
	if s.cfg.AlphaBeta {
		return s.searchAlphaBeta(ctx)
	}
	if s.root.Outcome().Over {
		return Result{}, ErrNoMove
	}
	start := time.Now()
	rng := rand.New(rand.NewPCG(s.cfg.Seed, uint64(s.root.Ply())))
	n := 0
	for ; s.cfg.Iterations <= 0 || n < s.cfg.Iterations; n++ {
		if n&15 == 0 {
			if err := ctx.Err(); err != nil {
				if n == 0 {
					return Result{}, err
				}
				break
			}
			if s.cfg.Time > 0 && time.Since(start) >= s.cfg.Time {
				break
			}
		}
		if s.tree.at(0).proof != 0 && s.tree.at(0).first != 0 {
			break
		}
		s.iterate(rng)
	}
	r := s.choose(rng)
	r.Iterations, r.Nodes, r.Elapsed = n, s.tree.used, time.Since(start)
	return r, nil
}

// choose picks the move to play from the root's children.
func (s *Searcher) choose(rng *rand.Rand) Result {
	kids := s.tree.children(0)
	if len(kids) == 0 {
		// Not a single iteration expanded the root: take the first move.
		m := s.root.Legal(s.legal[:0])[0]
		return Result{Move: m, Value: 0.5}
	}
	best := -1
	for i := range kids {
		if kids[i].proof == 1 {
			best = i
			break
		}
	}
	if best < 0 && s.cfg.Temperature > 0 {
		best = s.sample(kids, rng)
	}
	if best < 0 {
		for i := range kids {
			if best < 0 || better(&kids[i], &kids[best], s.cfg.RaveBias) {
				best = i
			}
		}
	}
	c := &kids[best]
	r := Result{Move: c.move, Value: 0.5, Proof: c.proof}
	if c.visits > 0 {
		r.Value = c.wins / c.visits
	}
	if c.proof == 0 && s.tree.at(0).proof == 1 {
		r.Proof = -1
	}
	switch c.proof {
	case 1:
		r.Value = 1
	case -1:
		r.Value = 0
	}
	return r
}

// better orders moves for the final choice: never a proven loss when
// there is another move, then the most visited, then the best mean
// blended with RAVE and the prior. A search of fewer iterations than
// there are moves visits most of them once: the blend then keeps the
// weak levels to the moves the engine and the playouts like, where the
// first of equals would be the first legal move.
func better(a, b *node, raveBias float32) bool {
	if (a.proof == -1) != (b.proof == -1) {
		return b.proof == -1
	}
	if a.visits != b.visits {
		return a.visits > b.visits
	}
	return a.value(0, 0, raveBias) > b.value(0, 0, raveBias)
}

// sample picks one of the most visited moves that are not proven losses,
// at random by visits, equals in visits ordered as for the final choice.
func (s *Searcher) sample(kids []node, rng *rand.Rand) int {
	var order []int
	for i := range kids {
		if kids[i].proof != -1 && kids[i].visits > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return better(&kids[order[a]], &kids[order[b]], s.cfg.RaveBias) })
	if n := s.cfg.Choices; n > 0 && len(order) > n {
		order = order[:n]
	}
	inv := float64(1 / s.cfg.Temperature)
	var total float64
	for _, i := range order {
		total += math.Pow(float64(kids[i].visits), inv)
	}
	x := rng.Float64() * total
	for _, i := range order {
		if x -= math.Pow(float64(kids[i].visits), inv); x < 0 {
			return i
		}
	}
	return -1
}

// iterate runs one iteration: down the tree to a leaf, one expansion, a
// rollout, and the result back up.
func (s *Searcher) iterate(rng *rand.Rand) {
	st := s.reset()
	t := &s.tree
	s.path, s.movers, s.record = append(s.path[:0], 0), append(s.movers[:0], game.Nobody), s.record[:0]
	cur := int32(0)
	for {
		if t.at(cur).first == 0 {
			if st.Outcome().Over || cur != 0 && t.at(cur).visits < s.expandAt() || !s.expand(cur, st) {
				break
			}
		}
		next := s.pick(cur)
		mover := st.ToMove()
		m := t.at(next).move
		if err := st.Play(m); err != nil {
			panic(fmt.Sprintf("ai: the engine refused its own legal move %s: %v", st.FormatMove(m), err))
		}
		s.path, s.movers, s.record = append(s.path, next), append(s.movers, mover), append(s.record, m)
		cur = next
		if t.at(cur).proof != 0 {
			break
		}
	}
	winner := s.result(cur, st, rng)
	s.backup(winner)
	if s.indexer != nil {
		s.rave(winner)
	}
	if s.replies != nil {
		s.learnReplies(winner)
	}
	s.prove()
}

// expandAt is the visits a leaf needs before it is expanded. As the tree
// fills up, leaves must prove their worth with more visits, so that the
// nodes left go to the lines the search keeps coming back to, and a long
// search (and the tree it keeps from the last move) does not stop growing
// with its budget of nodes spent on lines visited twice.
func (s *Searcher) expandAt() float32 {
	e := float32(s.cfg.Expand)
	switch used, limit := s.tree.used, s.cfg.Nodes; {
	case used > limit/4*3:
		return 8 * e
	case used > limit/2:
		return 4 * e
	case used > limit/4:
		return 2 * e
	}
	return e
}

// reset makes the scratch state a copy of the root.
func (s *Searcher) reset() game.State {
	if s.copier != nil {
		s.copier.CopyFrom(s.root)
		return s.scratch
	}
	s.scratch = s.root.Clone()
	return s.scratch
}

// result is the winner of the iteration: known from a proof, from the end
// of the game, or found by a rollout.
func (s *Searcher) result(leaf int32, st game.State, rng *rand.Rand) game.Player {
	n := s.tree.at(leaf)
	mover := s.movers[len(s.movers)-1]
	switch n.proof {
	case 1:
		return mover
	case -1:
		return mover.Other()
	}
	if out := st.Outcome(); out.Over {
		if leaf != 0 && out.Winner != game.Nobody {
			n.proof = -1
			if out.Winner == mover {
				n.proof = 1
			}
		}
		return out.Winner
	}
	if s.replier != nil {
		var out game.Outcome
		s.record, out = s.replier.RolloutReplying(rng, s.record, s.replies)
		return out.Winner
	}
	if s.rollouter != nil {
		var out game.Outcome
		s.record, out = s.rollouter.Rollout(rng, s.record)
		return out.Winner
	}
	for {
		if out := st.Outcome(); out.Over {
			return out.Winner
		}
		moves := st.Legal(s.legal[:0])
		m := moves[rng.IntN(len(moves))]
		if err := st.Play(m); err != nil {
			panic(fmt.Sprintf("ai: the engine refused its own legal move %s: %v", st.FormatMove(m), err))
		}
		s.legal = moves
		if s.indexer != nil {
			s.record = append(s.record, m)
		}
	}
}

// pick selects the child of i to follow.
func (s *Searcher) pick(i int32) int32 {
	t := &s.tree
	n := t.at(i)
	logN := float32(math.Log(float64(n.visits + 1)))
	kids := t.children(i)
	best, bestV := 0, float32(math.Inf(-1))
	for k := range kids {
		if v := kids[k].value(logN, s.cfg.Explore, s.cfg.RaveBias); v > bestV {
			best, bestV = k, v
		}
	}
	return n.first + int32(best)
}

// backup adds the result to every node of the path.
func (s *Searcher) backup(winner game.Player) {
	t := &s.tree
	t.at(0).visits++
	for i := len(s.path) - 1; i >= 1; i-- {
		n := t.at(s.path[i])
		n.visits++
		n.wins += score(winner, s.movers[i])
	}
}

func score(winner, mover game.Player) float32 {
	switch winner {
	case mover:
		return 1
	case game.Nobody:
		return 0.5
	}
	return 0
}

// rave credits the result to every child, along the path, whose move the
// same player made later in the iteration.
func (s *Searcher) rave(winner game.Player) {
	t := &s.tree
	for k := len(s.record) - 1; k >= 0; k-- {
		mover := s.moverAt(k)
		s.marks[s.indexer.MoveIndex(s.record[k])] = uint8(mover) + 1
		if k >= len(s.path) {
			continue
		}
		n := t.at(s.path[k])
		if n.first == 0 {
			continue
		}
		want, result := uint8(mover)+1, score(winner, mover)
		for c := range t.children(s.path[k]) {
			kid := t.at(n.first + int32(c))
			if s.marks[s.indexer.MoveIndex(kid.move)] == want {
				kid.raveVisits++
				kid.raveWins += result
			}
		}
	}
	for _, m := range s.record {
		s.marks[s.indexer.MoveIndex(m)] = 0
	}
}

// moverAt is the player who made move k of the iteration's record.
// Moves after the tree alternate between the players.
func (s *Searcher) moverAt(k int) game.Player {
	if k+1 < len(s.movers) {
		return s.movers[k+1]
	}
	last := len(s.movers) - 1
	p := s.root.ToMove()
	if last > 0 {
		p = s.movers[last].Other()
	}
	if (k-last)&1 == 1 {
		p = p.Other()
	}
	return p
}

// learnReplies teaches the last-good-reply memory every answer of the
// iteration: the winner's are kept, the loser's forgotten.
func (s *Searcher) learnReplies(winner game.Player) {
	if winner == game.Nobody {
		return
	}
	for k := 1; k < len(s.record); k++ {
		mover := s.moverAt(k)
		prev, reply := s.indexer.MoveIndex(s.record[k-1]), s.indexer.MoveIndex(s.record[k])
		s.replies.Learn(mover, prev, reply, mover == winner)
	}
}

// prove backs proofs up the path: a parent whose mover's opponent has a
// winning reply is lost, and one whose every reply loses is won.
func (s *Searcher) prove() {
	t := &s.tree
	for i := len(s.path) - 1; i >= 1; i-- {
		n := t.at(s.path[i])
		parent := t.at(s.path[i-1])
		if n.proof == 0 || parent.proof != 0 {
			return
		}
		if n.proof == 1 {
			parent.proof = -1
			continue
		}
		for _, kid := range t.children(s.path[i-1]) {
			if kid.proof != -1 {
				return
			}
		}
		parent.proof = 1
	}
}
