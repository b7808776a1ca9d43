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
	"net/url"
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
// already stored by then: on disk, or with -sync os, handed to the
// operating system.
func serve(args []string, games []game.Game, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bretter [serve] [flags]   (bretter help lists every command)")
		fs.PrintDefaults()
	}
	maxLive := fs.Int("max-live", -1, "live connections this instance takes at most, beyond which they get 503 (default: three quarters of the open files allowed; 0: no bound)")
	debugAddr := fs.String("debug-addr", "", "serve the Go profiler (/debug/pprof/) on this loopback HOST:PORT; off when empty")
	addr := fs.String("addr", envOr("BRETTER_ADDR", "localhost:8080"), "address to listen on, HOST:PORT (env BRETTER_ADDR)")
	db := fs.String("db", envOr("BRETTER_DB", "bretter.db"),
		"where games are kept: a SQLite file, created if missing, or a PostgreSQL address postgres://... (env BRETTER_DB)")
	syncName := fs.String("sync", envOr("BRETTER_SYNC", "disk"), "when a SQLite file counts a move as stored: disk, once it is on the disk (survives a power cut); os, once the operating system has it (survives the server's crash or kill -9, not the machine's; the disk has it within a second) (env BRETTER_SYNC)")
	busURL := fs.String("bus", os.Getenv("BRETTER_BUS"), "NATS address, nats://HOST:PORT, that connects several instances on one store; none for one instance (env BRETTER_BUS)")
	busPrefix := fs.String("bus-prefix", envOr("BRETTER_BUS_PREFIX", "bretter"), "what the site's NATS subjects and lease bucket begin with (env BRETTER_BUS_PREFIX)")
	instance := fs.String("instance", envOr("BRETTER_INSTANCE", hostname()), "this instance's name in the logs (env BRETTER_INSTANCE)")
	verbose := fs.Bool("v", false, "log every request")
	pushEndpoints := fs.String("push-endpoints", os.Getenv("BRETTER_PUSH_ENDPOINTS"), "comma-separated address prefixes Web Push may send to (default: the browsers' push services) (env BRETTER_PUSH_ENDPOINTS)")
	pushContact := fs.String("push-contact", os.Getenv("BRETTER_PUSH_CONTACT"), "an e-mail address or https URL the push services may write to about this site (default: the public URL) (env BRETTER_PUSH_CONTACT)")
	publicURL := fs.String("public-url", envOr("BRETTER_PUBLIC_URL", ""), "where people reach the site, e.g. https://bretter.example; links are built from it, https makes cookies Secure and sends HSTS (env BRETTER_PUBLIC_URL)")
	trusted := fs.String("trusted-proxies", envOr("BRETTER_TRUSTED_PROXIES", ""), "comma-separated addresses or CIDR prefixes of proxies whose X-Forwarded-For and X-Forwarded-Proto headers are believed (env BRETTER_TRUSTED_PROXIES)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	public, err := server.ParsePublicURL(*publicURL)
	if err != nil {
		fmt.Fprintf(stderr, "bretter serve: -public-url: %v\n", err)
		return 2
	}
	// The push library writes "mailto:" before anything but an https URL.
	*pushContact = strings.TrimPrefix(*pushContact, "mailto:")
	if c := *pushContact; c != "" && !strings.HasPrefix(c, "https://") && (strings.Count(c, "@") != 1 || strings.ContainsAny(c, ":/ ")) {
		fmt.Fprintf(stderr, "bretter serve: -push-contact: %q is neither an e-mail address nor an https URL\n", c)
		return 2
	}
	proxies, err := server.ParsePrefixes(*trusted)
	if err != nil {
		fmt.Fprintf(stderr, "bretter serve: -trusted-proxies: %v\n", err)
		return 2
	}
	sync, err := store.ParseSync(*syncName)
	if err == nil && sync != store.SyncDisk && isPostgres(*db) {
		err = fmt.Errorf("PostgreSQL commits as its own settings say; -sync is for a SQLite file")
	}
	if err != nil {
		fmt.Fprintf(stderr, "bretter serve: -sync: %v\n", err)
		return 2
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level})).With("instance", *instance)
	var push []string
	files := logFileLimit(log)
	if *maxLive < 0 {
		*maxLive = defaultMaxLive(files)
	}
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := server.Config{Games: games, Log: log, PushServices: push, PushContact: *pushContact, PublicURL: public, TrustedProxies: proxies, MaxLive: *maxLive}
	if err := run(ctx, *addr, storeOptions{*db, sync}, busOptions{*busURL, *busPrefix, *instance}, cfg, log, stderr); err != nil {
		log.Error("bretter stopped", "err", err)
		return 1
	}
	return 0
}

// busOptions say where the other instances are: no URL, none.
type busOptions struct {
	url, prefix, instance string
}

// storeOptions say where the games are kept, and for a SQLite file, when
// a commit counts as stored.
type storeOptions struct {
	db   string
	sync store.Sync
}

// run serves until ctx ends.
func run(ctx context.Context, addr string, db storeOptions, busOpt busOptions, cfg server.Config, log *slog.Logger, stderr io.Writer) error {
	site, err := web.New(cfg.Games)
	if err != nil {
		return fmt.Errorf("loading the site: %w", err)
	}
	st, where, err := openStore(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	cfg.Store, cfg.Site = st, site
	if busOpt.url != "" {
		name := fmt.Sprintf("bretter %s pid %d on %s", busOpt.instance, os.Getpid(), ln.Addr())
		dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
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
		cfg.Ready = map[string]func(context.Context) error{"bus": b.Ping}
	}
	srv := server.New(cfg)
	// Before the other instances' news, which may load a game and work
	// out its clock.
	if err := srv.Start(ctx); err != nil {
		ln.Close()
		return fmt.Errorf("starting: %w", err)
	}
	if err := srv.Listen(); err != nil {
		ln.Close()
		return fmt.Errorf("listening on the bus: %w", err)
	}
	ln = srv.Listener(ln)
	httpServer := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: maxHeaderBytes}

	background, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Run(background); close(done) }()

	url := listenURL(addr, ln.Addr())
	if cfg.PublicURL != "" {
		url = cfg.PublicURL + " through " + url
	}
	fmt.Fprintf(stderr, "bretter: serving on %s (%s)\n", url, where)
	if busOpt.url != "" {
		fmt.Fprintf(stderr, "bretter: with the other instances on %s\n", bus.Shown(busOpt.url))
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

// siteStore is a store the site can run on.
type siteStore interface {
	server.Store
	Close() error
}

func isPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// openStore opens PostgreSQL for a postgres:// address and a SQLite file
// otherwise. It also says where the games are, without a password.
func openStore(ctx context.Context, opt storeOptions) (siteStore, string, error) {
	db := opt.db
	if isPostgres(db) {
		st, err := store.OpenPostgres(ctx, db)
		if err != nil {
			return nil, "", err
		}
		where := "PostgreSQL"
		if u, err := url.Parse(db); err == nil {
			where += " on " + u.Host + u.Path
		}
		return st, where, nil
	}
	st, err := store.OpenSQLiteSync(db, opt.sync)
	if err != nil {
		return nil, "", err
	}
	if opt.sync == store.SyncOS {
		return st, "database " + db + ", synced within a second", nil
	}
	return st, "database " + db, nil
}

// hostname is the default name of this instance.
func hostname() string {
	name, err := os.Hostname()
	if err != nil {
		return "bretter"
	}
	return name
}

// listenURL is the address to open in a browser.
func listenURL(asked string, got net.Addr) string {
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

// maxHeaderBytes bounds a request's header, cookies included, far below
// Go's megabyte: the site's own cookies take a few hundred bytes.
const maxHeaderBytes = 64 << 10
