package server

import (
	"bytes"
	"html/template"
	"net/http"
	"strconv"
	"sync"

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
}

func (g *liveGame) pagePosition() pagePosition {
	return pagePosition{game: g.rec.Game, status: g.rec.Status, toMove: g.state.ToMove().String(),
		winner: g.rec.Winner, reason: g.rec.Reason, moves: len(g.moves), version: len(g.events), view: g.view}
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
		args := []any{"winner", t("colour." + p.winner)}
		if p.winner != "none" {
			args = append(args, "loser", t("colour."+otherSeat(p.winner)))
		}
		state = t("result."+p.reason, args...)
		if state == "result."+p.reason {
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
	}
	if invited {
		m.Description = t("preview.invited", "game", name)
		// No address of its own: the watch page's would lead the friend
		// where a messenger takes it as the card's link, and the
		// invitation's is not to be kept by anyone but the friend.
		m.URL = ""
	}
	return m
}

// dress adds the position's picture and preview to a game page.
func (s *Server) dress(r *http.Request, lang string, d *gamePageData) {
	d.Board = s.boardSVG(d.pos)
	d.View = d.pos.view
	d.Meta = s.meta(r, lang, d.pos, d.Invite != "")
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

// previews keeps the last PNGs drawn, by game and version: a link shared
// in a busy group is fetched by every member's messenger.
type previews struct {
	mu    sync.Mutex
	cache map[string]previewImage
}

type previewImage struct {
	version int
	png     []byte
}

// maxPreviews bounds the cache; past it, it starts afresh.
const maxPreviews = 256

func (c *previews) get(id string, version int) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.cache[id]; ok && p.version == version {
		return p.png
	}
	return nil
}

func (c *previews) put(id string, version int, png []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cache == nil || len(c.cache) >= maxPreviews {
		c.cache = map[string]previewImage{}
	}
	c.cache[id] = previewImage{version, png}
}

// previewImage is the PNG of a game's position for link previews.
func (s *Server) previewImage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	p, err := within(r.Context(), s.hub, id, func(g *liveGame) (pagePosition, error) { return g.pagePosition(), nil })
	if err != nil {
		http.Error(w, asError(err).Message, asError(err).Status)
		return
	}
	etag := `"` + id + "-" + strconv.Itoa(p.version) + `"`
	w.Header().Set("ETag", etag)
	// Short: the position changes with the next move, and the address
	// with its version.
	w.Header().Set("Cache-Control", "public, max-age=60")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	img := s.previews.get(id, p.version)
	if img == nil {
		var b bytes.Buffer
		if err := web.BoardPNG(&b, p.game, p.view, previewWidth, previewHeight); err != nil {
			s.log.Error("drawing a preview", "game", id, "err", err)
			http.Error(w, "the position could not be drawn", http.StatusInternalServerError)
			return
		}
		img = b.Bytes()
		s.previews.put(id, p.version, img)
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Content-Length", strconv.Itoa(len(img)))
	w.Write(img)
}
