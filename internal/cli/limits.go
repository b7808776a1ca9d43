package cli

import (
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"syscall"
)

// raiseFileLimit raises the soft limit of open files to the hard limit:
// every live connection is a descriptor, and the soft limit is often a
// thousandth of what the kernel allows. It returns the limit now in force.
func raiseFileLimit() (uint64, error) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, err
	}
	if l.Cur < l.Max {
		l.Cur = l.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			return 0, err
		}
	}
	return l.Cur, nil
}

// checkLoopback accepts HOST:PORT only when HOST is this machine alone.
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%q: %w", addr, errNotLoopback)
}

// logFileLimit raises the limit of open files and says what it is: every
// live page is one. It returns the limit, 0 when it is not known.
func logFileLimit(log *slog.Logger) uint64 {
	limit, err := raiseFileLimit()
	if err != nil {
		log.Warn("cannot raise the limit of open files", "err", err)
		return 0
	}
	log.Info("open files allowed", "limit", limit)
	return limit
}

// defaultMaxLive is the live connections an instance takes by default: three
// quarters of its open files, leaving the rest to pages, the store and the
// bus, so that a full instance still answers them.
func defaultMaxLive(files uint64) int {
	return int(min(files, 1<<30) / 4 * 3)
}
