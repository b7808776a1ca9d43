package dvonn

import (
	"math/bits"
	"strconv"

	"bretter/game"
)

// View is the position as the front end draws it. As JSON:
//
//	{
//	  "phase":   "placement" | "stacking",
//	  "stacks":  [{"space": "C3", "height": 2, "top": "white", "dvonns": 1}, ...],
//	  "last":    {"from": "C3", "to": "D4"},
//	  "removed": [{"space": "E5", "height": 3, "top": "black", "dvonns": 0}, ...],
//	  "score":   {"white": 20, "black": 18},
//	  "reserve": {"white": 23, "black": 22, "red": 0},
//	  "place":   "white"
//	}
//
// stacks lists every occupied space in row-major order (A1 … K5); top is
// "white", "black" or "red", red being a lone DVONN piece, and dvonns counts
// the DVONN pieces in the stack. last is absent before the first move; for
// a placement it has only "to", for a pass only "pass": true. removed lists
// the stacks the last move cut off, empty ([]) when it cut off none.
// reserve (pieces of each colour still to place) and place (the colour of
// the next piece placed) appear only in the placement phase.
type View struct {
	Phase   string      `json:"phase"`
	Stacks  []StackView `json:"stacks"`
	Last    *LastView   `json:"last,omitempty"`
	Removed []StackView `json:"removed"`
	Score   ScoreView   `json:"score"`
	Reserve *Reserve    `json:"reserve,omitempty"`
	Place   string      `json:"place,omitempty"`
}

// StackView is one stack. A removed stack never holds a DVONN piece.
type StackView struct {
	Space  string `json:"space"`
	Height int    `json:"height"`
	Top    string `json:"top"`
	Dvonns int    `json:"dvonns"`
}

// LastView is the last move: a placement has only To, a pass only Pass.
type LastView struct {
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	Pass bool   `json:"pass,omitempty"`
}

// ScoreView is the total height of the stacks each colour tops.
type ScoreView struct {
	White int `json:"white"`
	Black int `json:"black"`
}

// Reserve counts the pieces of each colour not yet placed.
type Reserve struct {
	White int `json:"white"`
	Black int `json:"black"`
	Red   int `json:"red"`
}

// View returns the position for the front end; see the View type.
func (s *State) View() any { return s.view() }

func (s *State) view() View {
	v := View{
		Phase:   "stacking",
		Stacks:  []StackView{},
		Removed: []StackView{},
	}
	for _, c := range spaces {
		if s.occ&(1<<c) == 0 {
			continue
		}
		st := s.stack[c]
		v.Stacks = append(v.Stacks, StackView{
			Space:  spaceName(int(c)),
			Height: int(st & heightMask),
			Top:    s.topName(int(c)),
			Dvonns: int(st >> dvonnShift),
		})
	}
	for m := s.removed; m != 0; m &= m - 1 {
		c := bits.TrailingZeros64(m)
		top := "white"
		if s.gone[c]>>dvonnShift == topBlack {
			top = "black"
		}
		v.Removed = append(v.Removed, StackView{Space: spaceName(c), Height: int(s.gone[c] & heightMask), Top: top})
	}
	if kind, from, to, ok := decode(s.last); ok {
		switch kind {
		case kindPlace:
			v.Last = &LastView{To: spaceName(to)}
		case kindStack:
			v.Last = &LastView{From: spaceName(from), To: spaceName(to)}
		default:
			v.Last = &LastView{Pass: true}
		}
	}
	v.Score.White, v.Score.Black = s.Score()
	if s.ply < PlacementPlies {
		v.Phase = "placement"
		// White places plies 1, 3, 5, …, Black plies 2, 4, 6, …; the first
		// three plies place the DVONN pieces.
		const each = (PlacementPlies - dvonnPieces) / 2
		red := min(s.ply, dvonnPieces)
		whiteRed, blackRed := (red+1)/2, red/2
		v.Reserve = &Reserve{
			White: each - ((s.ply+1)/2 - whiteRed),
			Black: each - (s.ply/2 - blackRed),
			Red:   dvonnPieces - red,
		}
		v.Place = "red"
		if s.ply >= dvonnPieces {
			v.Place = s.ToMove().String()
		}
	}
	return v
}

func (s *State) topName(c int) string {
	switch bit := uint64(1) << c; {
	case s.white&bit != 0:
		return "white"
	case s.black&bit != 0:
		return "black"
	}
	return "red"
}

// Stacks writes the stacks on the board in row-major order, separated by
// spaces, each as space:OWNERheight:dvonns with OWNER W, B or R (a lone
// DVONN piece), such as "G2:B7:1 F5:R1:1". It is the form the reference
// corpus uses for final positions.
func (s *State) Stacks() string {
	var out []byte
	for _, c := range spaces {
		if s.occ&(1<<c) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, ' ')
		}
		st := s.stack[c]
		owner := byte('R')
		switch bit := uint64(1) << c; {
		case s.white&bit != 0:
			owner = 'W'
		case s.black&bit != 0:
			owner = 'B'
		}
		out = append(out, spaceName(int(c))...)
		out = append(out, ':', owner)
		out = strconv.AppendInt(out, int64(st&heightMask), 10)
		out = append(out, ':')
		out = strconv.AppendInt(out, int64(st>>dvonnShift), 10)
	}
	return string(out)
}

var _ game.State = (*State)(nil)
