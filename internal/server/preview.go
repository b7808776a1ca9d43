package server

import (
	"bytes"
	"container/list"
	"context"
	"errors"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"bretter/internal/clock"
	"bretter/internal/web"
)

// A game's link travels through messengers, which show a preview: the
// game page carries Open Graph and Twitter card tags, and the position is
// a PNG drawn here, from the same geometry as the page's board.

// Preview size: what the large link cards of the common messengers show.
const previewWidth, previewHeight = 1200, 630

// pageMeta is what the link preview of a game page says.
type pageMeta struct {
	Title, Description string
	URL, Image         string
	State              string // the game's state in a sentence, for a page without scripts
}

// pagePosition is what a game page needs of the game beyond the seat: the
// board to draw before any script runs, and what the preview says.
type pagePosition struct {
	game, status, toMove string
	winner, reason       string
	moves, version       int
	view                 any
	clock                clock.Control
	score                []any // the points of a game that counts them, as message arguments
}

// scorer is a game that ends on points (DVONN), whose result names them.
type scorer interface {
	Score() (white, black int)
}

func (g *liveGame) pagePosition() pagePosition {
	p := pagePosition{game: g.rec.Game, status: g.rec.Status, toMove: g.state.ToMove().String(),
		winner: g.rec.Winner, reason: g.rec.Reason, moves: len(g.moves), version: len(g.events), view: g.view, clock: g.rec.Clock}
	if s, ok := g.state.(scorer); ok {
		white, black := s.Score()
		p.score = []any{"white", white, "black", black}
	}
	return p
}

// meta says what a preview of the game shows, in lang.
func (s *Server) meta(r *http.Request, lang string, p pagePosition, invited bool) pageMeta {
	t := func(key string, args ...any) string { return s.site.T(lang, key, args...) }
	name := t("game." + p.game + ".name")
	var state string
	switch p.status {
	case "waiting":
		state = t("preview.waiting")
	case "over":
		args := append([]any{"winner", t("colour." + p.winner)}, p.score...)
		if p.winner != "none" {
			args = append(args, "loser", t("colour."+otherSeat(p.winner)))
		}
		key := "result." + p.reason
		if p.reason == "score" && p.winner == "none" {
			key = "result.score_draw"
		}
		state = t(key, args...)
		if state == key {
			state = t("result.draw")
			if p.winner != "none" {
				state = t("result.other", args...)
			}
		}
	default:
		state = t("status.to_move", "colour", t("colour."+p.toMove))
	}
	m := pageMeta{
		Title:       t("preview.title", "game", name, "state", trimStop(state), "n", p.moves+1),
		Description: t("preview.description", "game", name),
		URL:         baseURL(r) + watchPath(r.PathValue("id")),
		Image:       baseURL(r) + previewPath(r.PathValue("id"), p.version),
	}
	m.State = state
	if p.status == "over" {
		m.Title = t("preview.title_over", "game", name, "state", trimStop(state), "n", p.moves)
		m.Description = t("preview.description_over", "game", name)
		if p.moves == 0 && p.reason == "aborted" {
			m.Description = t("preview.description_none", "game", name) // nothing to step through
		}
	}
	if invited {
		m.Description = t("preview.invited", "game", name)
		// No address of its own: the watch page's would lead the friend
		// where a messenger takes it as the card's link, and the
		// invitation's is not to be kept by anyone but the friend.
		m.URL = ""
	}
	// Whether a game is a few minutes' or takes days is what the reader
	// decides on before opening the link.
	if c := s.site.TimeControl(lang, p.clock); c != "" {
		m.Description += " " + t("preview.clock", "clock", c)
	}
	return m
}

// dress adds the position's picture and preview to a game page.
func (s *Server) dress(r *http.Request, lang string, d *gamePageData) {
	d.Board = s.boardSVG(d.pos)
	d.View = d.pos.view
	// A used invitation keeps its token for the browser that used it, but
	// offers no seat: its preview is the watch page's.
	d.Meta = s.meta(r, lang, d.pos, d.Invite != "" && !d.Used)
	d.TimeControl = s.site.TimeControl(lang, d.pos.clock)
	if d.Invite != "" && !d.Used {
		d.Howto = true // not for whoever finds the invitation used, and watches
	}
	if d.InviteURL != "" {
		qr, err := web.QR(d.InviteURL, s.site.T(lang, "share.qr_label"))
		if err != nil {
			s.log.Error("drawing the invitation's QR code", "err", err)
		}
		d.InviteQR = qr
	}
}

// trimStop drops a sentence's full stop, for a title.
func trimStop(s string) string {
	if n := len(s); n > 0 && s[n-1] == '.' {
		return s[:n-1]
	}
	return s
}

func previewPath(id string, version int) string {
	return "/g/" + id + "/preview.png?v=" + strconv.Itoa(version)
}

// boardSVG is the board of p for the page, or nothing when it cannot be
// drawn (the script draws it then).
func (s *Server) boardSVG(p pagePosition) template.HTML {
	svg, err := web.BoardSVG(p.game, p.view)
	if err != nil {
		s.log.Error("drawing a board", "game", p.game, "err", err)
		return ""
	}
	return svg
}

// Drawing a preview takes about a fifth of a second of a processor, far
// more than any page; a messenger asks once per link and takes a late
// answer, so the work is bounded and shared instead of done on demand.
const (
	// A request waits at most previewWait for a place to draw: a few
	// drawings finish meanwhile, and more would wait beyond it anyway.
	previewWait = time.Second
	// previewRetry (seconds) is when a preview refused as busy is worth
	// asking for again; messengers retry a link's image later.
	previewRetry = 5
	// Drawings kept: the last ones asked for, at most this many and this
	// many bytes (a picture is some 50 to 100 KiB).
	maxPreviews     = 256
	maxPreviewBytes = 16 << 20
)

var (
	errPreviewBusy   = errors.New("every place to draw a preview is taken")
	errPreviewCost   = errors.New("the address cannot pay for drawing a preview")
	errPreviewFailed = errors.New("drawing the preview stopped")
)

// previews draws the PNGs of link previews, a bounded number at once, and
// keeps the last ones drawn: a link shared in a busy group is fetched by
// every member's messenger.
type previews struct {
	// draw draws a game's position; tests put one they can count and hold.
	draw func(game string, view any) ([]byte, error)
	// A request holds a place in queue while it draws or waits to, and a
	// slot while it draws.
	slots, queue chan struct{}
	wait         time.Duration

	mu             sync.Mutex
	most, mostSize int                      // bounds of the cache
	size           int                      // bytes kept
	order          *list.List               // of *previewImage, the last one used first
	byID           map[string]*list.Element // a game's picture, of its latest version drawn
	drawing        map[previewKey]*drawing
}

type previewKey struct {
	id      string
	version int
}

type previewImage struct {
	previewKey
	png []byte
}

// drawing is a picture being drawn, which the requests that come for it
// meanwhile wait for.
type drawing struct {
	done   chan struct{} // closed when png and err are set
	png    []byte
	err    error
	shared int // requests waiting for it besides the one drawing
}

// newPreviews draws at most slots previews at once, with at most waiting
// requests more waiting for a place.
func newPreviews(slots, waiting int) *previews {
	return &previews{
		draw:  drawPreview,
		slots: make(chan struct{}, slots), queue: make(chan struct{}, slots+waiting), wait: previewWait,
		most: maxPreviews, mostSize: maxPreviewBytes,
		order: list.New(), byID: map[string]*list.Element{}, drawing: map[previewKey]*drawing{},
	}
}

func drawPreview(game string, view any) ([]byte, error) {
	var b bytes.Buffer
	if err := web.BoardPNG(&b, game, view, previewWidth, previewHeight); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// image is the preview of game id at p: the one kept, the one being drawn,
// or else one drawn now, once charge agrees to pay for it. It waits for
// a place to draw as long as ctx lasts, at most c.wait, and else gives
// errPreviewBusy.
func (c *previews) image(ctx context.Context, id string, p pagePosition, charge func() error) ([]byte, error) {
	key := previewKey{id, p.version}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c.mu.Lock()
		if png := c.lookup(key); png != nil {
			c.mu.Unlock()
			return png, nil
		}
		d := c.drawing[key]
		if d == nil {
			// Charged under the lock, so that those who come meanwhile
			// wait for this drawing instead of paying for another.
			if err := charge(); err != nil {
				c.mu.Unlock()
				return nil, err
			}
			d = &drawing{done: make(chan struct{})}
			c.drawing[key] = d
			c.mu.Unlock()
			c.lead(ctx, key, d, p)
			return d.png, d.err
		}
		d.shared++
		c.mu.Unlock()
		select {
		case <-d.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if !errors.Is(d.err, context.Canceled) && !errors.Is(d.err, context.DeadlineExceeded) {
			return d.png, d.err
		}
		// The request that was to draw went away before it could: this
		// one draws instead.
	}
}

// lead draws d for the requests that wait for it, and keeps it.
func (c *previews) lead(ctx context.Context, key previewKey, d *drawing, p pagePosition) {
	// Should drawing panic, the requests waiting are let go all the same.
	d.err = errPreviewFailed
	defer func() {
		c.mu.Lock()
		delete(c.drawing, key)
		if d.err == nil {
			c.add(key, d.png)
		}
		c.mu.Unlock()
		close(d.done)
	}()
	d.png, d.err = c.drawBounded(ctx, p)
}

// drawBounded draws p once a slot is free.
func (c *previews) drawBounded(ctx context.Context, p pagePosition) ([]byte, error) {
	select {
	case c.queue <- struct{}{}:
	default:
		return nil, errPreviewBusy
	}
	defer func() { <-c.queue }()
	t := time.NewTimer(c.wait)
	defer t.Stop()
	select {
	case c.slots <- struct{}{}:
	case <-t.C:
		return nil, errPreviewBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.slots }()
	return c.draw(p.game, p.view)
}

// lookup is the picture kept for key, marked as the last one used; c.mu
// is held.
func (c *previews) lookup(key previewKey) []byte {
	e := c.entry(key)
	if e == nil {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*previewImage).png
}

// kept reports the size of the picture kept for key, if there is one,
// without counting it as used: nobody is sent it.
func (c *previews) kept(key previewKey) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entry(key)
	if e == nil {
		return 0, false
	}
	return len(e.Value.(*previewImage).png), true
}

// entry is the element of the picture kept for key, or nil; c.mu is held.
func (c *previews) entry(key previewKey) *list.Element {
	if e := c.byID[key.id]; e != nil && e.Value.(*previewImage).version == key.version {
		return e
	}
	return nil
}

// add keeps png for key, in place of an older version of the game, and
// drops the pictures left alone longest beyond the cache's bounds; c.mu is
// held.
func (c *previews) add(key previewKey, png []byte) {
	if e := c.byID[key.id]; e != nil {
		c.remove(e)
	}
	c.byID[key.id] = c.order.PushFront(&previewImage{key, png})
	c.size += len(png)
	for c.order.Len() > c.most || c.size > c.mostSize {
		c.remove(c.order.Back())
	}
}

func (c *previews) remove(e *list.Element) {
	p := c.order.Remove(e).(*previewImage)
	delete(c.byID, p.id)
	c.size -= len(p.png)
}

// previewImage is the PNG of a game's position for link previews.
func (s *Server) previewImage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	p, err := within(r.Context(), s.hub, id, func(g *liveGame) (pagePosition, error) { return g.pagePosition(), nil })
	if err != nil {
		s.previewRefused(w, r, err)
		return
	}
	etag := `"` + id + "-" + strconv.Itoa(p.version) + `"`
	// Only a picture may be kept: what fails now may be drawn later.
	cacheable := func() {
		w.Header().Set("ETag", etag)
		w.Header().Set("Cache-Control", previewCaching)
	}
	if noneMatch(r.Header.Get("If-None-Match"), etag) {
		cacheable()
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if r.Method == http.MethodHead {
		s.previewHead(w, previewKey{id, p.version}, cacheable)
		return
	}
	// Drawing costs as much of the address's reads as a second brings
	// (the request itself paid one): one address draws about one picture
	// a second, while a picture kept costs a read like any page.
	charge := func() error {
		if !s.reads.take(clientKey(r), s.hub.now(), s.reads.rate) {
			return errPreviewCost
		}
		return nil
	}
	img, err := s.previews.image(r.Context(), id, p, charge)
	if err == errPreviewCost || err == errPreviewBusy {
		// Neither is the picture, to keep, nor a failure, to log.
		if err == errPreviewCost {
			s.tooMany(w, r)
			return
		}
		lang := s.site.Lang(r)
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Retry-After", strconv.Itoa(previewRetry))
		s.render(w, r, http.StatusServiceUnavailable, "error", lang, s.site.T(lang, "error.bad_request"), s.site.T(lang, "error.preview_busy"))
		return
	}
	if err != nil {
		if r.Context().Err() != nil {
			return // nobody is left to answer
		}
		s.log.Error("drawing a preview", "game", id, "err", err)
		s.previewRefused(w, r, refuse(http.StatusInternalServerError, "internal", "the position could not be drawn"))
		return
	}
	cacheable()
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Content-Length", strconv.Itoa(len(img)))
	w.Write(img)
}

// noneMatch reports whether an If-None-Match header names etag, as HTTP
// compares them there (RFC 9110, 13.1.2): weakly, so that a proxy that
// made the tag weak as it compressed still gets its 304, and in a list,
// as a cache holding several versions asks.
func noneMatch(header, etag string) bool {
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimSpace(tag)
		if tag == "*" || strings.TrimPrefix(tag, "W/") == etag {
			return true
		}
	}
	return false
}

// previewRefused answers a preview that cannot be had with a line in the
// asker's language, as any file of the site that is not there, and keeps
// it out of caches: the game may be there later (a link cut short, then
// mended), or the drawing succeed.
func (s *Server) previewRefused(w http.ResponseWriter, r *http.Request, err error) {
	e := asError(err)
	lang := s.site.Lang(r)
	text := e.Message
	switch {
	case e == errNotFound:
		text = s.site.T(lang, "error.not_found")
	case e.Status >= http.StatusInternalServerError:
		text = s.site.T(lang, "error.internal")
	}
	noteCause(w, e, err)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Language", lang)
	http.Error(w, text, e.Status)
}

// Short: the position changes with the next move, and the address with
// its version.
const previewCaching = "public, max-age=60"

// previewHead answers a HEAD for a preview as its GET would, but draws
// nothing: net/http would only throw the picture away, after it took a
// place to draw and a second of the address's reads. The picture's ETag
// and length are told only once it is kept, since drawing it may yet fail.
func (s *Server) previewHead(w http.ResponseWriter, key previewKey, cacheable func()) {
	w.Header().Set("Content-Type", "image/png")
	if size, ok := s.previews.kept(key); ok {
		cacheable()
		w.Header().Set("Content-Length", strconv.Itoa(size))
	} else {
		w.Header().Set("Cache-Control", previewCaching)
	}
	w.WriteHeader(http.StatusOK)
}
