package cli

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"bretter/game"
)

// The test binary doubles as the outside programs of a match: with
// BRETTER_TEST_PROGRAM set it is bretter itself ("cli") or a GTP program
// that always answers a1 ("a1"), and never runs the tests.
//
// Started as "loadtest-watchers", it is the watchers' process of a load
// test run by the tests.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && (os.Args[1] == "loadtest-watchers" || os.Args[1] == "loadtest-relay") {
		os.Exit(Run(os.Args[1:], testGames, os.Stdin, os.Stdout, os.Stderr))
	}
	switch os.Getenv("BRETTER_TEST_PROGRAM") {
	case "cli":
		os.Exit(Run(os.Args[1:], testGames, os.Stdin, os.Stdout, os.Stderr))
	case "flood": // answers every command with lines that never end
		for {
			fmt.Print("= y\n")
		}
	case "mute": // answers all but genmove
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			if !strings.HasPrefix(sc.Text(), "genmove") {
				fmt.Print("=\n\n")
			}
		}
		os.Exit(0)
	case "a1":
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			switch {
			case strings.HasPrefix(sc.Text(), "genmove"):
				fmt.Print("= a1\n\n")
			case sc.Text() == "quit":
				fmt.Print("=\n\n")
				os.Exit(0)
			default:
				fmt.Print("=\n\n")
			}
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var (
	gameLine  = regexp.MustCompile(`^game (\d+): a (white|black), b (white|black): (a wins|b wins|draw) \((.+)\) after (\d+) plies; thinking a \d+\.\ds, b \d+\.\ds$`)
	movesLine = regexp.MustCompile(`^  moves: (.*)$`)
	scoreLine = regexp.MustCompile(`^a: (\d+) wins, (\d+) losses, (\d+) draws, score \d+\.\d%$`)
	eloLine   = regexp.MustCompile(`^elo a-b: [+-]\d+, 95% interval \[[+-]\d+, [+-]\d+\]$`)
)

// checkMatch checks the report of a match of n games played with -v: the
// form of every line, alternating colours, and moves that replay to the
// result reported.
func checkMatch(t *testing.T, out string, g game.Game, opts game.Options, n int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != 2*n+3 {
		t.Fatalf("want %d lines, got:\n%s", 2*n+3, out)
	}
	for i := range n {
		m := gameLine.FindStringSubmatch(lines[2*i])
		if m == nil || m[1] != fmt.Sprint(i+1) || (m[2] == "white") != (i%2 == 0) || m[2] == m[3] {
			t.Fatalf("game line %q", lines[2*i])
		}
		mv := movesLine.FindStringSubmatch(lines[2*i+1])
		if mv == nil {
			t.Fatalf("moves line %q", lines[2*i+1])
		}
		moves := strings.Fields(mv[1])
		if m[6] != fmt.Sprint(len(moves)) {
			t.Errorf("%s: %d moves listed", lines[2*i], len(moves))
		}
		s, ply, err := game.Replay(g, opts, moves)
		if err != nil {
			t.Fatalf("game %d move %d: %v", i+1, ply, err)
		}
		if out := s.Outcome(); out.Over && out.Reason != m[5] {
			t.Errorf("game %d ended by %s, reported %q", i+1, out.Reason, m[5])
		}
	}
	if !strings.HasPrefix(lines[2*n], "a ") || scoreLine.FindString(lines[2*n+1]) == "" || eloLine.FindString(lines[2*n+2]) == "" {
		t.Errorf("summary:\n%s", strings.Join(lines[2*n:], "\n"))
	}
}

func TestMatchLevels(t *testing.T) {
	for _, tt := range []struct {
		game game.Game
		args []string
		opts game.Options
	}{
		{testGames[0], []string{"-size", "4"}, game.Options{"size": 4}},
		{testGames[1], nil, nil},
		{testGames[2], nil, nil},
	} {
		args := append([]string{"match", "-game", tt.game.Name, "-a", "level:1", "-b", "level:2", "-games", "2", "-concurrency", "2", "-v"}, tt.args...)
		out, code := runCmd(t, "", args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, out)
		}
		checkMatch(t, out, tt.game, tt.opts, 2)
	}
}

// DVONN's alpha-beta can be bounded by depth instead of positions.
func TestMatchDepth(t *testing.T) {
	out, code := runCmd(t, "", "match", "-game", "dvonn", "-a", "depth:2", "-b", "depth:1", "-games", "2", "-v")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	checkMatch(t, out, testGames[1], nil, 2)
}

// The same seed plays the same games when the budgets are iterations;
// another seed plays others.
func TestMatchSeed(t *testing.T) {
	thinking := regexp.MustCompile(`; thinking .*`)
	play := func(seed string) string {
		out, code := runCmd(t, "", "match", "-game", "havannah", "-size", "5", "-a", "iter:100", "-b", "iter:100",
			"-games", "3", "-concurrency", "3", "-seed", seed, "-v")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, out)
		}
		return thinking.ReplaceAllString(out, "")
	}
	first, again, other := play("5"), play("5"), play("6")
	if first != again {
		t.Errorf("same seed, other games:\n%s\n---\n%s", first, again)
	}
	if first == other {
		t.Errorf("another seed, the same games:\n%s", first)
	}
}

func TestMatchOutsidePrograms(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("BRETTER_TEST_PROGRAM", "cli")
	out, code := runCmd(t, "", "match", "-game", "havannah", "-size", "4", "-a", "level:1",
		"-b", "gtp:"+self+" gtp -playouts 50", "-games", "2", "-time-per-move", "1s", "-v")
	if code != 0 || strings.Contains(out, "failed") {
		t.Fatalf("gtp program: exit %d\n%s", code, out)
	}
	checkMatch(t, out, testGames[0], game.Options{"size": 4}, 2)

	out, code = runCmd(t, "", "match", "-game", "dvonn", "-a", "codecup:"+self+" codecup dvonn -level 1",
		"-b", "level:1", "-games", "2", "-v")
	if code != 0 || strings.Contains(out, "failed") {
		t.Fatalf("codecup program: exit %d\n%s", code, out)
	}
	checkMatch(t, out, testGames[1], nil, 2)

	// A program that plays an occupied cell loses the game, and the report
	// says why.
	t.Setenv("BRETTER_TEST_PROGRAM", "a1")
	out, code = runCmd(t, "", "match", "-game", "havannah", "-size", "4", "-a", "gtp:"+self, "-b", "level:1", "-games", "2")
	if code != 0 || !strings.Contains(out, `game 1: a white, b black: b wins (a played "a1": illegal move a1: the cell is taken)`) ||
		!strings.Contains(out, "a: 0 wins, 2 losses, 0 draws, score 0.0%") {
		t.Fatalf("illegal moves: exit %d\n%s", code, out)
	}
}

// A program that floods its answer, or never answers, loses its games;
// the match neither hangs nor keeps what it wrote.
func TestMatchMisbehavingPrograms(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for program, why := range map[string]string{"flood": "boardsize 4: an answer of more than 1000 lines", "mute": "genmove white: the program wrote nothing for 10.3s"} {
		t.Setenv("BRETTER_TEST_PROGRAM", program)
		out, _ := runCmd(t, "", "match", "-game", "havannah", "-size", "4", "-a", "gtp:"+self, "-b", "level:1", "-games", "1", "-time-per-move", "100ms")
		if !strings.Contains(out, why) {
			t.Errorf("%s: %s", program, out)
		}
	}
}

func TestMatchFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-game", "chess", "-a", "level:1", "-b", "level:2"},
		{"-game", "dvonn", "-a", "level:1"},
		{"-game", "dvonn", "-a", "level:9", "-b", "level:1"},
		{"-game", "dvonn", "-a", "iter:x", "-b", "level:1"},
		{"-game", "dvonn", "-a", "time:-1s", "-b", "level:1"},
		{"-game", "dvonn", "-a", "depth:0", "-b", "level:1"},
		{"-game", "havannah", "-a", "depth:3", "-b", "level:1"},
		{"-game", "dvonn", "-a", "gtp:castro", "-b", "level:1"},
		{"-game", "havannah", "-a", "gtp:/nonexistent/program", "-b", "level:1"},
		{"-game", "havannah", "-a", "codecup:sh", "-b", "level:1"},
		{"-game", "havannah", "-a", "elo:1", "-b", "level:1"},
		{"-game", "dvonn", "-size", "5", "-a", "level:1", "-b", "level:1"},
		{"-game", "dvonn", "-a", "level:1", "-b", "level:1", "-games", "0"},
		{"-game", "dvonn", "-a", "level:1", "-b", "level:1", "extra"},
	} {
		if out, code := runCmd(t, "", append([]string{"match"}, args...)...); code != 2 {
			t.Errorf("match %v: exit %d\n%s", args, code, out)
		}
	}
}
