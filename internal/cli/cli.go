// Package cli is the bretter command line: it parses the arguments and runs
// the site or one of the engine commands.
package cli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"bretter/game"
)

const usage = `usage:
  bretter [serve] [-addr HOST:PORT] [-db FILE] [-sync disk|os] [-debug-addr HOST:PORT]
                                                 run the site (default localhost:8080, bretter.db);
                                                 -sync os: a move is stored once the system has it, not the disk;
                                                 -debug-addr serves the Go profiler on a loopback address
  bretter judge GAME [options] < moves           judge a move list, print JSON (optional rules allowed)
  bretter perft GAME -depth D [options] < moves  count legal move sequences
  bretter gtp [-size N] [-swap] [-level L | -movetime D | -playouts N] [-seed S]
                                                 play Havannah over GTP version 2 on stdin/stdout
  bretter codecup dvonn [-time D] [-level L] [-seed S]
                                                 play one DVONN game in the CodeCup protocol on stdin/stdout
  bretter match -game G -a SPEC -b SPEC [-games N] [-concurrency K] [-size N] [-seed S] [-v]
          [-time-per-move D] [-gtp-time-command CMD]
                                                 play games between two players and report the score and Elo
        SPEC: level:L, iter:N, depth:N (DVONN) or time:D (our search, per move), greedy (the move that
        captures most; DVONN, Fanorona), gtp:COMMAND (Havannah), codecup:COMMAND (DVONN);
        -time-per-move is sent to gtp programs with CMD
        (default "time_settings 0 {s} 1", {s} being seconds; for Castro "time -m {s} -g 0 -f 0")
  bretter loadtest -url URL [-games N] [-watchers W] [-think 2s-10s] [-duration D] [-json] [-pid P] [-game G]
          [-computer N] [-level L] [-players-nice N] [-watchers-nice N]
                                                 play N games at once against a site on this machine, each
                                                 player from its own loopback address; print moves/s, the
                                                 latency from a move to the opponent's and the watchers'
                                                 sockets, errors, and the server's CPU and memory; the
                                                 watchers are held by a second process of its own,
                                                 bretter loadtest-watchers (-watchers-here: by this one);
                                                 -players-nice -10 gives the players a core first
                                                 and -watchers-nice 19 leaves the watchers only what is left;
                                                 -computer N plays N games against the computer beside them
  bretter loadtest-floor [-pairs 1] [-think 100ms] [-duration D] [-json]
                                                 the same latency with no site: through a relay that does
                                                 nothing but pass a message on, in a process of its own
                                                 (bretter loadtest-relay): from one of each of -pairs
                                                 pairs of connections every -think, to both of the pair
  bretter help                                   show this text

Games and their options:
`

// Run runs the command named in args and returns the exit status.
func Run(args []string, games []game.Game, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	// The engine commands' flags are told of here, in the usage.
	if slices.Contains([]string{"judge", "perft", "gtp", "codecup", "match"}, cmd) && slices.ContainsFunc(args, isHelp) {
		printUsage(stdout, games)
		return 0
	}
	switch cmd {
	case "serve":
		return serve(args, games, stderr)
	case "judge":
		return judge(args, games, stdin, stdout, stderr)
	case "perft":
		return perft(args, games, stdin, stdout, stderr)
	case "gtp":
		return gtp(args, stdin, stdout, stderr)
	case "codecup":
		return codecup(args, stdin, stdout, stderr)
	case "match":
		return match(args, games, stdout, stderr)
	case "loadtest":
		return loadtestCmd(args, games, stdout, stderr)
	case "loadtest-watchers":
		return loadtestWatchers(args, stdin, stdout, stderr)
	case "loadtest-floor":
		return loadtestFloor(args, stdout, stderr)
	case "loadtest-relay":
		return loadtestRelay(args, stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		printUsage(stdout, games)
		return 0
	}
	fmt.Fprintf(stderr, "bretter: unknown command %q\n", cmd)
	printUsage(stderr, games)
	return 2
}

func printUsage(w io.Writer, games []game.Game) {
	fmt.Fprint(w, usage)
	for _, g := range games {
		fmt.Fprintf(w, "  %s", g.Name)
		for _, o := range g.Options {
			if o.Bool {
				fmt.Fprintf(w, " [-%s]", o.Name)
			} else {
				fmt.Fprintf(w, " [-%s %d..%d, default %d]", o.Name, o.Min, o.Max, o.Default)
			}
		}
		fmt.Fprintln(w)
	}
}

func findGame(games []game.Game, name string) (game.Game, bool) {
	for _, g := range games {
		if g.Name == name {
			return g, true
		}
	}
	return game.Game{}, false
}

func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// given reports whether the flag name was set on the command line, even
// to its default.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
