// Package bus connects the instances of one site through NATS: what
// happens in a game is published on a subject of its own, and every
// instance hears it and tells its own open pages. The bus may lose a
// message; the store stays the record, and the instances repair a gap
// from it. Work that one instance should do alone holds a lease kept in
// JetStream.
package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Config says where the bus is and how to use it.
type Config struct {
	URL string // nats://HOST:PORT
	// Prefix begins every subject and the lease bucket, so that several
	// sites may share one NATS.
	Prefix string
	Name   string // this instance, to the NATS server's monitoring
	Log    *slog.Logger
	// LeaseTTL is how long a lease outlives an instance that stopped
	// renewing it (one that died); DefaultLeaseTTL when zero.
	LeaseTTL time.Duration
}

// DefaultLeaseTTL is the lease's life without renewal.
const DefaultLeaseTTL = 15 * time.Second

// NATS is a connection to the site's NATS.
type NATS struct {
	conn     *nats.Conn
	prefix   string
	leases   jetstream.KeyValue
	leaseTTL time.Duration
	log      *slog.Logger

	// lost is called when messages may have been missed: after a
	// reconnection, or when this instance fell behind.
	lost   atomic.Pointer[func()]
	closed chan struct{} // closed when the connection is
}

// validPrefix is what a prefix may be: it names subjects and a
// JetStream bucket.
var validPrefix = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// Dial connects to the NATS that cfg names.
func Dial(ctx context.Context, cfg Config) (*NATS, error) {
	addr, prefix, name, log := cfg.URL, cfg.Prefix, cfg.Name, cfg.Log
	if !validPrefix.MatchString(prefix) {
		return nil, fmt.Errorf("bus prefix %q: use 1 to 64 letters, digits, - or _", prefix)
	}
	if cfg.LeaseTTL == 0 {
		cfg.LeaseTTL = DefaultLeaseTTL
	}
	b := &NATS{prefix: prefix, log: log, leaseTTL: cfg.LeaseTTL, closed: make(chan struct{})}
	conn, err := nats.Connect(addr, nats.Name(name),
		// Keep trying for ever: the store is the record, the bus only news.
		nats.MaxReconnects(-1), nats.ReconnectWait(time.Second),
		// Our own messages are applied before they are published.
		nats.NoEcho(),
		nats.ClosedHandler(func(*nats.Conn) { close(b.closed) }),
		nats.ReconnectHandler(func(*nats.Conn) {
			log.Warn("bus: reconnected, checking the games in memory against the store")
			b.missed()
		}),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn("bus: disconnected", "err", err)
			}
		}),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			if errors.Is(err, nats.ErrSlowConsumer) {
				log.Warn("bus: messages were dropped, checking the games in memory against the store", "err", err)
				b.missed()
				return
			}
			log.Warn("bus: an error", "err", err)
		}))
	if err != nil {
		return nil, fmt.Errorf("connecting to the bus at %s: %w", Shown(addr), err)
	}
	b.conn = conn
	js, err := jetstream.New(conn)
	if err != nil {
		conn.Close()
		return nil, err
	}
	b.leases, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: prefix + "_leases",
		TTL:    cfg.LeaseTTL,
		// Leases only spare work that the store's versions make safe to
		// repeat: losing them with the NATS server costs nothing else.
		Storage: jetstream.MemoryStorage,
	})
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("the bus's lease bucket (is JetStream enabled?): %w", err)
	}
	return b, nil
}

// missed tells the listener that messages may have been missed.
func (b *NATS) missed() {
	if f := b.lost.Load(); f != nil {
		(*f)()
	}
}

func (b *NATS) subject(game string) string { return b.prefix + ".game." + game }

// Publish sends data to the other instances, on game's subject. It does
// not wait for them.
func (b *NATS) Publish(game string, data []byte) error {
	return b.conn.Publish(b.subject(game), data)
}

// Listen calls handle with every message of every game, one at a time
// and in the order each instance published them; it calls lost whenever
// messages may have been missed. The subscription is in place when
// Listen returns.
func (b *NATS) Listen(handle func(game string, data []byte), lost func()) error {
	b.lost.Store(&lost)
	cut := len(b.subject(""))
	sub, err := b.conn.Subscribe(b.subject(">"), func(m *nats.Msg) {
		handle(m.Subject[cut:], m.Data)
	})
	if err != nil {
		return err
	}
	// A busy instance holds many messages rather than drop them.
	if err := sub.SetPendingLimits(1<<20, 256<<20); err != nil {
		return err
	}
	return b.conn.Flush()
}

// Hold takes the lease called key, unless another instance holds it, and
// renews it until release is called. An instance that dies loses its
// leases after the lease's TTL.
func (b *NATS) Hold(ctx context.Context, key string) (release func(), ok bool, err error) {
	rev, err := b.leases.Create(ctx, key, []byte(b.conn.Opts.Name))
	if errors.Is(err, jetstream.ErrKeyExists) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(b.leaseTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				uctx, cancel := context.WithTimeout(context.Background(), b.leaseTTL/3)
				next, err := b.leases.Update(uctx, key, []byte(b.conn.Opts.Name), rev)
				cancel()
				if err != nil {
					b.log.Warn("bus: renewing a lease", "lease", key, "err", err)
					return
				}
				rev = next
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
		dctx, cancel := context.WithTimeout(context.Background(), b.leaseTTL/3)
		defer cancel()
		// Only our own revision: a lease that lapsed and was taken since
		// is the new holder's.
		if err := b.leases.Delete(dctx, key, jetstream.LastRevision(rev)); err != nil {
			b.log.Warn("bus: releasing a lease", "lease", key, "err", err)
		}
	}, true, nil
}

// Ping makes a round trip to the NATS server, for a readiness check.
func (b *NATS) Ping(ctx context.Context) error {
	if !b.conn.IsConnected() {
		return fmt.Errorf("the bus is %s", b.conn.Status())
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
	}
	return b.conn.FlushWithContext(ctx)
}

// Close closes the connection at once, as a crash would.
func (b *NATS) Close() { b.conn.Close() }

// Drain sends what was published and handles what was received, then
// closes the connection.
func (b *NATS) Drain() error {
	if err := b.conn.Drain(); err != nil {
		return err
	}
	<-b.closed
	return nil
}

// Shown is the bus's address as a log may show it: each server's scheme,
// host and port, without the user, password or token it may carry.
func Shown(addr string) string {
	var shown []string
	for part := range strings.SplitSeq(addr, ",") {
		part = strings.TrimSpace(part)
		if u, err := url.Parse(part); err == nil && u.Host != "" {
			part = u.Scheme + "://" + u.Host
		} else if at := strings.LastIndex(part, "@"); at >= 0 {
			part = part[at+1:]
		}
		shown = append(shown, part)
	}
	return strings.Join(shown, ",")
}
