// Package server is the site: HTML pages, the JSON API and the live
// WebSocket protocol. It knows no game's rules; it asks the engines whether
// a move is legal, stores it, and tells every open page.
package server

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"path"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"bretter/ai"
	"bretter/game"
	"bretter/internal/web"
)

// Config is what a Server is built from.
type Config struct {
	Store Store
	Games []game.Game
	Site  *web.Site
	Log   *slog.Logger
	// Limits per client address; zero values take the defaults.
	CreatesPerMinute float64
	MovesPerSecond   float64
	ConnsPerClient   int
	ChatsPerMinute   float64
	LivesPerMinute   float64 // live connections opened
	ReadsPerSecond   float64 // pages and API reads
	ImportsPerMinute float64 // records checked by POST /api/records
	// MaxLive bounds the live connections of the whole instance (0: no
	// bound). Beyond it a new one gets 503 with Retry-After, so that the
	// descriptors left keep pages and /healthz answering.
	MaxLive int
	// ConnsPerAddress bounds the TCP connections one address holds open,
	// whatever they do; trusted proxies are exempt (see Listener).
	ConnsPerAddress int
	// ReadTimeout bounds reading a request's body, WriteTimeout writing
	// its answer; zero values take the defaults. Live connections, once
	// upgraded, keep themselves alive by pings instead.
	ReadTimeout  time.Duration
	WriteTimeout time.Duration
	// PublicURL (scheme://host) is where people reach the site; links
	// are built from it, and with https cookies are Secure and browsers
	// are told to keep to HTTPS.
	PublicURL string
	// TrustedProxies may say, by X-Forwarded-For, X-Forwarded-Proto or
	// Forwarded, who the client is and whether it spoke HTTPS.
	TrustedProxies []netip.Prefix
	// PushServices are the address prefixes that Web Push may send to;
	// nil means the browsers' own services (PushServices).
	PushServices []string
	// PushContact is who the push services may write to about this site:
	// an e-mail address or an https URL (default: PublicURL).
	PushContact string
	// Bus connects this instance to the others of the site; nil when it
	// runs alone.
	Bus Bus
	// Ready are checks /readyz makes besides the store's, by name (the
	// bus between instances, say).
	Ready map[string]func(context.Context) error
}

// Server handles every request of the site.
type Server struct {
	hub     *hub
	site    *web.Site
	log     *slog.Logger
	games   map[string]game.Game
	order   []game.Game // as configured, for a stable order
	creates *limiter
	moves   *limiter
	chats   *limiter
	lives   *limiter // live connections opened
	reads   *limiter
	imports *limiter
	push    *pusher
	// holdings keeps the seats each browser holds.
	holdings holdingStore
	conns    *counter // live connections per address
	liveNow  atomic.Int64
	maxLive  int64
	tcp      *counter // TCP connections per address, by Listener

	publicURL     string
	proxies       []netip.Prefix
	crossSite     *http.CrossOriginProtection
	acceptOptions *websocket.AcceptOptions
	readTimeout   time.Duration
	writeTimeout  time.Duration
	mux           *http.ServeMux

	previews *previews
	// refusals are the pages that refuse requests for coming too often,
	// by language and coding (see tooMany).
	refusals map[refusalKey]*madePage
}

// Limits on what a client may send.
const (
	maxBody           = 16 << 10 // bytes of a JSON request or form
	maxMessage        = 4 << 10  // bytes of a WebSocket message
	maxConnsPerClient = 200      // open game pages per address (a school shares one)
	// TCP connections per address: its game pages and a browser's few
	// other connections.
	maxConnsPerAddress = maxConnsPerClient + 56
	bodyTimeout        = 30 * time.Second
	answerTimeout      = 60 * time.Second // reading the body, working, writing the answer
)

// New builds the server and its routes.
func New(cfg Config) *Server {
	games := make(map[string]game.Game, len(cfg.Games))
	for _, g := range cfg.Games {
		games[g.Name] = g
	}
	// Zero values take the defaults.
	cfg.CreatesPerMinute = cmp.Or(cfg.CreatesPerMinute, 30)
	cfg.MovesPerSecond = cmp.Or(cfg.MovesPerSecond, 30)
	cfg.ChatsPerMinute = cmp.Or(cfg.ChatsPerMinute, 30)
	cfg.ConnsPerClient = cmp.Or(cfg.ConnsPerClient, maxConnsPerClient)
	cfg.ConnsPerAddress = cmp.Or(cfg.ConnsPerAddress, maxConnsPerAddress)
	cfg.LivesPerMinute = cmp.Or(cfg.LivesPerMinute, 120)
	cfg.ReadsPerSecond = cmp.Or(cfg.ReadsPerSecond, 20)
	cfg.ImportsPerMinute = cmp.Or(cfg.ImportsPerMinute, 30)
	cfg.ReadTimeout = cmp.Or(cfg.ReadTimeout, bodyTimeout)
	cfg.WriteTimeout = cmp.Or(cfg.WriteTimeout, answerTimeout)
	s := &Server{
		hub:     newHub(cfg.Store, games, cfg.Log),
		site:    cfg.Site,
		log:     cfg.Log,
		games:   games,
		order:   cfg.Games,
		creates: newLimiter(cfg.CreatesPerMinute/60, cfg.CreatesPerMinute/3),
		moves:   newLimiter(cfg.MovesPerSecond, 2*cfg.MovesPerSecond),
		chats:   newLimiter(cfg.ChatsPerMinute/60, cfg.ChatsPerMinute/6),
		// A page that lost its connection comes back at once; a school's
		// hundred pages come back together after a blip.
		lives:    newLimiter(cfg.LivesPerMinute/60, cfg.LivesPerMinute),
		reads:    newLimiter(cfg.ReadsPerSecond, 6*cfg.ReadsPerSecond),
		imports:  newLimiter(cfg.ImportsPerMinute/60, cfg.ImportsPerMinute/3),
		conns:    newCounter(cfg.ConnsPerClient),
		maxLive:  int64(cfg.MaxLive),
		tcp:      newCounter(cfg.ConnsPerAddress),
		holdings: cfg.Store,

		publicURL:    strings.TrimSuffix(cfg.PublicURL, "/"),
		proxies:      cfg.TrustedProxies,
		crossSite:    http.NewCrossOriginProtection(),
		readTimeout:  cfg.ReadTimeout,
		writeTimeout: cfg.WriteTimeout,
		mux:          http.NewServeMux(),
		refusals:     refusalPages(cfg.Site.Langs()),
	}
	if s.publicURL != "" {
		// Behind a proxy the Host the site sees may not be the one the
		// browser named.
		if err := s.crossSite.AddTrustedOrigin(s.publicURL); err != nil {
			panic("the public URL was not checked: " + err.Error())
		}
		_, host, _ := strings.Cut(s.publicURL, "://")
		s.acceptOptions = &websocket.AcceptOptions{OriginPatterns: []string{host}}
	}
	// One core is left to the relay of people's moves, so that however
	// many games wait for the computer, nobody waits for their friend's move.
	if cfg.PushServices == nil {
		cfg.PushServices = PushServices
	}
	cfg.PushContact = pushContact(cfg.PushContact, s.publicURL)
	s.hub.metrics = newMetrics(s.hub, cfg.Ready)
	// A name of its own for each start, so that the instance knows its
	// own news whatever it is called in the logs.
	s.hub.bus, s.hub.instance = cfg.Bus, newID()
	s.hub.lag = s.ObserveBusLag
	s.push = newPusher(cfg.Store, cfg.Site, cfg.Log, cfg.PushServices, cfg.PushContact)
	if cfg.Bus == nil {
		s.push.knowSubscribers()
	}
	s.hub.notify = s.push.tell
	s.hub.keepNotices = s.push.carry
	s.hub.searchers = newSearchers(ai.DefaultNodes * ai.NodeBytes)
	s.hub.thinkers = newThinkers(max(1, runtime.NumCPU()-1), s.hub.computerMove, cfg.Log)
	// Previews are drawn on half the processors at most (one at least),
	// so that however many links are fetched, pages, moves and the
	// computer keep the other half. Four requests a slot may wait: about
	// as many drawings as finish within the wait.
	slots := max(1, runtime.NumCPU()/2)
	s.previews = newPreviews(slots, 4*slots)
	s.routes()
	return s
}

func (s *Server) routes() {
	m := s.mux
	m.Handle("GET /static/", s.site.Static())
	m.Handle("GET /favicon.ico", s.site.Favicon())
	m.HandleFunc("GET /{$}", s.home)
	m.HandleFunc("GET /{game}", s.board)
	m.HandleFunc("POST /games", s.createForm)
	m.HandleFunc("GET /g/{id}", s.gamePage)
	m.HandleFunc("GET /g/{id}/seat/{secret}", s.seatLink)
	m.HandleFunc("POST /g/{id}/seat/{secret}", s.switchSeat)
	m.HandleFunc("GET /my", s.myGames)
	m.HandleFunc("GET /g/{id}/join/{token}", s.invitePage)
	m.HandleFunc("GET /g/{id}/next", s.nextGame)
	m.HandleFunc("GET /g/{id}/preview.png", s.previewImage)
	m.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok\n")) })
	m.HandleFunc("GET /readyz", s.ready)
	m.Handle("GET /metrics", s.hub.metrics.handler())

	m.HandleFunc("POST /api/games", s.apiCreate)
	m.HandleFunc("GET /api/games/{id}", s.apiGet)
	m.HandleFunc("POST /api/games/{id}/join", s.charged(s.apiJoin))
	m.HandleFunc("POST /api/games/{id}/moves", s.apiMove)
	m.HandleFunc("POST /api/games/{id}/resign", s.charged(s.apiResign))
	m.HandleFunc("POST /api/games/{id}/rematch", s.charged(s.apiRematch))
	m.HandleFunc("DELETE /api/games/{id}/rematch", s.charged(s.apiWithdrawRematch))
	m.HandleFunc("POST /api/games/{id}/offer", s.charged(s.apiOffer))
	m.HandleFunc("POST /api/games/{id}/answer", s.charged(s.apiAnswer))
	m.HandleFunc("POST /api/games/{id}/name", s.charged(s.apiName))
	m.HandleFunc("POST /api/games/{id}/chat", s.apiChat)
	m.HandleFunc("GET /api/push/key", s.apiPushKey)
	m.Handle("GET /sw.js", s.site.ServiceWorker())
	m.HandleFunc("GET /api/games/{id}/push", s.apiSubscribed)
	m.HandleFunc("POST /api/games/{id}/push", s.charged(s.apiSubscribe))
	m.HandleFunc("DELETE /api/games/{id}/push", s.charged(s.apiUnsubscribe))
	m.HandleFunc("GET /api/games/{id}/ws", s.live)
	m.HandleFunc("GET /api/games/{id}/positions", s.apiPositions)
	m.HandleFunc("GET /api/games/{id}/record", s.apiRecord)
	m.HandleFunc("POST /api/records", s.apiImport)
	m.HandleFunc("/api/", s.apiUnknown)
	m.HandleFunc("GET /import", s.importPage)
	m.HandleFunc("/", s.unknown)
}

// charged charges a request that changes a game to the moves' budget,
// as the live connection charges its messages, before h handles it:
// whether or not it is carried out, it costs the site work.
func (s *Server) charged(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.moves.allow(clientKey(r), s.hub.now()) {
			writeError(w, errRate)
			return
		}
		h(w, r)
	}
}

// subresource reports whether r asks for a script or a style sheet of
// the site: these are never shown as a document, and a browser ignores
// the policies that only a document (or a worker, and ours is not a
// static file) heeds. Left out, they no longer make up half the bytes of
// each small script a game page loads. An answer that finds no file is
// no script: it keeps them.
func (s *Server) subresource(r *http.Request) bool {
	ext := path.Ext(r.URL.Path)
	return (ext == ".js" || ext == ".css") && s.site.StaticFile(r.URL.Path)
}

// ServeHTTP adds the security headers every response carries, refuses
// state changes from other sites, limits request bodies, reads and the
// time to read and answer, logs the request by its route (never its
// path, which may hold a secret), logs every 5xx with its cause and turns
// a panic into a 500.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	o := s.originOf(r)
	r = withOrigin(r, o)
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	// Addresses may hold a seat's secret: no other site is told them.
	// Not "no-referrer", under which a browser sends the site's own
	// forms with "Origin: null", refused as another site's by a browser
	// that sends no Sec-Fetch-Site. (A module's imports follow its own.)
	h.Set("Referrer-Policy", "same-origin")
	if !s.subresource(r) {
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "+
			"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
	}
	if o.secure {
		h.Set("Strict-Transport-Security", "max-age=31536000")
	}
	limit := int64(maxBody)
	if r.URL.Path == "/api/records" {
		limit = maxRecord
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	// A body dribbled in slowly, or an answer never read, holds a
	// connection. A live connection drops both deadlines when it is
	// upgraded (hijacking clears them) and is kept by its pings instead.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(start.Add(s.readTimeout))
	rc.SetWriteDeadline(start.Add(s.writeTimeout))
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic", "route", r.Pattern, "panic", p, "stack", string(debug.Stack()))
			http.Error(rec, "internal error", http.StatusInternalServerError)
		}
		if rec.status >= 500 && rec.cause != nil {
			s.log.Error("request failed", "route", r.Pattern, "status", rec.status, "err", rec.cause)
		}
		if r.Pattern != "GET /static/" {
			s.log.Debug("request", "route", r.Pattern, "status", rec.status, "ms", time.Since(start).Milliseconds())
		}
	}()
	if isLivePath(r.URL.Path) && (r.Method != http.MethodGet || !isUpgrade(r)) {
		notUpgraded(rec)
		return
	}
	if err := s.crossSite.Check(r); err != nil {
		s.refuseCrossSite(rec, r)
		return
	}
	if s.limitsReads(r) && !s.read(rec, r) {
		return
	}
	s.mux.ServeHTTP(rec, r)
}

// read charges r to its address's reads, and answers it with a refusal
// if they are spent.
func (s *Server) read(w http.ResponseWriter, r *http.Request) bool {
	if s.reads.allow(clientKey(r), s.hub.now()) {
		return true
	}
	w.Header().Set("Retry-After", "1")
	if strings.HasPrefix(r.URL.Path, "/api/") {
		writeError(w, errRate)
	} else {
		s.tooMany(w, r)
	}
	return false
}

// unknownRead charges a request that no route takes as a read, whatever
// its method: changes are limited where they are made, and this one
// changes nothing. A GET or HEAD was charged already.
func (s *Server) unknownRead(w http.ResponseWriter, r *http.Request) bool {
	return s.limitsReads(r) || s.read(w, r)
}

// limitsReads reports whether r counts against the reads limit before it
// is routed: pages and API reads do (and requests that no route takes,
// see unknownRead); the site's files (cached by the browser) and the
// live route (limited by itself) do not.
func (s *Server) limitsReads(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	p := r.URL.Path
	return !strings.HasPrefix(p, "/static/") && p != "/favicon.ico" && p != "/sw.js" && p != "/healthz" && p != "/readyz" && p != "/metrics" && !isLivePath(p)
}

// refuseCrossSite answers a state change asked for by another site's
// page: a program sends no Origin and is let through.
func (s *Server) refuseCrossSite(w http.ResponseWriter, r *http.Request) {
	lang := s.site.Lang(r)
	s.refuse(w, r, refuse(http.StatusForbidden, "cross_site", "%s", s.site.T(lang, "error.cross_site")))
}

// refuse answers the API in JSON and everything else with a page.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, err error) {
	if strings.HasPrefix(r.URL.Path, "/api/") {
		writeError(w, err)
		return
	}
	s.errorPage(w, r, s.site.Lang(r), err)
}

// statusRecorder remembers the status for the log. Unwrap lets the
// WebSocket upgrade reach the connection underneath.
type statusRecorder struct {
	http.ResponseWriter
	status int
	cause  error // of a 5xx, for the log
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Listen starts taking the other instances' news, before the server
// serves; without a bus it does nothing.
func (s *Server) Listen() error { return s.hub.listen() }

// Run gives the computer its moves in the games that wait for one, evicts
// idle games from memory and notes in the store that the site is up
// until ctx ends, then stops the computer's searches and closes every
// live connection.
func (s *Server) Run(ctx context.Context) {
	go s.hub.resume(ctx, retryAfter)
	go s.push.run(ctx)
	seenUp := make(chan struct{})
	go func() { s.hub.seenUp(ctx); close(seenUp) }()
	// The last note that the site is up is stored before the store
	// closes.
	defer func() { <-seenUp }()
	t := time.NewTicker(evictEvery)
	defer t.Stop()
	var beat <-chan time.Time
	if s.hub.bus != nil {
		b := time.NewTicker(heartbeat)
		defer b.Stop()
		beat = b.C
	}
	for {
		select {
		case <-beat:
			s.hub.sweep()
		case <-ctx.Done():
			s.hub.stop()
			s.hub.thinkers.close()
			s.hub.closeAll()
			return
		case <-t.C:
			s.hub.evictIdle(idleFor)
			s.hub.lookAtClocks()
		}
	}
}
