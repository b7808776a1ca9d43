package server

import (
	"bytes"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"bretter/game"
	"bretter/internal/web"
)

// language picks the page's language. A ?lang= choice is remembered in a
// cookie and the browser is sent back to the clean address; then the
// second result is false and the caller stops.
func (s *Server) language(w http.ResponseWriter, r *http.Request) (string, bool) {
	if lang := r.URL.Query().Get("lang"); lang != "" && s.site.Known(lang) {
		http.SetCookie(w, &http.Cookie{Name: "lang", Value: lang, Path: "/", MaxAge: 400 * 24 * 3600,
			Secure: secureRequest(r), SameSite: http.SameSiteLaxMode})
		q := r.URL.Query()
		q.Del("lang")
		u := localPath(r.URL.EscapedPath())
		if len(q) > 0 {
			u += "?" + q.Encode()
		}
		http.Redirect(w, r, u, http.StatusSeeOther)
		return "", false
	}
	return s.site.Lang(r), true
}

// localPath makes p a path of this site for a Location header: a browser
// reads "//host" or "/\host" as another site.
func localPath(p string) string {
	return "/" + strings.TrimLeft(p, "/\\")
}

func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, page, lang, title string, data any) {
	var b bytes.Buffer
	if err := s.site.Render(&b, page, lang, title, r.URL.Path, data); err != nil {
		s.log.Error("rendering a page", "page", page, "err", err)
		http.Error(w, "the page could not be made", http.StatusInternalServerError)
		return
	}
	if csp := w.Header().Get("Content-Security-Policy"); csp != "" && (page == "game" || page == "import") {
		// A game page carries its styles, and it and the import page the
		// one for a browser without scripts (see web.Site.StyleHashes).
		game := ""
		if d, ok := data.(gamePageData); ok {
			game = d.Game
		}
		w.Header().Set("Content-Security-Policy", strings.Replace(csp, "style-src 'self'", "style-src 'self' "+s.site.StyleHashes(game), 1))
	}
	// Pages carry the board and the messages: a fifth of their size
	// compressed.
	body, coding := b.Bytes(), web.Encoding(r)
	if coding != "" {
		body = web.Compress(body, coding, web.PerRequest)
	}
	sendPage(w, status, lang, coding, body)
}

// sendPage writes a page made in lang, body in coding ("" for none).
func sendPage(w http.ResponseWriter, status int, lang, coding string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Language", lang)
	h.Add("Vary", "Accept-Encoding")
	if coding != "" {
		h.Set("Content-Encoding", coding)
	}
	w.WriteHeader(status)
	w.Write(body)
}

func (s *Server) errorPage(w http.ResponseWriter, r *http.Request, lang string, err error) {
	e := asError(err)
	title, text := s.site.T(lang, "error.bad_request"), e.Message
	switch {
	case e == errNotFound:
		title, text = s.site.T(lang, "error.not_found"), s.site.T(lang, "error.not_found_text")
	case e.Status == http.StatusNotFound:
		title, text = s.site.T(lang, "error.page_not_found"), s.site.T(lang, "error.page_not_found_text")
	case e.Code == "internal":
		text = s.site.T(lang, "error.internal")
	}
	noteCause(w, e, err)
	// What is refused now may be there later, and the page is in the
	// language of whoever asked.
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, e.Status, "error", lang, title, text)
}

// tooMany answers a request refused for coming too often with the site's
// page that says so. A flood is refused a request at a time: making the
// page for each, with the catalogue it carries, and compressing it would
// keep a processor busy for one address, so each language's page is made
// once, in each coding, and sent as made.
func (s *Server) tooMany(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", "1")
	lang, coding := s.site.Lang(r), web.Encoding(r)
	p := s.refusals[refusalKey{lang, coding}]
	if p == nil {
		// Every language and coding has its place (refusalPages); one
		// added without it is refused as any other page is.
		s.errorPage(w, r, lang, refuse(http.StatusTooManyRequests, "rate", "%s", s.site.T(lang, "error.rate")))
		return
	}
	p.once.Do(func() { p.body, p.err = s.tooManyPage(lang, coding) })
	if p.err != nil {
		s.log.Error("rendering a page", "page", "error", "err", p.err)
		http.Error(w, "the page could not be made", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Length", strconv.Itoa(len(p.body)))
	sendPage(w, http.StatusTooManyRequests, lang, coding, p.body)
}

// refusalKey is a page of refusal's language and content coding.
type refusalKey struct{ lang, coding string }

// madePage is a page made once, on its first request.
type madePage struct {
	once sync.Once
	body []byte
	err  error
}

// refusalPages has a place for the page of refusal in every language
// and coding, made when first sent.
func refusalPages(langs []string) map[refusalKey]*madePage {
	out := map[refusalKey]*madePage{}
	for _, lang := range langs {
		for _, coding := range []string{"", web.Brotli, web.GZip} {
			out[refusalKey{lang, coding}] = &madePage{}
		}
	}
	return out
}

// tooManyPage makes the page of tooMany. Its language links name no
// path: "?lang=de" leads a browser back to the address it asked for, as
// every other page's links do.
func (s *Server) tooManyPage(lang, coding string) ([]byte, error) {
	var b bytes.Buffer
	if err := s.site.Render(&b, "error", lang, s.site.T(lang, "error.bad_request"), "", s.site.T(lang, "error.rate")); err != nil {
		return nil, err
	}
	if coding == "" {
		return b.Bytes(), nil
	}
	return web.Compress(b.Bytes(), coding, web.Once), nil
}

var errNoPage = refuse(http.StatusNotFound, "not_found", "no such page")

// unknown answers what no route of the site takes, outside the API: a
// path it has with another method, or no such path. ServeMux would answer
// in plain English.
func (s *Server) unknown(w http.ResponseWriter, r *http.Request) {
	if !s.unknownRead(w, r) {
		return
	}
	lang := s.site.Lang(r)
	allow := s.allowed(r)
	if len(allow) == 0 {
		s.errorPage(w, r, lang, errNoPage)
		return
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	s.errorPage(w, r, lang, refuse(http.StatusMethodNotAllowed, "method_not_allowed", "%s", s.site.T(lang, "error.method")))
}

func (s *Server) home(w http.ResponseWriter, r *http.Request) {
	lang, ok := s.language(w, r)
	if !ok {
		return
	}
	s.render(w, r, http.StatusOK, "home", lang, s.site.T(lang, "home.title"), nil)
}

func (s *Server) board(w http.ResponseWriter, r *http.Request) {
	lang, ok := s.language(w, r)
	if !ok {
		return
	}
	g, found := s.games[r.PathValue("game")]
	if !found {
		s.errorPage(w, r, lang, errNoPage)
		return
	}
	s.render(w, r, http.StatusOK, "board", lang, s.site.T(lang, "game."+g.Name+".name"), g)
}

// gamePageData is what the game page and its script start from.
type gamePageData struct {
	ID        string `json:"id"`
	Game      string `json:"game"`
	Seat      string `json:"seat"`
	Waiting   bool   `json:"waiting"`
	InviteURL string `json:"-"`
	PlayerURL string `json:"-"`
	WatchURL  string `json:"-"`
	Invite    string `json:"invite,omitempty"` // token to join with, on the invitation page
	Used      bool   `json:"used,omitempty"`   // the invitation was used already
	// Clock says the game has clocks: only then does the page load the
	// clocks' script.
	Clock bool `json:"clock,omitempty"`
	// TimeControl says the clock's terms in words, in the page itself:
	// the running clocks show only the time left.
	TimeControl string `json:"-"`
	// Choices are the game's options with this game's values as their
	// defaults, for the terms of a new game.
	Choices []game.Option `json:"-"`
	// The position, drawn into the page and given to its script, and what
	// a link preview shows.
	Board template.HTML `json:"-"`
	View  any           `json:"view,omitempty"`
	Meta  pageMeta      `json:"-"`
	// Howto asks for the three lines on how to play, for a friend who came
	// through the invitation and has hardly begun.
	Howto bool `json:"-"`
	// InviteQR is the invitation as a QR code, on the creator's page.
	InviteQR template.HTML `json:"-"`
	// Computer says the opponent is the computer: no chat, and no push
	// notices for moves that come within seconds.
	Computer bool `json:"-"`
	// Alone says the game ended before the friend came: nobody will
	// read a chat line, and there is no turn to be told of.
	Alone bool `json:"-"`
	// Notice is what the page says at once of the address it was
	// asked for (an invitation that is not this game's).
	Notice string `json:"-"`
	// Over says the game had ended when the page was made: stepping
	// through it ends at its final position, not at a game in play.
	Over bool `json:"-"`
	pos  pagePosition
	// free says a seat is still free: an invitation not yet used.
	free bool
	// invited says the address carries the game's invitation.
	invited bool
}

// pageData finds the viewer's seat from the cookie and the links to show.
func (s *Server) pageData(r *http.Request, id string) (gamePageData, error) {
	return within(r.Context(), s.hub, id, func(g *liveGame) (gamePageData, error) {
		d := gamePageData{ID: g.rec.ID, Game: g.rec.Game, Waiting: g.rec.Status == "waiting", Over: g.rec.Status == "over", WatchURL: baseURL(r) + watchPath(id), pos: g.pagePosition(),
			Clock: !g.rec.Clock.None(), free: g.rec.WhiteHash == nil || g.rec.BlackHash == nil, invited: g.invitedBy(r.PathValue("token"))}
		secret := s.secret(r, id)
		d.Seat = g.seatOf(secret)
		if d.Seat == "" {
			return d, nil
		}
		d.PlayerURL = baseURL(r) + playerPath(id, secret)
		d.Computer = g.rec.Computer != ""
		d.Alone = d.free && g.rec.Status == "over"
		d.Howto = d.Seat != g.rec.Creator && g.rec.Computer == "" && len(g.moves) < 4
		for _, o := range s.games[g.rec.Game].Options {
			o.Default = g.rec.Options[o.Name]
			d.Choices = append(d.Choices, o)
		}
		if d.Seat == g.rec.Creator && d.Waiting {
			d.InviteURL = baseURL(r) + invitePath(id, secret)
		}
		return d, nil
	})
}

func (s *Server) gamePage(w http.ResponseWriter, r *http.Request) {
	lang, ok := s.language(w, r)
	if !ok {
		return
	}
	s.foldSeats(w, r)
	d, err := s.pageData(r, r.PathValue("id"))
	if err != nil {
		s.errorPage(w, r, lang, err)
		return
	}
	s.dress(r, lang, &d)
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, http.StatusOK, "game", lang, s.site.T(lang, "game."+d.Game+".name"), d)
}

// seatLink is a player's private link: it keeps the seat for this
// browser and goes to the game, so that the secret leaves the address
// bar. A browser that already holds the other seat of the game is asked
// first: another site could send a player to the opponent's link, and the
// player would silently change sides.
func (s *Server) seatLink(w http.ResponseWriter, r *http.Request) {
	lang, ok := s.language(w, r)
	if !ok {
		return
	}
	id, secret := r.PathValue("id"), r.PathValue("secret")
	type sides struct{ link, held string }
	seats, err := within(r.Context(), s.hub, id, func(g *liveGame) (sides, error) {
		link := g.seatOf(secret)
		if link == "" {
			return sides{}, refuse(http.StatusForbidden, "forbidden", "%s", s.site.T(lang, "error.seat_link"))
		}
		return sides{link: link, held: g.seatOf(s.secret(r, id))}, nil
	})
	if err != nil {
		s.errorPage(w, r, lang, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if seats.held != "" && seats.held != seats.link {
		s.render(w, r, http.StatusOK, "switch", lang, s.site.T(lang, "switch.title"), switchData{
			Game: watchPath(id), Held: seats.held, Link: seats.link, Action: r.URL.Path,
		})
		return
	}
	s.holdSeat(w, r, id, secret)
	http.Redirect(w, r, watchPath(id), http.StatusSeeOther)
}

// switchData is what the question "take the other seat?" shows.
type switchData struct {
	Game       string // the game page, to stay in the seat held
	Held, Link string // the seat held and the seat of the link
	Action     string // where to post to switch
}

// switchSeat answers the question of seatLink with "take this seat". Like
// every post, it is refused when another site sends it (server.go).
func (s *Server) switchSeat(w http.ResponseWriter, r *http.Request) {
	if !s.moves.allow(clientKey(r), s.hub.now()) {
		s.tooMany(w, r)
		return
	}
	lang := s.site.Lang(r)
	id, secret := r.PathValue("id"), r.PathValue("secret")
	err := s.hub.with(r.Context(), id, func(g *liveGame) error {
		if g.seatOf(secret) == "" {
			return refuse(http.StatusForbidden, "forbidden", "%s", s.site.T(lang, "error.seat_link"))
		}
		return nil
	})
	if err != nil {
		s.errorPage(w, r, lang, err)
		return
	}
	s.holdSeat(w, r, id, secret)
	http.Redirect(w, r, watchPath(id), http.StatusSeeOther)
}

// invitePage is the invitation link. The page takes the free seat with a
// script, so that a messenger fetching the link for a preview takes none.
// Whoever already has a seat goes to it; once both seats are taken the
// link shows the game to watch. A link that is not the game's invitation
// (mistyped, cut short) says so at once, as joining with it would, and
// shows the game to watch: in whatever state the game is, it tells
// nothing of the invitation.
func (s *Server) invitePage(w http.ResponseWriter, r *http.Request) {
	lang, ok := s.language(w, r)
	if !ok {
		return
	}
	id := r.PathValue("id")
	d, err := s.pageData(r, id)
	if err != nil {
		s.errorPage(w, r, lang, err)
		return
	}
	if d.Seat != "" {
		http.Redirect(w, r, watchPath(id), http.StatusSeeOther)
		return
	}
	status := http.StatusOK
	if !d.invited {
		status, d.Notice = http.StatusForbidden, s.site.T(lang, "join.bad_invite")
	}
	// A used invitation still carries its token: the browser that used
	// it may ask again with its join key, if its answer was lost. One to
	// a game that ended before anyone took the seat (called off) gives
	// nothing: the page says only how the game ended.
	if d.invited && (!d.free || d.Waiting) {
		d.Used = !d.Waiting
		d.Invite = r.PathValue("token")
	}
	s.dress(r, lang, &d)
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, status, "game", lang, s.site.T(lang, "game."+d.Game+".name"), d)
}

// nextGame follows "new game, same friend" from an old game to the new
// one, taking the player's seat along.
func (s *Server) nextGame(w http.ResponseWriter, r *http.Request) {
	lang := s.site.Lang(r)
	id := r.PathValue("id")
	secret := s.secret(r, id)
	type follower struct {
		next   string
		seated bool
	}
	f, err := within(r.Context(), s.hub, id, func(g *liveGame) (follower, error) {
		return follower{next: g.rec.Next, seated: g.seatOf(secret) != ""}, nil
	})
	next, seated := f.next, f.seated
	if err == nil && next == "" {
		err = refuse(http.StatusNotFound, "not_found", "this game has no follower yet")
	}
	if err != nil {
		s.errorPage(w, r, lang, err)
		return
	}
	if seated {
		s.holdSeat(w, r, next, secret)
	}
	http.Redirect(w, r, watchPath(next), http.StatusSeeOther)
}

// importPage reads a record pasted or chosen as a file, to replay it.
func (s *Server) importPage(w http.ResponseWriter, r *http.Request) {
	lang, ok := s.language(w, r)
	if !ok {
		return
	}
	s.render(w, r, http.StatusOK, "import", lang, s.site.T(lang, "import.title"), nil)
}
