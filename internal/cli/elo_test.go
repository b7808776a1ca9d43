package cli

import (
	"math"
	"testing"
)

func TestElo(t *testing.T) {
	tests := []struct {
		w, l, d      int
		diff, lo, hi float64
	}{
		{0, 0, 0, 0, -800, 800},
		{1, 1, 0, 0, -800, 800},       // se 0.354: the interval covers 0%..100%
		{10, 10, 0, 0, -163.3, 163.3}, // s 0.5 ± 1.96·0.112
		{0, 0, 10, 0, 0, 0},           // all draws: no spread at all
		{10, 0, 0, 800, 800, 800},
		{0, 10, 0, -800, -800, -800},
		{75, 25, 0, 190.8, 119.2, 281.5},
		{30, 10, 20, 120.4, 50.6, 201.2},
	}
	for _, tt := range tests {
		diff, lo, hi := elo(tt.w, tt.l, tt.d)
		if math.Abs(diff-tt.diff) > 0.1 || math.Abs(lo-tt.lo) > 0.1 || math.Abs(hi-tt.hi) > 0.1 {
			t.Errorf("elo(%d, %d, %d) = %.1f [%.1f, %.1f], want %.1f [%.1f, %.1f]",
				tt.w, tt.l, tt.d, diff, lo, hi, tt.diff, tt.lo, tt.hi)
		}
	}
}
