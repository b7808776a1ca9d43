// Package game is the contract between the rules engines and everything that
// uses them: the site, the judge and perft commands and the computer
// opponents. It holds no game's rules; each engine lives in its own package
// under games/ and meets the State interface.
package game

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Player is one side of a two-player game. White always moves first.
type Player int8

const (
	White Player = iota
	Black

	// Nobody is the winner of a drawn game.
	Nobody Player = -1
)

// Other returns the opponent of p.
func (p Player) Other() Player { return 1 - p }

func (p Player) String() string {
	switch p {
	case White:
		return "white"
	case Black:
		return "black"
	case Nobody:
		return "none"
	}
	return "Player(" + strconv.Itoa(int(p)) + ")"
}

// ParsePlayer reads "white" or "black".
func ParsePlayer(s string) (Player, error) {
	switch s {
	case "white":
		return White, nil
	case "black":
		return Black, nil
	}
	return Nobody, fmt.Errorf("unknown player %q: want white or black", s)
}

// Move is one move of some game; for games whose turn has several steps it
// is the whole turn. The engine that made it packs it into two words and
// alone knows what they mean. It is a plain comparable value, so search code
// can keep millions of them without allocating.
type Move struct{ A, B uint64 }

// Errors that callers branch on. Engines make them with Illegal,
// Malformed and AfterEnd, so that every game words them alike:
//
//	illegal move d4: the cell is taken
//	malformed move "zz": not a cell (a letter and a number, like e5)
//	game is over: d4 comes after the end
//
// Each is a *Refusal, whose Reason a site can say in its reader's
// language.
var (
	ErrIllegalMove = errors.New("illegal move")
	ErrGameOver    = errors.New("game is over")
	ErrNotation    = errors.New("malformed move")
)

// Illegal is the error for a move the rules refuse: the move as the game
// writes it, and why.
func Illegal(move string, why Reason) error {
	return &Refusal{Err: ErrIllegalMove, Subject: move, Reason: why}
}

// Malformed is the error for text that does not read as a move, and why.
func Malformed(text string, why Reason) error {
	return &Refusal{Err: ErrNotation, Subject: strconv.Quote(text), Reason: why}
}

// AfterEnd is the error for a move played once the game is over.
func AfterEnd(move string) error {
	return &Refusal{Err: ErrGameOver, Reason: Because("why.after_end", "{move} comes after the end", "move", move)}
}

// Outcome is how the rules ended a game. Resignation is not a rule ending;
// the site records it beside the moves.
type Outcome struct {
	Over   bool
	Winner Player // Nobody for a draw; meaningless while !Over
	Reason string // the rule's word, such as "ring", "fork", "full_board", "score", "all_captured"
}

// State is a position of one game together with the moves that led to it.
// States are plain values with no pointers into shared data, so a Clone may
// be handed to another goroutine.
type State interface {
	// ToMove is the player whose turn it is.
	ToMove() Player
	// Ply is the number of moves played so far.
	Ply() int
	// Legal appends every legal move to buf and returns the extended slice.
	// It appends nothing once the game is over.
	Legal(buf []Move) []Move
	// Play plays m. An illegal move returns an error wrapping ErrIllegalMove
	// (or ErrGameOver) that says why, and leaves the state unchanged.
	Play(m Move) error
	// Outcome reports whether the rules have ended the game.
	Outcome() Outcome
	// Clone returns an independent copy.
	Clone() State
	// ParseMove reads one move in the game's notation. It checks the form
	// only (wrapping ErrNotation); Play decides legality.
	ParseMove(s string) (Move, error)
	// FormatMove writes m in the game's notation.
	FormatMove(m Move) string
	// View is a JSON-ready picture of the position for the front end.
	View() any
}

// Option is one choice a game offers when it is created, such as the board
// size. An on/off option has Bool set and the range 0..1.
type Option struct {
	Name     string
	Min, Max int
	Default  int
	Bool     bool
}

// Options are the chosen values, by option name.
type Options map[string]int

// Game names one game, its options and how to start it.
type Game struct {
	Name    string
	Options []Option
	// New returns the start position for options that Resolve has checked.
	New func(Options) (State, error)
	// Records is the game's own record format, if it has one.
	Records *RecordFormat
}

// Resolve checks opts against the game's options and fills in defaults.
// Unknown names and values out of range are errors.
func (g Game) Resolve(opts Options) (Options, error) {
	out := make(Options, len(g.Options))
	known := make(map[string]bool, len(g.Options))
	for _, o := range g.Options {
		known[o.Name] = true
		v, ok := opts[o.Name]
		if !ok {
			v = o.Default
		}
		if v < o.Min || v > o.Max {
			name := Word{Key: "option." + o.Name, Text: o.Name}
			if o.Bool {
				return nil, Refuse(Because("why.option.bool", "option {option} must be true or false", "option", name))
			}
			return nil, Refuse(Because("why.option.range", "option {option} must be between {min} and {max}, not {value}",
				"option", name, "min", o.Min, "max", o.Max, "value", v))
		}
		out[o.Name] = v
	}
	var unknown []string
	for name := range opts {
		if !known[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return nil, Refuse(Because("why.option.unknown", "{game} has no option {names}",
			"game", Word{Key: "game." + g.Name + ".name", Text: g.Name}, "names", strings.Join(unknown, ", ")))
	}
	return out, nil
}

// Start resolves opts and returns the start position.
func (g Game) Start(opts Options) (State, Options, error) {
	resolved, err := g.Resolve(opts)
	if err != nil {
		return nil, nil, err
	}
	s, err := g.New(resolved)
	if err != nil {
		return nil, nil, err
	}
	return s, resolved, nil
}

// Replay starts g with opts and plays the moves, written in the game's
// notation. On a bad move it returns the 1-based index of that move with the
// error, and the state reached before it.
func Replay(g Game, opts Options, moves []string) (State, int, error) {
	s, _, err := g.Start(opts)
	if err != nil {
		return nil, 0, err
	}
	for i, text := range moves {
		m, err := s.ParseMove(text)
		if err == nil {
			err = s.Play(m)
		}
		if err != nil {
			return s, i + 1, err
		}
	}
	return s, 0, nil
}

// Perft counts the sequences of depth legal moves from s. It works through
// the interface only; engines offer faster counters of their own.
func Perft(s State, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves := s.Legal(nil)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		c := s.Clone()
		if err := c.Play(m); err != nil {
			panic("legal move refused: " + err.Error())
		}
		n += Perft(c, depth-1)
	}
	return n
}
