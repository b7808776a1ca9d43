// Package server is the site: HTML pages, the JSON API and the live
// WebSocket protocol. It knows no game's rules; it asks the engines whether
// a move is legal, stores it, and tells every open page.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

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
	// PushServices are the address prefixes that Web Push may send to;
	// nil means the browsers' own services (PushServices).
	PushServices []string
	// PushContact is who the push services may write to about this site.
	PushContact string
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
	push    *pusher
	conns   *counter // live connections per address
	mux     *http.ServeMux

	previews previews
}

// Limits on what a client may send.
const (
	maxBody           = 16 << 10 // bytes of a JSON request or form
	maxMessage        = 4 << 10  // bytes of a WebSocket message
	maxConnsPerClient = 200      // open game pages per address (a school shares one)
	bodyTimeout       = 30 * time.Second
)

// New builds the server and its routes.
func New(cfg Config) *Server {
	games := make(map[string]game.Game, len(cfg.Games))
	for _, g := range cfg.Games {
		games[g.Name] = g
	}
	if cfg.CreatesPerMinute == 0 {
		cfg.CreatesPerMinute = 30
	}
	if cfg.MovesPerSecond == 0 {
		cfg.MovesPerSecond = 30
	}
	if cfg.ChatsPerMinute == 0 {
		cfg.ChatsPerMinute = 30
	}
	if cfg.ConnsPerClient == 0 {
		cfg.ConnsPerClient = maxConnsPerClient
	}
	s := &Server{
		hub:     newHub(cfg.Store, games, cfg.Log),
		site:    cfg.Site,
		log:     cfg.Log,
		games:   games,
		order:   cfg.Games,
		creates: newLimiter(cfg.CreatesPerMinute/60, cfg.CreatesPerMinute/3),
		moves:   newLimiter(cfg.MovesPerSecond, 2*cfg.MovesPerSecond),
		chats:   newLimiter(cfg.ChatsPerMinute/60, cfg.ChatsPerMinute/6),
		conns:   newCounter(cfg.ConnsPerClient),
		mux:     http.NewServeMux(),
	}
	// One core is left to the relay of people's moves, so that however
	// many games wait for the computer, nobody waits for their friend's move.
	if cfg.PushServices == nil {
		cfg.PushServices = PushServices
	}
	if cfg.PushContact == "" {
		cfg.PushContact = "bretter@localhost"
	}
	s.push = newPusher(cfg.Store, cfg.Site, cfg.Log, cfg.PushServices, cfg.PushContact)
	s.hub.notify = s.push.tell
	s.hub.thinkers = newThinkers(max(1, runtime.NumCPU()-1), s.hub.computerMove)
	s.routes()
	return s
}

func (s *Server) routes() {
	m := s.mux
	m.Handle("GET "+s.site.StaticPrefix(), s.site.Static())
	m.HandleFunc("GET /{$}", s.home)
	m.HandleFunc("GET /{game}", s.board)
	m.HandleFunc("POST /games", s.createForm)
	m.HandleFunc("GET /g/{id}", s.gamePage)
	m.HandleFunc("GET /g/{id}/seat/{secret}", s.seatLink)
	m.HandleFunc("GET /g/{id}/join/{token}", s.invitePage)
	m.HandleFunc("GET /g/{id}/next", s.nextGame)
	m.HandleFunc("GET /g/{id}/preview.png", s.previewImage)
	m.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok\n")) })

	m.HandleFunc("POST /api/games", s.apiCreate)
	m.HandleFunc("GET /api/games/{id}", s.apiGet)
	m.HandleFunc("POST /api/games/{id}/join", s.apiJoin)
	m.HandleFunc("POST /api/games/{id}/moves", s.apiMove)
	m.HandleFunc("POST /api/games/{id}/resign", s.apiResign)
	m.HandleFunc("POST /api/games/{id}/rematch", s.apiRematch)
	m.HandleFunc("POST /api/games/{id}/offer", s.apiOffer)
	m.HandleFunc("POST /api/games/{id}/answer", s.apiAnswer)
	m.HandleFunc("POST /api/games/{id}/name", s.apiName)
	m.HandleFunc("POST /api/games/{id}/chat", s.apiChat)
	m.HandleFunc("GET /api/push/key", s.apiPushKey)
	m.Handle("GET /sw.js", s.site.ServiceWorker())
	m.HandleFunc("POST /api/games/{id}/push", s.apiSubscribe)
	m.HandleFunc("DELETE /api/games/{id}/push", s.apiUnsubscribe)
	m.HandleFunc("GET /api/games/{id}/ws", s.live)
	m.HandleFunc("GET /api/games/{id}/positions", s.apiPositions)
	m.HandleFunc("GET /api/games/{id}/record", s.apiRecord)
	m.HandleFunc("POST /api/records", s.apiImport)
	m.HandleFunc("GET /import", s.importPage)
}

// ServeHTTP adds the security headers every response carries, limits
// request bodies, logs the request by its route (never its path, which
// may hold a secret) and turns a panic into a 500.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "+
		"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
	limit := int64(maxBody)
	if r.URL.Path == "/api/records" {
		limit = maxRecord
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	if !strings.HasSuffix(r.URL.Path, "/ws") {
		// A body dribbled in slowly holds a connection; live connections
		// are long by design and time out by their pings instead.
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyTimeout))
	}
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic", "route", r.Pattern, "panic", p, "stack", string(debug.Stack()))
			http.Error(rec, "internal error", http.StatusInternalServerError)
		}
		if r.Pattern != "GET "+s.site.StaticPrefix() {
			s.log.Debug("request", "route", r.Pattern, "status", rec.status, "ms", time.Since(start).Milliseconds())
		}
	}()
	s.mux.ServeHTTP(rec, r)
}

// statusRecorder remembers the status for the log. Unwrap lets the
// WebSocket upgrade reach the connection underneath.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Run gives the computer its moves in the games that wait for one, evicts
// idle games from memory until ctx ends, then stops the computer's
// searches and closes every live connection.
func (s *Server) Run(ctx context.Context) {
	if ids, err := s.hub.store.ComputerGames(ctx); err != nil {
		s.log.Error("listing the games against the computer", "err", err)
	} else {
		s.hub.resumeComputerGames(ids)
	}
	if ids, err := s.hub.store.TimedGames(ctx); err != nil {
		s.log.Error("listing the games with a clock", "err", err)
	} else {
		s.hub.resumeClocks(ctx, ids)
	}
	go s.push.run(ctx)
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			s.hub.stop()
			s.hub.thinkers.close()
			s.hub.closeAll()
			return
		case <-t.C:
			s.hub.evictIdle(10 * time.Minute)
		}
	}
}
