package dvonn

import (
	"errors"
	"strings"
	"testing"

	"bretter/game"
)

func TestParseMove(t *testing.T) {
	good := []struct{ in, out string }{
		{"C3", "C3"},
		{"c3", "C3"},
		{"A1", "A1"},
		{"K5", "K5"},
		{"C3D4", "C3D4"},
		{"c3d4", "C3D4"},
		{"C3d4", "C3D4"},
		{"A3K3", "A3K3"},
		{"PASS", "PASS"},
		{"pass", "PASS"},
		{"Pass", "PASS"},
	}
	for _, tt := range good {
		m, err := ParseMove(tt.in)
		if err != nil {
			t.Errorf("ParseMove(%q): %v", tt.in, err)
			continue
		}
		if got := FormatMove(m); got != tt.out {
			t.Errorf("ParseMove(%q) formats as %q, want %q", tt.in, got, tt.out)
		}
	}
	bad := []string{
		"", "C", "Z9", "A5", "K1", "J1", "A4", "B5", "L3", "C0", "C6", "C33",
		"C3C3", "c3C3", "C3D4E5", "C3 D4", " C3", "C3 ", "3C", "PAS", "PASSS",
		"PASŞ", "C3-D4", "C3A5", "A5C3", "@1", "[3",
	}
	for _, in := range bad {
		if m, err := ParseMove(in); !errors.Is(err, game.ErrNotation) {
			t.Errorf("ParseMove(%q) = %s, %v; want ErrNotation", in, FormatMove(m), err)
		}
	}
}

func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"C3", "c3d4", "PASS", "pass", "A5", "C3C3", "C3D4E5", "", "K5J4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMove(s)
		if err != nil {
			if !errors.Is(err, game.ErrNotation) {
				t.Fatalf("ParseMove(%q): %v does not wrap ErrNotation", s, err)
			}
			return
		}
		text := FormatMove(m)
		if text != strings.ToUpper(s) {
			t.Fatalf("ParseMove(%q) formats as %q", s, text)
		}
		if back, err := ParseMove(text); err != nil || back != m {
			t.Fatalf("%q parses back as %v, %v", text, back, err)
		}
	})
}
