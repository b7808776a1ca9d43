// Command bretter serves the bretter site and offers the rules engines and
// the computer opponent on the command line: `bretter serve` (the
// default), `judge`, `perft`, `gtp`, `codecup`, `match` and `loadtest`. Run
// `bretter help` for the details.
package main

import (
	"os"

	"bretter/game"
	"bretter/games/dvonn"
	"bretter/games/fanorona"
	"bretter/games/havannah"
	"bretter/internal/cli"
)

func main() {
	// The games the site offers, in the order the home page lists them.
	games := []game.Game{havannah.Game(), dvonn.Game(), fanorona.Game()}
	os.Exit(cli.Run(os.Args[1:], games, os.Stdin, os.Stdout, os.Stderr))
}
