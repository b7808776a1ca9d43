package loadtest

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// ErrNotLoopback refuses a target that is not on this machine: the load
// command must never be pointed at somebody else's site.
var ErrNotLoopback = errors.New("the target must be an IPv4 loopback address (127.0.0.0/8 or localhost)")

// Target checks a site's address and returns it with its host as an IPv4
// loopback address. IPv4 is needed because every player dials from its
// own address in 127.0.0.0/8; IPv6 has only one loopback address.
func Target(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("the target %q: %w", raw, err)
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("the target %q: only http:// is spoken", raw)
	}
	host, port := u.Hostname(), u.Port()
	if host == "" || port == "" {
		return nil, fmt.Errorf("the target %q needs a host and a port, such as http://127.0.0.1:8080", raw)
	}
	if host == "localhost" {
		host = "127.0.0.1"
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.Is4() || !ip.IsLoopback() {
		return nil, fmt.Errorf("%w, not %s", ErrNotLoopback, u.Hostname())
	}
	return &url.URL{Scheme: "http", Host: net.JoinHostPort(host, port)}, nil
}

// ParseThink reads a thinking time: one duration ("3s") or a range
// ("2s-10s").
func ParseThink(s string) (lo, hi time.Duration, err error) {
	a, b, isRange := strings.Cut(s, "-")
	if !isRange {
		b = a
	}
	if lo, err = time.ParseDuration(a); err == nil {
		hi, err = time.ParseDuration(b)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("%q is not a thinking time such as 2s-10s or 500ms", s)
	}
	if lo < 0 || hi < 0 {
		return 0, 0, fmt.Errorf("the thinking time %q is negative", s)
	}
	if lo > hi {
		return 0, 0, fmt.Errorf("the thinking time %q ends before it starts", s)
	}
	return lo, hi, nil
}

// addresses hands out source addresses 127.x.y.z in turn, one for each
// player and watcher, so that the site's limits per address apply to each
// of them alone. 127.0.0.0/24 is left to everyone else; on Linux the whole
// of 127.0.0.0/8 reaches the loopback interface.
type addresses struct{ next atomic.Uint64 }

func (a *addresses) take() net.IP {
	n := a.next.Add(1) - 1
	z := byte(1 + n%254) // neither .0 nor .255
	n /= 254
	y := byte(n % 256)
	x := byte(1 + (n/256)%255)
	return net.IPv4(127, x, y, z)
}
