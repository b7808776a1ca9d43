package cli

import (
	"fmt"
	"io"
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

// startDebug starts the profiler when addr is set and returns what stops
// it, or the exit status of a failure: 2 for an address that is not
// this machine's alone.
func startDebug(addr string, log *slog.Logger, stderr io.Writer) (func(), int) {
	if addr == "" {
		return func() {}, 0
	}
	if err := checkLoopback(addr); err != nil {
		fmt.Fprintf(stderr, "bretter serve: -debug-addr: %v\n", err)
		return nil, 2
	}
	srv, _, err := debugServer(addr, log)
	if err != nil {
		log.Error("bretter stopped", "err", fmt.Errorf("-debug-addr: %w", err))
		return nil, 1
	}
	return func() { srv.Close() }, 0
}
