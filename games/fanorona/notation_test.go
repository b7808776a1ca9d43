package fanorona

import (
	"errors"
	"strings"
	"testing"

	"bretter/game"
)

func TestParseMove(t *testing.T) {
	good := []string{
		"d2-e3",
		"d3-e3W",
		"d3-e3A",
		"e4-e3A-f4W",
		"a1-b1A-b2A-c1W",
		"i5-h4",
		"c1-b2A",
	}
	s := New()
	for _, text := range good {
		m, err := s.ParseMove(text)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", text, err)
			continue
		}
		if back := s.FormatMove(m); back != text {
			t.Errorf("ParseMove(%q) formats back as %q", text, back)
		}
	}
	if m, _ := s.ParseMove("d2-e3"); !isPaika(m) {
		t.Error("d2-e3 is not read as a paika")
	}
	if m, _ := s.ParseMove("d3-e3W"); isPaika(m) {
		t.Error("d3-e3W is read as a paika")
	}

	bad := []struct{ text, reason string }{
		{"", `"" is not a point from a1 to i5`},
		{"d2", "a turn needs at least one step, as in d2-e3"},
		{"d2-", `"" is not a point from a1 to i5`},
		{"j1-i1", `"j1" is not a point from a1 to i5`},
		{"a0-a1", `"a0" is not a point from a1 to i5`},
		{"a6-a5", `"a6" is not a point from a1 to i5`},
		{"D2-e3", `"D2" is not a point from a1 to i5`},
		{"a1-a3", "a1 and a3 are not neighbours on a line"},
		{"a1-a1", "a1 and a1 are not neighbours on a line"},
		{"b1-c2", "b1 and c2 are not neighbours on a line"},
		{"a2-b3A", "a2 and b3 are not neighbours on a line"},
		{"d3-e3X", `"X" is not A (approach) or W (withdrawal)`},
		{"d3-e3a", `"a" is not A (approach) or W (withdrawal)`},
		{"d3-e3AW", `"AW" is not A (approach) or W (withdrawal)`},
		{"e4-e3A-f4", "step e3-f4 of a capture chain needs A (approach) or W (withdrawal)"},
		{"e4-e3-f4W", "step e4-e3 of a capture chain needs A (approach) or W (withdrawal)"},
		{" d2-e3", `" d2" is not a point from a1 to i5`},
		{"d2-e3 ", `" " is not A (approach) or W (withdrawal)`},
		{"d2--e3", `"" is not a point from a1 to i5`},
		{chain(23), "more than 22 steps"},
	}
	for _, tt := range bad {
		_, err := s.ParseMove(tt.text)
		if !errors.Is(err, game.ErrNotation) || !strings.HasSuffix(err.Error(), ": "+tt.reason) {
			t.Errorf("ParseMove(%q) = %v, want %q", tt.text, err, tt.reason)
		}
	}
}

// chain writes a capture chain of n steps back and forth between a1 and
// b1: well formed, though far from legal.
func chain(n int) string {
	b := []byte("a1")
	for i := range n {
		b = append(b, "-b1A-a1W"[4*(i%2):4*(i%2)+4]...)
	}
	return string(b)
}

// TestLongChain checks that the longest possible chain fits in a move.
func TestLongChain(t *testing.T) {
	s := New()
	text := chain(maxSteps)
	m, err := s.ParseMove(text)
	if err != nil {
		t.Fatal(err)
	}
	if moveLen(m) != maxSteps || s.FormatMove(m) != text {
		t.Errorf("%d steps, formats as %q", moveLen(m), s.FormatMove(m))
	}
	for i := range maxSteps {
		if d, w := moveStep(m, i); d != [2]int{east, west}[i%2] || w != (i%2 == 1) {
			t.Errorf("step %d is %s, withdrawal %v", i, dirNames[d], w)
		}
	}
	if err := s.Play(m); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("Play: %v", err)
	}
}

func FuzzParseMove(f *testing.F) {
	for _, seed := range []string{"d2-e3", "d3-e3W", "e4-e3A-f4W", "a1-b1A-b2A-c1W", "b1-c2", "e4-e3A-f4", "", "-", "a1-", chain(22), chain(23)} {
		f.Add(seed)
	}
	s := New()
	f.Fuzz(func(t *testing.T, text string) {
		m, err := s.ParseMove(text)
		if err != nil {
			if !errors.Is(err, game.ErrNotation) {
				t.Fatalf("ParseMove(%q): error %v does not wrap ErrNotation", text, err)
			}
			return
		}
		if !wellFormed(m) {
			t.Fatalf("ParseMove(%q) made a malformed value %+v", text, m)
		}
		if back := s.FormatMove(m); back != text {
			t.Fatalf("ParseMove(%q) formats back as %q", text, back)
		}
		// Whatever parses, Play judges without panicking.
		c := *s
		if err := c.Play(m); err != nil && !errors.Is(err, game.ErrIllegalMove) {
			t.Fatalf("Play(%q): %v", text, err)
		}
	})
}
