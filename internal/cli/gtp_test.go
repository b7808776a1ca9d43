package cli

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// gtpSession runs commands through `bretter gtp` with args and returns the
// responses.
func gtpSession(t *testing.T, commands string, args ...string) string {
	t.Helper()
	out, code := runCmd(t, commands, append([]string{"gtp"}, args...)...)
	if code != 0 {
		t.Fatalf("gtp %v exited %d: %s", args, code, out)
	}
	return out
}

func TestGTPTranscript(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"identity", "protocol_version\nname\n7 known_command genmove\nknown_command frobnicate",
			"= 2\n\n= bretter\n\n=7 true\n\n= false"},
		{"unknown command", "frobnicate\n12 frobnicate e5\n",
			"? unknown command\n\n?12 unknown command"},
		{"comments and blank lines", "# a comment\n\n  \t\nname # trailing\n",
			"= bretter"},
		{"bad boardsize", "boardsize 11\nboardsize 3\nboardsize x\nboardsize\n3 boardsize 4",
			"? unacceptable size: the side must be between 4 and 10\n\n" +
				"? unacceptable size: the side must be between 4 and 10\n\n" +
				"? syntax error: boardsize needs one number\n\n" +
				"? syntax error: boardsize needs one number\n\n=3"},
		{"moves", "boardsize 4\nplay w d4\nplay black a1\nplay WHITE g7",
			"=\n\n=\n\n=\n\n="},
		{"occupied cell", "boardsize 4\nplay w d4\n5 play b d4",
			"=\n\n=\n\n?5 illegal move d4: the cell is taken"},
		{"off the board and malformed", "boardsize 4\nplay w a5\nplay w zz\nplay w\nplay x a1",
			"=\n\n? illegal move \"a5\": not on a board of side 4\n\n" +
				"? illegal move \"zz\": not a cell (a letter and a number, like e5)\n\n" +
				"? syntax error: play needs a colour and a move\n\n" +
				"? syntax error: \"x\" is not a colour (w, b, white, black)"},
		{"wrong colour", "boardsize 4\nplay b d4\nplay w d4\nplay w a1\ngenmove w",
			"=\n\n? wrong colour: white is to move\n\n=\n\n? wrong colour: black is to move\n\n" +
				"? wrong colour: black is to move"},
		{"swap", "boardsize 4\nplay w d4\nplay b swap",
			"=\n\n=\n\n? illegal move swap: this game is played without the swap rule"},
		{"game over", "boardsize 4\nplay w b1\nplay b e5\nplay w c1\nplay b e6\nplay w a1\nplay b f5\nplay w d1\n" +
			"genmove b\nplay b a4\nundo\nplay w b2\nplay b resign\ngenmove w\nundo\nplay b b3",
			strings.Repeat("=\n\n", 8) +
				"? game is over: bridge\n\n? game is over: bridge\n\n=\n\n=\n\n=\n\n" +
				"? game is over: black resigned\n\n=\n\n="},
		{"undo", "boardsize 4\nundo\nplay w d4\nundo\nplay w a1\nundo\nundo",
			"=\n\n? cannot undo: no move was played\n\n=\n\n=\n\n=\n\n=\n\n? cannot undo: no move was played"},
		{"time", "time_settings 60 0 0\ntime_left w 30.5 0\ntime_settings 1 2\ntime_left red 3 0\ntime_left b -1 0",
			"=\n\n=\n\n? syntax error: time_settings needs main time, byo-yomi time and stones\n\n" +
				"? syntax error: \"red\" is not a colour (w, b, white, black)\n\n" +
				"? syntax error: times are seconds, 0 or more"},
		{"quit ends the session", "name\nquit\nname", "= bretter\n\n="},
		{"an id alone", "42", "?42 missing command"},
	}
	for _, tt := range tests {
		got := gtpSession(t, tt.in, "-playouts", "50")
		if got := trimGTP(got); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// trimGTP drops the space after = or ? in responses without text, so that
// the tables above stay readable.
func trimGTP(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func TestGTPGenmove(t *testing.T) {
	got := gtpSession(t, "boardsize 4\nplay w d4\n12 genmove b\nshowboard\ngenmove w\nundo\nundo\nshowboard",
		"-playouts", "200", "-seed", "3")
	blocks := strings.Split(got, "\n\n")
	if len(blocks) != 8 {
		t.Fatalf("want 8 responses, got %q", got)
	}
	reply, ok := strings.CutPrefix(blocks[2], "=12 ")
	if !ok || len(reply) < 2 || len(reply) > 3 {
		t.Fatalf("genmove: %q", blocks[2])
	}
	if !strings.Contains(blocks[3], "[@]") || strings.Count(blocks[3], "O") != 1 {
		t.Errorf("board after genmove:\n%s", blocks[3])
	}
	if strings.Count(blocks[7], "@") != 0 || strings.Count(blocks[7], "O") != 1 {
		t.Errorf("board after two undos:\n%s", blocks[7])
	}
	// The same seed and budget give the same move.
	again := gtpSession(t, "boardsize 4\nplay w d4\n12 genmove b", "-playouts", "200", "-seed", "3")
	if !strings.HasSuffix(again, blocks[2]) {
		t.Errorf("same seed, other move: %q then %q", blocks[2], again)
	}
}

// Without a budget on the command line genmove thinks at the default
// level, then for what the clock allows once the controller tells it.
func TestGTPGenmoveByClock(t *testing.T) {
	got := trimGTP(gtpSession(t, "boardsize 4\ngenmove w\ntime_settings 0 0.1 1\ngenmove b\ntime_left w 0.2 0\ngenmove w\nundo"))
	r := regexp.MustCompile(`^=\n\n= [a-g][1-7]\n\n=\n\n= [a-g][1-7]\n\n=\n\n= [a-g][1-7]\n\n=$`)
	if !r.MatchString(got) {
		t.Fatalf("got %q", got)
	}
}

// A side that has lost by force resigns instead of playing on.
func TestGTPResigns(t *testing.T) {
	// White threatens two bridges, a1–a4 at a3 and a1–d1 at c1; Black can
	// block only one and has no win of its own.
	moves := "boardsize 4\nplay w a1\nplay b e5\nplay w a2\nplay b f5\nplay w a4\nplay b e6\n" +
		"play w b1\nplay b d5\nplay w d1\ngenmove b\ngenmove b\nundo\ngenmove b"
	got := trimGTP(gtpSession(t, moves, "-playouts", "500"))
	want := strings.Repeat("=\n\n", 10) + "= resign\n\n? game is over: black resigned\n\n=\n\n= resign"
	if got != want {
		t.Fatalf("genmove in a lost position:\n got %q\nwant %q", got, want)
	}
}

func TestGTPFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-level", "2", "-playouts", "5"},
		{"-size", "3"},
		{"-level", "9"},
		{"-level", "0"},
		{"-playouts", "0"},
		{"-movetime", "0s"},
		{"extra"},
	} {
		if _, code := runCmd(t, "", append([]string{"gtp"}, args...)...); code != 2 {
			t.Errorf("gtp %v: exit %d, want 2", args, code)
		}
	}
	if _, code := runCmd(t, "", "codecup", "dvonn", "-level", "0"); code != 2 {
		t.Errorf("codecup dvonn -level 0: exit %d, want 2", code)
	}
	if _, code := runCmd(t, "", "frobnicate", "-h"); code != 2 {
		t.Errorf("an unknown command with -h: exit %d, want 2", code)
	}
	// An engine command's -h shows the usage, where its flags are told of.
	for _, args := range [][]string{{"gtp", "-h"}, {"match", "-h"}, {"codecup", "dvonn", "-h"}, {"judge", "havannah", "-help"}} {
		if out, code := runCmd(t, "", args...); code != 0 || !strings.Contains(out, "depth:N") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
}

func TestGTPClockBudget(t *testing.T) {
	var c gtpClock
	if c.limited() {
		t.Fatal("no settings yet, but limited")
	}
	if err := c.settings([]string{"0", "0", "0"}); err != nil || c.limited() {
		t.Fatalf("time_settings 0 0 0: %v, limited %v", err, c.limited())
	}
	if err := c.settings([]string{"0", "5", "0"}); err != nil || c.limited() {
		t.Fatalf("byo-yomi without stones means no limit: %v", err)
	}
	if err := c.settings([]string{"0", "2", "1"}); err != nil || !c.limited() {
		t.Fatalf("two seconds a move: %v", err)
	}
	if got := c.budget(0, 100); got > 2e9 || got < 1e9 {
		t.Errorf("two seconds a move: budget %v", got)
	}
	if err := c.settings([]string{"60", "0", "0"}); err != nil {
		t.Fatal(err)
	}
	if got := c.budget(1, 60); got > 6e9 || got < 5e9 {
		t.Errorf("60 s for 10 moves: budget %v", got)
	}
	if err := c.left([]string{"b", "3", "0"}); err != nil {
		t.Fatal(err)
	}
	if got := c.budget(1, 60); got > 3e8 {
		t.Errorf("3 s left: budget %v", got)
	}
	if got := c.budget(0, 60); got < 5e9 {
		t.Errorf("white still has 60 s: budget %v", got)
	}
}

// FuzzGTPLine feeds any line to the command reader and to an engine:
// whatever comes in, the answer is a response, never a crash.
func FuzzGTPLine(f *testing.F) {
	for _, s := range []string{
		"", "name", "12 genmove b", "play w e5", "play b swap", "boardsize 4", "boardsize 99999999999999999999",
		"time_settings 1e400 1 1", "time_left w NaN 0", "\x00\x01play\tw\ta1", "# comment", "1", "-1 name",
		"undo", "showboard", "known_command", "play w resign", "+5 name", "play w z99",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		cmd, ok := parseGTPLine(line)
		if !ok {
			return
		}
		if strings.ContainsAny(cmd.name, " \t\n#") || cmd.id != "" && !isGTPID(cmd.id) {
			t.Fatalf("%q read as %+v", line, cmd)
		}
		e, err := newGTPEngine(gtpFlags{size: 4, playouts: 20, seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := e.exec(context.Background(), cmd); err != nil && err.Error() == "" {
				t.Fatalf("%q: an empty error", line)
			}
		}
	})
}
