package server

import (
	"context"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// siteMetrics are what /metrics tells a monitoring system about this
// instance. Each server has its own registry, so that two servers in one
// process (as in tests) count apart.
type siteMetrics struct {
	registry *prometheus.Registry
	moves    prometheus.Counter
	sockets  prometheus.Gauge
	appends  prometheus.Histogram
	// moveTimes is the time from a player's move arriving to its event
	// handed to the players' pages (see Server.move).
	moveTimes prometheus.Histogram
	// busLag is the time from publishing an event on the bus between
	// instances to its delivery here.
	busLag prometheus.Histogram

	// ready are the checks /readyz makes besides the store's.
	ready map[string]func(context.Context) error
}

// latencyBuckets run from a tenth of a millisecond to ten seconds.
var latencyBuckets = prometheus.ExponentialBucketsRange(0.0001, 10, 16)

// moveBuckets are finer than latencyBuckets, each 1.6 times the last: a
// move usually takes the site about a millisecond, and its tail must tell
// 4 ms from 6.
var moveBuckets = prometheus.ExponentialBucketsRange(0.0001, 10, 26)

func newMetrics(h *hub, ready map[string]func(context.Context) error) *siteMetrics {
	m := &siteMetrics{
		ready:    ready,
		registry: prometheus.NewRegistry(),
		moves: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "bretter_moves_total", Help: "Moves committed to the store.",
		}),
		sockets: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "bretter_live_sockets", Help: "Open WebSocket connections of game pages.",
		}),
		appends: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "bretter_store_append_seconds", Help: "Time to store a game's events.", Buckets: latencyBuckets,
		}),
		moveTimes: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "bretter_move_seconds", Help: "Time from a player's move arriving to its being stored and handed to the players' pages.", Buckets: moveBuckets,
		}),
		busLag: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "bretter_bus_lag_seconds", Help: "Time from an event's publication on the bus to its delivery to this instance.", Buckets: latencyBuckets,
		}),
	}
	m.registry.MustRegister(m.moves, m.sockets, m.appends, m.moveTimes, m.busLag,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "bretter_games_in_memory", Help: "Games held in memory.",
		}, func() float64 {
			h.mu.Lock()
			defer h.mu.Unlock()
			return float64(len(h.live))
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "bretter_searches_queued", Help: "Games waiting for a computer search to start.",
		}, func() float64 {
			_, waiting := h.thinkers.load()
			return float64(waiting)
		}),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	// A store that writes appends in batches (SQLite) times its
	// transactions: beside the appends' time, theirs tells waiting for the
	// disk from waiting for a turn to be written.
	if st, ok := h.store.(commitObserver); ok {
		commits := prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "bretter_store_commit_seconds", Help: "Time of one transaction of the store's batched appends, from its beginning to its commit.", Buckets: latencyBuckets,
		})
		sizes := prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "bretter_store_commit_appends", Help: "Appends in one transaction of the store's batched appends.", Buckets: prometheus.ExponentialBuckets(1, 4, 6),
		})
		m.registry.MustRegister(commits, sizes)
		st.ObserveCommits(func(appends int, took time.Duration) {
			commits.Observe(took.Seconds())
			sizes.Observe(float64(appends))
		})
	}
	return m
}

// commitObserver is a store that tells of its transactions of appends.
type commitObserver interface {
	ObserveCommits(func(appends int, took time.Duration))
}

func (m *siteMetrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// ObserveBusLag records how long an event took from its publication on the
// bus to its delivery to this instance.
func (s *Server) ObserveBusLag(d time.Duration) { s.hub.metrics.busLag.Observe(d.Seconds()) }

// readyTimeout bounds each readiness check, so that a store that hangs
// makes the instance unready rather than its probe stuck.
const readyTimeout = 5 * time.Second

// ready answers whether this instance can serve games: its store answers,
// and so does everything in Config.Ready (the bus between instances).
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	checks := map[string]func(context.Context) error{"store": s.hub.store.Ping}
	for name, check := range s.hub.metrics.ready {
		checks[name] = check
	}
	for name, check := range checks {
		if err := check(ctx); err != nil {
			s.log.Warn("not ready", "check", name, "err", err)
			http.Error(w, name+" unreachable", http.StatusServiceUnavailable)
			return
		}
	}
	w.Write([]byte("ok\n"))
}
