// Package gametest is the one test every rules engine must pass. It plays
// random games and checks what the rest of the code relies on: clones are
// equal and independent, every legal move survives a trip through the
// notation, illegal moves change nothing, replaying the moves rebuilds the
// same state, and the outcome is stable.
package gametest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"bretter/game"
)

// MaxPlies stops a random game that has not ended by then; the checks still
// ran on every position it reached.
const MaxPlies = 5000

// Check plays the given number of random games from newState.
func Check(t *testing.T, newState func() game.State, games int) {
	t.Helper()
	for _, text := range []string{"", "?", "not a move"} {
		_, err := newState().ParseMove(text)
		if !errors.Is(err, game.ErrNotation) || !strings.HasPrefix(err.Error(), fmt.Sprintf("malformed move %q: ", text)) {
			t.Errorf("ParseMove(%q) = %v, want ErrNotation worded by game.Malformed", text, err)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range games {
		if !checkGame(t, newState, rng) {
			t.Fatalf("random game %d failed", i+1)
		}
	}
}

func checkGame(t *testing.T, newState func() game.State, rng *rand.Rand) bool {
	t.Helper()
	s := newState()
	var played []game.Move
	var seen []game.Move // moves legal somewhere earlier in the game
	var buf []game.Move
	for s.Ply() < MaxPlies {
		if s.Ply() != len(played) {
			t.Errorf("Ply() = %d after %d moves", s.Ply(), len(played))
			return false
		}
		buf = s.Legal(buf[:0])
		out := s.Outcome()
		if out.Over {
			if len(buf) != 0 {
				t.Errorf("after %d moves the game is over (%+v) but %d moves are legal", len(played), out, len(buf))
				return false
			}
			break
		}
		if len(buf) == 0 {
			t.Errorf("after %d moves the game is not over but no move is legal", len(played))
			return false
		}
		if !checkPosition(t, s, buf, seen) {
			return false
		}
		m := buf[rng.IntN(len(buf))]
		seen = remember(seen, buf, rng)
		if err := s.Play(m); err != nil {
			t.Errorf("legal move %s refused: %v", s.FormatMove(m), err)
			return false
		}
		played = append(played, m)
	}
	return checkEnd(t, s, newState, played, seen)
}

// checkPosition checks one position that is not over, with its legal moves.
func checkPosition(t *testing.T, s game.State, legal, seen []game.Move) bool {
	t.Helper()
	c := s.Clone()
	if !reflect.DeepEqual(c, s) {
		t.Errorf("after %d moves a clone differs from the original", s.Ply())
		return false
	}
	isLegal := make(map[game.Move]bool, len(legal))
	for _, m := range legal {
		if isLegal[m] {
			t.Errorf("after %d moves %s is listed twice", s.Ply(), s.FormatMove(m))
			return false
		}
		isLegal[m] = true
		text := s.FormatMove(m)
		back, err := s.ParseMove(text)
		if err != nil || back != m {
			t.Errorf("after %d moves %q does not parse back to itself: %v, %v", s.Ply(), text, back, err)
			return false
		}
	}
	// A move played on the clone must not reach the original.
	before := s.Clone()
	if err := c.Play(legal[0]); err != nil {
		t.Errorf("clone refused legal move %s: %v", s.FormatMove(legal[0]), err)
		return false
	}
	if !reflect.DeepEqual(before, s) {
		t.Errorf("after %d moves playing on a clone changed the original", s.Ply())
		return false
	}
	// Moves that were legal earlier but are not now must be refused and
	// change nothing.
	tried := 0
	for _, m := range seen {
		if isLegal[m] {
			continue
		}
		err := s.Play(m)
		if !errors.Is(err, game.ErrIllegalMove) || !strings.HasPrefix(err.Error(), "illegal move "+s.FormatMove(m)+": ") {
			t.Errorf("after %d moves illegal move %s gave %v, want ErrIllegalMove worded by game.Illegal", s.Ply(), s.FormatMove(m), err)
			return false
		}
		tried++
	}
	if tried > 0 && !reflect.DeepEqual(before, s) {
		t.Errorf("after %d moves a refused move changed the state", s.Ply())
		return false
	}
	return true
}

// checkEnd checks the final state of a game: its outcome is stable, moves
// are refused, and replaying the moves rebuilds it.
func checkEnd(t *testing.T, s game.State, newState func() game.State, played, seen []game.Move) bool {
	t.Helper()
	out := s.Outcome()
	if out.Over {
		if out.Winner != game.White && out.Winner != game.Black && out.Winner != game.Nobody {
			t.Errorf("outcome %+v has no valid winner", out)
			return false
		}
		if out.Reason == "" {
			t.Errorf("outcome %+v has no reason", out)
			return false
		}
		before := s.Clone()
		for _, m := range seen {
			if err := s.Play(m); !errors.Is(err, game.ErrGameOver) || err.Error() != game.AfterEnd(s.FormatMove(m)).Error() {
				t.Errorf("move %s after the end gave %v, want ErrGameOver worded by game.AfterEnd", s.FormatMove(m), err)
				return false
			}
		}
		if !reflect.DeepEqual(before, s) {
			t.Errorf("moves refused after the end changed the state")
			return false
		}
	}
	r := newState()
	for i, m := range played {
		if err := r.Play(m); err != nil {
			t.Errorf("replaying move %d %s: %v", i+1, r.FormatMove(m), err)
			return false
		}
	}
	if !reflect.DeepEqual(r, s) {
		t.Errorf("replaying %d moves does not rebuild the same state", len(played))
		return false
	}
	if r.Outcome() != out || s.Outcome() != out || s.Clone().Outcome() != out {
		t.Errorf("outcome is not stable: %+v, then %+v", out, r.Outcome())
		return false
	}
	return true
}

// remember keeps a bounded random sample of the moves seen in a game, so
// that later positions can be offered moves that are no longer legal.
func remember(seen, legal []game.Move, rng *rand.Rand) []game.Move {
	const keep = 64
	for _, m := range legal {
		if len(seen) < keep {
			seen = append(seen, m)
		} else if rng.IntN(4) == 0 {
			seen[rng.IntN(keep)] = m
		}
	}
	return seen
}
