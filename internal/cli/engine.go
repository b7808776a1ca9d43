package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"bretter/game"
	"bretter/games/dvonn"
	"bretter/games/havannah"
)

// engineArgs reads "GAME [options]" plus any extra flags, starts the game
// with the chosen options and replays the moves on stdin.
type engineArgs struct {
	game  game.Game
	opts  game.Options
	moves []string
}

func parseEngineArgs(cmd string, args []string, games []game.Game, extra func(*flag.FlagSet)) (engineArgs, error) {
	if len(args) == 0 {
		return engineArgs{}, fmt.Errorf("%s needs a game name", cmd)
	}
	g, ok := findGame(games, args[0])
	if !ok {
		return engineArgs{}, fmt.Errorf("unknown game %q", args[0])
	}
	fs := flag.NewFlagSet(cmd+" "+g.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	values := make(map[string]*int, len(g.Options))
	bools := make(map[string]*bool, len(g.Options))
	for _, o := range g.Options {
		if o.Bool {
			// A record to judge may use any optional rule (Havannah's swap
			// as the second move): judge allows them unless told -name=false.
			bools[o.Name] = fs.Bool(o.Name, o.Default == 1 || cmd == "judge", "")
		} else {
			values[o.Name] = fs.Int(o.Name, o.Default, "")
		}
	}
	if extra != nil {
		extra(fs)
	}
	if err := fs.Parse(args[1:]); err != nil {
		return engineArgs{}, err
	}
	if fs.NArg() > 0 {
		return engineArgs{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	opts := game.Options{}
	for name, v := range values {
		opts[name] = *v
	}
	for name, v := range bools {
		opts[name] = 0
		if *v {
			opts[name] = 1
		}
	}
	if _, err := g.Resolve(opts); err != nil {
		return engineArgs{}, err
	}
	return engineArgs{game: g, opts: opts}, nil
}

func readMoves(r io.Reader) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	sc.Split(bufio.ScanWords)
	var moves []string
	for sc.Scan() {
		moves = append(moves, sc.Text())
	}
	return moves, sc.Err()
}

// object is a JSON object that keeps its keys in the order given.
type object []field

type field struct {
	key   string
	value any
}

func (o object) MarshalJSON() ([]byte, error) {
	out := []byte{'{'}
	for i, f := range o {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendQuote(out, f.key)
		out = append(out, ':')
		v, err := json.Marshal(f.value)
		if err != nil {
			return nil, err
		}
		out = append(out, v...)
	}
	return append(out, '}'), nil
}

func writeJSON(w io.Writer, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(w, "%s\n", b)
}

func fail(w io.Writer, err error, ply int) int {
	writeJSON(w, object{{"error", err.Error()}, {"ply", ply}})
	return 1
}

// judge replays a move list and prints the verdict of the rules.
func judge(args []string, games []game.Game, stdin io.Reader, stdout, stderr io.Writer) int {
	a, err := parseEngineArgs("judge", args, games, nil)
	if err != nil {
		fmt.Fprintf(stderr, "bretter judge: %v\n", err)
		return fail(stdout, err, 0)
	}
	moves, err := readMoves(stdin)
	if err != nil {
		return fail(stdout, fmt.Errorf("reading moves: %w", err), 0)
	}
	s, _, err := a.game.Start(a.opts)
	if err != nil {
		return fail(stdout, err, 0)
	}
	legal := make([]int, 0, len(moves))
	var buf []game.Move
	for i, text := range moves {
		if s.Outcome().Over {
			return fail(stdout, game.AfterEnd(text), i+1)
		}
		buf = s.Legal(buf[:0])
		legal = append(legal, len(buf))
		m, err := s.ParseMove(text)
		if err == nil {
			err = s.Play(m)
		}
		if err != nil {
			return fail(stdout, err, i+1)
		}
	}
	out := s.Outcome()
	result, reason := "ongoing", ""
	if out.Over {
		result, reason = out.Winner.String(), out.Reason
		if out.Winner == game.Nobody {
			result = "draw"
		}
	}
	v := object{{"plies", len(moves)}, {"result", result}}
	switch s := s.(type) {
	case *havannah.State:
		structures := s.Structures().Names()
		if structures == nil {
			structures = []string{}
		}
		v = append(v, field{"reason", reason}, field{"structures", structures})
	case *dvonn.State:
		w, b := s.Score()
		v = append(v, field{"score", object{{"white", w}, {"black", b}}}, field{"legal", legal})
	case game.PieceCounter:
		w, b := s.Pieces()
		v = append(v, field{"reason", reason}, field{"pieces", object{{"white", w}, {"black", b}}}, field{"legal", legal})
	default:
		v = append(v, field{"reason", reason}, field{"legal", legal})
	}
	writeJSON(stdout, v)
	return 0
}

// perft prints the number of legal move sequences of each length from 1 to
// depth, from the position the moves on stdin reach.
func perft(args []string, games []game.Game, stdin io.Reader, stdout, stderr io.Writer) int {
	depth := 0
	a, err := parseEngineArgs("perft", args, games, func(fs *flag.FlagSet) { fs.IntVar(&depth, "depth", 0, "") })
	if err == nil && (depth < 1 || depth > 20) {
		err = errors.New("-depth must be between 1 and 20")
	}
	if err != nil {
		fmt.Fprintf(stderr, "bretter perft: %v\n", err)
		return 2
	}
	moves, err := readMoves(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "bretter perft: reading moves: %v\n", err)
		return 1
	}
	s, ply, err := game.Replay(a.game, a.opts, moves)
	if err != nil {
		fmt.Fprintf(stderr, "bretter perft: move %d: %v\n", ply, err)
		return 1
	}
	for d := 1; d <= depth; d++ {
		fmt.Fprintln(stdout, count(s, d))
	}
	return 0
}

// count is perft through the engine's own fast counter when it has one.
func count(s game.State, depth int) uint64 {
	if p, ok := s.(game.Perfter); ok {
		return p.Perft(depth)
	}
	return game.Perft(s, depth)
}
