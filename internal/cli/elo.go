package cli

import "math"

// maxElo bounds the Elo difference shown for a score of 0% or 100%, where
// the logistic model gives an infinite one.
const maxElo = 800

// elo returns the Elo difference that a score of wins, losses and draws
// stands for, and its 95% confidence interval, from the score's standard
// error over the games played. Draws count half a win.
func elo(wins, losses, draws int) (diff, lo, hi float64) {
	n := float64(wins + losses + draws)
	if n == 0 {
		return 0, -maxElo, maxElo
	}
	s := (float64(wins) + float64(draws)/2) / n
	dev := func(x float64) float64 { return (x - s) * (x - s) }
	variance := (float64(wins)*dev(1) + float64(draws)*dev(0.5) + float64(losses)*dev(0)) / n
	se := math.Sqrt(variance / n)
	return eloOfScore(s), eloOfScore(s - 1.96*se), eloOfScore(s + 1.96*se)
}

// eloOfScore is the rating difference at which the expected score is s.
func eloOfScore(s float64) float64 {
	if s <= 0 {
		return -maxElo
	}
	if s >= 1 {
		return maxElo
	}
	return max(-maxElo, min(maxElo, -400*math.Log10(1/s-1)))
}
