package web

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode"

	"bretter/game"
	"bretter/games/havannah"
)

// Each board's picture writes its coordinates as the board's page does
// (boards/*.js): Havannah's and Fanorona's letters in lower case, DVONN's
// in capitals; and the PNG of a link preview paints every letter in the
// case it is written in, not one shape for both.
func TestPictureLettersInTheBoardsCase(t *testing.T) {
	for _, tt := range []struct {
		game    string
		options game.Options
		letters string
	}{
		{"havannah", game.Options{"size": havannah.MaxSize}, "abcdefghijklmnopqrs"},
		{"dvonn", nil, "ABCDEFGHIJK"},
		{"fanorona", nil, "abcdefghi"},
	} {
		p := startPicture(t, tt.game, tt.options)
		var letters []rune
		swapped := p
		swapped.shapes = slices.Clone(p.shapes)
		for i, s := range p.shapes {
			if s.class != "coord" || !unicode.IsLetter([]rune(s.text)[0]) {
				continue
			}
			for _, r := range s.text {
				if slices.Contains(letters, r) {
					continue
				}
				letters = append(letters, r)
				if _, ok := glyphs[r]; !ok {
					t.Errorf("%s: no glyph paints %q", tt.game, r)
				} else if other := otherCase(r); glyphs[r] == glyphs[other] {
					t.Errorf("%s: %q is painted as %q is", tt.game, r, other)
				}
			}
			swapped.shapes[i].text = strings.Map(otherCase, s.text)
		}
		slices.Sort(letters)
		if string(letters) != tt.letters {
			t.Errorf("%s: the picture's letters are %q, the page's %q", tt.game, string(letters), tt.letters)
		}
		if bytes.Equal(pictureBytes(t, p), pictureBytes(t, swapped)) {
			t.Errorf("%s: the preview paints its letters the same in either case", tt.game)
		}
	}
}

// startPicture is the picture of the start position of the game name.
func startPicture(t *testing.T, name string, options game.Options) picture {
	t.Helper()
	i := slices.IndexFunc(games, func(g game.Game) bool { return g.Name == name })
	opts, err := games[i].Resolve(options)
	if err != nil {
		t.Fatal(err)
	}
	s, err := games[i].New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := boardPicture(name, s.View())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func pictureBytes(t *testing.T, p picture) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.PNG(&b, 600, 315); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func otherCase(r rune) rune {
	if unicode.IsUpper(r) {
		return unicode.ToLower(r)
	}
	return unicode.ToUpper(r)
}
