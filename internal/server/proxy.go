package server

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// Behind a TLS proxy the site sees the proxy's address and plain HTTP.
// Only the proxies it is told to trust may say who the client is and
// whether the browser spoke HTTPS; anybody else's forwarding headers are
// ignored, or any client could pick its own rate-limit bucket.

// origin is how one request reached the site.
type origin struct {
	base   string // scheme://host of links in answers
	secure bool   // the browser spoke HTTPS: cookies are Secure
	client string // the client's address, the key of every limit
}

type originKey struct{}

// ParsePublicURL checks the -public-url value: an absolute http or https
// address, without a path, query or user.
func ParsePublicURL(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("the public URL must look like https://host[:port], got %q", s)
	}
	return u.Scheme + "://" + u.Host, nil
}

// ParsePrefixes reads a comma-separated list of addresses and CIDR
// prefixes, as -trusted-proxies takes them.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR prefix", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// trusts reports whether a is one of the trusted proxies.
func (s *Server) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range s.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// originOf works out how r reached the site.
func (s *Server) originOf(r *http.Request) origin {
	o := origin{secure: r.TLS != nil}
	peer, err := peerAddr(r.RemoteAddr)
	if err != nil {
		o.client = r.RemoteAddr
	} else {
		o.client = addrKey(peer)
		if s.trusts(peer) {
			client, https := s.forwarded(r)
			if client.IsValid() {
				o.client = addrKey(client)
			}
			o.secure = o.secure || https
		}
	}
	scheme := "http"
	if o.secure {
		scheme = "https"
	}
	o.base = scheme + "://" + r.Host
	if s.publicURL != "" {
		o.base = s.publicURL
		o.secure = strings.HasPrefix(s.publicURL, "https:")
	}
	return o
}

// forwarded reads what a trusted proxy says of the client: its address,
// the nearest one in the chain that is not itself a trusted proxy, and
// whether it spoke HTTPS. Only X-Forwarded-For and X-Forwarded-Proto are
// read, the headers the usual proxies set. Forwarded (RFC 7239) is not:
// a proxy that sets only the former passes a client's own Forwarded on
// untouched, and reading it would let the client name itself.
func (s *Server) forwarded(r *http.Request) (client netip.Addr, https bool) {
	var chain []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		chain = append(chain, strings.Split(v, ",")...)
	}
	var proto string
	if p := r.Header.Values("X-Forwarded-Proto"); len(p) > 0 {
		parts := strings.Split(p[len(p)-1], ",")
		proto = parts[len(parts)-1] // the last proxy's word counts
	}
	for i := len(chain) - 1; i >= 0; i-- {
		a, err := forwardedAddr(strings.TrimSpace(chain[i]))
		if err != nil {
			break // an unknown or obfuscated hop: trust nothing before it
		}
		client = a
		if !s.trusts(a) {
			break
		}
	}
	return client, strings.EqualFold(strings.TrimSpace(proto), "https")
}

// forwardedAddr reads one hop of X-Forwarded-For or Forwarded's for=:
// an address, perhaps with a port, IPv6 perhaps in brackets.
func forwardedAddr(s string) (netip.Addr, error) {
	if a, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return a.Unmap(), nil
	}
	ap, err := netip.ParseAddrPort(s)
	if err != nil {
		return netip.Addr{}, err
	}
	return ap.Addr().Unmap(), nil
}

func peerAddr(remote string) (netip.Addr, error) {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	return a.Unmap(), err
}

// addrKey is the key of an address in the limits: IPv4 addresses count
// one by one, IPv6 ones by /64, the block one household usually has.
func addrKey(a netip.Addr) string {
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	return netip.PrefixFrom(a.WithZone(""), 64).Masked().String()
}

// originFrom is how r reached the site, as ServeHTTP found it.
func originFrom(r *http.Request) origin {
	if o, ok := r.Context().Value(originKey{}).(origin); ok {
		return o
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	client := r.RemoteAddr
	if a, err := peerAddr(r.RemoteAddr); err == nil {
		client = addrKey(a)
	}
	return origin{base: scheme + "://" + r.Host, secure: r.TLS != nil, client: client}
}

func withOrigin(r *http.Request, o origin) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), originKey{}, o))
}

// clientKey is the address a request came from: the key of every limit.
func clientKey(r *http.Request) string { return originFrom(r).client }

// clientOf is the address the request of ctx came from, as clientKey,
// or "" for work no request asked for (a timer, news from another
// instance, the computer's own move).
func clientOf(ctx context.Context) string {
	o, _ := ctx.Value(originKey{}).(origin)
	return o.client
}

// secureRequest reports whether the browser reached the site over HTTPS,
// so that cookies must be Secure.
func secureRequest(r *http.Request) bool { return originFrom(r).secure }

// baseURL is the scheme and host of the links in answers.
func baseURL(r *http.Request) string { return originFrom(r).base }
