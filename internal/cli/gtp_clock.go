package cli

import (
	"errors"
	"math"
	"runtime/debug"
	"strconv"
	"time"

	"bretter/game"
)

// gtpClock follows the time the controller gives with time_settings and
// time_left, so that genmove thinks as long as the clock allows.
type gtpClock struct {
	set            bool    // time_settings was given
	main, byo      float64 // seconds
	stones         int     // moves to play within byo; 0 with byo > 0: no limit
	remain         [2]float64
	periodStones   [2]int // moves still due in the current byo-yomi period; 0 in main time
	knownRemaining [2]bool
}

// limited reports whether the clock bounds our thinking at all.
func (c *gtpClock) limited() bool {
	if c.knownRemaining[0] || c.knownRemaining[1] {
		return true
	}
	return c.set && !(c.main == 0 && c.byo > 0 && c.stones == 0) && (c.main > 0 || c.byo > 0)
}

// newGame puts both clocks back to the settings.
func (c *gtpClock) newGame() {
	for p := range c.remain {
		c.remain[p], c.periodStones[p], c.knownRemaining[p] = c.main, 0, false
		if c.main == 0 && c.byo > 0 {
			c.remain[p], c.periodStones[p] = c.byo, c.stones
		}
	}
}

func parseSeconds(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, errors.New("syntax error: times are seconds, 0 or more")
	}
	return v, nil
}

func parseStones(s string) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return 0, errors.New("syntax error: stones are a count, 0 or more")
	}
	return v, nil
}

// settings reads "time_settings main_time byo_yomi_time byo_yomi_stones".
// Fractions of a second are accepted, though GTP writes whole seconds.
func (c *gtpClock) settings(args []string) error {
	if len(args) != 3 {
		return errors.New("syntax error: time_settings needs main time, byo-yomi time and stones")
	}
	main, err := parseSeconds(args[0])
	if err != nil {
		return err
	}
	byo, err := parseSeconds(args[1])
	if err != nil {
		return err
	}
	stones, err := parseStones(args[2])
	if err != nil {
		return err
	}
	c.set, c.main, c.byo, c.stones = true, main, byo, stones
	c.newGame()
	return nil
}

// left reads "time_left colour time stones": stones is 0 in main time,
// else the moves still due in the byo-yomi period.
func (c *gtpClock) left(args []string) error {
	if len(args) != 3 {
		return errors.New("syntax error: time_left needs a colour, a time and stones")
	}
	p, err := parseGTPColour(args[0])
	if err != nil {
		return err
	}
	t, err := parseSeconds(args[1])
	if err != nil {
		return err
	}
	stones, err := parseStones(args[2])
	if err != nil {
		return err
	}
	c.remain[p], c.periodStones[p], c.knownRemaining[p] = t, stones, true
	return nil
}

// budget is how long p may think about the next move, with empty cells
// left on the board. In main time it is the time left over the moves p
// still expects to play, but never more than a third of what is left; in
// a byo-yomi period it is the period shared by its moves. A margin is kept
// for the time the answer takes to reach the controller.
func (c *gtpClock) budget(p game.Player, empty int) time.Duration {
	t := c.remain[p]
	var share float64
	if st := c.periodStones[p]; st > 0 {
		share = t / float64(st)
	} else {
		// Games end well before the board fills: a side plays about a
		// sixth of the empty cells, but at least ten moves are planned.
		share = min(t/max(10, float64(empty)/6), t/3)
		if c.byo > 0 && c.stones > 0 {
			// Byo-yomi follows main time: a move may use its share of it.
			share = max(share, c.byo/float64(c.stones))
		}
	}
	d := time.Duration(share*0.9*float64(time.Second)) - 20*time.Millisecond
	return max(d, 10*time.Millisecond)
}

// used charges p's clock for a search that took d, for a controller that
// sends no time_left.
func (c *gtpClock) used(p game.Player, d time.Duration) {
	if !c.limited() || p < 0 || int(p) >= len(c.remain) {
		return
	}
	c.remain[p] -= d.Seconds()
	if c.periodStones[p] > 0 {
		c.periodStones[p]--
		if c.periodStones[p] == 0 || c.remain[p] <= 0 {
			c.remain[p], c.periodStones[p] = c.byo, c.stones
		}
		return
	}
	if c.remain[p] <= 0 {
		c.remain[p] = 0
		if c.byo > 0 && c.stones > 0 {
			c.remain[p], c.periodStones[p] = c.byo, c.stones
		}
	}
}

// buildVersion is the module's version as the build recorded it.
func buildVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}
