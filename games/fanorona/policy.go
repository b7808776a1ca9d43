package fanorona

import (
	"math/bits"
	"math/rand/v2"

	"bretter/game"
)

// Policy is how a rollout of the computer opponent chooses turns: with
// some knowledge of the game instead of uniformly at random. The zero
// Policy plays as Playout does.
type Policy struct {
	// Greedy is the chance that a side that must capture takes the turn
	// that captures the most pieces instead of a capturing turn at random.
	Greedy float32
	// Safe is the chance that a side without a capture plays a paika after
	// which the opponent has no capture either, when there is one.
	Safe float32
	// Turns ends a rollout after this many turns, when it is not over by
	// then: the side with more pieces wins, equal pieces draw. 0 plays to
	// the end.
	Turns int
}

// rollout is the policy of Rollout. Always taking the biggest capture
// scored 64% against uniformly random turns at 3,000 iterations a move
// (40 games), even at 10,000 iterations and at 250 ms a move (20 games
// each), and 60% against a mix with safe paikas (greedy 80%, safe 30%) at
// 3,000; from the start its rollouts are about as fast as random ones.
// Cutting rollouts short after 20 turns scored worse.
var rollout = Policy{Greedy: 1}

// PlayoutWith plays turns chosen by pol until the game ends, or pol's
// turns are up, and returns how it ended: by the rules, or by the pieces
// left when the turns ran out (Over, with Reason "material"). Like
// Playout, it leaves s unchanged and allocates nothing.
func (s *State) PlayoutWith(rng *rand.Rand, pol Policy) game.Outcome {
	if s.result != ongoing {
		return s.Outcome()
	}
	side := s.toMove
	own, enemy := s.pieces[side], s.pieces[side.Other()]
	counter := s.counter
	for turn := 0; ; turn++ {
		// The same order of tests as State.settle.
		switch {
		case own == 0:
			return outcome(allCaptured, side.Other())
		case counter >= drawAfter:
			return outcome(fiftyTurns, game.Nobody)
		case pol.Turns > 0 && turn >= pol.Turns:
			return material(side, own, enemy)
		}
		movers := captureMovers(own, enemy)
		switch {
		case movers != 0 && pol.Greedy > 0 && rng.Float32() < pol.Greedy:
			own, enemy = biggestCapture(own, enemy, movers)
			counter = 0
		case movers != 0:
			movers, sizes, total := captureCounts(own, enemy)
			own, enemy = turnAt(own, enemy, movers, &sizes, rng.Uint64N(total))
			counter = 0
		default:
			var ok bool
			if own, ok = paika(rng, own, enemy, pol.Safe > 0 && rng.Float32() < pol.Safe); !ok {
				return outcome(noMoves, side.Other())
			}
			counter++
		}
		own, enemy = enemy, own
		side = side.Other()
	}
}

// material is the end of a rollout cut short: side, with own pieces
// against enemy, is to move.
func material(side game.Player, own, enemy uint64) game.Outcome {
	out := game.Outcome{Over: true, Winner: game.Nobody, Reason: "material"}
	switch a, b := bits.OnesCount64(own), bits.OnesCount64(enemy); {
	case a > b:
		out.Winner = side
	case a < b:
		out.Winner = side.Other()
	}
	return out
}

// biggestCapture plays the capturing turn of own that leaves the fewest
// enemy pieces, the first one found when several do, and returns both
// sides' pieces after it. movers are the pieces that can capture.
func biggestCapture(own, enemy, movers uint64) (newOwn, newEnemy uint64) {
	bestEnd, bestFrom, bestLeft := -1, 0, enemy
	for m := movers; m != 0; m &= m - 1 {
		p := bits.TrailingZeros64(m)
		end, left := bestChain(own&^bit(p), enemy, p, noDir, bit(p))
		if end >= 0 && bits.OnesCount64(left) < bits.OnesCount64(bestLeft) {
			bestEnd, bestFrom, bestLeft = end, p, left
		}
	}
	if bestEnd < 0 {
		panic("fanorona: a capturing piece without a capture")
	}
	return own&^bit(bestFrom) | bit(bestEnd), bestLeft
}

// bestChain finds, among the turns that go on from p in chainCount's walk,
// one that leaves the fewest enemy pieces, and returns its end point and
// the enemy left; the end is -1 when no capturing step goes on from p.
func bestChain(rest, enemy uint64, p, last int, visited uint64) (end int, left uint64) {
	end, left = -1, enemy
	open := allPoints &^ (rest | enemy | visited)
	for c := adjacent[p] & open &^ next[p][last]; c != 0; c &= c - 1 {
		q := bits.TrailingZeros64(c)
		d := int(towards[p][q])
		for k := range 2 {
			// Approach: the line beyond the landing point; withdrawal: the
			// line behind the start.
			at, dir := q, d
			if k == 1 {
				at, dir = p, d^4
			}
			if enemy&next[at][dir] == 0 {
				continue
			}
			e, l := q, enemy&^line(at, dir, enemy)
			if near[q]&l != 0 {
				if e2, l2 := bestChain(rest, l, q, d, visited|bit(q)); e2 >= 0 && bits.OnesCount64(l2) < bits.OnesCount64(l) {
					e, l = e2, l2
				}
			}
			if end < 0 || bits.OnesCount64(l) < bits.OnesCount64(left) {
				end, left = e, l
			}
		}
	}
	return end, left
}

// paika plays a paika of own chosen at random, when own has none but
// paikas, and returns own's pieces after it; safe restricts the choice to
// the paikas after which enemy has no capture, if there are any. It
// reports false when own cannot move at all.
func paika(rng *rand.Rand, own, enemy uint64, safe bool) (uint64, bool) {
	empty := allPoints &^ (own | enemy)
	var turns [maxSteps * 8]uint64 // own's pieces after each paika
	n, kept := 0, 0
	for d := range 8 {
		for m := own & from(empty, d); m != 0; m &= m - 1 {
			p := bits.TrailingZeros64(m)
			after := own ^ bit(p) ^ bit(int(neighbour[p][d]))
			turns[n] = after
			n++
			if safe && captureMovers(enemy, after) == 0 {
				// Safe paikas gather at the front.
				turns[kept], turns[n-1] = turns[n-1], turns[kept]
				kept++
			}
		}
	}
	if n == 0 {
		return own, false
	}
	if kept > 0 {
		n = kept
	}
	return turns[rng.IntN(n)], true
}
