package server

import (
	"bytes"
	"html"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// metaTags reads a page's <meta property|name=... content=...> tags.
func metaTags(body string) map[string]string {
	out := map[string]string{}
	re := regexp.MustCompile(`<meta (?:property|name)="([^"]+)" content="([^"]*)">`)
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		out[m[1]] = html.UnescapeString(m[2])
	}
	return out
}

// A messenger fetching a link for its preview, as its bot does: no
// cookies, no scripts. It finds a title, a description and an image of
// the position, in the language it asks for, and takes no seat.
func TestLinkPreview(t *testing.T) {
	ts := newTestServer(t)
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"start":"me"}`, &c)
	bot := ts.browser(t)

	_, body := get(t, bot, c.InviteURL, "User-Agent", "WhatsApp/2.23", "Accept-Language", "de")
	m := metaTags(body)
	if m["og:title"] != "Havannah · wartet auf die zweite Person · Zug 1" || !strings.Contains(m["og:description"], "eingeladen") {
		t.Fatalf("German invitation preview: %q / %q", m["og:title"], m["og:description"])
	}
	if m["twitter:card"] != "summary_large_image" || m["og:image"] == "" || m["og:image"] != m["twitter:image"] {
		t.Fatalf("card tags: %v", m)
	}
	// No address for the card: the watch page's would take the friend
	// there, and the invitation's is not to be kept.
	if u, ok := m["og:url"]; ok {
		t.Fatalf("the invitation's card links to %s", u)
	}
	if s := ts.state(t, c.ID, ""); s.Players.Black.Seated {
		t.Fatal("fetching the preview took the seat")
	}
	// The invited friend is told in three lines how to play, with the way
	// to the rules; the creator chose the game and is not.
	if !strings.Contains(body, `id="howto"`) || !strings.Contains(body, `href="/havannah#rules-title"`) {
		t.Fatal("the invitation page has no lines on how to play")
	}
	creator := ts.browser(t)
	get(t, creator, ts.URL+playerPath(c.ID, c.Secret))
	_, page := get(t, creator, ts.URL+"/g/"+c.ID)
	if strings.Contains(page, `id="howto"`) {
		t.Fatal("the creator is told how to play")
	}
	// The invitation as a QR code is for the creator's eyes only.
	if !strings.Contains(page, `<svg class="qr" viewBox="0 0 `) || strings.Contains(body, `class="qr"`) {
		t.Fatal("the QR code of the invitation is missing on the creator's page, or shown to the friend")
	}

	// The preview follows the game: after two moves it is White's third.
	var j struct{ Secret string }
	ts.call(t, "POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": c.InviteURL[strings.LastIndex(c.InviteURL, "/")+1:]}, &j)
	g := testGame{id: c.ID, white: c.Secret, black: j.Secret}
	ts.play(t, g, "a1 d4")
	if _, page := get(t, creator, ts.URL+"/g/"+c.ID); strings.Contains(page, `class="qr"`) {
		t.Fatal("the QR code of a used invitation is still shown")
	}
	if _, page := get(t, bot, c.InviteURL); strings.Contains(page, `id="howto"`) {
		t.Fatal("whoever finds the invitation used, and can only watch, is told how to play")
	}
	_, body = get(t, bot, ts.URL+"/g/"+c.ID, "Accept-Language", "en")
	m = metaTags(body)
	if m["og:title"] != "Havannah · White to move · move 3" || m["og:url"] != ts.URL+"/g/"+c.ID {
		t.Fatalf("preview title %q, address %q", m["og:title"], m["og:url"])
	}

	res, img := get(t, bot, m["og:image"])
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("image: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	pic, err := png.Decode(strings.NewReader(img))
	if err != nil {
		t.Fatal(err)
	}
	if b := pic.Bounds(); b.Dx() != 1200 || b.Dy() != 630 {
		t.Fatalf("image of %v", b)
	}
	// Both stones are in it: pixels as dark as a black stone, and as light
	// as a white one, which the empty board has neither of.
	dark, light := countShades(pic)
	if dark < 500 || light < 500 {
		t.Fatalf("%d dark and %d light pixels: the stones are missing", dark, light)
	}
	again, _ := http.NewRequest("GET", m["og:image"], nil)
	again.Header.Set("If-None-Match", res.Header.Get("ETag"))
	if res, err := http.DefaultClient.Do(again); err != nil || res.StatusCode != http.StatusNotModified {
		t.Fatalf("a second fetch of the same version: %v %v", res, err)
	}
	ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, map[string]any{"ply": 2, "move": "b2"}, nil)
	_, body = get(t, bot, ts.URL+"/g/"+c.ID)
	if next := metaTags(body)["og:image"]; next == m["og:image"] {
		t.Fatalf("the image address %s stayed after a move", next)
	}
	// Over, the game is there to be stepped through, no longer watched.
	ts.call(t, "POST", "/api/games/"+c.ID+"/resign", j.Secret, nil, nil)
	_, body = get(t, bot, ts.URL+"/g/"+c.ID, "Accept-Language", "en")
	if d := metaTags(body)["og:description"]; d != "A finished game of Havannah on bretter: open the link to step through it." {
		t.Fatalf("a finished game's preview says %q", d)
	}
	if res, _ := get(t, bot, ts.URL+"/g/nosuchgame/preview.png"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("an unknown game's image: %d", res.StatusCode)
	}
}

func countShades(img image.Image) (dark, light int) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			sum := (r + g + bl) / 3 >> 8
			switch {
			case sum < 0x30:
				dark++
			case sum > 0xf8:
				light++
			}
		}
	}
	return dark, light
}

// The page shows the position without any script: the server draws the
// board, with the stones where they are.
func TestBoardInThePage(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	ts.play(t, g, "a1 d4")
	_, body := get(t, ts.browser(t), ts.URL+"/g/"+g.id)
	board := body[strings.Index(body, `id="board"`):]
	board = board[:strings.Index(board, "</svg>")]
	if !strings.Contains(board, `<g class="cell white"><polygon`) || !strings.Contains(board, `<g class="cell black last">`) ||
		strings.Count(board, `<g class="cell`) != 37 {
		t.Fatalf("the page's board: %s", board)
	}
	for _, tt := range []struct{ game, want string }{
		{"dvonn", `class="board-svg dvonn"`},
		{"fanorona", `<g class="pt white">`},
	} {
		var c createResponse
		ts.call(t, "POST", "/api/games", "", `{"game":"`+tt.game+`"}`, &c)
		_, body := get(t, ts.browser(t), ts.URL+"/g/"+c.ID)
		if !strings.Contains(body, tt.want) {
			t.Errorf("%s page lacks %s", tt.game, tt.want)
		}
		res, img := get(t, ts.browser(t), ts.URL+previewPath(c.ID, 0))
		if _, err := png.Decode(bytes.NewReader([]byte(img))); res.StatusCode != 200 || err != nil {
			t.Errorf("%s image: %d %v", tt.game, res.StatusCode, err)
		}
	}
}

// Every board's preview has the board in the middle of the picture and
// its coordinates beside it, as the page's board does.
func TestPreviewCentredWithCoordinates(t *testing.T) {
	ts := newTestServer(t)
	bot := ts.browser(t)
	cell := color.RGBA{0xe9, 0xdf, 0xc8, 0xff}  // the board's own colour
	muted := color.RGBA{0x5b, 0x62, 0x5e, 0xff} // the coordinates'
	for _, name := range []string{"havannah", "dvonn", "fanorona"} {
		g := ts.newGame(t, `{"game":"`+name+`"}`)
		res, body := get(t, bot, ts.URL+"/g/"+g.id+"/preview.png")
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: preview %d", name, res.StatusCode)
		}
		pic, err := png.Decode(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		board := boxOf(pic, cell)
		if board.Empty() {
			t.Fatalf("%s: no board in the preview", name)
		}
		b := pic.Bounds()
		left, right := board.Min.X-b.Min.X, b.Max.X-board.Max.X
		top, bottom := board.Min.Y-b.Min.Y, b.Max.Y-board.Max.Y
		if d := left - right; d < -2 || d > 2 {
			t.Errorf("%s: the board %v is off centre across, %d px left and %d right", name, board, left, right)
		}
		if d := top - bottom; d < -2 || d > 2 {
			t.Errorf("%s: the board %v is off centre up and down, %d px above and %d below", name, board, top, bottom)
		}
		// The coordinates are painted, in their own colour, around it.
		coords := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if color.RGBAModel.Convert(pic.At(x, y)) == muted {
					coords++
				}
			}
		}
		if coords < 500 {
			t.Errorf("%s: no coordinates in the preview (%d pixels of their colour)", name, coords)
		}
	}
}

// boxOf is the smallest rectangle that holds every pixel of img in col.
func boxOf(img image.Image, col color.RGBA) image.Rectangle {
	var box image.Rectangle
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)) == col {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}
