package cli

import (
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// debugServer serves the Go profiler (net/http/pprof) on its own listener,
// apart from the site, so that it can be reached only from this machine.
// It returns the server and the address it listens on.
func debugServer(addr string, log *slog.Logger) (*http.Server, string, error) {
	if err := checkLoopback(addr); err != nil {
		return nil, "", err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Info("profiler listening on /debug/pprof/", "addr", ln.Addr().String())
	go srv.Serve(ln)
	return srv, ln.Addr().String(), nil
}
