// Package fanorona is the rules engine for Fanorona (fanoron-tsivy, the 9×5
// board) under the ICGA rules without vela: capture is compulsory, a
// capturing piece may go on capturing by approach or withdrawal and stop
// after any capture, and a game with 50 turns in a row without a capture is
// drawn. It meets the game.State contract, reads and writes the usual turn
// notation (d3-e3W, e4-e3A-f4W), and offers Perft and random playouts for
// testing and computer opponents.
package fanorona

import (
	"math/bits"

	"bretter/game"
)

// drawAfter is the number of turns in a row without a capture that draws.
const drawAfter = 50

// result is how the rules ended the game, if they did.
type result uint8

const (
	ongoing result = iota
	allCaptured
	fiftyTurns
	noMoves
)

var reasons = [...]string{ongoing: "", allCaptured: "all_captured", fiftyTurns: "fifty_turns", noMoves: "no_moves"}

func outcome(r result, winner game.Player) game.Outcome {
	return game.Outcome{Over: r != ongoing, Winner: winner, Reason: reasons[r]}
}

// State is a Fanorona position with what the site shows about the turn that
// led to it. It is plain data: copying the struct copies the game.
type State struct {
	pieces   [2]uint64 // point sets, indexed by game.Player
	toMove   game.Player
	ply      int
	counter  int       // turns in a row without a capture
	last     game.Move // the last turn played; zero before the first
	captured uint64    // the points the last turn emptied
	result   result
	winner   game.Player
}

var _ game.State = (*State)(nil)

// New returns the start position, White to move.
func New() *State {
	const start = "" +
		"WWWWWWWWW" + // rank 1
		"WWWWWWWWW" +
		"BWBW.BWBW" +
		"BBBBBBBBB" +
		"BBBBBBBBB" // rank 5
	return fromBoard(start, game.White)
}

// fromBoard returns the position drawn in board, one byte a point from a1
// to i5 (W, B or anything else for empty, as View gives it), with toMove
// to move. It does not decide whether the game is over.
func fromBoard(board string, toMove game.Player) *State {
	s := &State{toMove: toMove, winner: game.Nobody}
	for p, c := range board {
		switch c {
		case 'W':
			s.pieces[game.White] |= bit(p)
		case 'B':
			s.pieces[game.Black] |= bit(p)
		}
	}
	return s
}

// Game describes Fanorona for the site's list of games. It has no options.
func Game() game.Game {
	return game.Game{
		Name: "fanorona",
		New:  func(game.Options) (game.State, error) { return New(), nil },
	}
}

// ToMove is the side whose turn it is.
func (s *State) ToMove() game.Player { return s.toMove }

// Ply is the number of turns played.
func (s *State) Ply() int { return s.ply }

// Pieces returns how many pieces each side has left.
func (s *State) Pieces() (white, black int) {
	return bits.OnesCount64(s.pieces[game.White]), bits.OnesCount64(s.pieces[game.Black])
}

// LastCaptured is the number of pieces the last turn removed.
func (s *State) LastCaptured() int { return bits.OnesCount64(s.captured) }

// Counter is the number of turns in a row without a capture; the game is
// drawn when it reaches 50.
func (s *State) Counter() int { return s.counter }

// Outcome reports whether the rules have ended the game. A side with no
// pieces has lost (all_captured); otherwise 50 turns without a capture draw
// (fifty_turns); otherwise a side that cannot move has lost (no_moves).
func (s *State) Outcome() game.Outcome { return outcome(s.result, s.winner) }

// Clone returns an independent copy.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// Legal appends every legal turn, each prefix of a capture chain being a
// turn of its own, and a capture that could go both ways being two.
func (s *State) Legal(buf []game.Move) []game.Move {
	if s.result != ongoing {
		return buf
	}
	return appendTurns(buf, s.pieces[s.toMove], s.pieces[s.toMove.Other()])
}

// Play plays the turn m. An illegal turn is refused with the reason and
// changes nothing.
func (s *State) Play(m game.Move) error {
	if s.result != ongoing {
		return game.AfterEnd(s.FormatMove(m))
	}
	own, enemy := s.pieces[s.toMove], s.pieces[s.toMove.Other()]
	newOwn, captured, reason := check(m, s.toMove, own, enemy)
	if reason.Key != "" {
		return game.Illegal(s.FormatMove(m), reason)
	}
	s.pieces[s.toMove] = newOwn
	s.pieces[s.toMove.Other()] = enemy &^ captured
	s.toMove = s.toMove.Other()
	s.ply++
	s.counter++
	if captured != 0 {
		s.counter = 0
	}
	s.last = m
	s.captured = captured
	s.settle()
	return nil
}

// settle decides whether the position just reached ends the game.
func (s *State) settle() {
	own, enemy := s.pieces[s.toMove], s.pieces[s.toMove.Other()]
	s.result, s.winner = ongoing, game.Nobody
	switch {
	case own == 0:
		s.result, s.winner = allCaptured, s.toMove.Other()
	case s.counter >= drawAfter:
		s.result = fiftyTurns
	case !canMove(own, enemy):
		s.result, s.winner = noMoves, s.toMove.Other()
	}
}

// check follows turn m of side, whose pieces are own, against enemy, by
// the rules in chain.go. It returns own's pieces after the turn and the enemy
// pieces captured, or why m is not legal.
func check(m game.Move, side game.Player, own, enemy uint64) (newOwn, captured uint64, reason game.Reason) {
	if !wellFormed(m) {
		return 0, 0, game.Because("why.fanorona.not_a_turn", "not a well-formed Fanorona turn")
	}
	p := moveStart(m)
	if own&bit(p) == 0 {
		if side == game.White {
			return 0, 0, game.Because("why.fanorona.no_white_piece", "there is no white piece on {point}", "point", pointName(p))
		}
		return 0, 0, game.Because("why.fanorona.no_black_piece", "there is no black piece on {point}", "point", pointName(p))
	}
	rest, visited, last := own&^bit(p), bit(p), noDir
	for i := range moveLen(m) {
		d, withdraw := moveStep(m, i)
		q := int(neighbour[p][d])
		if targets(rest, enemy, visited, p, last)&bit(q) == 0 {
			return 0, 0, whyNot(visited, p, last, q, d)
		}
		if isPaika(m) {
			if captureMovers(own, enemy) != 0 {
				return 0, 0, game.Because("why.fanorona.must_capture", "capture is compulsory: a paika is not allowed")
			}
			return rest | bit(q), 0, game.Reason{}
		}
		at, dir := captureLine(p, q, d, withdraw)
		took := line(at, dir, enemy)
		if took == 0 {
			if withdraw {
				return 0, 0, game.Because("why.fanorona.no_withdrawal", "{step} captures nothing by withdrawal", "step", pointName(p)+"-"+pointName(q))
			}
			return 0, 0, game.Because("why.fanorona.no_approach", "{step} captures nothing by approach", "step", pointName(p)+"-"+pointName(q))
		}
		enemy &^= took
		captured |= took
		visited |= bit(q)
		p, last = q, d
	}
	return rest | bit(p), captured, game.Reason{}
}
