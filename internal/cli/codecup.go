package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"bretter/ai"
	"bretter/game"
	"bretter/games/dvonn"
)

// codecup plays one game of DVONN on stdin and stdout in the protocol of
// the CodeCup 2011 competition: the first line is "Start" when we move
// first, else the opponent's first move; then one move per line each way;
// "Quit" ends it.
func codecup(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "dvonn" {
		fmt.Fprintln(stderr, "bretter codecup: the only CodeCup game here is dvonn: bretter codecup dvonn [-time D] [-level L] [-seed S]")
		return 2
	}
	fs := flag.NewFlagSet("codecup dvonn", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	total := fs.Duration("time", 5*time.Second, "")
	level := fs.Int("level", 0, "")
	seed := fs.Uint64("seed", 1, "")
	err := fs.Parse(args[1:])
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err == nil && *total <= 0 {
		err = errors.New("-time must be positive")
	}
	if err == nil && given(fs, "level") && (*level < ai.MinLevel || *level > ai.MaxLevel) {
		err = fmt.Errorf("-level must be between %d and %d", ai.MinLevel, ai.MaxLevel)
	}
	var cfg ai.Config
	if err == nil {
		cfg, err = codecupConfig(*level, *seed)
	}
	if err != nil {
		fmt.Fprintf(stderr, "bretter codecup: %v\n", err)
		return 2
	}
	g := newCodecupGame(dvonn.New(), cfg, *total)
	if err := g.run(context.Background(), stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "bretter codecup: %v\n", err)
		return 1
	}
	return 0
}

// codecupConfig is the search of a level, or without -level the full
// search, stopped move by move by the game's clock.
func codecupConfig(level int, seed uint64) (ai.Config, error) {
	cfg := ai.Tuning("dvonn")
	cfg.Time = forever
	if level != 0 {
		c, err := ai.Level("dvonn", level)
		if err != nil {
			return cfg, err
		}
		cfg = c
	}
	cfg.Seed = seed
	return cfg, nil
}

// codecupGame is our side of one game.
type codecupGame struct {
	state  game.State
	search *ai.Searcher
	us     game.Player // Nobody until the first line says
	total  time.Duration
	used   time.Duration
	legal  []game.Move
}

func newCodecupGame(start game.State, cfg ai.Config, total time.Duration) *codecupGame {
	return &codecupGame{state: start.Clone(), search: ai.New(start, cfg), us: game.Nobody, total: total}
}

// run reads the opponent's moves and answers with ours until Quit.
func (g *codecupGame) run(ctx context.Context, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	w := bufio.NewWriter(out)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if line == "Quit" {
			return nil
		}
		// Our clock runs from reading the opponent's move to sending ours.
		start := time.Now()
		if err := g.read(line); err != nil {
			return err
		}
		for !g.state.Outcome().Over && g.state.ToMove() == g.us {
			text, err := g.move(ctx)
			if err != nil {
				return err
			}
			fmt.Fprintln(w, text)
			if err := w.Flush(); err != nil {
				return err
			}
		}
		g.used += time.Since(start)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if !g.state.Outcome().Over {
		return fmt.Errorf("the input ended at ply %d, before the game and without Quit", g.state.Ply())
	}
	return nil
}

// read takes one line from the opponent: Start, or a move.
func (g *codecupGame) read(line string) error {
	if g.us == game.Nobody {
		if line == "Start" {
			g.us = game.White
			return nil
		}
		g.us = game.Black
	}
	if line == "Start" {
		return errors.New(`"Start" after the first line`)
	}
	ply := g.state.Ply() + 1
	if g.state.Outcome().Over {
		return fmt.Errorf("move %d %q: the game is over, only Quit may follow", ply, line)
	}
	m, err := g.state.ParseMove(line)
	if err == nil {
		err = g.state.Play(m)
	}
	if err != nil {
		return fmt.Errorf("move %d %q from the opponent: %w", ply, line, err)
	}
	return g.search.Play(m)
}

// move chooses, plays and names our next move. A forced move, such as a
// pass when no stack can move, is answered at once, without a search.
func (g *codecupGame) move(ctx context.Context) (string, error) {
	g.legal = g.state.Legal(g.legal[:0])
	var m game.Move
	if len(g.legal) == 1 {
		m = g.legal[0]
	} else {
		ctx, cancel := context.WithTimeout(ctx, g.budget())
		r, err := g.search.Search(ctx)
		cancel()
		switch {
		case err == nil:
			m = r.Move
		case errors.Is(err, context.DeadlineExceeded):
			m = g.legal[0] // the clock left no time to think at all
		default:
			return "", err
		}
	}
	text := g.state.FormatMove(m)
	if err := g.state.Play(m); err != nil {
		return "", fmt.Errorf("our own move %s: %w", text, err)
	}
	return text, g.search.Play(m)
}

// budget is the time for our next move. A placement gets a small fixed
// share of the game's time (half a percent), for the search sees little
// in them and the stacking decides the game. A stack move gets what is
// left, less a margin, shared among the stack moves we still expect to
// make: about half the stacks low enough to move, less ten, for the last
// moves of a game are few and quick. The middle game gets the most.
func (g *codecupGame) budget() time.Duration {
	left := time.Duration(float64(g.total)*0.95) - g.used
	s, ok := g.state.(*dvonn.State)
	if ok && s.Placing() {
		return max(min(g.total/200, left/40), time.Millisecond)
	}
	moves := 3
	if ok {
		moves = max(2, movableStacks(s)/2-10)
	}
	return max(left/time.Duration(moves), time.Millisecond)
}

// movableStacks counts the stacks of at most five pieces, the ones that
// may still move in the middle game.
func movableStacks(s *dvonn.State) int {
	n := 0
	for _, st := range strings.Fields(s.Stacks()) {
		// A stack is written space:owner height:DVONN pieces, as "C3:W2:0".
		parts := strings.Split(st, ":")
		if len(parts) == 3 && len(parts[1]) > 1 {
			if h, err := strconv.Atoi(parts[1][1:]); err == nil && h <= 5 {
				n++
			}
		}
	}
	return n
}
