package ai

import (
	"fmt"
	"time"
)

// The levels of the computer opponent.
const (
	MinLevel     = 1
	MaxLevel     = 8
	DefaultLevel = 4
)

// budgets are the iterations of levels 1 to 7 for each game (for a game
// searched with alpha-beta, the positions it evaluates; 0: as many as
// its depth below takes); level 8 thinks for FullStrength. Each level has
// about three times the budget of the one below, or more where three
// times was not enough to win 70% of a match. Levels are bounded by
// iterations or depth, not time, so that they play alike on a fast and a
// slow machine and a game can be replayed.
// Havannah's Monte-Carlo search gains less from each doubling the more
// it already has: level 8's five seconds (about 120,000 iterations on
// side 8 early in a game on one core of a server, more later) scored
// only 57% against a level 7 of 40,000, so the levels were moved down to
// leave level 8 eight times level 7. Between 300 and 3,000 iterations
// three times the budget scored only 62%, so the middle steps are four
// times. That leaves level 4, the default, a few milliseconds, and
// levels 1 to 3 fewer iterations than there are moves: they play the
// moves the engine's prior likes, with a few playouts' say, which looks
// plausible and loses.
// Fanorona starts lower than the others: three times the iterations
// already scores 80% or more there, level 1 at 30 iterations still beats
// the player who always takes the most pieces more often than not, and
// level 7 stays far enough below level 8's time not to win a game from it.
var budgets = map[string][7]int{
	"havannah": {3, 20, 80, 350, 1500, 5000, 15000},
	"dvonn":    {0, 0, 0, 0, 0, 0, 0},
	"fanorona": {30, 100, 300, 1000, 3000, 10000, 30000},
}

// depths bound the levels of games searched with alpha-beta: the deepest
// iteration, in moves; 0 leaves it to the positions above. DVONN's
// alpha-beta gains strength by whole plies (depth 3 scored 75% against
// depth 2, depth 4 80% against depth 3), but little beyond: depth 5
// scored 59% against depth 4, a million positions (about depth 6) 80%
// against 100,000, and level 8's five seconds only 52% against a million
// and 66% against 100,000. So level 7 searches four moves deep, and the
// levels below it differ by how freely they pick (chance below). From
// level 2 every level looks at least two moves ahead, so that it sees the
// opponent's win at once.
var depths = map[string][7]int{
	"dvonn": {1, 2, 2, 2, 2, 3, 4},
}

// chance holds, for the weakest levels of each game, how freely they pick
// among the moves they found good: the Temperature of levels 1, 2, ….
// DVONN's levels 1 to 4 take moves up to three, nearly three, nearly
// two and a little more than half a stack worse than the best.
var chance = map[string][]float32{
	"havannah": {1},
	"dvonn":    {5, 4.5, 3, 1},
	"fanorona": {1},
}

// FullStrength is the thinking time of level 8 per move.
const FullStrength = 5 * time.Second

// MaxThink bounds every level's move, whatever its iterations, so that a
// slow or busy machine still answers.
const MaxThink = 10 * time.Second

// tuning holds each game's search settings, found in matches. DVONN
// searches with alpha-beta: it has a good evaluation and short games, and
// Monte-Carlo search with random playouts lost every game to PrimaDvonna.
var tuning = map[string]Config{
	"havannah": {Explore: 0.1, RaveBias: 0.0005, Prior: 30, Expand: 2},
	"dvonn":    {AlphaBeta: true},
	"fanorona": {Explore: 0.5, Expand: 2},
}

// Level returns the search settings of level 1 to 8 for the named game.
// The weakest levels pick among the moves they found good by chance, so
// they make mistakes a beginner can use.
func Level(gameName string, level int) (Config, error) {
	b, ok := budgets[gameName]
	if !ok {
		return Config{}, fmt.Errorf("no computer opponent for %q", gameName)
	}
	if level < MinLevel || level > MaxLevel {
		return Config{}, fmt.Errorf("level must be between %d and %d, not %d", MinLevel, MaxLevel, level)
	}
	c := tuning[gameName]
	if level == MaxLevel {
		c.Time = FullStrength
	} else {
		c.Iterations, c.Time = b[level-1], MaxThink
		c.Depth = depths[gameName][level-1]
	}
	if t := chance[gameName]; level <= len(t) {
		c.Temperature, c.Choices = t[level-1], 4
	}
	return c, nil
}

// Tuning returns the search settings of a game without a budget, for
// commands that set their own.
func Tuning(gameName string) Config { return tuning[gameName] }
