package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"bretter/game"
	"bretter/internal/server"
	"bretter/internal/store"
	"bretter/internal/web"
)

// serve runs the site until SIGINT or SIGTERM, then stops taking requests,
// closes live connections and the database. Every acknowledged move is
// already on disk by then: the store syncs each commit.
func serve(args []string, games []game.Game, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	debugAddr := fs.String("debug-addr", "", "serve the Go profiler (/debug/pprof/) on this loopback HOST:PORT; off when empty")
	addr := fs.String("addr", envOr("BRETTER_ADDR", "localhost:8080"), "address to listen on, HOST:PORT (env BRETTER_ADDR)")
	dbPath := fs.String("db", envOr("BRETTER_DB", "bretter.db"), "SQLite database file, created if missing (env BRETTER_DB)")
	verbose := fs.Bool("v", false, "log every request")
	pushEndpoints := fs.String("push-endpoints", "", "comma-separated address prefixes Web Push may send to (default: the browsers' push services)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	var push []string
	logFileLimit(log)
	closeDebug, code := startDebug(*debugAddr, log, stderr)
	if code != 0 {
		return code
	}
	defer closeDebug()
	for _, p := range strings.Split(*pushEndpoints, ",") {
		if p = strings.TrimSpace(p); p != "" {
			push = append(push, p)
		}
	}
	if err := run(*addr, *dbPath, push, games, log, stderr); err != nil {
		log.Error("bretter stopped", "err", err)
		return 1
	}
	return 0
}

func run(addr, dbPath string, push []string, games []game.Game, log *slog.Logger, stderr io.Writer) error {
	site, err := web.New(games)
	if err != nil {
		return fmt.Errorf("loading the site: %w", err)
	}
	st, err := store.OpenSQLite(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := server.New(server.Config{Store: st, Games: games, Site: site, Log: log, PushServices: push})
	httpServer := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	background, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Run(background); close(done) }()

	fmt.Fprintf(stderr, "bretter: serving on %s (database %s)\n", publicURL(addr, ln.Addr()), dbPath)
	errc := make(chan error, 1)
	go func() { errc <- httpServer.Serve(ln) }()
	select {
	case err := <-errc:
		cancel()
		<-done
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancelShutdown := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelShutdown()
	cancel() // closes the live connections, which Shutdown does not track
	<-done
	if err := httpServer.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// publicURL is the address to open in a browser.
func publicURL(asked string, got net.Addr) string {
	host, _, _ := net.SplitHostPort(asked)
	_, port, _ := net.SplitHostPort(got.String())
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}
