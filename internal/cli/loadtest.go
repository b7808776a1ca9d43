package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"bretter/ai"
	"bretter/game"
	"bretter/internal/loadtest"
)

// loadtestCmd plays many games at once against a site on this machine and
// prints how fast moves reach the other players. It exits with status 1
// when anything went wrong during the run, 2 on bad arguments.
func loadtestCmd(args []string, games []game.Game, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	target := fs.String("url", "", "the site, on a loopback address, such as http://127.0.0.1:8080")
	gameName := fs.String("game", "havannah", "the game to play, with its default options")
	n := fs.Int("games", 100, "games played at once")
	watchers := fs.Int("watchers", 0, "watchers of each game")
	here := fs.Bool("watchers-here", false, "hold the watchers' connections in this process, beside the players', instead of in a process of their own")
	computer := fs.Int("computer", 0, "games against the computer, played beside the others")
	level := fs.Int("level", ai.DefaultLevel, "the computer's level")
	think := fs.String("think", "2s-10s", "how long a player thinks before each move: a range MIN-MAX or one duration")
	duration := fs.Duration("duration", time.Minute, "how long to measure, after the games are set up")
	asJSON := fs.Bool("json", false, "print the results as one JSON object")
	nice := fs.Int("players-nice", 0, "run the players at this niceness, -20 to 19 (below 0 needs root): on a machine shared with the site and the watchers, their own wait for a core would otherwise count as the site's")
	watchersNice := fs.Int("watchers-nice", 0, "run the watchers' process at this niceness, -20 to 19 (below 0 needs root): they stand for browsers on other machines, and at 19 they take only what the site and the players leave of the processors")
	pid := fs.Int("pid", 0, "the server's process, for its CPU and memory (default: the one listening on the URL's port)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "bretter loadtest: "+format+"\n", a...)
		return 2
	}
	if fs.NArg() > 0 {
		return bad("unexpected argument %q", fs.Arg(0))
	}
	if *target == "" {
		return bad("-url is required, such as -url http://127.0.0.1:8080")
	}
	u, err := loadtest.Target(*target)
	if err != nil {
		return bad("-url: %v", err)
	}
	if _, ok := findGame(games, *gameName); !ok {
		return bad("-game: unknown game %q", *gameName)
	}
	lo, hi, err := loadtest.ParseThink(*think)
	if err != nil {
		return bad("-think: %v", err)
	}
	switch {
	case *n < 1:
		return bad("-games must be at least 1")
	case *watchers < 0:
		return bad("-watchers must not be negative")
	case *computer < 0:
		return bad("-computer must not be negative")
	case *level < ai.MinLevel || *level > ai.MaxLevel:
		return bad("-level must be between %d and %d", ai.MinLevel, ai.MaxLevel)
	case *duration <= 0:
		return bad("-duration must be positive")
	case *pid < 0:
		return bad("-pid must not be negative")
	case *nice < -20 || *nice > 19:
		return bad("-players-nice must be between -20 and 19")
	case *watchersNice < -20 || *watchersNice > 19:
		return bad("-watchers-nice must be between -20 and 19")
	case *watchersNice != 0 && *here:
		return bad("-watchers-nice is for the watchers' own process, which -watchers-here does without")
	}
	if limit, err := raiseFileLimit(); err != nil {
		fmt.Fprintf(stderr, "bretter loadtest: raising the limit of open files: %v\n", err)
	} else if need := uint64(*n)*uint64(2+*watchers) + uint64(*computer); need+64 > limit {
		fmt.Fprintf(stderr, "bretter loadtest: %d connections need more than the %d open files allowed\n", need, limit)
	}
	// From here on the watchers' process writes to stderr too.
	stderr = &lockedWriter{w: stderr}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := loadtest.Config{
		Target: u, Game: *gameName, Games: *n, Watchers: *watchers, Computer: *computer, Level: *level,
		ThinkMin: lo, ThinkMax: hi, Duration: *duration, PID: *pid, Progress: stderr, PlayersNice: *nice,
		WatchersNice: *watchersNice,
	}
	if !*here {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintf(stderr, "bretter loadtest: finding this program for the watchers' process: %v\n", err)
			return 1
		}
		cfg.WatchersApart = func() *exec.Cmd {
			cmd := exec.Command(exe, "loadtest-watchers", "-nice", strconv.Itoa(*watchersNice), u.String())
			cmd.Stderr = stderr
			return cmd
		}
	}
	report, err := loadtest.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "bretter loadtest: %v\n", err)
		return 1
	}
	if *asJSON {
		if err := report.WriteJSON(stdout); err != nil {
			fmt.Fprintf(stderr, "bretter loadtest: %v\n", err)
			return 1
		}
	} else {
		report.WriteText(stdout)
	}
	if report.Errors > 0 {
		return 1
	}
	return 0
}

var errNotLoopback = errors.New("only a loopback address is allowed (127.0.0.1, ::1 or localhost)")

// loadtestWatchers is the process that holds the watchers of a load
// test, started by loadtest itself: it speaks to it on stdin and stdout.
func loadtestWatchers(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest-watchers", flag.ContinueOnError)
	fs.SetOutput(stderr)
	nice := fs.Int("nice", 0, "the niceness to run at, -20 to 19")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *nice < -20 || *nice > 19 {
		fmt.Fprintln(stderr, "usage: bretter loadtest-watchers [-nice N] URL (started by bretter loadtest)")
		return 2
	}
	u, err := loadtest.Target(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "bretter loadtest-watchers: %v\n", err)
		return 2
	}
	if *nice != 0 {
		if err := loadtest.Renice(*nice); err != nil {
			fmt.Fprintf(stderr, "bretter loadtest-watchers: %v\n", err)
			return 1
		}
	}
	if _, err := raiseFileLimit(); err != nil {
		fmt.Fprintf(stderr, "bretter loadtest-watchers: raising the limit of open files: %v\n", err)
	}
	if err := loadtest.ServeWatchers(u, stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "bretter loadtest-watchers: %v\n", err)
		return 1
	}
	return 0
}

// lockedWriter lets two writers share w, one write at a time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// maxFloorPairs keeps the floor's connections within what one address
// can open to another: each pair takes two of the ephemeral ports.
const maxFloorPairs = 14000

// loadtestFloor measures how long a move's way takes on this machine
// without a site: what the machine itself adds at that pace.
func loadtestFloor(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest-floor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pairs := fs.Int("pairs", 1, "pairs of connections, each as a game's two players")
	think := fs.String("think", "100ms", "the quiet before each message, as a player's thinking: a range MIN-MAX or one duration")
	duration := fs.Duration("duration", time.Minute, "how long to measure")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "bretter loadtest-floor: "+format+"\n", a...)
		return 2
	}
	lo, hi, err := loadtest.ParseThink(*think)
	switch {
	case fs.NArg() > 0:
		return bad("unexpected argument %q", fs.Arg(0))
	case err != nil:
		return bad("-think: %v", err)
	case lo <= 0:
		return bad("-think must be positive")
	case *duration < hi:
		return bad("-duration must be at least -think")
	case *pairs < 1 || *pairs > maxFloorPairs:
		return bad("-pairs must be from 1 to %d", maxFloorPairs)
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "bretter loadtest-floor: finding this program for the relay: %v\n", err)
		return 1
	}
	relay := exec.Command(exe, "loadtest-relay")
	relay.Stderr = stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	report, err := loadtest.Floor(ctx, loadtest.FloorConfig{Pairs: *pairs, ThinkMin: lo, ThinkMax: hi, Duration: *duration}, relay)
	if err != nil {
		fmt.Fprintf(stderr, "bretter loadtest-floor: %v\n", err)
		return 1
	}
	if !*asJSON {
		report.WriteText(stdout)
	} else if err := report.WriteJSON(stdout); err != nil {
		fmt.Fprintf(stderr, "bretter loadtest-floor: %v\n", err)
		return 1
	}
	return 0
}

// loadtestRelay is the relay of loadtest-floor, started by it.
func loadtestRelay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprintln(stderr, "usage: bretter loadtest-relay (started by bretter loadtest-floor)")
		return 2
	}
	if err := loadtest.ServeRelay(stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "bretter loadtest-relay: %v\n", err)
		return 1
	}
	return 0
}
