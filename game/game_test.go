package game_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"bretter/game"
	"bretter/games/havannah"
)

func TestResolve(t *testing.T) {
	g := havannah.Game()
	for _, tt := range []struct {
		in   game.Options
		want game.Options
		err  string
	}{
		{nil, game.Options{"size": 8, "swap": 0}, ""},
		{game.Options{"size": 4, "swap": 1}, game.Options{"size": 4, "swap": 1}, ""},
		{game.Options{"size": 3}, nil, "option size must be between 4 and 10, not 3"},
		{game.Options{"size": 11}, nil, "between 4 and 10"},
		{game.Options{"swap": 2}, nil, "option swap must be true or false"},
		{game.Options{"colour": 1, "bogus": 2}, nil, "havannah has no option bogus, colour"},
	} {
		got, err := g.Resolve(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Resolve(%v) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Resolve(%v) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestReplay(t *testing.T) {
	s, ply, err := game.Replay(havannah.Game(), game.Options{"size": 4}, strings.Fields("a1 b2 a1 c3"))
	if ply != 3 || err == nil || s.Ply() != 2 {
		t.Fatalf("Replay stopped at move %d with %v after %d moves; want move 3", ply, err, s.Ply())
	}
	if _, ply, err := game.Replay(havannah.Game(), game.Options{"size": 4}, strings.Fields("a1 zz")); ply != 2 || err == nil {
		t.Fatalf("malformed move: %d %v", ply, err)
	}
}

func TestPerftThroughTheInterface(t *testing.T) {
	s, _, _ := havannah.Game().Start(game.Options{"size": 4})
	if got := game.Perft(s, 3); got != 37*36*35 {
		t.Fatalf("perft(3) = %d", got)
	}
}

func TestPlayers(t *testing.T) {
	if game.White.Other() != game.Black || game.Black.Other() != game.White {
		t.Fatal("Other is wrong")
	}
	for _, p := range []game.Player{game.White, game.Black} {
		back, err := game.ParsePlayer(p.String())
		if err != nil || back != p {
			t.Fatalf("%v does not parse back", p)
		}
	}
	if _, err := game.ParsePlayer("red"); err == nil {
		t.Fatal("red is a player")
	}
}

// Every engine words its refusals through these, so callers can both
// branch on the sentinel and show one kind of sentence.
func TestRefusals(t *testing.T) {
	for _, tt := range []struct {
		err  error
		is   error
		want string
	}{
		{game.Illegal("d4", game.Because("x.taken", "the cell is taken")), game.ErrIllegalMove, "illegal move d4: the cell is taken"},
		{game.Malformed("z z", game.Because("x.side", "not on a board of side {side}", "side", 8)), game.ErrNotation, `malformed move "z z": not on a board of side 8`},
		{game.AfterEnd("C3D4"), game.ErrGameOver, "game is over: C3D4 comes after the end"},
	} {
		if !errors.Is(tt.err, tt.is) || tt.err.Error() != tt.want {
			t.Errorf("%v: want %q wrapping %v", tt.err, tt.want, tt.is)
		}
		if rs, ok := game.Reasons(tt.err); !ok || len(rs) != 2 || rs[0].Key == "" || rs[1].Key == "" {
			t.Errorf("%v: reasons %+v, %v", tt.err, rs, ok)
		}
	}
}

// A refusal behind another keeps both reasons, in order, and both kinds;
// a plain error anywhere in the chain makes the list incomplete.
func TestReasonsOfAChain(t *testing.T) {
	inner := game.Illegal("c3", game.Because("x.taken", "the cell is taken"))
	outer := &game.Refusal{Err: game.ErrRecord, Reason: game.Because("record.move", "move {ply}", "ply", 3), Cause: inner}
	if want := "bad record: move 3: illegal move c3: the cell is taken"; outer.Error() != want {
		t.Errorf("%q, want %q", outer.Error(), want)
	}
	if !errors.Is(outer, game.ErrRecord) || !errors.Is(outer, game.ErrIllegalMove) {
		t.Error("the chain lost a kind")
	}
	rs, ok := game.Reasons(outer)
	if !ok || len(rs) != 3 || rs[0].Key != "record.move" || rs[1].String() != "illegal move c3" || rs[2].Key != "x.taken" || rs[0].Args[0] != (game.Arg{Name: "ply", Value: "3"}) {
		t.Errorf("reasons %+v, %v", rs, ok)
	}
	plain := &game.Refusal{Err: game.ErrRecord, Reason: game.Because("record.line", "line {line}", "line", 2), Cause: errors.New("something else")}
	if _, ok := game.Reasons(plain); ok {
		t.Error("a chain ending in a plain error counted as complete")
	}
	if _, ok := game.Reasons(fmt.Errorf("context: %w", inner)); ok {
		t.Error("a refusal wrapped in a plain error counted as complete")
	}
}

// A reply is remembered from a won rollout, forgotten after a lost one,
// and kept when the loser had answered otherwise.
func TestRepliesKeepTheLastGoodOne(t *testing.T) {
	r := game.NewReplies(10)
	if got := r.Reply(game.White, 3); got != -1 {
		t.Fatalf("empty memory replies %d, want -1", got)
	}
	r.Learn(game.White, 3, 7, true)
	if got := r.Reply(game.White, 3); got != 7 {
		t.Fatalf("after a win with 7: reply %d", got)
	}
	if got := r.Reply(game.Black, 3); got != -1 {
		t.Fatalf("Black learnt White's reply: %d", got)
	}
	r.Learn(game.White, 3, 5, false)
	if got := r.Reply(game.White, 3); got != 7 {
		t.Fatalf("a lost rollout with another reply changed it: %d", got)
	}
	r.Learn(game.White, 3, 7, false)
	if got := r.Reply(game.White, 3); got != -1 {
		t.Fatalf("a lost rollout with 7 kept it: %d", got)
	}
	r.Learn(game.Black, 0, 0, true)
	if got := r.Reply(game.Black, 0); got != 0 {
		t.Fatalf("move index 0 as a reply: %d", got)
	}
}
