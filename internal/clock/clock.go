// Package clock works out the players' remaining time from a game's
// events, the time control it was created with, and the times the site
// was down. Nothing about time is stored but the events' own times and
// the outages (kept once by the store, the same for every instance), so
// every server, a restart and a replay agree on the clocks to the
// millisecond. Time the site was down is charged to nobody: nobody could
// move then, and a deploy or a crash must not decide a game.
package clock

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
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
		return fmt.Errorf("days per move must be %s, not %d", daysChoices(), c.Days)
	case c.Initial < MinInitial || c.Initial > MaxInitial:
		return fmt.Errorf("the initial time must be between %s and %s, not %s", Words(MinInitial), Words(MaxInitial), Words(c.Initial))
	case c.Increment < 0 || c.Increment > MaxIncrement:
		return fmt.Errorf("the increment must be between 0 and %s, not %s", Words(MaxIncrement), Words(c.Increment))
	}
	return nil
}

// Words says d in English as a person writes it ("3 hours", "1 minute
// 30 seconds"), for refusals that the API's users read; Go's own form
// ("3h0m0s") is for programmers.
func Words(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	h, m, sec := HMS(d)
	var parts []string
	for _, u := range []struct {
		n    int64
		name string
	}{{h, "hour"}, {m, "minute"}, {sec, "second"}} {
		if u.n == 0 {
			continue
		}
		if u.n != 1 {
			u.name += "s"
		}
		parts = append(parts, fmt.Sprintf("%d %s", u.n, u.name))
	}
	if len(parts) == 0 {
		return "0 seconds"
	}
	return sign + strings.Join(parts, " ")
}

// HMS is d, rounded to the second, in whole hours, minutes and seconds,
// as people say a time.
func HMS(d time.Duration) (h, m, s int64) {
	sec := int64(d.Round(time.Second) / time.Second)
	return sec / 3600, sec % 3600 / 60, sec % 60
}

// daysChoices lists DaysChoices as a sentence does: "1, 2, 3, 5, 7 or 14".
func daysChoices() string {
	list := make([]string, len(DaysChoices))
	for i, d := range DaysChoices {
		list[i] = strconv.Itoa(d)
	}
	return OrList(list)
}

// OrList joins choices in English as a sentence does, "a, b or c", for
// refusals that say what is allowed.
func OrList(choices []string) string {
	if len(choices) < 2 {
		return strings.Join(choices, "")
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}

// per is a player's time for each move under days per move.
func (c Control) per() time.Duration { return time.Duration(c.Days) * 24 * time.Hour }

// Move is one move of the game as the clock sees it: who made it, when.
// A move the rules force (a pass) is stored with the move that forced it,
// at the same time, so it costs nothing; being Forced, it earns no
// increment either. A Pause is no move but a moment the turn changed
// otherwise (moves taken back): Seat's time runs until then, without an
// increment, and the last Back moves before it give back the increments
// they earned.
type Move struct {
	Seat   string // "white" or "black"
	At     time.Time
	Pause  bool
	Forced bool
	Back   int
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
// since the move before, less the time the site was down (down), and
// earns the increment; under days per move the mover's time is full
// again after every move. Moves taken back give back their increments,
// and the time spent on them stays spent: nobody gains time by taking
// back. The deadline is as far past the last move as
// the time left, not counting the time the site was down.
func At(c Control, moves []Move, toMove string, playing bool, now time.Time, down Downtime) State {
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
	end := now
	if playing {
		end = time.Time{}
	}
	down = down.seen(moves, end)
	last := moves[started].At
	for i, m := range moves[started+1:] {
		used := down.up(last, m.At)
		switch {
		case c.Days != 0:
			// Full time again for the next move.
		case m.Pause:
			s.add(m.Seat, -used)
			s.giveBack(moves[started+1:started+1+i], m.Back, c.Increment)
		case m.Forced:
			s.add(m.Seat, -used)
		default:
			s.add(m.Seat, c.Increment-used)
		}
		last = m.At
	}
	deadline := down.after(last, s.Left(toMove))
	if now.After(last) {
		s.add(toMove, -down.up(last, now))
	}
	if playing {
		s.Running, s.Deadline = toMove, deadline
	}
	return s
}

// giveBack takes from each player the increments that the last n of
// earned, the moves since the clocks started, earned: those moves are
// taken back. The moves an earlier takeback took back are passed over:
// they gave theirs back then.
func (s *State) giveBack(earned []Move, n int, increment time.Duration) {
	gone := 0 // moves taken back already, still to pass over
	for i := len(earned) - 1; i >= 0 && n > 0; i-- {
		switch m := earned[i]; {
		case m.Pause:
			gone += m.Back
		case gone > 0:
			gone--
		default:
			if !m.Forced {
				s.add(m.Seat, -increment)
			}
			n--
		}
	}
}

func seatIndex(seat string) int {
	if seat == "white" {
		return 0
	}
	return 1
}

// Outage is a time the site was down: no instance of it was seen up from
// From to To, so nobody could move. The Grace after To is charged to
// nobody either: the site is up again, but the players' pages take a
// moment to find that out.
type Outage struct {
	From, To time.Time
	Grace    time.Duration
}

// Downtime is the time the site was down, and the graces after: the
// union of its outages. The zero Downtime is none.
type Downtime struct {
	// outages are the outages without their graces, merged: in order,
	// apart, none empty. The Grace of one merged from several runs to
	// the end of the latest of theirs.
	outages []Outage
	spans   []Outage // what the clocks leave out: outages and graces, merged, no Grace
}

// NewDowntime is the union of outages, in any order. Instances that
// started together may each have recorded the same outage, or ones that
// overlap: that time is still left out once.
func NewDowntime(outages []Outage) Downtime {
	merged := make([]Outage, 0, len(outages))
	for _, o := range outages {
		if o.To.After(o.From) {
			merged = append(merged, o)
		}
	}
	slices.SortFunc(merged, func(a, b Outage) int { return a.From.Compare(b.From) })
	n := 0
	for _, o := range merged {
		if n > 0 && !o.From.After(merged[n-1].To) {
			last := &merged[n-1]
			end := last.To.Add(last.Grace)
			if o.To.After(last.To) {
				last.To = o.To
			}
			if e := o.To.Add(o.Grace); e.After(end) {
				end = e
			}
			last.Grace = end.Sub(last.To)
			continue
		}
		merged[n] = o
		n++
	}
	merged = merged[:n]
	return Downtime{outages: merged, spans: union(merged)}
}

// union is the time outages, in order and apart, and their graces cover.
func union(outages []Outage) []Outage {
	var spans []Outage
	for _, o := range outages {
		to := o.To.Add(o.Grace)
		if n := len(spans); n > 0 && !o.From.After(spans[n-1].To) {
			if to.After(spans[n-1].To) {
				spans[n-1].To = to
			}
			continue
		}
		spans = append(spans, Outage{From: o.From, To: to})
	}
	return spans
}

// seen is d less what the game's own times show up: an outage begins
// when the site was last noted up, which may be up to a note's interval,
// or a stop's last answers, before it stopped, and whatever the game
// stored meanwhile was stored while the site was up. Such an outage
// begins at the last of the moves (or end, if not zero) within it, so
// that a move is charged to its mover and a game lost on time ends with
// no time left. What a game stores in a grace tells nothing of where the
// outage began: the site was up again.
func (d Downtime) seen(moves []Move, end time.Time) Downtime {
	if len(moves) == 0 {
		return d
	}
	var outages []Outage
	// The outages before the game's first move are over before it too.
	for i := ending(d.outages, moves[0].At); i < len(d.outages); i++ {
		o := d.outages[i]
		from := o.From
		for _, m := range moves {
			if m.At.After(from) && m.At.Before(o.To) {
				from = m.At
			}
		}
		if !end.IsZero() && end.After(from) && end.Before(o.To) {
			from = end
		}
		if from.Equal(o.From) {
			continue
		}
		if outages == nil {
			outages = slices.Clone(d.outages)
		}
		outages[i].From = from
	}
	if outages == nil {
		return d
	}
	return Downtime{outages, union(outages)}
}

// ending is the index of the first of spans, in order and apart, that
// ends after t: the ones before it are over by then. An instance keeps
// every outage there ever was; a game looks only at those since its
// moves.
func ending(spans []Outage, t time.Time) int {
	return sort.Search(len(spans), func(i int) bool { return spans[i].To.After(t) })
}

// up is the time from start to end that the site was up. An end before
// start (the system's clock went back) is taken as it is.
func (d Downtime) up(start, end time.Time) time.Duration {
	used := end.Sub(start)
	if used <= 0 {
		return used
	}
	for _, o := range d.spans[ending(d.spans, start):] {
		if !o.From.Before(end) {
			break
		}
		from, to := o.From, o.To
		if from.Before(start) {
			from = start
		}
		if to.After(end) {
			to = end
		}
		used -= to.Sub(from)
	}
	return used
}

// after is the moment left of the site's time up has passed since start:
// the time left, outages not counted. A time left that has run out
// already is not moved.
func (d Downtime) after(start time.Time, left time.Duration) time.Time {
	if left <= 0 {
		return start.Add(left)
	}
	t := start
	for _, o := range d.spans[ending(d.spans, start):] {
		if gap := o.From.Sub(t); gap > 0 {
			if left <= gap {
				break // runs out before this outage, or as it begins
			}
			left -= gap
		}
		t = o.To
	}
	return t.Add(left)
}
