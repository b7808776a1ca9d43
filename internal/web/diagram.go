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
	return diagramOf(name, st.View(), marks...)
}

// diagramOf draws a position's view as the board script knows it.
func diagramOf(name string, v any, marks ...string) (template.HTML, error) {
	view, err := json.Marshal(v)
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
	"dvonn": {"", "C3 F3 I3 E4 F2 G2 E3 D4 H3 J4 G5 D2 D3 C4 I5 G4 K4 J2 E1 I2 A2 A1 F5 H4 J5 H1 E5 G3 E2 H5 " +
		"C5 K5 A3 F1 D5 B4 F4 B2 B3 C2 C1 D1 H2 G1 K3 B1 I1 J3 I4 D5E5 B1C1 A2B2 C4C3 E5C5 K5K4 B3A3 E4F4 " +
		"E3D3 H5I5 D3F3 G4H4 E1E2 H4F4 I4J5 F1F2 F5G5 D4C3 H3I3 H1H2 K3K4"},
	"fanorona": {"", ""},
}

// Thumbnail draws the home page's picture of a game.
func (p Page) Thumbnail(name string) (template.HTML, error) {
	t := thumbnails[name]
	p.draws(name)
	return p.site.diagram(name, t[0], t[1])
}

// Position draws a game's position, from its view, as a small picture.
func (p Page) Position(name string, view any) (template.HTML, error) {
	p.draws(name)
	return diagramOf(name, view)
}

// draws notes that the page draws a picture of game, so that its
// catalogue has what the board script says.
func (p Page) draws(game string) {
	if p.drawn != nil {
		p.drawn[game] = true
	}
}
