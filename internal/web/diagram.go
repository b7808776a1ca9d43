package web

import (
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"bretter/game"
)

// diagram draws a small board for the rules pages: the position that
// moves reach under options ("size=5 swap=0"), played through the engine,
// so that every diagram is a legal position. marks names cells for the
// board script to point at. The board script draws it in the browser.
func (s *Site) diagram(name, options, moves string, marks ...string) (template.HTML, error) {
	var g game.Game
	for _, x := range s.games {
		if x.Name == name {
			g = x
		}
	}
	if g.Name == "" {
		return "", fmt.Errorf("diagram of unknown game %q", name)
	}
	opts := game.Options{}
	for _, o := range strings.Fields(options) {
		k, v, _ := strings.Cut(o, "=")
		n, err := strconv.Atoi(v)
		if err != nil {
			return "", fmt.Errorf("diagram option %q", o)
		}
		opts[k] = n
	}
	st, ply, err := game.Replay(g, opts, strings.Fields(moves))
	if err != nil {
		return "", fmt.Errorf("diagram of %s, move %d: %w", name, ply, err)
	}
	view, err := json.Marshal(st.View())
	if err != nil {
		return "", err
	}
	return template.HTML(fmt.Sprintf(`<div class="diagram" data-game="%s" data-view="%s" data-marks="%s"></div>`,
		template.HTMLEscapeString(name), template.HTMLEscapeString(string(view)),
		template.HTMLEscapeString(strings.Join(marks, " ")))), nil
}

// thumbnails are the positions the home page shows for each game.
var thumbnails = map[string][2]string{
	"havannah": {"size=5", "e5 d4 e6 c3 f6 g7 d5 d6 f5 b2 e4"},
	"dvonn": {"", "D3 F3 H3 A1 B1 C1 D1 E1 F1 G1 H1 I1 A2 B2 C2 D2 E2 F2 G2 H2 I2 J2 A3 B3 C3 E3 G3 I3 J3 K3 " +
		"B4 C4 D4 E4 F4 G4 H4 I4 J4 K4 C5 D5 E5 F5 G5 H5 I5 J5 K5"},
	"fanorona": {"", ""},
}

// Thumbnail draws the home page's picture of a game.
func (p Page) Thumbnail(name string) (template.HTML, error) {
	t := thumbnails[name]
	return p.site.diagram(name, t[0], t[1])
}
