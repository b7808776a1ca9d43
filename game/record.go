package game

import (
	"bufio"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Record is a whole game for people and other programs: its options, who
// played, when, how it ended, and the moves in the game's notation.
type Record struct {
	Game    string
	Options Options
	Date    string // as written, for example 2026-11-30
	White   string
	Black   string
	// Winner is "white", "black", "none" for a draw, or "" while the
	// game is unfinished or the record does not say.
	Winner string
	// Reason is the rule's word (Outcome's), or one of the endings a
	// site records beside the moves: "resign", "timeout", "agreement" or
	// "aborted" (called off, without a result).
	Reason string
	// TimeControl is the clock the game was played with, written as
	// PGN's header of that name: "180+2" is 180 seconds and 2 more a
	// move, "1/259200" one move in 259,200 seconds (3 days); "" none.
	TimeControl string
	Moves       []string
	// Given is how many of the first moves the game began with rather
	// than played: its players played on from the position those moves
	// reach, so a record must not say they played them.
	Given int
	// Note is a remark for people reading a written record, such as how
	// a format names the colours; formats with room for one write it, and
	// reading does not fill it in.
	Note string
}

// RecordFormat is a game's own record format, such as Little Golem's .hgf
// for Havannah. Games without one use the plain text of Record.Text.
type RecordFormat struct {
	Ext   string // file name extension, without the dot
	Write func(Record) (string, error)
	// Read parses a record; it need not check the moves against the rules.
	Read func(text string) (Record, error)
}

// ErrRecord marks a record that cannot be read.
var ErrRecord = errors.New("bad record")

// Text writes r as plain text: a header of [Name "value"] lines, then one
// move per line, numbered from 1. A note comes first, as "#" lines.
//
//	[Game "dvonn"]
//	[Date "2026-11-30"]
//	[White "Anna"]
//	[Black "Ben"]
//	[Winner "white"]
//	[Reason "score"]
//
//	1. F5
//	2. H5
func (r Record) Text() string {
	var b strings.Builder
	if r.Note != "" {
		b.WriteString("# " + strings.ReplaceAll(r.Note, "\n", "\n# ") + "\n")
	}
	tag := func(name, value string) {
		if value != "" {
			fmt.Fprintf(&b, "[%s %s]\n", name, strconv.Quote(value))
		}
	}
	tag("Game", r.Game)
	var opts []string
	for k, v := range r.Options {
		opts = append(opts, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(opts)
	tag("Options", strings.Join(opts, " "))
	tag("Date", r.Date)
	tag("White", r.White)
	tag("Black", r.Black)
	tag("Winner", r.Winner)
	tag("Reason", r.Reason)
	tag("TimeControl", r.TimeControl)
	if r.Given > 0 {
		tag("Given", strconv.Itoa(r.Given))
	}
	b.WriteString("\n")
	for i, m := range r.Moves {
		fmt.Fprintf(&b, "%d. %s\n", i+1, m)
	}
	return b.String()
}

// ParseText reads what Text writes. Move numbers are optional, but when
// present they must count up from 1, each followed by its move; an error
// names the line at fault.
func ParseText(text string) (Record, error) {
	var r Record
	seen := map[string]bool{}
	// numbered is the move number read last, until its move comes, and
	// the line it is on: a record cut off after it has lost that move.
	numbered, numberedLine := "", 0
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 4096), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		switch {
		case s == "" || strings.HasPrefix(s, "#"):
			continue
		case strings.HasPrefix(s, "["):
			if len(r.Moves) > 0 || numbered != "" {
				return Record{}, BadRecord(Because("why.record.header_after_moves", "line {line}: a header line after the moves", "line", line), nil)
			}
			if err := r.setTag(s, seen); err != nil {
				return Record{}, BadRecord(Because("why.record.line", "line {line}", "line", line), err)
			}
		default:
			for _, f := range strings.Fields(s) {
				if num, ok := strings.CutSuffix(f, "."); ok {
					if n, err := strconv.Atoi(num); err != nil || n != len(r.Moves)+1 {
						return Record{}, BadRecord(Because("why.record.move_number", "line {line}: move number {number}, expected {want}", "line", line, "number", f, "want", len(r.Moves)+1), nil)
					}
					numbered, numberedLine = f, line
					continue
				}
				r.Moves, numbered = append(r.Moves, f), ""
			}
		}
	}
	if err := sc.Err(); err != nil {
		return Record{}, fmt.Errorf("%w: %v", ErrRecord, err)
	}
	if numbered != "" {
		return Record{}, BadRecord(Because("why.record.truncated", "line {line}: move number {number} has no move: the record is cut off", "line", numberedLine, "number", numbered), nil)
	}
	if r.Game == "" {
		return Record{}, BadRecord(Because("why.record.no_game", `no [Game "..."] line names the game`), nil)
	}
	if r.Given > len(r.Moves) {
		return Record{}, BadRecord(GivenBeyond(r.Given, len(r.Moves)), nil)
	}
	return r, nil
}

// setTag reads one header line; seen holds the names read before, since
// of two values for one name the reader cannot know which was meant.
func (r *Record) setTag(s string, seen map[string]bool) error {
	inner, ok := strings.CutSuffix(strings.TrimPrefix(s, "["), "]")
	name, quoted, found := strings.Cut(inner, " ")
	if !ok || !found {
		return Refuse(Because("why.record.header", `a header line looks like [Name "value"]`))
	}
	value, err := strconv.Unquote(strings.TrimSpace(quoted))
	if err != nil {
		return Refuse(Because("why.record.quotes", "the value of {name} must be in double quotes", "name", name))
	}
	if seen[name] {
		return Refuse(Because("why.record.repeated", "{name} is given more than once", "name", name))
	}
	seen[name] = true
	switch name {
	case "Game":
		// Games are named in lower case; a header written by hand may
		// spell the name as a title.
		r.Game = strings.ToLower(value)
	case "Options":
		// No options read as none at all, as Text writes them.
		r.Options = nil
		for _, o := range strings.Fields(value) {
			if r.Options == nil {
				r.Options = Options{}
			}
			k, v, _ := strings.Cut(o, "=")
			n, err := strconv.Atoi(v)
			if err != nil {
				return Refuse(Because("why.record.option", "option {option} is not name=number", "option", strconv.Quote(o)))
			}
			if _, ok := r.Options[k]; ok {
				return Refuse(Because("why.record.option_repeated", "option {option} is given more than once", "option", k))
			}
			r.Options[k] = n
		}
	case "Date":
		r.Date = value
	case "White":
		r.White = value
	case "Black":
		r.Black = value
	case "Winner":
		if value != "white" && value != "black" && value != "none" {
			return Refuse(Because("why.record.winner", `Winner must be "white", "black" or "none"`))
		}
		r.Winner = value
	case "Reason":
		r.Reason = value
	case "Given":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 {
			return Refuse(Because("why.record.given", "Given must be a number of moves, such as \"12\""))
		}
		r.Given = n
	case "TimeControl":
		// PGN writes "-" for a game without a clock, "?" for one not
		// known.
		if value != "-" && value != "?" && !timeControl.MatchString(value) {
			return Refuse(Because("why.record.time_control", `TimeControl must be written as in PGN, such as "180+2", "40/7200:3600" or "1/259200"`))
		}
		if value != "-" && value != "?" {
			r.TimeControl = value
		}
	}
	return nil
}

// GivenBeyond is the reason a record that says more moves were given
// than it has is refused.
func GivenBeyond(given, moves int) Reason {
	return Because("why.record.given_beyond", "the record says moves 1 to {given} were given, but it has only {moves}", "given", given, "moves", moves)
}

// timeControl is PGN's TimeControl: periods apart by ":", each moves in
// seconds ("40/7200"), seconds with an increment ("180+2"), or a
// sandglass ("*180").
var timeControl = regexp.MustCompile(`^([0-9]{1,7}/[0-9]{1,8}|[0-9]{1,8}(\+[0-9]{1,5})?|\*[0-9]{1,8})(:([0-9]{1,7}/[0-9]{1,8}|[0-9]{1,8}(\+[0-9]{1,5})?|\*[0-9]{1,8})){0,9}$`)

// siteEndings are the endings a site records beside the moves, which the
// rules cannot see in them, each with whether it has a winner.
var siteEndings = map[string]bool{"resign": true, "timeout": true, "agreement": false, "aborted": false}

// Settle checks the result r states against s, the position r's moves
// lead to, and completes it. A game its moves end has the rules' result,
// which r may leave out, in part or in whole, but not contradict; a game
// they do not end can only have ended in a way the rules cannot see. A
// record that names the winner alone of such a game, as Little Golem's
// do of a game lost on time, is taken as it is, but a draw the rules did
// not make was agreed: a game called off says so.
func (r *Record) Settle(s State) error {
	out := s.Outcome()
	switch {
	case r.Winner == "" && r.Reason != "":
		return BadRecord(Because("why.record.reason_without_winner", "the record gives a reason, {reason}, but no winner", "reason", r.Reason), nil)
	case out.Over && r.Winner == "":
		r.Winner, r.Reason = out.Winner.String(), out.Reason
	case out.Over && r.Reason == "" && r.Winner != out.Winner.String():
		return BadRecord(Because("why.record.winner_rules", `the moves end the game with the winner "{winner}" by {reason}, not "{claimed}"`,
			"winner", out.Winner, "reason", out.Reason, "claimed", r.Winner), nil)
	case out.Over && (r.Reason != "" && r.Reason != out.Reason || r.Winner != out.Winner.String()):
		return BadRecord(Because("why.record.result_rules", `the moves end the game with the winner "{winner}" by {reason}, not "{claimed}" by {claimed_reason}`,
			"winner", out.Winner, "reason", out.Reason, "claimed", r.Winner, "claimed_reason", r.Reason), nil)
	case out.Over:
		r.Reason = out.Reason
	case r.Winner == "none" && r.Reason == "":
		r.Reason = "agreement"
	case r.Reason == "":
	default:
		won, ok := siteEndings[r.Reason]
		if !ok {
			return BadRecord(Because("why.record.reason_not_ended", "the moves do not end the game, so it cannot have ended by {reason}: before its moves end it, a game ends only by resignation, time, agreement or being called off",
				"reason", r.Reason), nil)
		}
		if won != (r.Winner != "none") {
			return BadRecord(Because("why.record.reason_winner", `a game ended by {reason} cannot have the winner "{winner}"`, "reason", r.Reason, "winner", r.Winner), nil)
		}
	}
	return nil
}
