package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"bretter/game"
)

// matchFlags are the options of `bretter match`.
type matchFlags struct {
	game        game.Game
	opts        game.Options
	a, b        playerSpec
	games       int
	concurrency int
	seed        uint64
	verbose     bool
	outside     outside
}

func parseMatchFlags(args []string, games []game.Game) (matchFlags, error) {
	var f matchFlags
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	name := fs.String("game", "", "")
	a := fs.String("a", "", "")
	b := fs.String("b", "", "")
	fs.IntVar(&f.games, "games", 2, "")
	fs.IntVar(&f.concurrency, "concurrency", 1, "")
	size := fs.Int("size", 0, "")
	fs.Uint64Var(&f.seed, "seed", 1, "")
	fs.BoolVar(&f.verbose, "v", false, "")
	fs.DurationVar(&f.outside.timePerMove, "time-per-move", 0, "")
	fs.StringVar(&f.outside.timeCommand, "gtp-time-command", "time_settings 0 {s} 1", "")
	if err := fs.Parse(args); err != nil {
		return f, err
	}
	if fs.NArg() > 0 {
		return f, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	g, ok := findGame(games, *name)
	if !ok {
		return f, fmt.Errorf("unknown game %q: give -game", *name)
	}
	f.game, f.opts = g, game.Options{}
	if *size != 0 {
		f.opts["size"] = *size
	}
	resolved, err := g.Resolve(f.opts)
	if err != nil {
		return f, err
	}
	f.opts, f.outside.size = resolved, resolved["size"]
	if f.games < 1 || f.concurrency < 1 {
		return f, errors.New("-games and -concurrency must be at least 1")
	}
	if f.outside.timePerMove < 0 {
		return f, errors.New("-time-per-move must not be negative")
	}
	if f.a, err = parsePlayerSpec(g, f.opts, *a); err != nil {
		return f, fmt.Errorf("-a: %w", err)
	}
	if f.b, err = parsePlayerSpec(g, f.opts, *b); err != nil {
		return f, fmt.Errorf("-b: %w", err)
	}
	return f, nil
}

// match plays games between two players, A and B, alternating colours,
// and reports the score and the Elo difference it stands for.
func match(args []string, games []game.Game, stdout, stderr io.Writer) int {
	f, err := parseMatchFlags(args, games)
	if err != nil {
		fmt.Fprintf(stderr, "bretter match: %v\n", err)
		return 2
	}
	ctx := context.Background()
	results := make(chan gameResult)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(f.concurrency, f.games) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results <- playMatchGame(ctx, f, i)
			}
		}()
	}
	go func() {
		for i := range f.games {
			jobs <- i
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()

	// Games finish in any order; they are printed in the order they were
	// numbered, so that the same seed prints the same report.
	var t tally
	pending := map[int]gameResult{}
	next := 0
	for r := range results {
		pending[r.index] = r
		for ; pending[next].done; next++ {
			r := pending[next]
			delete(pending, next)
			printGame(stdout, r, f.verbose)
			t.add(r)
		}
	}
	t.print(stdout, f)
	return 0
}

// gameResult is how one game of a match went.
type gameResult struct {
	done    bool
	index   int
	aColour game.Player
	winner  string // "a", "b" or "" for a draw
	reason  string
	moves   []string
	think   [2]time.Duration // A's and B's time for their moves
}

// playMatchGame plays game i: A has White in even games, Black in odd.
func playMatchGame(ctx context.Context, f matchFlags, i int) gameResult {
	r := gameResult{done: true, index: i, aColour: game.White}
	if i%2 == 1 {
		r.aColour = game.Black
	}
	s, err := f.game.New(f.opts)
	if err != nil {
		r.reason = "error: " + err.Error()
		return r
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	seed := f.seed + uint64(i)
	// B's seed differs from A's, so that a player against itself does not
	// play both sides alike.
	specs := [2]playerSpec{f.a, f.b}
	seeds := [2]uint64{seed, seed + 0x9e3779b97f4a7c15}
	names := [2]string{"a", "b"}
	var players [2]player // by colour
	for side := range 2 {
		colour := r.aColour
		if side == 1 {
			colour = colour.Other()
		}
		p, err := specs[side].start(ctx, s, colour, seeds[side], f.outside)
		if err != nil {
			closeAll(players)
			r.winner, r.reason = names[1-side], fmt.Sprintf("%s could not start: %v", names[side], err)
			return r
		}
		players[colour] = p
	}
	defer closeAll(players)
	// side is 0 for A and 1 for B; lose ends the game against one side.
	side := func(p game.Player) int {
		if p == r.aColour {
			return 0
		}
		return 1
	}
	lose := func(loser int, format string, args ...any) gameResult {
		r.winner, r.reason = names[1-loser], names[loser]+" "+fmt.Sprintf(format, args...)
		return r
	}
	for !s.Outcome().Over {
		mover := s.ToMove()
		began := time.Now()
		text, err := players[mover].move(ctx, s)
		r.think[side(mover)] += time.Since(began)
		if errors.Is(err, errResigned) {
			return lose(side(mover), "resigned")
		}
		if err != nil {
			return lose(side(mover), "failed: %v", err)
		}
		m, err := s.ParseMove(text)
		if err == nil {
			err = s.Play(m)
		}
		if err != nil {
			return lose(side(mover), "played %q: %v", text, err)
		}
		r.moves = append(r.moves, text)
		for colour, p := range players {
			if err := p.played(m, text, game.Player(colour) == mover, s); err != nil {
				return lose(side(game.Player(colour)), "failed: %v", err)
			}
		}
	}
	out := s.Outcome()
	r.reason = out.Reason
	if out.Winner != game.Nobody {
		r.winner = names[side(out.Winner)]
	}
	return r
}

func closeAll(players [2]player) {
	for _, p := range players {
		if p != nil {
			p.close()
		}
	}
}

func printGame(w io.Writer, r gameResult, verbose bool) {
	result := "draw"
	if r.winner != "" {
		result = r.winner + " wins"
	}
	fmt.Fprintf(w, "game %d: a %s, b %s: %s (%s) after %d plies; thinking a %.1fs, b %.1fs\n",
		r.index+1, r.aColour, r.aColour.Other(), result, r.reason, len(r.moves), r.think[0].Seconds(), r.think[1].Seconds())
	if verbose {
		fmt.Fprintf(w, "  moves: %s\n", strings.Join(r.moves, " "))
	}
}

// tally counts A's results.
type tally struct {
	wins, losses, draws int
}

func (t *tally) add(r gameResult) {
	switch r.winner {
	case "a":
		t.wins++
	case "b":
		t.losses++
	default:
		t.draws++
	}
}

func (t *tally) print(w io.Writer, f matchFlags) {
	n := t.wins + t.losses + t.draws
	score := (float64(t.wins) + float64(t.draws)/2) / float64(n)
	diff, lo, hi := elo(t.wins, t.losses, t.draws)
	if diff == 0 {
		diff = 0 // not -0
	}
	fmt.Fprintf(w, "a %s vs b %s, %s", f.a.text, f.b.text, f.game.Name)
	if size, ok := f.opts["size"]; ok {
		fmt.Fprintf(w, " size %d", size)
	}
	fmt.Fprintf(w, ", %d games\n", n)
	fmt.Fprintf(w, "a: %d wins, %d losses, %d draws, score %.1f%%\n", t.wins, t.losses, t.draws, 100*score)
	fmt.Fprintf(w, "elo a-b: %+.0f, 95%% interval [%+.0f, %+.0f]\n", diff, lo, hi)
}
