// Package havannah is the rules engine for Havannah: two players place
// stones on a hexagonal board of hexagons, and the first to make a ring, a
// bridge or a fork with one group of stones wins. Win detection is
// incremental (union-find with side and corner masks, and a constant-time
// ring test), so the engine is fast enough for random playouts.
package havannah

import (
	"fmt"
	"math/bits"

	"bretter/game"
)

// Structure is a set of winning structures, as bits.
type Structure uint8

const (
	Fork Structure = 1 << iota
	Bridge
	Ring
)

// Names lists the structures in s in the order fork, bridge, ring.
func (s Structure) Names() []string {
	var out []string
	for _, x := range []struct {
		bit  Structure
		name string
	}{{Fork, "fork"}, {Bridge, "bridge"}, {Ring, "ring"}} {
		if s&x.bit != 0 {
			out = append(out, x.name)
		}
	}
	return out
}

// first names the first structure in s in the order fork, bridge, ring.
func (s Structure) first() string {
	switch {
	case s&Fork != 0:
		return "fork"
	case s&Bridge != 0:
		return "bridge"
	case s&Ring != 0:
		return "ring"
	}
	return ""
}

// Cell colours in State.cell.
const (
	empty uint8 = iota
	white
	black
)

// swapMove is the pie rule's move. Cell moves carry the grid index in A,
// which is never 0 for an on-board cell.
var swapMove = game.Move{A: 1 << 16}

// SwapMove returns the move that applies the swap (pie) rule.
func SwapMove() game.Move { return swapMove }

// State is a Havannah position. The zero value is not usable; call New.
type State struct {
	geo      *geometry
	swapRule bool

	cell   [gridSize]uint8
	parent [gridSize]int16  // union-find parent; a root holds -(group size)
	edges  [gridSize]uint16 // side and corner mask of each root's group

	ply     int
	stones  int
	swapped bool
	last    int16 // cell of the last stone placed or swapped

	won     Structure // structures completed by the winning move
	winCell int16     // the winning stone
}

// New returns the empty board of side size, with or without the swap rule.
func New(size int, swap bool) (*State, error) {
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("board side must be between %d and %d, not %d", MinSize, MaxSize, size)
	}
	return &State{geo: geometries[size], swapRule: swap}, nil
}

// Game describes Havannah for the site and the commands.
func Game() game.Game {
	return game.Game{
		Name: "havannah",
		Options: []game.Option{
			{Name: "size", Min: MinSize, Max: MaxSize, Default: DefaultSize},
			{Name: "swap", Min: 0, Max: 1, Default: 0, Bool: true},
		},
		New: func(o game.Options) (game.State, error) {
			s, err := New(o["size"], o["swap"] == 1)
			if err != nil {
				return nil, err
			}
			return s, nil
		},
		Records: &game.RecordFormat{Ext: "hgf", Write: writeRecord, Read: readRecord},
	}
}

// Size returns the board's side.
func (s *State) Size() int { return s.geo.size }

func (s *State) ToMove() game.Player { return game.Player(s.ply & 1) }
func (s *State) Ply() int            { return s.ply }

func (s *State) over() bool { return s.won != 0 || s.stones == len(s.geo.cells) }

// Outcome reports a win with its first structure in the order fork, bridge,
// ring, or a draw when the board is full.
func (s *State) Outcome() game.Outcome {
	switch {
	case s.won != 0:
		return game.Outcome{Over: true, Winner: s.colourAt(s.winCell), Reason: s.won.first()}
	case s.stones == len(s.geo.cells):
		return game.Outcome{Over: true, Winner: game.Nobody, Reason: "full_board"}
	}
	return game.Outcome{Winner: game.Nobody}
}

// Structures returns every structure the winning move completed.
func (s *State) Structures() Structure { return s.won }

func (s *State) colourAt(c int16) game.Player { return game.Player(s.cell[c] - 1) }

func (s *State) Legal(buf []game.Move) []game.Move {
	if s.over() {
		return buf
	}
	for _, c := range s.geo.cells {
		if s.cell[c] == empty {
			buf = append(buf, game.Move{A: uint64(c)})
		}
	}
	if s.swapRule && s.ply == 1 {
		buf = append(buf, swapMove)
	}
	return buf
}

func (s *State) Clone() game.State {
	c := *s
	return &c
}

// Play plays m, or explains why it is not legal and changes nothing.
func (s *State) Play(m game.Move) error {
	if s.over() {
		return game.AfterEnd(s.FormatMove(m))
	}
	if m == swapMove {
		if !s.swapRule {
			return game.Illegal("swap", game.Because("why.havannah.no_swap_rule", "this game is played without the swap rule"))
		}
		if s.ply != 1 {
			return game.Illegal("swap", game.Because("why.havannah.swap_second", "swap is only allowed as the second move"))
		}
		// After one move the last stone is the first.
		s.cell[s.last] = black
		s.swapped = true
		s.ply++
		return nil
	}
	c, ok := s.cellOf(m)
	if !ok {
		return game.Illegal(s.FormatMove(m), game.Because("why.havannah.off_board", "not a cell of this board"))
	}
	if s.cell[c] != empty {
		return game.Illegal(s.name(c), game.Because("why.havannah.taken", "the cell is taken"))
	}
	s.place(c)
	return nil
}

func (s *State) cellOf(m game.Move) (int, bool) {
	if m.B != 0 || m.A >= gridCells || !s.geo.on[m.A] {
		return 0, false
	}
	return int(m.A), true
}

// place puts the mover's stone on the empty cell c and detects a win.
func (s *State) place(c int) {
	colour := uint8(s.ply&1) + 1
	var won Structure
	var g groups
	if own := s.around(c, colour); own != 0 {
		won, g = s.judge(c, colour, own)
	}
	c &= gridMask
	s.cell[c] = colour
	s.parent[c] = -1
	s.edges[c] = s.geo.edge[c]
	if g.n > 0 {
		root := s.union(c, g.a)
		if g.n > 1 {
			root = s.union(root, g.b)
			if g.n > 2 {
				s.union(root, g.c)
			}
		}
	}
	s.last = int16(c)
	s.ply++
	s.stones++
	if won != 0 {
		s.won = won
		s.winCell = int16(c)
	}
}

// judge works out which structures a stone of colour on the empty cell c
// would complete, and the distinct groups it would join; own (not 0) says
// which neighbours hold colour already. It changes nothing.
//
// The ring test needs no search. Treat the group as a patch of the
// triangular lattice (stones, the links between touching stones, and the
// triangles of three mutually touching stones). A ring that encloses a cell
// not in the group is a hole in that patch, and adding a stone changes the
// number of holes by (its runs of own neighbours) − (distinct groups it
// joins), by Euler's formula. A ring that encloses only the group's own
// cells leaves some own stone with six own neighbours, and that stone must
// sit in the middle of three consecutive own neighbours of c.
func (s *State) judge(c int, colour, own uint8) (won Structure, g groups) {
	p := &patterns[own]
	// Stones of one run touch each other, so one find per run will do.
	g.a, g.n = s.find(c+p.starts[0]), 1
	mask := s.geo.edge[c&gridMask] | s.edges[g.a&gridMask]
	for k := 1; k < int(p.runs); k++ {
		r := s.find(c + p.starts[k])
		switch {
		case r == g.a || g.n > 1 && r == g.b:
			continue
		case g.n == 1:
			g.b = r
		default:
			g.c = r
		}
		g.n++
		mask |= s.edges[r&gridMask]
	}
	if p.closed || int(p.runs) > g.n {
		won = Ring
	} else if p.middles != 0 {
		for i, d := range dirs {
			// The neighbour sees c in the opposite direction.
			if p.middles&(1<<i) != 0 && s.around(c+d, colour)|1<<((i+3)%6) == 0x3f {
				won = Ring
				break
			}
		}
	}
	if bits.OnesCount16(mask&sideBits) >= 3 {
		won |= Fork
	}
	if bits.OnesCount16(mask&cornerBits) >= 2 {
		won |= Bridge
	}
	return won, g
}

// groups are the distinct groups (their roots) that a stone would join:
// n of them, at most three.
type groups struct {
	a, b, c, n int
}

// pattern describes one set of own neighbours around a cell (bit i for
// dirs[i]): its runs of consecutive own neighbours, where each run starts,
// and the neighbours that have own neighbours on both sides. Six own
// neighbours are one closed run around the cell: already a ring.
type pattern struct {
	runs    uint8
	starts  [3]int // offset of the first neighbour of each run
	middles uint8
	closed  bool
}

var patterns = func() (t [64]pattern) {
	for own := range 64 {
		p := &t[own]
		for i := range 6 {
			prev, this, next := own>>((i+5)%6)&1, own>>i&1, own>>((i+1)%6)&1
			if this == 1 && prev == 0 {
				p.starts[p.runs] = dirs[i]
				p.runs++
			}
			if this == 1 && prev == 1 && next == 1 {
				p.middles |= 1 << i
			}
		}
	}
	t[63] = pattern{runs: 1, starts: [3]int{dirs[0]}, closed: true}
	return t
}()

// around returns which neighbours of c hold colour, bit i for dirs[i].
// It has no branches: (x^colour)-1 has its top bit set only when x equals
// colour, as cell values are below 128. It runs for every stone.
func (s *State) around(c int, colour uint8) uint8 {
	cl := &s.cell
	return (cl[(c+left)&gridMask]^colour-1)>>7 |
		(cl[(c+upLeft)&gridMask]^colour-1)>>7<<1 |
		(cl[(c+up)&gridMask]^colour-1)>>7<<2 |
		(cl[(c+right)&gridMask]^colour-1)>>7<<3 |
		(cl[(c+downRight)&gridMask]^colour-1)>>7<<4 |
		(cl[(c+down)&gridMask]^colour-1)>>7<<5
}

// find returns the root of x's group. Union by size keeps trees shallow, so
// find needs no path compression and never writes: reading a state is safe
// while another goroutine reads it too.
func (s *State) find(x int) int {
	for {
		p := s.parent[x&gridMask]
		if p < 0 {
			return x
		}
		x = int(p)
	}
}

func (s *State) union(a, b int) int {
	if a == b {
		return a
	}
	a, b = a&gridMask, b&gridMask
	if s.parent[a] > s.parent[b] { // a is the smaller group
		a, b = b, a
	}
	s.parent[a] += s.parent[b]
	s.parent[b] = int16(a)
	s.edges[a] |= s.edges[b]
	return a
}

// WouldWin reports the structures that m would complete for the player to
// move, without playing it. It reports nothing for an illegal move or swap.
func (s *State) WouldWin(m game.Move) Structure {
	c, ok := s.cellOf(m)
	if !ok || s.over() || s.cell[c] != empty {
		return 0
	}
	colour := uint8(s.ply&1) + 1
	own := s.around(c, colour)
	if own == 0 {
		return 0
	}
	won, _ := s.judge(c, colour, own)
	return won
}

// WinningCells returns the cells of the group that won, in row-major order,
// or nil while nobody has won.
func (s *State) WinningCells() []string {
	if s.won == 0 {
		return nil
	}
	root := s.find(int(s.winCell))
	var out []string
	for _, c := range s.geo.cells {
		if s.cell[c] != empty && s.find(int(c)) == root {
			out = append(out, s.name(int(c)))
		}
	}
	return out
}
