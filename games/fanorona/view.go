package fanorona

import (
	"math/bits"

	"bretter/game"
)

// View is what the page needs to draw a position. Encoded as JSON, the start
// position after White's d3-e3W reads:
//
//	{
//	  "board": "WWWWWWWWWWWWWWWWWWBW..WBWBWBBBBBBBBBBBBBBBBBB",
//	  "to_move": "black",
//	  "ply": 1,
//	  "counter": 0,
//	  "draw_at": 50,
//	  "white": 22,
//	  "black": 21,
//	  "last_turn": "d3-e3W",
//	  "captured": ["c3"],
//	  "takes": {"b4-c3A": ["e1", "d2"], "b4-c3A-d3A": ["e1", "d2", "e3"], ...}
//	}
//
// board has one character per point, W, B or '.', in the order a1 b1 … i1,
// a2 … i2, up to i5: the point on file f (a = 0) and rank r (1 = 0) is at
// index 9r + f. Strong points, the ones with diagonal lines, are those
// where f + r is even. counter is the number of turns in a row without a
// capture; the game is drawn when it reaches draw_at. last_turn is "" and
// captured is [] before the first turn. takes maps every legal turn that
// captures (each prefix of a chain being a turn of its own) to the points
// whose pieces it captures, so that a page shows what each step of a turn
// takes, while the turn is built or replayed, without knowing the rules;
// it is left out when no turn captures.
type View struct {
	Board    string              `json:"board"`
	ToMove   string              `json:"to_move"`
	Ply      int                 `json:"ply"`
	Counter  int                 `json:"counter"`
	DrawAt   int                 `json:"draw_at"`
	White    int                 `json:"white"`
	Black    int                 `json:"black"`
	LastTurn string              `json:"last_turn"`
	Captured []string            `json:"captured"`
	Takes    map[string][]string `json:"takes,omitempty"`
}

// View returns the picture of the position as a View.
func (s *State) View() any {
	var board [points]byte
	for p := range points {
		switch {
		case s.pieces[game.White]&bit(p) != 0:
			board[p] = 'W'
		case s.pieces[game.Black]&bit(p) != 0:
			board[p] = 'B'
		default:
			board[p] = '.'
		}
	}
	v := View{
		Board:    string(board[:]),
		ToMove:   s.toMove.String(),
		Ply:      s.ply,
		Counter:  s.counter,
		DrawAt:   drawAfter,
		Captured: pointNames(s.captured),
		Takes:    s.takes(),
	}
	v.White, v.Black = s.Pieces()
	if s.ply > 0 {
		v.LastTurn = formatMove(s.last)
	}
	return v
}

// takes maps every legal turn that captures to the points whose pieces it
// captures, or is nil when none does.
func (s *State) takes() map[string][]string {
	own, enemy := s.pieces[s.toMove], s.pieces[s.toMove.Other()]
	if s.result != ongoing || captureMovers(own, enemy) == 0 {
		return nil
	}
	out := map[string][]string{}
	for _, m := range s.Legal(nil) {
		_, captured, _ := check(m, s.toMove, own, enemy)
		out[formatMove(m)] = pointNames(captured)
	}
	return out
}

// pointNames names the points of set, a1 first.
func pointNames(set uint64) []string {
	out := make([]string, 0, bits.OnesCount64(set))
	for ; set != 0; set &= set - 1 {
		out = append(out, pointName(bits.TrailingZeros64(set)))
	}
	return out
}
