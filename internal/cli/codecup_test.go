package cli

import (
	"bufio"
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"bretter/ai"
	"bretter/game"
	"bretter/game/gametest"
	"bretter/games/dvonn"
)

func TestCodecupTranscript(t *testing.T) {
	tests := []struct {
		name, in string
		lines    int // our moves printed
		code     int
	}{
		{"we start", "Start\nQuit\n", 1, 0},
		{"they start", "F5\nQuit\n", 1, 0},
		{"blank lines are skipped", "\nF5\n\nH5\nQuit\n", 2, 0},
		{"quit at once", "Quit\n", 0, 0},
		{"illegal move", "F5\nF5\n", 1, 1},
		{"malformed move", "Start\nZ9\n", 1, 1},
		{"move out of the placement phase", "F5\nA1B1\n", 1, 1},
		{"a second Start", "Start\nStart\n", 1, 1},
		{"input ends mid-game", "Start\n", 1, 1},
	}
	for _, tt := range tests {
		var out, errOut strings.Builder
		code := Run([]string{"codecup", "dvonn", "-level", "1"}, testGames, strings.NewReader(tt.in), &out, &errOut)
		lines := strings.Fields(out.String())
		if code != tt.code || len(lines) != tt.lines {
			t.Errorf("%s: exit %d, moves %q, stderr %q; want exit %d and %d moves", tt.name, code, lines, errOut.String(), tt.code, tt.lines)
		}
		if code == 1 && !strings.HasPrefix(errOut.String(), "bretter codecup: ") {
			t.Errorf("%s: no message on stderr: %q", tt.name, errOut.String())
		}
		for _, l := range lines {
			if _, err := dvonn.ParseMove(l); err != nil || len(l) != 2 {
				t.Errorf("%s: %q is not a placement", tt.name, l)
			}
		}
	}
	for _, args := range [][]string{{"codecup"}, {"codecup", "havannah"}, {"codecup", "dvonn", "-level", "0", "x"}, {"codecup", "dvonn", "-time", "0s"}, {"codecup", "dvonn", "-level", "9"}} {
		if _, code := runCmd(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// A whole game through the protocol against an opponent that plays at
// random: every move we send is legal, passes included, and the game ends.
func TestCodecupWholeGame(t *testing.T) {
	for _, weStart := range []bool{true, false} {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan int, 1)
		var errOut strings.Builder
		go func() {
			done <- Run([]string{"codecup", "dvonn", "-level", "1", "-time", "20s"}, testGames, inR, outW, &errOut)
			outW.Close()
		}()
		us := game.Black
		if weStart {
			us = game.White
			io.WriteString(inW, "Start\n")
		}
		s := dvonn.New()
		rng := rand.New(rand.NewPCG(7, 0))
		ours := bufio.NewScanner(outR)
		passes := 0
		for !s.Outcome().Over {
			var text string
			if s.ToMove() == us {
				if !ours.Scan() {
					t.Fatalf("no move from us at ply %d: %s", s.Ply(), errOut.String())
				}
				text = ours.Text()
			} else {
				legal := s.Legal(nil)
				text = s.FormatMove(legal[rng.IntN(len(legal))])
				io.WriteString(inW, text+"\n")
			}
			if text == "PASS" {
				passes++
			}
			m, err := s.ParseMove(text)
			if err == nil {
				err = s.Play(m)
			}
			if err != nil {
				t.Fatalf("ply %d %q: %v", s.Ply()+1, text, err)
			}
		}
		io.WriteString(inW, "Quit\n")
		if code := <-done; code != 0 {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		if ours.Scan() {
			t.Errorf("a move after the end: %q", ours.Text())
		}
		inW.Close()
		t.Logf("we started: %v, %d plies, %d passes, result %+v", weStart, s.Ply(), passes, s.Outcome())
	}
}

// dvonnCorpusState replays the first n moves of a game of the corpus.
func dvonnCorpusState(t *testing.T, id string, n int) game.State {
	t.Helper()
	for _, row := range gametest.Corpus(t, "dvonn", "games.tsv") {
		if row["id"] != id {
			continue
		}
		s, ply, err := game.Replay(dvonn.Game(), nil, strings.Fields(row["moves"])[:n])
		if err != nil {
			t.Fatalf("%s move %d: %v", id, ply, err)
		}
		return s
	}
	t.Fatalf("no game %s in the corpus", id)
	return nil
}

// When our only move is PASS it is sent at once, and the opponent's PASS
// is read like any move.
func TestCodecupPass(t *testing.T) {
	// In this Little Golem game White passes at plies 70, 72 and 74.
	s := dvonnCorpusState(t, "littlegolem-1", 69)
	cfg, err := codecupConfig(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	g := newCodecupGame(s, cfg, 0) // no time at all: a search would have none
	g.us = game.White
	text, err := g.move(context.Background())
	if err != nil || text != "PASS" {
		t.Fatalf("forced pass: %q, %v", text, err)
	}

	them := newCodecupGame(s, ai.Config{Iterations: 100}, time.Second)
	them.us = game.Black
	if err := them.read("PASS"); err != nil {
		t.Fatalf("the opponent's pass: %v", err)
	}
	if text, err := them.move(context.Background()); err != nil || len(text) != 4 {
		t.Fatalf("our move after a pass: %q, %v", text, err)
	}
	if err := them.read("C2D2"); err == nil {
		t.Fatal("White's stack move while it must pass is taken")
	}
}

func TestCodecupBudget(t *testing.T) {
	g := newCodecupGame(dvonn.New(), ai.Config{}, 5*time.Second)
	first := g.budget()
	if first <= 0 || first > 200*time.Millisecond {
		t.Errorf("first placement: %v", first)
	}
	s := dvonnCorpusState(t, "littlegolem-1", 49)
	g = newCodecupGame(s, ai.Config{}, 5*time.Second)
	g.used = 2 * time.Second
	move := g.budget()
	if move <= first || move > time.Second {
		t.Errorf("first stack move with 2.5 s left: %v (placement %v)", move, first)
	}
	g.used = 10 * time.Second
	if got := g.budget(); got != time.Millisecond {
		t.Errorf("out of time: %v", got)
	}
}

// TestCodecupSearchesWithAlphaBeta: without -level the CodeCup player
// searches as DVONN's tuning says, which is alpha-beta.
func TestCodecupSearchesWithAlphaBeta(t *testing.T) {
	for _, level := range []int{0, 8} {
		cfg, err := codecupConfig(level, 1)
		if err != nil || !cfg.AlphaBeta {
			t.Errorf("level %d: alpha-beta %v, %v", level, cfg.AlphaBeta, err)
		}
	}
}
