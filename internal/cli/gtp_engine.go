package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"bretter/ai"
	"bretter/game"
	"bretter/games/havannah"
)

// gtpCommands are the commands the engine knows, in the order
// list_commands gives them.
var gtpCommands = []string{
	"protocol_version", "name", "version", "known_command", "list_commands", "quit",
	"boardsize", "clear_board", "play", "genmove", "undo", "showboard",
	"time_settings", "time_left",
}

// gtpEngine is the state of one GTP session: the game so far and one
// searcher that follows it, so that the tree of one move is reused for the
// next.
type gtpEngine struct {
	flags gtpFlags
	size  int
	fixed *ai.Config // the budget the flags set, or nil to follow the clock

	state    *havannah.State
	moves    []game.Move
	resigned game.Player // who resigned, or Nobody
	search   *ai.Searcher
	cfg      ai.Config // the config search was made with
	clock    gtpClock
}

func newGTPEngine(f gtpFlags) (*gtpEngine, error) {
	e := &gtpEngine{flags: f, size: f.size}
	var cfg ai.Config
	switch {
	case f.level != 0:
		c, err := ai.Level("havannah", f.level)
		if err != nil {
			return nil, err
		}
		cfg = c
	case f.movetime != 0:
		cfg = ai.Tuning("havannah")
		cfg.Time = f.movetime
	case f.playouts != 0:
		cfg = ai.Tuning("havannah")
		cfg.Iterations = f.playouts
	}
	if f.level != 0 || f.movetime != 0 || f.playouts != 0 {
		cfg.Seed = f.seed
		e.fixed = &cfg
	}
	if err := e.reset(nil); err != nil {
		return nil, err
	}
	return e, nil
}

// reset starts the board again and replays moves, with a fresh searcher.
func (e *gtpEngine) reset(moves []game.Move) error {
	s, err := havannah.New(e.size, e.flags.swap)
	if err != nil {
		return err
	}
	e.state, e.moves, e.resigned = s, nil, game.Nobody
	e.cfg = e.config()
	e.search = ai.New(s, e.cfg)
	for _, m := range moves {
		if err := e.play(m); err != nil {
			return err
		}
	}
	return nil
}

func (e *gtpEngine) play(m game.Move) error {
	if err := e.state.Play(m); err != nil {
		return err
	}
	e.moves = append(e.moves, m)
	return e.search.Play(m)
}

// forever is the time bound of a searcher whose every search is stopped
// by its context's deadline, which the clock sets move by move.
const forever = 24 * time.Hour

// config is the search's setting for the budget now known: the flags',
// else the clock's, else the default level's.
func (e *gtpEngine) config() ai.Config {
	if e.fixed != nil {
		return *e.fixed
	}
	if e.clock.limited() {
		c := ai.Tuning("havannah")
		c.Time, c.Seed = forever, e.flags.seed
		return c
	}
	c, err := ai.Level("havannah", ai.DefaultLevel)
	if err != nil {
		panic(err) // the default level always exists
	}
	c.Seed = e.flags.seed
	return c
}

func (e *gtpEngine) exec(ctx context.Context, cmd gtpCommand) (string, error) {
	switch cmd.name {
	case "":
		return "", errors.New("missing command")
	case "protocol_version":
		return "2", nil
	case "name":
		return "bretter", nil
	case "version":
		return buildVersion(), nil
	case "known_command":
		if len(cmd.args) != 1 {
			return "", errors.New("syntax error: known_command needs one name")
		}
		return strconv.FormatBool(slices.Contains(gtpCommands, cmd.args[0])), nil
	case "list_commands":
		return strings.Join(gtpCommands, "\n"), nil
	case "quit":
		return "", nil
	case "boardsize":
		return "", e.boardsize(cmd.args)
	case "clear_board":
		e.clock.newGame()
		return "", e.reset(nil)
	case "play":
		return "", e.playCommand(cmd.args)
	case "genmove":
		return e.genmove(ctx, cmd.args)
	case "undo":
		return "", e.undo()
	case "showboard":
		return "\n" + drawHavannah(e.state), nil
	case "time_settings":
		return "", e.clock.settings(cmd.args)
	case "time_left":
		return "", e.clock.left(cmd.args)
	}
	return "", errors.New("unknown command")
}

func (e *gtpEngine) boardsize(args []string) error {
	if len(args) != 1 {
		return errors.New("syntax error: boardsize needs one number")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return errors.New("syntax error: boardsize needs one number")
	}
	if n < havannah.MinSize || n > havannah.MaxSize {
		return fmt.Errorf("unacceptable size: the side must be between %d and %d", havannah.MinSize, havannah.MaxSize)
	}
	e.size = n
	e.clock.newGame()
	return e.reset(nil)
}

// parseGTPColour reads w, b, white or black in any case.
func parseGTPColour(s string) (game.Player, error) {
	switch strings.ToLower(s) {
	case "w", "white":
		return game.White, nil
	case "b", "black":
		return game.Black, nil
	}
	return game.Nobody, fmt.Errorf("syntax error: %q is not a colour (w, b, white, black)", s)
}

// turn checks that the game goes on and that it is colour's turn: Havannah
// strictly alternates, so a move out of turn is refused, not taken as a
// pass of the other side.
func (e *gtpEngine) turn(colour string) (game.Player, error) {
	p, err := parseGTPColour(colour)
	if err != nil {
		return p, err
	}
	if e.resigned != game.Nobody {
		return p, fmt.Errorf("game is over: %s resigned", e.resigned)
	}
	if out := e.state.Outcome(); out.Over {
		return p, fmt.Errorf("game is over: %s", out.Reason)
	}
	if p != e.state.ToMove() {
		return p, fmt.Errorf("wrong colour: %s is to move", e.state.ToMove())
	}
	return p, nil
}

func (e *gtpEngine) playCommand(args []string) error {
	if len(args) != 2 {
		return errors.New("syntax error: play needs a colour and a move")
	}
	p, err := e.turn(args[0])
	if err != nil {
		return err
	}
	if strings.EqualFold(args[1], "resign") {
		e.resigned = p
		return nil
	}
	m, err := e.state.ParseMove(args[1])
	if err != nil {
		// GTP controllers know "illegal move"; the engine's reason follows.
		return fmt.Errorf("illegal move %s", strings.TrimPrefix(err.Error(), game.ErrNotation.Error()+" "))
	}
	return e.play(m)
}

// genmove finds, plays and names a move for colour. It resigns when the
// search has proved that every move loses: the game is decided, and a
// program that plays on only makes its opponent show the win.
func (e *gtpEngine) genmove(ctx context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: genmove needs a colour")
	}
	p, err := e.turn(args[0])
	if err != nil {
		return "", err
	}
	if want := e.config(); want != e.cfg {
		// The clock became known (or changed its kind): the search needs
		// other settings, so it starts afresh from the moves so far.
		if err := e.reset(slices.Clone(e.moves)); err != nil {
			return "", err
		}
	}
	if e.fixed == nil && e.clock.limited() {
		think := e.clock.budget(p, len(e.state.Legal(nil)))
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, think)
		defer cancel()
	}
	start := time.Now()
	r, err := e.search.Search(ctx)
	e.clock.used(p, time.Since(start))
	if err != nil {
		return "", fmt.Errorf("search failed: %w", err)
	}
	if r.Proof == -1 {
		e.resigned = p
		return "resign", nil
	}
	text := e.state.FormatMove(r.Move)
	if err := e.play(r.Move); err != nil {
		return "", fmt.Errorf("search chose %s: %w", text, err)
	}
	return text, nil
}

// undo takes back the last move, or a resignation.
func (e *gtpEngine) undo() error {
	if e.resigned != game.Nobody {
		e.resigned = game.Nobody
		return nil
	}
	if len(e.moves) == 0 {
		return errors.New("cannot undo: no move was played")
	}
	return e.reset(slices.Clone(e.moves[:len(e.moves)-1]))
}
