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
	"bretter/internal/bus"
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
	addr := fs.String("addr", envOr("BRETTER_ADDR", "localhost:8080"), "address to listen on, HOST:PORT (env BRETTER_ADDR)")
	dbPath := fs.String("db", envOr("BRETTER_DB", "bretter.db"), "SQLite database file, created if missing (env BRETTER_DB)")
	busURL := fs.String("bus", os.Getenv("BRETTER_BUS"), "NATS address, nats://HOST:PORT, that connects several instances on one store; none for one instance (env BRETTER_BUS)")
	busPrefix := fs.String("bus-prefix", envOr("BRETTER_BUS_PREFIX", "bretter"), "what the site's NATS subjects and lease bucket begin with (env BRETTER_BUS_PREFIX)")
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
	for _, p := range strings.Split(*pushEndpoints, ",") {
		if p = strings.TrimSpace(p); p != "" {
			push = append(push, p)
		}
	}
	if err := run(*addr, *dbPath, busOptions{*busURL, *busPrefix}, push, games, log, stderr); err != nil {
		log.Error("bretter stopped", "err", err)
		return 1
	}
	return 0
}

// busOptions say where the other instances are: no URL, none.
type busOptions struct {
	url, prefix string
}

func run(addr, dbPath string, busOpt busOptions, push []string, games []game.Game, log *slog.Logger, stderr io.Writer) error {
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
	cfg := server.Config{Store: st, Games: games, Site: site, Log: log, PushServices: push}
	if busOpt.url != "" {
		host, _ := os.Hostname()
		name := fmt.Sprintf("bretter %s pid %d on %s", host, os.Getpid(), ln.Addr())
		dctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		b, err := bus.Dial(dctx, bus.Config{URL: busOpt.url, Prefix: busOpt.prefix, Name: name, Log: log})
		cancel()
		if err != nil {
			ln.Close()
			return err
		}
		// Drained last, after the live connections are closed and the
		// computer's moves are stored, so that their news goes out.
		defer b.Drain()
		cfg.Bus = b
	}
	srv := server.New(cfg)
	if err := srv.Listen(); err != nil {
		ln.Close()
		return fmt.Errorf("listening on the bus: %w", err)
	}
	httpServer := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	background, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Run(background); close(done) }()

	fmt.Fprintf(stderr, "bretter: serving on %s (database %s)\n", publicURL(addr, ln.Addr()), dbPath)
	if busOpt.url != "" {
		fmt.Fprintf(stderr, "bretter: with the other instances on %s\n", busOpt.url)
	}
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
