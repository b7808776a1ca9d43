// Package clock works out the players' remaining time from a game's
// events and the time control it was created with. Nothing about time is
// stored but the events' own times, so every server, a restart and a
// replay agree on the clocks to the millisecond.
package clock

import (
	"fmt"
	"time"
)

// Control is a game's time control: a live clock with an initial time and
// an increment per move, or a number of days for each move. The zero
// Control is a game without a clock.
type Control struct {
	Initial   time.Duration
	Increment time.Duration
	Days      int
}

// Limits of what a game may be created with.
const (
	MinInitial   = 15 * time.Second
	MaxInitial   = 180 * time.Minute
	MaxIncrement = 180 * time.Second
)

// DaysChoices are the days per move a game may have.
var DaysChoices = []int{1, 2, 3, 5, 7, 14}

// None reports whether c is no clock at all.
func (c Control) None() bool { return c == Control{} }

// Check explains what is wrong with c, or returns nil.
func (c Control) Check() error {
	switch {
	case c.None():
		return nil
	case c.Days != 0:
		if c.Initial != 0 || c.Increment != 0 {
			return fmt.Errorf("a clock has either days per move or a time and an increment, not both")
		}
		for _, d := range DaysChoices {
			if d == c.Days {
				return nil
			}
		}
		return fmt.Errorf("days per move must be one of %v, not %d", DaysChoices, c.Days)
	case c.Initial < MinInitial || c.Initial > MaxInitial:
		return fmt.Errorf("the initial time must be between %v and %v, not %v", MinInitial, MaxInitial, c.Initial)
	case c.Increment < 0 || c.Increment > MaxIncrement:
		return fmt.Errorf("the increment must be between 0 and %v, not %v", MaxIncrement, c.Increment)
	}
	return nil
}

// per is a player's time for each move under days per move.
func (c Control) per() time.Duration { return time.Duration(c.Days) * 24 * time.Hour }

// Move is one move of the game as the clock sees it: who made it, when.
// A move the rules force (a pass) is stored with the move that forced it,
// at the same time, so it costs nothing; being Forced, it earns no
// increment either. A Pause is no move but a moment the turn changed
// otherwise (moves taken back): Seat's time runs until then, without an
// increment.
type Move struct {
	Seat   string // "white" or "black"
	At     time.Time
	Pause  bool
	Forced bool
}

// State is both clocks at one moment.
type State struct {
	White, Black time.Duration
	// Running is the seat whose time is running, "" when none is: before
	// both players have made their first move, and after the end.
	Running string
	// Deadline is when Running's time runs out.
	Deadline time.Time
}

// Left returns seat's remaining time.
func (s State) Left(seat string) time.Duration {
	if seat == "white" {
		return s.White
	}
	return s.Black
}

func (s *State) add(seat string, d time.Duration) {
	if seat == "white" {
		s.White += d
	} else {
		s.Black += d
	}
}

// At works out the clocks at now for a game with these moves, in order,
// where toMove is to move. playing is false once the game is over: then
// now is the moment it ended, up to which toMove's time is counted, and no
// clock runs.
//
// The clocks start once both players have made their first move: those
// first moves cost nothing. After that each move costs its mover the time
// since the move before, and earns the increment; under days per move the
// mover's time is full again after every move.
func At(c Control, moves []Move, toMove string, playing bool, now time.Time) State {
	s := State{White: c.Initial, Black: c.Initial}
	if c.Days != 0 {
		s.White, s.Black = c.per(), c.per()
	}
	if c.None() {
		return State{}
	}
	started := -1 // index of the move that starts the clocks
	var seen [2]bool
	for i, m := range moves {
		if m.Pause {
			continue
		}
		seen[seatIndex(m.Seat)] = true
		if seen[0] && seen[1] {
			started = i
			break
		}
	}
	if started < 0 {
		return s
	}
	last := moves[started].At
	for _, m := range moves[started+1:] {
		used := m.At.Sub(last)
		switch {
		case c.Days != 0:
			// Full time again for the next move.
		case m.Pause, m.Forced:
			s.add(m.Seat, -used)
		default:
			s.add(m.Seat, c.Increment-used)
		}
		last = m.At
	}
	deadline := last.Add(s.Left(toMove))
	if now.After(last) {
		s.add(toMove, -now.Sub(last))
	}
	if playing {
		s.Running, s.Deadline = toMove, deadline
	}
	return s
}

func seatIndex(seat string) int {
	if seat == "white" {
		return 0
	}
	return 1
}
