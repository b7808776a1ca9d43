package server

import (
	"errors"
	"net"
	"sync"
	"syscall"
	"time"
)

// limiter is a token bucket per client address: rate tokens a second, at
// most burst saved up.
type limiter struct {
	rate  float64
	burst float64

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newLimiter(perSecond, burst float64) *limiter {
	return &limiter{rate: perSecond, burst: burst, buckets: map[string]*bucket{}}
}

// allow takes a token for key, if there is one.
func (l *limiter) allow(key string, now time.Time) bool { return l.take(key, now, 1) }

// take takes n tokens for key, if there are as many.
func (l *limiter) take(key string, now time.Time, n float64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > time.Minute {
		// Full buckets hold nothing worth remembering.
		for k, b := range l.buckets {
			if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[key] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < n {
		return false
	}
	b.tokens -= n
	return true
}

// give gives n tokens back to key, no more than it may save up: what a
// request that took them turned out not to cost. A bucket swept as full
// meanwhile stays full.
func (l *limiter) give(key string, now time.Time, n float64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.buckets[key]; b != nil {
		b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate+n)
		b.at = now
	}
}

// counter bounds how many live connections one client address holds open.
type counter struct {
	max int

	mu    sync.Mutex
	count map[string]int
}

func newCounter(max int) *counter { return &counter{max: max, count: map[string]int{}} }

// open takes a place for key, if one is free.
func (c *counter) open(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.count[key] >= c.max {
		return false
	}
	c.count[key]++
	return true
}

func (c *counter) close(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.count[key]--; c.count[key] <= 0 {
		delete(c.count, key)
	}
}

// Listener wraps ln so that one address holds at most ConnsPerAddress
// connections at once, whatever they are doing: idle, sending headers,
// waiting for an answer or live. A connection beyond that is closed at
// once, so that one address cannot take every descriptor of the server.
// Trusted proxies are exempt: they carry everybody's connections.
func (s *Server) Listener(ln net.Listener) net.Listener {
	return &limitedListener{Listener: ln, s: s}
}

type limitedListener struct {
	net.Listener
	s *Server
}

func (l *limitedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		a, err := peerAddr(c.RemoteAddr().String())
		if err != nil || l.s.trusts(a) {
			return c, nil
		}
		key := addrKey(a)
		if !l.s.tcp.open(key) {
			c.Close()
			continue
		}
		return &countedConn{Conn: c, release: func() { l.s.tcp.close(key) }}, nil
	}
}

// countedConn gives its place back when it is closed, however often.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *countedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}

// SyscallConn gives the socket, so that a live page can be written
// without waiting (see batchWriter.try).
func (c *countedConn) SyscallConn() (syscall.RawConn, error) {
	sc, ok := c.Conn.(syscall.Conn)
	if !ok {
		return nil, errors.ErrUnsupported
	}
	return sc.SyscallConn()
}
