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
	"bretter/games/havannah"
)

// gtpFlags are the options of `bretter gtp`.
type gtpFlags struct {
	size     int
	swap     bool
	level    int
	movetime time.Duration
	playouts int
	seed     uint64
}

// gtp speaks the Go Text Protocol, version 2, for Havannah on stdin and
// stdout, as HavannahGui and Castro speak it, so that those tools and
// other programs can play against the computer opponent.
func gtp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, err := parseGTPFlags(args)
	if err != nil {
		fmt.Fprintf(stderr, "bretter gtp: %v\n", err)
		return 2
	}
	e, err := newGTPEngine(f)
	if err != nil {
		fmt.Fprintf(stderr, "bretter gtp: %v\n", err)
		return 2
	}
	if err := e.serve(context.Background(), stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "bretter gtp: %v\n", err)
		return 1
	}
	return 0
}

func parseGTPFlags(args []string) (gtpFlags, error) {
	f := gtpFlags{size: havannah.DefaultSize, seed: 1}
	fs := flag.NewFlagSet("gtp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.IntVar(&f.size, "size", f.size, "")
	fs.BoolVar(&f.swap, "swap", false, "")
	fs.IntVar(&f.level, "level", 0, "")
	fs.DurationVar(&f.movetime, "movetime", 0, "")
	fs.IntVar(&f.playouts, "playouts", 0, "")
	fs.Uint64Var(&f.seed, "seed", f.seed, "")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if f.size < havannah.MinSize || f.size > havannah.MaxSize {
		return f, fmt.Errorf("-size must be between %d and %d", havannah.MinSize, havannah.MaxSize)
	}
	budgets := 0
	for _, name := range []string{"level", "movetime", "playouts"} {
		if given(fs, name) {
			budgets++
		}
	}
	if budgets > 1 {
		return f, errors.New("give at most one of -level, -movetime and -playouts")
	}
	if given(fs, "movetime") && f.movetime <= 0 || given(fs, "playouts") && f.playouts <= 0 {
		return f, errors.New("-movetime and -playouts must be positive")
	}
	if given(fs, "level") {
		if _, err := ai.Level("havannah", f.level); err != nil {
			return f, err
		}
	}
	return f, nil
}

// gtpCommand is one line of GTP input: an optional numeric id, the command's
// name and its arguments.
type gtpCommand struct {
	id   string
	name string
	args []string
}

// parseGTPLine reads one line as the protocol's preprocessing asks: control
// characters other than tab and newline are dropped, tabs become spaces and
// everything after # is a comment. ok is false for a line with no command,
// which gets no response.
func parseGTPLine(line string) (cmd gtpCommand, ok bool) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	clean := strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r < 32 || r == 127:
			return -1
		}
		return r
	}, line)
	fields := strings.Fields(clean)
	if len(fields) == 0 {
		return gtpCommand{}, false
	}
	if isGTPID(fields[0]) {
		cmd.id, fields = fields[0], fields[1:]
	}
	if len(fields) > 0 {
		cmd.name, cmd.args = fields[0], fields[1:]
	}
	return cmd, true
}

// isGTPID reports whether s is a command id: a non-negative integer.
func isGTPID(s string) bool {
	_, err := strconv.ParseUint(s, 10, 31)
	return err == nil && s[0] != '+'
}

// serve answers commands until quit or the end of the input.
func (e *gtpEngine) serve(ctx context.Context, in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 4096), 1<<20)
	w := bufio.NewWriter(out)
	for sc.Scan() {
		cmd, ok := parseGTPLine(sc.Text())
		if !ok {
			continue
		}
		text, err := e.exec(ctx, cmd)
		mark := "="
		if err != nil {
			mark, text = "?", err.Error()
		}
		fmt.Fprintf(w, "%s%s %s\n\n", mark, cmd.id, text)
		if err := w.Flush(); err != nil {
			return err
		}
		if cmd.name == "quit" {
			return nil
		}
	}
	return sc.Err()
}
