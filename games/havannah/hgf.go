package havannah

import (
	"fmt"
	"strconv"
	"strings"

	"bretter/game"
)

// Record is a whole game as Little Golem's .hgf files hold it, with the moves
// in this package's notation.
//
// Little Golem calls the first mover "Black" in its player and result fields
// but labels the first mover's moves W; Record uses this package's terms
// throughout (White moves first). Its cell numbers also count from each
// row's left end; ParseHGF and HGF convert.
type Record struct {
	Size  int
	White string // name of the first mover (Little Golem's PB)
	Black string // name of the second mover (Little Golem's PW)
	Date  string // as written in the record, if any
	Event string // EV
	// Rules is the RU field as written: this site writes "swap" or
	// "no swap" there, Little Golem "LG".
	Rules string
	Moves []string // cells, "swap" as the second entry, "resign" as the last
	// Resigned is who resigned, when Moves ends with "resign": on this
	// site a player may resign on the other's turn, so it is not always
	// the one to move.
	Resigned game.Player
	Winner   game.Player
	// HasResult tells whether the record states a result (Winner is
	// meaningful; game.Nobody for a draw).
	HasResult bool
	// Ending is how the game ended, where RE says it the SGF way:
	// "resign" (B+R), "timeout" (B+T) or "aborted" (Void, a game called
	// off without a result). It is "" when RE names the winner alone, as
	// Little Golem writes it, or a draw (0): the rules, or a resign move,
	// tell how.
	Ending string
	// Comment is written as the game comment (GC); ParseHGF leaves it
	// empty, as Little Golem's own comments say nothing about the game.
	Comment string
	// TimeControl is the clock, as game.Record writes it. HGF writes it
	// the SGF way, the seconds as TM and the rest as OT; ParseHGF leaves
	// it empty, as Little Golem's games have no clock.
	TimeControl string
	// Given is how many of the first moves the game began with rather
	// than its players played (game.Record's Given). SGF has no property
	// for it: HGF writes it as GV, which other readers pass over, and
	// says it in words in the game comment.
	Given int
}

// ParseHGF reads a Little Golem .hgf record and checks every move against
// the rules. An error names the move at fault, counted from 1.
func ParseHGF(text string) (Record, error) {
	nodes, err := parseSGF(text)
	if err != nil {
		return Record{}, err
	}
	rec := Record{Winner: game.Nobody}
	result := "" // RE as written
	root := nodes[0]
	if len(root) == 0 {
		return Record{}, game.BadRecord(game.Because("why.hgf.no_header", "the record has no header"), nil)
	}
	// SGF allows a property once in a node; of two board sides or
	// results, the reader could not know which was meant.
	seen := map[string]bool{}
	for _, p := range root {
		if p.key == "AB" || p.key == "AW" || p.key == "AE" || p.key == "PL" {
			// A game set up on the board is not one the rules began:
			// read without its stones, its moves would mean another game.
			return Record{}, game.BadRecord(game.Because("why.hgf.setup", "{name} sets up a position; only games played from the empty board can be read", "name", p.key), nil)
		}
		if seen[p.key] {
			return Record{}, game.BadRecord(game.Because("why.record.repeated", "{name} is given more than once", "name", p.key), nil)
		}
		seen[p.key] = true
		switch p.key {
		case "GM":
			// SGF numbers no game as Havannah; some programs name it.
			if !strings.EqualFold(strings.TrimSpace(p.value), "havannah") {
				return Record{}, game.BadRecord(game.Because("why.hgf.other_game", "GM[{value}] names another game than Havannah", "value", p.value), nil)
			}
		case "SZ":
			rec.Size, err = strconv.Atoi(p.value)
			if err != nil || rec.Size < MinSize || rec.Size > MaxSize {
				return Record{}, game.BadRecord(game.Because("why.hgf.size", "board side SZ[{value}] must be a number from {min} to {max}", "value", p.value, "min", MinSize, "max", MaxSize), nil)
			}
		case "PB":
			rec.White = p.value
		case "PW":
			rec.Black = p.value
		case "DT":
			rec.Date = p.value
		case "EV":
			rec.Event = p.value
		case "RU":
			rec.Rules = p.value
		case "W", "B":
			return Record{}, game.BadRecord(game.Because("why.hgf.move_in_header", "a move in the header: {move}", "move", p.key+"["+p.value+"]"), nil)
		case "RE":
			if err := rec.readResult(p.value); err != nil {
				return Record{}, err
			}
			result = p.value
		case "GV":
			rec.Given, err = strconv.Atoi(p.value)
			if err != nil || rec.Given < 0 {
				return Record{}, game.BadRecord(game.Because("why.hgf.given", "GV[{value}] must be how many of the first moves were given, such as GV[12]", "value", p.value), nil)
			}
		}
	}
	if rec.Size == 0 {
		return Record{}, game.BadRecord(game.Because("why.hgf.no_size", "the record has no board side (SZ)"), nil)
	}
	s, _ := New(rec.Size, true)
	for i, node := range nodes[1:] {
		ply := i + 1
		if len(node) != 1 || (node[0].key != "W" && node[0].key != "B") {
			return Record{}, game.BadRecord(game.Because("why.hgf.not_a_move", "move {ply} is not a single W[...] or B[...]", "ply", ply), nil)
		}
		p := node[0]
		text := strings.ToLower(strings.TrimSpace(p.value))
		if want := "WB"[i%2 : i%2+1]; p.key != want && text != "resign" {
			return Record{}, game.BadRecord(game.Because("why.hgf.wrong_label", "move {ply} is labelled {label} but it is {want}'s turn", "ply", ply, "label", p.key, "want", want), nil)
		}
		if text == "resign" {
			if ply != len(nodes)-1 {
				return Record{}, game.BadRecord(game.Because("why.record.resign_not_last", "move {ply} resigns but more moves follow", "ply", ply), nil)
			}
			// Labelled by who resigned, which may be out of turn.
			rec.Moves, rec.Resigned = append(rec.Moves, "resign"), game.Player(strings.Index("WB", p.key))
			if rec.HasResult && (rec.Winner != rec.Resigned.Other() || rec.Ending != "" && rec.Ending != "resign") {
				return Record{}, game.BadRecord(game.Because("why.hgf.result_resign", "RE[{value}] does not agree with move {ply}, {move}", "value", result, "ply", ply, "move", p.key+"["+p.value+"]"), nil)
			}
			break
		}
		m, err := s.parseHGFMove(text)
		if err == nil {
			err = s.Play(m)
		}
		if err != nil {
			return Record{}, game.BadRecord(game.Because("why.record.move", "move {ply} {move}", "ply", ply, "move", p.key+"["+p.value+"]"), err)
		}
		rec.Moves = append(rec.Moves, s.FormatMove(m))
	}
	// A resignation is the players' own, never given.
	played := len(rec.Moves)
	if played > 0 && rec.Moves[played-1] == "resign" {
		played--
	}
	if rec.Given > played {
		return Record{}, game.BadRecord(game.GivenBeyond(rec.Given, played), nil)
	}
	return rec, nil
}

// readResult reads RE: the winner in Little Golem's colours (B for the
// first mover), then, the SGF way, +R for a resignation or +T for time; 0
// or Draw for a draw, Void for a game without a result; ? or nothing for
// a result unknown. Any other result the site could not say it read.
func (rec *Record) readResult(value string) error {
	v := strings.ToUpper(strings.TrimSpace(value))
	switch v {
	case "", "?":
		return nil
	case "0", "DRAW":
		rec.Winner, rec.HasResult = game.Nobody, true
		return nil
	case "VOID":
		rec.Winner, rec.HasResult, rec.Ending = game.Nobody, true, "aborted"
		return nil
	}
	who, how, plus := strings.Cut(v, "+")
	winner, ok := map[string]game.Player{"B": game.White, "W": game.Black}[who]
	ending, known := map[string]string{"R": "resign", "RESIGN": "resign", "T": "timeout", "TIME": "timeout"}[how]
	if !ok || plus && !known {
		return game.BadRecord(game.Because("why.hgf.result", "RE[{value}] is not a result: want B or W, with +R for a resignation or +T for time, 0 for a draw or Void", "value", value), nil)
	}
	rec.Winner, rec.HasResult, rec.Ending = winner, true, ending
	return nil
}

// result is RE for the record's result, as readResult reads it.
func (rec Record) result() (string, error) {
	letter := map[game.Player]string{game.White: "B", game.Black: "W"}[rec.Winner]
	switch {
	case rec.Ending == "aborted" && rec.Winner == game.Nobody:
		return "Void", nil
	case rec.Ending == "" && rec.Winner == game.Nobody:
		return "0", nil
	case rec.Ending == "" && letter != "":
		return letter, nil
	case rec.Ending == "resign" && letter != "":
		return letter + "+R", nil
	case rec.Ending == "timeout" && letter != "":
		return letter + "+T", nil
	}
	return "", fmt.Errorf("%w: a result of %v by %q", game.ErrRecord, rec.Winner, rec.Ending)
}

// sgfTime is a TimeControl as SGF's TM (the seconds of a player's
// clock) and OT (what else there is, in words).
func sgfTime(control string) (tm, ot string) {
	if secs, ok := strings.CutPrefix(control, "1/"); ok {
		return "", secs + " s a move"
	}
	tm, inc, ok := strings.Cut(control, "+")
	if ok && inc != "0" {
		ot = "+" + inc + " s a move"
	}
	return tm, ot
}

// parseHGFMove reads a move whose number counts from the row's left end.
func (s *State) parseHGFMove(text string) (game.Move, error) {
	if text == "swap" {
		return swapMove, nil
	}
	r, c, err := parseCell(text)
	if err != nil {
		return game.Move{}, err
	}
	// A cell off the board is refused as the record writes it: converted,
	// it would be a name the writer never saw ("z99" is our "z117").
	n := s.geo.size
	if r > 2*n-2 || c >= 2*n-1-abs(r-(n-1)) {
		return game.Move{}, game.Malformed(text, game.Because("why.havannah.not_on_board", "not on a board of side {side}", "side", n))
	}
	return s.ParseMove(string(rune('a'+r)) + strconv.Itoa(c+1+max(0, r-(n-1))))
}

// HGF writes the record in Little Golem's format. Moves must be in this
// package's notation; HGF does not check them against the rules.
func (rec Record) HGF() (string, error) {
	if rec.Size < MinSize || rec.Size > MaxSize {
		return "", fmt.Errorf("%w: board side %d", game.ErrRecord, rec.Size)
	}
	var b strings.Builder
	b.WriteString("(;FF[4]")
	prop(&b, "EV", rec.Event)
	prop(&b, "PB", rec.White)
	prop(&b, "PW", rec.Black)
	prop(&b, "DT", rec.Date)
	b.WriteString("SZ[" + strconv.Itoa(rec.Size) + "]")
	prop(&b, "RU", rec.Rules)
	tm, ot := sgfTime(rec.TimeControl)
	prop(&b, "TM", tm)
	prop(&b, "OT", ot)
	prop(&b, "GC", rec.Comment)
	if rec.Given > 0 {
		prop(&b, "GV", strconv.Itoa(rec.Given))
	}
	if rec.HasResult {
		re, err := rec.result()
		if err != nil {
			return "", err
		}
		prop(&b, "RE", re)
	}
	s, _ := New(rec.Size, true)
	for i, text := range rec.Moves {
		turn := i % 2
		if text == "resign" {
			turn = int(rec.Resigned)
		}
		label := "WB"[turn : turn+1]
		b.WriteString(";" + label + "[")
		switch text {
		case "swap", "resign":
			b.WriteString(text)
		default:
			m, err := s.ParseMove(text)
			if err != nil {
				return "", fmt.Errorf("%w: move %d: %w", game.ErrRecord, i+1, err)
			}
			r, c := rowCol(int(m.A))
			b.WriteString(strings.ToUpper(string(rune('a'+r))) + strconv.Itoa(c+1-max(0, r-(rec.Size-1))))
		}
		b.WriteString("]")
	}
	b.WriteString(")\n")
	return b.String(), nil
}

func prop(b *strings.Builder, key, value string) {
	if value == "" {
		return
	}
	value = strings.NewReplacer(`\`, `\\`, `]`, `\]`).Replace(value)
	b.WriteString(key + "[" + value + "]")
}

type property struct{ key, value string }

// parseSGF reads the one-variation subset of SGF that .hgf files use:
// "(" then nodes, each ";" followed by properties KEY[value], then ")".
func parseSGF(text string) ([][]property, error) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "(") || !strings.HasSuffix(text, ")") {
		return nil, game.BadRecord(game.Because("why.hgf.parentheses", "a record starts with ( and ends with )"), nil)
	}
	text = text[1 : len(text)-1]
	var nodes [][]property
	i := 0
	skip := func() {
		for i < len(text) && strings.ContainsRune(" \t\r\n", rune(text[i])) {
			i++
		}
	}
	for skip(); i < len(text); skip() {
		if text[i] != ';' {
			return nil, game.BadRecord(game.Because("why.hgf.semicolon", "expected ; at character {at}", "at", i+2), nil)
		}
		i++
		var node []property
		for skip(); i < len(text) && text[i] != ';'; skip() {
			start := i
			for i < len(text) && text[i] >= 'A' && text[i] <= 'Z' {
				i++
			}
			key := text[start:i]
			if key == "" || i >= len(text) || text[i] != '[' {
				return nil, game.BadRecord(game.Because("why.hgf.property", "expected a property like SZ[8] at character {at}", "at", start+2), nil)
			}
			// A property may carry several values; .hgf files use one.
			for i < len(text) && text[i] == '[' {
				var v strings.Builder
				i++
				for i < len(text) && text[i] != ']' {
					if text[i] == '\\' && i+1 < len(text) {
						i++
					}
					v.WriteByte(text[i])
					i++
				}
				if i >= len(text) {
					return nil, game.BadRecord(game.Because("why.hgf.unclosed", "property {key} is not closed with ]", "key", key), nil)
				}
				i++
				node = append(node, property{key, v.String()})
				skip()
			}
		}
		nodes = append(nodes, node)
	}
	if len(nodes) == 0 {
		return nil, game.BadRecord(game.Because("why.record.empty", "the record is empty"), nil)
	}
	return nodes, nil
}

// The RU field of a record this site writes: whether the game allows the
// swap. Without them, a game with the rule in which nobody swapped read
// back as one without it.
const (
	rulesSwap   = "swap"
	rulesNoSwap = "no swap"
)

// writeRecord writes a site's record as .hgf.
func writeRecord(r game.Record) (string, error) {
	rec := Record{Size: r.Options["size"], White: r.White, Black: r.Black, Date: r.Date, Moves: r.Moves, Winner: game.Nobody, Comment: r.Note,
		Rules: rulesNoSwap, TimeControl: r.TimeControl, Given: r.Given}
	if r.Options["swap"] == 1 {
		rec.Rules = rulesSwap
	}
	switch r.Winner {
	case "white":
		rec.Winner, rec.HasResult = game.White, true
	case "black":
		rec.Winner, rec.HasResult = game.Black, true
	case "none":
		rec.HasResult = true
	}
	switch r.Reason {
	case "resign":
		// The one who resigned lost. The resign move says it to
		// programs that read Little Golem's records, RE to the others.
		rec.Moves, rec.Resigned = append(append([]string(nil), r.Moves...), "resign"), rec.Winner.Other()
		rec.Ending = "resign"
	case "timeout", "aborted":
		rec.Ending = r.Reason
	}
	return rec.HGF()
}

// readRecord reads .hgf into a site's record; a resignation becomes the
// result rather than a move. A result of the rules, or a draw, comes
// without a reason: RE does not say it, the moves do.
func readRecord(text string) (game.Record, error) {
	rec, err := ParseHGF(text)
	if err != nil {
		return game.Record{}, err
	}
	r := game.Record{Game: "havannah", Options: game.Options{"size": rec.Size, "swap": 0},
		Date: rec.Date, White: rec.White, Black: rec.Black, Moves: rec.Moves, Given: rec.Given}
	// Whether the game was played with the swap rule: as the record says,
	// or, when it does not, only a swap played shows it was.
	if rec.Rules == rulesSwap || len(r.Moves) > 1 && r.Moves[1] == "swap" {
		r.Options["swap"] = 1
	}
	if rec.HasResult {
		r.Winner, r.Reason = rec.Winner.String(), rec.Ending
	}
	if n := len(r.Moves); n > 0 && r.Moves[n-1] == "resign" {
		r.Moves = r.Moves[:n-1]
		r.Reason = "resign"
		if !rec.HasResult {
			r.Winner = rec.Resigned.Other().String()
		}
	}
	return r, nil
}
