package loadtest

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// The floor: how long a move's way takes on this machine with no site in
// it. A relay that does nothing but pass bytes on, in a process of its
// own, stands in for the site. Pairs of connections stand in for a game's
// two players: one sends a message, paced like a player's moves, and the
// relay writes it on to both, as the site writes a move's event to both
// players. After the quiet of a player's thinking, the processes (and, on
// a virtual machine, the processors) must wake up for each message, and
// with many pairs they take their turns at the processors too: the floor
// tells what of the load test's latency is the machine's, whatever the
// site does.

// floorMessage is about the size of a move's message.
const floorMessage = 96

// FloorConfig is what Floor measures.
type FloorConfig struct {
	Pairs              int           // games, each a pair of connections
	ThinkMin, ThinkMax time.Duration // the quiet before each message
	Duration           time.Duration
}

// A connection to the relay first says which pair it belongs to and
// which of the two it is: a pair's number, then floorMover or
// floorOpponent.
const (
	floorMover = iota
	floorOpponent
	floorHello = 5
)

// Floor measures the floor as cfg says, until cfg.Duration has passed or
// ctx ends, through the relay that relay starts (ServeRelay in a process
// of its own). The relay ends when Floor closes its standard input.
func Floor(ctx context.Context, cfg FloorConfig, relay *exec.Cmd) (*FloorReport, error) {
	in, err := relay.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := relay.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := relay.Start(); err != nil {
		return nil, fmt.Errorf("starting the relay: %w", err)
	}
	defer relay.Wait()
	defer in.Close()
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("the relay told no address: %w", err)
	}
	addr = strings.TrimSpace(addr)
	if ip, _, err := net.SplitHostPort(addr); err != nil || !net.ParseIP(ip).IsLoopback() {
		return nil, fmt.Errorf("the relay listens on %q, not on a loopback address", addr)
	}
	pairs := make([][2]net.Conn, cfg.Pairs)
	defer func() {
		for _, p := range pairs {
			for _, c := range p {
				if c != nil {
					c.Close()
				}
			}
		}
	}()
	for i := range pairs {
		for role := range pairs[i] {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				return nil, fmt.Errorf("connecting pair %d: %w", i, err)
			}
			pairs[i][role] = c
			hello := binary.BigEndian.AppendUint32(nil, uint32(i))
			if _, err := c.Write(append(hello, byte(role))); err != nil {
				return nil, fmt.Errorf("connecting pair %d: %w", i, err)
			}
		}
	}

	think := func() time.Duration { return thinkBetween(cfg.ThinkMin, cfg.ThinkMax) }
	var h histogram
	var failed error
	var once sync.Once
	var wg sync.WaitGroup
	ctx, stop := context.WithTimeout(ctx, cfg.Duration)
	defer stop()
	end := time.Now().Add(cfg.Duration)
	for _, p := range pairs {
		wg.Go(func() {
			if err := floorPair(ctx, p[floorMover], p[floorOpponent], end, think, &h); err != nil {
				once.Do(func() { failed = err })
				stop()
			}
		})
	}
	wg.Wait()
	if failed != nil {
		return nil, failed
	}
	return &FloorReport{Pairs: cfg.Pairs, Think: thinkText(cfg.ThinkMin, cfg.ThinkMax), Latency: h.summary()}, nil
}

// floorPair sends a message from mover after each think until the next
// would end after end, and records how long it took to reach opponent.
func floorPair(ctx context.Context, mover, opponent net.Conn, end time.Time, think func() time.Duration, h *histogram) error {
	msg := make([]byte, floorMessage)
	for i := range msg {
		msg[i] = 'm'
	}
	buf := make([]byte, floorMessage)
	for {
		d := think()
		if time.Now().Add(d).After(end) {
			return nil
		}
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return nil
		}
		sent := time.Now()
		if _, err := mover.Write(msg); err != nil {
			return fmt.Errorf("sending: %w", err)
		}
		if _, err := io.ReadFull(opponent, buf); err != nil {
			return fmt.Errorf("reading what the relay passed on: %w", err)
		}
		h.record(time.Since(sent))
		// The mover's own copy, as a player's page gets its move back.
		if _, err := io.ReadFull(mover, buf); err != nil {
			return fmt.Errorf("reading what the relay sent back: %w", err)
		}
	}
}

// thinkText names a thinking time as the flag gives it.
func thinkText(lo, hi time.Duration) string {
	if lo == hi {
		return lo.String()
	}
	return fmt.Sprintf("%s-%s", lo, hi)
}

// ServeRelay is the relay of Floor: it listens on a loopback port, tells
// its address on out, and passes on what the mover of each pair sends to
// both of the pair, until in ends.
func ServeRelay(in io.Reader, out io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	if _, err := fmt.Fprintln(out, ln.Addr()); err != nil {
		return err
	}
	go func() {
		io.Copy(io.Discard, in)
		ln.Close()
	}()
	var mu sync.Mutex
	waiting := map[uint32]net.Conn{} // the first of each pair to come
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		c, err := ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			mu.Lock()
			for _, c := range waiting {
				c.Close()
			}
			mu.Unlock()
			return nil
		}
		if err != nil {
			return err
		}
		wg.Go(func() {
			hello := make([]byte, floorHello)
			if _, err := io.ReadFull(c, hello); err != nil || hello[4] > floorOpponent {
				c.Close()
				return
			}
			pair := binary.BigEndian.Uint32(hello)
			mu.Lock()
			other, ok := waiting[pair]
			if !ok {
				waiting[pair] = c
				mu.Unlock()
				return
			}
			delete(waiting, pair)
			mu.Unlock()
			mover, opponent := c, other
			if hello[4] == floorOpponent {
				mover, opponent = other, c
			}
			relayPair(mover, opponent)
		})
	}
}

// relayPair writes what mover sends to opponent and back to mover, with a
// plain read and writes, as a site's would be (io.Copy between two sockets
// could splice them in the kernel), until either closes.
func relayPair(mover, opponent net.Conn) {
	defer mover.Close()
	defer opponent.Close()
	buf := make([]byte, 4096)
	for {
		n, err := mover.Read(buf)
		if n > 0 {
			if _, err := opponent.Write(buf[:n]); err != nil {
				return
			}
			if _, err := mover.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
