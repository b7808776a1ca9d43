package server

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"bretter/ai"
	"bretter/game"
	"bretter/internal/clock"
)

// position is one step of a replay: the board after a number of moves.
type position struct {
	View   any    `json:"view"`
	ToMove string `json:"to_move"`
}

// walked is a game's moves played through.
type walked struct {
	list  []position // before the first move and after each one
	moves []string   // as the game writes them
	last  game.State
}

// positions replays moves and returns the position before the first move
// and after each one, the moves as the game writes them (a record may
// spell them otherwise, DVONN's in lower case, which the move list would
// show as written), and the last position. A move refused is numbered
// from 1.
func positions(engine game.Game, opts game.Options, moves []string) (walked, int, error) {
	s, _, err := engine.Start(opts)
	if err != nil {
		return walked{}, 0, err
	}
	out := []position{{View: s.View(), ToMove: s.ToMove().String()}}
	// An empty list, not none, for a game without moves: a reader
	// should not need to tell null from [].
	written := make([]string, 0, len(moves))
	for i, text := range moves {
		m, err := s.ParseMove(text)
		if err == nil {
			// Before the move is played: a game may write a move
			// according to the position it is played in.
			text = s.FormatMove(m)
			err = s.Play(m)
		}
		if err != nil {
			return walked{}, i + 1, err
		}
		written = append(written, text)
		out = append(out, position{View: s.View(), ToMove: s.ToMove().String()})
	}
	return walked{out, written, s}, 0, nil
}

// apiPositions gives every position of a game, for stepping through it.
func (s *Server) apiPositions(w http.ResponseWriter, r *http.Request) {
	type played struct {
		moves   []string
		engine  game.Game
		opts    game.Options
		version int
	}
	p, err := within(r.Context(), s.hub, r.PathValue("id"), func(g *liveGame) (played, error) {
		return played{append([]string(nil), g.moves...), g.engine, g.rec.Options, len(g.events)}, nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	walk, _, err := positions(p.engine, p.opts, p.moves)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"version": p.version, "moves": walk.moves, "positions": walk.list})
}

// record is a game as a record: people are unknown to the site, the
// computer is named with its level.
func (g *liveGame) record() game.Record {
	r := game.Record{Game: g.rec.Game, Options: g.rec.Options, Date: g.rec.Created.UTC().Format("2006-01-02"),
		White: "?", Black: "?", Moves: g.moves, Given: g.rec.Given}
	switch name := computerName(g.rec.Level); g.rec.Computer {
	case "white":
		r.White = name
	case "black":
		r.Black = name
	}
	if n := g.names[0]; n != "" {
		r.White = n
	}
	if n := g.names[1]; n != "" {
		r.Black = n
	}
	if g.rec.Status == "over" {
		r.Winner, r.Reason = g.rec.Winner, g.rec.Reason
	}
	r.TimeControl = timeControl(g.rec.Clock)
	return r
}

// computerPrefix begins the name a record gives the computer.
const computerPrefix = "bretter level "

// computerName is the computer at level as a record names it: in words
// any reader of the record understands, and that an import of it knows
// again (computerLevel).
func computerName(level int) string {
	return computerPrefix + strconv.Itoa(level)
}

// computerLevel is the level of the computer that name names as the
// site writes it, 0 for any other name: a person's, written as it is.
func computerLevel(name string) int {
	level, err := strconv.Atoi(strings.TrimPrefix(name, computerPrefix))
	if err != nil || level < ai.MinLevel || level > ai.MaxLevel || computerName(level) != name {
		return 0
	}
	return level
}

// computerSeats says which seats of a record the site's computer played,
// at which level: a page names it in its reader's words, as the game's
// own page does. Nil when a person played each.
func computerSeats(r game.Record) map[string]int {
	var seats map[string]int
	for seat, name := range map[string]string{"white": r.White, "black": r.Black} {
		if level := computerLevel(name); level > 0 {
			if seats == nil {
				seats = map[string]int{}
			}
			seats[seat] = level
		}
	}
	return seats
}

// timeControl is a clock as a record's TimeControl says it (see
// game.Record).
func timeControl(c clock.Control) string {
	switch {
	case c.None():
		return ""
	case c.Days != 0:
		return fmt.Sprintf("1/%d", c.Days*24*60*60)
	}
	// PGN counts whole seconds; a time set in minutes may have parts.
	secs := func(d time.Duration) int64 { return int64(d.Round(time.Second) / time.Second) }
	if c.Increment == 0 {
		return strconv.FormatInt(secs(c.Initial), 10)
	}
	return fmt.Sprintf("%d+%d", secs(c.Initial), secs(c.Increment))
}

// writeRecord renders a record in the game's own format, or as text.
func writeRecord(engine game.Game, r game.Record) (text, ext string, err error) {
	if f := engine.Records; f != nil {
		text, err = f.Write(r)
		return text, f.Ext, err
	}
	return r.Text(), "txt", nil
}

// apiRecord downloads a game's record, finished or not.
func (s *Server) apiRecord(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	type recorded struct {
		rec    game.Record
		engine game.Game
	}
	got, err := within(r.Context(), s.hub, id, func(g *liveGame) (recorded, error) {
		return recorded{g.record(), g.engine}, nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	rec := got.rec
	lang := s.site.Lang(r)
	var notes []string
	if f := got.engine.Records; f != nil {
		// A format of its own may name things its own way: say how.
		key := "record.note." + f.Ext
		if note := s.site.T(lang, key); note != key {
			notes = append(notes, note)
		}
	}
	if rec.Given > 0 {
		// The names are the players' of this game, who began where the
		// given moves left off: a reader must not think they played them.
		notes = append(notes, s.site.T(lang, "record.note.given", "given", rec.Given, "next", rec.Given+1))
	}
	rec.Note = strings.Join(notes, " ")
	text, ext, err := writeRecord(got.engine, rec)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="bretter-%s-%s.%s"`, rec.Game, id, ext))
	w.Write([]byte(text))
}

// maxRecord bounds an imported record.
const maxRecord = 256 << 10

// apiImport reads a record (any game's own format, or the text format),
// checks every move, and returns it with its positions. An error names the
// move at fault.
func (s *Server) apiImport(w http.ResponseWriter, r *http.Request) {
	if !s.imports.allow(clientKey(r), s.hub.now()) {
		writeError(w, refuse(http.StatusTooManyRequests, "rate", "too many records from your address: wait a minute"))
		return
	}
	var req struct {
		Text string `json:"text"`
	}
	if err := readJSON(r, &req); err != nil {
		if e := asError(err); e.Code == "too_large" {
			err = refuse(e.Status, e.Code, "the record is larger than %d bytes", maxRecord)
		}
		writeError(w, err)
		return
	}
	rec, engine, err := s.parseRecord(req.Text)
	if err == nil {
		rec.Options, err = engine.Resolve(rec.Options)
	}
	if err != nil {
		writeRefusedRecord(w, err, plyOf(err))
		return
	}
	walk, ply, err := positions(engine, rec.Options, rec.Moves)
	if err != nil {
		if ply > 0 {
			err = atMove(ply, rec.Moves[ply-1], err)
		}
		writeRefusedRecord(w, err, ply)
		return
	}
	rec.Moves = walk.moves
	// Records often say only who won, or nothing: the rules say the rest,
	// and what a record says must agree with them.
	if err := rec.Settle(walk.last); err != nil {
		writeRefusedRecord(w, err, 0)
		return
	}
	answer := map[string]any{
		"game": rec.Game, "options": rec.Options, "date": rec.Date, "white": rec.White, "black": rec.Black,
		"winner": rec.Winner, "reason": rec.Reason, "moves": rec.Moves, "given": rec.Given, "positions": walk.list,
	}
	if seats := computerSeats(rec); seats != nil {
		answer["computer"] = seats
	}
	writeJSON(w, http.StatusOK, answer)
}

// plyOf is the move a record's reader names in refusing it, 0 when it
// names none: a game's own format is read move by move too.
func plyOf(err error) int {
	reasons, _ := game.Reasons(err)
	for _, r := range reasons {
		for _, a := range r.Args {
			if n, err := strconv.Atoi(a.Value); a.Name == "ply" && err == nil {
				return n
			}
		}
	}
	return 0
}

// writeRefusedRecord answers a record refused for err, at move ply if it
// is not 0, with err's reasons beside its English.
func writeRefusedRecord(w http.ResponseWriter, err error, ply int) {
	writeJSON(w, http.StatusUnprocessableEntity, errorAnswer{Error: err.Error(), Code: "bad_record", Ply: ply, Reasons: reasonsOf(err)})
}

// parseRecord tells the format by how the text begins: "(" for the SGF
// family (.hgf), a header line or a numbered move for the text format. A
// text that begins as neither is refused as no record the site knows: the
// reason one of the formats would give (no parentheses, say) would send
// its writer looking for a fault it does not have.
func (s *Server) parseRecord(text string) (game.Record, game.Game, error) {
	text = strings.TrimSpace(strings.TrimPrefix(text, "\ufeff"))
	switch {
	case text == "":
		return game.Record{}, game.Game{}, game.BadRecord(game.Because("why.record.empty", "the record is empty"), nil)
	case text[0] == '(':
		return s.parseOwnFormat(text)
	case looksLikeText(text):
		return s.parseText(text)
	}
	return game.Record{}, game.Game{}, errUnknownFormat
}

var errUnknownFormat = game.BadRecord(game.Because("why.record.unknown_format", "this is not a record the site knows"), nil)

// looksLikeText says whether text begins as game.Record.Text writes it:
// its first line that is neither blank nor a comment is a header line or
// starts with a move number.
func looksLikeText(text string) bool {
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if line[0] == '[' {
			return true
		}
		number, _, numbered := strings.Cut(line, ".")
		return numbered && number != "" && strings.Trim(number, "0123456789") == ""
	}
	return false
}

// parseText reads the text format, which names its game.
func (s *Server) parseText(text string) (game.Record, game.Game, error) {
	rec, err := game.ParseText(text)
	if err != nil {
		return rec, game.Game{}, err
	}
	engine, ok := s.games[rec.Game]
	if !ok {
		return rec, game.Game{}, game.BadRecord(game.Because("why.record.unknown_game", "unknown game {game}", "game", strconv.Quote(rec.Game)), nil)
	}
	return rec, engine, nil
}

// parseOwnFormat reads a game's own format of the SGF family: the first
// game whose format reads it, or the first one's reason.
func (s *Server) parseOwnFormat(text string) (game.Record, game.Game, error) {
	var firstErr error
	for _, engine := range s.order {
		if engine.Records == nil {
			continue
		}
		rec, err := engine.Records.Read(text)
		if err == nil {
			return rec, engine, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr == nil {
		firstErr = errUnknownFormat
	}
	return game.Record{}, game.Game{}, firstErr
}
