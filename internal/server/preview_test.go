package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bretter/game"
	"bretter/games/dvonn"
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
		// Havannah's labels, the smallest of the three boards' and in
		// small letters, paint some 450 pixels of it; none paint 0.
		if coords < 300 {
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

// shared counts the requests waiting for a drawing of game id.
func (c *previews) shared(id string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k, d := range c.drawing {
		if k.id == id {
			n += d.shared
		}
	}
	return n
}

func (c *previews) get(id string, version int) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lookup(previewKey{id, version})
}

func (c *previews) put(id string, version int, png []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.add(previewKey{id, version}, png)
}

// fakeDraw stands in for the preview's drawing: it counts the pictures
// drawn and, for the game held, waits until released.
type fakeDraw struct {
	drawn   atomic.Int64
	held    string // a game whose drawing waits for release
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

// holdDrawing puts a fakeDraw in c's place, releasing what it holds when
// t ends, so that a failed test does not leave its server waiting.
func holdDrawing(t *testing.T, c *previews, held string) *fakeDraw {
	f := &fakeDraw{held: held, started: make(chan struct{}, 16), release: make(chan struct{})}
	t.Cleanup(f.free)
	c.draw = func(game string, view any) ([]byte, error) {
		f.drawn.Add(1)
		if game == held {
			f.started <- struct{}{}
			<-f.release
		}
		return []byte("png of " + game), nil
	}
	return f
}

func (f *fakeDraw) free() { f.once.Do(func() { close(f.release) }) }

// fetched is one answer to a preview's request.
type fetched struct {
	status     int
	retryAfter string
	body       string
	err        error
}

func fetchPreview(url string) fetched {
	res, err := http.Get(url)
	if err != nil {
		return fetched{err: err}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return fetched{status: res.StatusCode, retryAfter: res.Header.Get("Retry-After"), body: string(b), err: err}
}

// The cache keeps the pictures last asked for: cycling through more
// games than it holds drops the one left alone longest, not the others.
func TestPreviewsEvictLeastRecentlyUsed(t *testing.T) {
	c := newPreviews(1, 1)
	c.most = 3
	for _, id := range []string{"a", "b", "c"} {
		c.put(id, 1, []byte(id))
	}
	c.get("a", 1)
	c.put("d", 1, []byte("d"))
	if c.get("b", 1) != nil {
		t.Fatal("b, left alone longest, is still kept")
	}
	for _, id := range []string{"a", "c", "d"} {
		if string(c.get(id, 1)) != id {
			t.Fatalf("%s was dropped", id)
		}
	}
	// A new version replaces the game's picture, not another game's.
	c.put("c", 2, []byte("c2"))
	if c.get("c", 1) != nil || string(c.get("c", 2)) != "c2" || c.get("a", 1) == nil || c.get("d", 1) == nil {
		t.Fatal("a new version of c was not kept in place of the old one")
	}

	// Bounded by size too.
	c = newPreviews(1, 1)
	c.mostSize = 10
	c.put("x", 1, []byte("xxxx"))
	c.put("y", 1, []byte("yyyy"))
	c.get("x", 1)
	c.put("z", 1, []byte("zzzz"))
	if c.get("y", 1) != nil || c.get("x", 1) == nil || c.get("z", 1) == nil {
		t.Fatal("past its size the cache did not drop the picture left alone longest")
	}
}

// A picture asked for again is not drawn again, until the game moves on.
func TestPreviewCacheHitDoesNotDraw(t *testing.T) {
	ts := newTestServer(t)
	f := holdDrawing(t, ts.srv.previews, "")
	g := ts.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	for range 3 {
		if r := fetchPreview(ts.URL + "/g/" + g.id + "/preview.png"); r.status != http.StatusOK {
			t.Fatalf("preview: %d %v", r.status, r.err)
		}
	}
	if n := f.drawn.Load(); n != 1 {
		t.Fatalf("drawn %d times for three requests", n)
	}
	ts.play(t, g, "a1")
	fetchPreview(ts.URL + "/g/" + g.id + "/preview.png")
	if n := f.drawn.Load(); n != 2 {
		t.Fatalf("after a move the picture was drawn %d times in all, want 2", n)
	}
}

// Requests for the same picture that come together wait for one drawing
// and all get it: a link posted to a group is fetched by every member.
func TestPreviewDrawnOnceForRequestsTogether(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	c := ts.srv.previews
	f := holdDrawing(t, c, "havannah")
	const n = 5
	out := make(chan fetched, n)
	for range n {
		go func() { out <- fetchPreview(ts.URL + "/g/" + g.id + "/preview.png") }()
	}
	// Released once every request draws or waits for the drawing.
	for f.drawn.Load()+int64(c.shared(g.id)) < n {
		time.Sleep(time.Millisecond)
	}
	f.free()
	for range n {
		r := <-out
		if r.status != http.StatusOK || r.body != "png of havannah" {
			t.Fatalf("preview: %d %q %v", r.status, r.body, r.err)
		}
	}
	if d := f.drawn.Load(); d != 1 {
		t.Fatalf("%d requests together drew the picture %d times", n, d)
	}
}

// While every place to draw is taken, a preview that is not kept is
// refused at once with 503 and a time to come back, instead of queueing.
func TestPreviewBusy(t *testing.T) {
	ts := newTestServer(t)
	c := ts.srv.previews
	c.wait = time.Millisecond // the place is held: no wait would free it
	f := holdDrawing(t, c, "havannah")
	held := ts.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	other := ts.newGame(t, `{"game":"dvonn"}`)
	first := make(chan fetched, 1)
	go func() { first <- fetchPreview(ts.URL + "/g/" + held.id + "/preview.png") }()
	<-f.started
	r := fetchPreview(ts.URL + "/g/" + other.id + "/preview.png")
	if r.status != http.StatusServiceUnavailable || r.retryAfter == "" {
		t.Fatalf("with every place to draw taken: %d, Retry-After %q", r.status, r.retryAfter)
	}
	if n := f.drawn.Load(); n != 1 {
		t.Fatalf("%d pictures drawn, want only the one held", n)
	}
	f.free()
	if r := <-first; r.status != http.StatusOK {
		t.Fatalf("the picture held: %d %v", r.status, r.err)
	}
	if r := fetchPreview(ts.URL + "/g/" + other.id + "/preview.png"); r.status != http.StatusOK {
		t.Fatalf("once the place is free: %d", r.status)
	}
}

// The wait for a place to draw is bounded in number, and ends when the
// request goes away.
func TestPreviewWaitIsBounded(t *testing.T) {
	c := newPreviews(1, 1)
	c.wait = time.Hour // only a cancellation ends the wait
	f := holdDrawing(t, c, "held")
	free := func() error { return nil }
	ctx := t.Context()
	first := make(chan error, 1)
	go func() {
		_, err := c.image(ctx, "a", pagePosition{game: "held"}, free)
		first <- err
	}()
	<-f.started
	waiting, cancel := context.WithCancel(ctx)
	second := make(chan error, 1)
	go func() {
		_, err := c.image(waiting, "b", pagePosition{game: "other"}, free)
		second <- err
	}()
	for len(c.queue) < 2 {
		select {
		case err := <-second:
			t.Fatalf("b was drawn while the only place was taken (%v)", err)
		default:
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := c.image(ctx, "c", pagePosition{game: "other"}, free); err != errPreviewBusy {
		t.Fatalf("with the place taken and the wait full: %v", err)
	}
	cancel()
	if err := <-second; !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled request: %v", err)
	}
	f.free()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if n := f.drawn.Load(); n != 1 {
		t.Fatalf("%d drawn, want 1", n)
	}
}

// Drawing a preview costs a second of the address's reads; one kept
// costs a read.
func TestPreviewCostsReads(t *testing.T) {
	ts := limitedServer(t, lenient(Config{ReadsPerSecond: 5})) // a burst of 30
	f := holdDrawing(t, ts.srv.previews, "")
	var ids []string
	for range 6 {
		ids = append(ids, ts.newGame(t, `{"game":"havannah","options":{"size":4}}`).id)
	}
	frozen(ts)
	refusedAfter(t, 5, func(i int) int { return fetchPreview(ts.URL + "/g/" + ids[i] + "/preview.png").status })
	if n := f.drawn.Load(); n != 5 {
		t.Fatalf("%d drawn, want 5: the one refused was drawn", n)
	}

	ts = limitedServer(t, lenient(Config{ReadsPerSecond: 5}))
	holdDrawing(t, ts.srv.previews, "")
	id := ts.newGame(t, `{"game":"havannah","options":{"size":4}}`).id
	frozen(ts)
	refusedAfter(t, 25, func(int) int { return fetchPreview(ts.URL + "/g/" + id + "/preview.png").status })
}

// A preview that could not be drawn is a failure of the moment: no cache
// keeps it, and it carries no ETag that a 304 would later confirm.
func TestPreviewFailureIsNotKept(t *testing.T) {
	ts := newTestServer(t)
	ts.srv.previews.draw = func(game string, view any) ([]byte, error) { return nil, errors.New("no memory") }
	g := ts.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	res, err := http.Get(ts.URL + "/g/" + g.id + "/preview.png")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusInternalServerError || res.Header.Get("Cache-Control") != "no-store" || res.Header.Get("ETag") != "" {
		t.Fatalf("a preview not drawn: %d, Cache-Control %q, ETag %q", res.StatusCode, res.Header.Get("Cache-Control"), res.Header.Get("ETag"))
	}
}

func headPreview(t *testing.T, url string, header ...string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("HEAD", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// A HEAD for a preview says what a GET would, and never draws: net/http
// would only throw the picture away. Its ETag and length are told once
// the picture is kept.
func TestPreviewHeadDoesNotDraw(t *testing.T) {
	ts := newTestServer(t)
	f := holdDrawing(t, ts.srv.previews, "")
	g := ts.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	url := ts.URL + "/g/" + g.id + "/preview.png"
	res := headPreview(t, url)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" || res.Header.Get("Cache-Control") != "public, max-age=60" ||
		res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("HEAD of a preview not drawn: %d %v", res.StatusCode, res.Header)
	}
	if res.Header.Get("ETag") != "" || res.ContentLength > 0 {
		t.Fatalf("HEAD of a preview not drawn promises ETag %q, length %d", res.Header.Get("ETag"), res.ContentLength)
	}
	if n := f.drawn.Load(); n != 0 {
		t.Fatalf("a HEAD drew the picture %d times", n)
	}

	got, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(got.Body)
	got.Body.Close()
	res = headPreview(t, url)
	if res.StatusCode != http.StatusOK || res.Header.Get("ETag") == "" || res.Header.Get("ETag") != got.Header.Get("ETag") ||
		res.ContentLength != int64(len(body)) || res.Header.Get("Content-Type") != "image/png" ||
		res.Header.Get("Cache-Control") != got.Header.Get("Cache-Control") {
		t.Fatalf("HEAD of a kept preview: %d %v, length %d; the GET: %v, length %d", res.StatusCode, res.Header, res.ContentLength, got.Header, len(body))
	}
	if res := headPreview(t, url, "If-None-Match", got.Header.Get("ETag")); res.StatusCode != http.StatusNotModified {
		t.Fatalf("HEAD of the version the client has: %d", res.StatusCode)
	}
	if n := f.drawn.Load(); n != 1 {
		t.Fatalf("drawn %d times, want once, for the GET", n)
	}
	if res := headPreview(t, ts.URL+"/g/nosuchgame/preview.png"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("HEAD of an unknown game's preview: %d", res.StatusCode)
	}
}

// A HEAD takes no place to draw, and costs a read like any page, not a
// drawing.
func TestPreviewHeadTakesNoSlotNorCost(t *testing.T) {
	ts := limitedServer(t, lenient(Config{ReadsPerSecond: 5})) // a burst of 30
	c := ts.srv.previews
	c.wait = time.Millisecond // the place is held: no wait would free it
	f := holdDrawing(t, c, "havannah")
	held := ts.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	var ids []string
	for range 6 {
		ids = append(ids, ts.newGame(t, `{"game":"dvonn"}`).id)
	}
	frozen(ts)
	first := make(chan fetched, 1)
	go func() { first <- fetchPreview(ts.URL + "/g/" + held.id + "/preview.png") }()
	<-f.started
	// The GET held paid a read and a second's reads; 24 are left.
	refusedAfter(t, 24, func(i int) int {
		res := headPreview(t, ts.URL+"/g/"+ids[i%len(ids)]+"/preview.png")
		if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusTooManyRequests {
			t.Fatalf("HEAD %d while every place to draw is taken: %d", i+1, res.StatusCode)
		}
		return res.StatusCode
	})
	if n := f.drawn.Load(); n != 1 {
		t.Fatalf("%d pictures drawn, want only the one held", n)
	}
	f.free()
	if r := <-first; r.status != http.StatusOK {
		t.Fatalf("the picture held: %d %v", r.status, r.err)
	}
}

// Once the friend has taken the seat, or the game has ended, the
// invitation no longer offers a seat to whoever sees its preview in a
// group chat: it describes the game as the watch page does, in every
// language.
func TestUsedInvitationPreview(t *testing.T) {
	ts := newTestServer(t)
	bot := ts.browser(t)
	same := func(what, id, inviteURL string) {
		t.Helper()
		for _, lang := range []string{"en", "de", "pl"} {
			_, invite := get(t, bot, inviteURL, "Accept-Language", lang)
			_, watch := get(t, bot, ts.URL+"/g/"+id, "Accept-Language", lang)
			got, want := metaTags(invite), metaTags(watch)
			for _, k := range []string{"og:title", "og:description", "twitter:description", "og:url"} {
				if got[k] != want[k] {
					t.Errorf("%s, %s: the invitation's %s is %q, the watch page's %q", what, lang, k, got[k], want[k])
				}
			}
		}
	}
	var c createResponse
	ts.call(t, "POST", "/api/games", "", `{"game":"havannah","options":{"size":4},"start":"me"}`, &c)
	token := c.InviteURL[strings.LastIndex(c.InviteURL, "/")+1:]
	_, invite := get(t, bot, c.InviteURL, "Accept-Language", "en")
	if d := metaTags(invite)["og:description"]; !strings.Contains(d, "take your seat") {
		t.Fatalf("the open invitation's preview says %q", d)
	}
	var j struct{ Secret string }
	ts.call(t, "POST", "/api/games/"+c.ID+"/join", "", map[string]string{"invite": token}, &j)
	g := testGame{id: c.ID, white: c.Secret, black: j.Secret}
	ts.play(t, g, "a1 d4")
	same("playing", c.ID, c.InviteURL)
	ts.call(t, "POST", "/api/games/"+c.ID+"/resign", j.Secret, nil, nil)
	same("over", c.ID, c.InviteURL)

	ts.call(t, "POST", "/api/games", "", `{"game":"dvonn"}`, &c)
	if code, _ := ts.offer(t, c.ID, c.Secret, "abort"); code != http.StatusOK {
		t.Fatalf("calling off: %d", code)
	}
	same("called off", c.ID, c.InviteURL)
}

// A DVONN game won on points says the points, in the preview's title and
// in the line a page without scripts shows, as the page's script does.
func TestFinishedDvonnPreviewSaysTheScore(t *testing.T) {
	s := dvonn.New()
	rng := rand.New(rand.NewPCG(7, 7))
	var moves []string
	var lastMover game.Player
	for !s.Outcome().Over {
		legal := s.Legal(nil)
		m := legal[rng.IntN(len(legal))]
		moves, lastMover = append(moves, s.FormatMove(m)), s.ToMove()
		if err := s.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	white, black := s.Score()
	if s.Outcome().Winner == game.Nobody {
		t.Fatalf("the seeded game is a draw (%d:%d); pick a seed with a winner", white, black)
	}
	// The person plays the last move against the computer, from the
	// position before it.
	last := len(moves) - 1
	start := map[game.Player]string{game.White: "me", game.Black: "friend"}[lastMover]
	ts := newTestServer(t)
	var c createResponse
	if code := ts.call(t, "POST", "/api/games", "", map[string]any{"game": "dvonn", "opponent": "computer", "level": 1, "start": start, "moves": moves[:last]}, &c); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	if code := ts.call(t, "POST", "/api/games/"+c.ID+"/moves", c.Secret, map[string]any{"ply": last, "move": moves[last]}, nil); code != http.StatusOK {
		t.Fatalf("the last move %s: %d", moves[last], code)
	}
	winner := map[game.Player]string{game.White: "White", game.Black: "Black"}[s.Outcome().Winner]
	want := fmt.Sprintf("%s wins: White %d, Black %d", winner, white, black)
	_, body := get(t, ts.browser(t), ts.URL+"/g/"+c.ID, "Accept-Language", "en")
	if title := metaTags(body)["og:title"]; title != fmt.Sprintf("DVONN · %s · %d moves", want, len(moves)) {
		t.Errorf("the preview's title is %q", title)
	}
	if !strings.Contains(body, `<p class="status">`+want+".</p>") {
		t.Errorf("a page without scripts does not say %q", want)
	}
}

// The picture of a game that is not there is a line of text, as any file
// of the site that is not there: in the language of whoever asked, and
// not kept, since the game may yet be there (a link cut short, then
// mended) or be answered in another language.
func TestPreviewOfNoGameIsTranslated(t *testing.T) {
	ts := newTestServer(t)
	for lang, want := range map[string]string{"de": "Partie nicht gefunden", "pl": "Nie ma takiej partii", "en": "No such game"} {
		res, body := get(t, http.DefaultClient, ts.URL+"/g/nosuchgame/preview.png?v=3", "Accept-Language", lang)
		if res.StatusCode != http.StatusNotFound || strings.TrimSpace(body) != want || res.Header.Get("Content-Language") != lang ||
			res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d %q, Content-Language %q, Cache-Control %q; want 404 %q, not kept", lang, res.StatusCode, body,
				res.Header.Get("Content-Language"), res.Header.Get("Cache-Control"), want)
		}
	}
}

// A cache that asks again with the picture's ETag gets 304 however it
// writes the question: a proxy that compresses makes the tag weak
// (W/"..."), and a cache holding several versions lists them all.
func TestPreviewNotModifiedAsCachesAsk(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	url := ts.URL + "/g/" + g.id + "/preview.png?v=2"
	res, _ := get(t, http.DefaultClient, url)
	etag := res.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	for _, asked := range []string{etag, "W/" + etag, `"older", ` + etag, `W/"older",W/` + etag, "*"} {
		if res, _ := get(t, http.DefaultClient, url, "If-None-Match", asked); res.StatusCode != http.StatusNotModified || res.Header.Get("ETag") != etag {
			t.Errorf("If-None-Match: %s: %d, ETag %q", asked, res.StatusCode, res.Header.Get("ETag"))
		}
	}
	for _, asked := range []string{`"older"`, `W/"older", "other"`, strings.Trim(etag, `"`)} {
		if res, _ := get(t, http.DefaultClient, url, "If-None-Match", asked); res.StatusCode != http.StatusOK {
			t.Errorf("If-None-Match: %s, another picture: %d", asked, res.StatusCode)
		}
	}
}
