package cli

import (
	"fmt"
	"io"

	"bretter/game"
)

func serve(args []string, games []game.Game, stderr io.Writer) int {
	fmt.Fprintln(stderr, "bretter: serve is not built yet")
	return 1
}
