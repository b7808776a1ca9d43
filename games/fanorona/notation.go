package fanorona

import (
	"strconv"
	"strings"

	"bretter/game"
)

// The notation of a turn is its start point, then for every step a '-', the
// landing point, and for a capturing step A (approach) or W (withdrawal):
// d2-e3 is a paika, e4-e3A-f4W a capture chain of two steps. Only this exact
// form is read, so what parses formats back to the same text.

// ParseMove reads a turn. It checks the form only: the points exist, each
// step goes to a neighbour along a line, and every step of a capture is
// marked. Whether the turn is legal is for Play to say.
func (s *State) ParseMove(text string) (game.Move, error) { return parseMove(text) }

// FormatMove writes m in the notation ParseMove reads.
func (s *State) FormatMove(m game.Move) string { return formatMove(m) }

func parseMove(text string) (game.Move, error) {
	bad := func(why game.Reason) (game.Move, error) {
		return game.Move{}, game.Malformed(text, why)
	}
	tooLong := func() (game.Move, error) {
		return bad(game.Because("why.fanorona.too_many_steps", "more than {steps} steps", "steps", maxSteps))
	}
	notAPoint := func(p string) (game.Move, error) {
		return bad(game.Because("why.fanorona.not_a_point", "{text} is not a point from a1 to i5", "text", strconv.Quote(p)))
	}
	// A start point and 22 steps of "-xyA" at most.
	if len(text) > 2+4*maxSteps {
		return tooLong()
	}
	parts := strings.Split(text, "-")
	p, ok := parsePoint(parts[0])
	if !ok {
		return notAPoint(parts[0])
	}
	steps := parts[1:]
	switch {
	case len(steps) == 0:
		return bad(game.Because("why.fanorona.no_step", "a turn needs at least one step, as in d2-e3"))
	case len(steps) > maxSteps:
		return tooLong()
	}
	paika := len(steps) == 1 && len(steps[0]) == 2
	m := chainStart(p)
	for i, st := range steps {
		q, ok := parsePoint(st[:min(2, len(st))])
		if !ok {
			return notAPoint(st[:min(2, len(st))])
		}
		d := direction(p, q)
		if d == noDir {
			return bad(game.Because("why.fanorona.not_neighbours", "{from} and {to} are not neighbours on a line", "from", pointName(p), "to", pointName(q)))
		}
		if paika {
			return paikaMove(p, d), nil
		}
		mark := st[2:]
		if mark != "A" && mark != "W" {
			if len(mark) == 0 {
				return bad(game.Because("why.fanorona.no_mark", "step {step} of a capture chain needs A (approach) or W (withdrawal)", "step", pointName(p)+"-"+pointName(q)))
			}
			return bad(game.Because("why.fanorona.bad_mark", "{text} is not A (approach) or W (withdrawal)", "text", strconv.Quote(mark)))
		}
		m = addStep(m, i, d, mark == "W")
		p = q
	}
	return m, nil
}

func formatMove(m game.Move) string {
	if !wellFormed(m) {
		return "?"
	}
	p := moveStart(m)
	b := make([]byte, 0, 2+4*moveLen(m))
	b = append(b, pointName(p)...)
	for i := range moveLen(m) {
		d, withdraw := moveStep(m, i)
		q := int(neighbour[p][d])
		if q == nowhere {
			return "?"
		}
		b = append(b, '-')
		b = append(b, pointName(q)...)
		switch {
		case isPaika(m):
		case withdraw:
			b = append(b, 'W')
		default:
			b = append(b, 'A')
		}
		p = q
	}
	return string(b)
}

func parsePoint(s string) (int, bool) {
	if len(s) != 2 || s[0] < 'a' || s[0] >= 'a'+files || s[1] < '1' || s[1] >= '1'+ranks {
		return 0, false
	}
	return int(s[1]-'1')*files + int(s[0]-'a'), true
}

// direction is the direction of the line from p to its neighbour q, or
// noDir if no line joins them.
func direction(p, q int) int {
	for d := range 8 {
		if int(neighbour[p][d]) == q {
			return d
		}
	}
	return noDir
}
