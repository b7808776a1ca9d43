package loadtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
	"time"
)

// The floor: how long a move's way takes on this machine with no site in
// it. A relay that does nothing but pass bytes on, in a process of its
// own, stands in for the site; one connection sends it a message, paced
// like a player's moves, and another, in the sending process, reads it.
// After the quiet of a player's thinking, the processes (and, on a virtual
// machine, the processors) must wake up for each message: the floor tells
// what of the load test's latency is the machine's, whatever the site
// does.

// floorMessage is about the size of a move's message.
const floorMessage = 96

// Floor measures the floor: one message every think, until duration has
// passed or ctx ends, through the relay that relay starts (ServeRelay in
// a process of its own).
func Floor(ctx context.Context, think, duration time.Duration, relay *exec.Cmd) (*FloorReport, error) {
	out, err := relay.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := relay.Start(); err != nil {
		return nil, fmt.Errorf("starting the relay: %w", err)
	}
	defer relay.Wait()
	defer relay.Process.Kill()
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("the relay told no address: %w", err)
	}
	addr = strings.TrimSpace(addr)
	if ip, _, err := net.SplitHostPort(addr); err != nil || !net.ParseIP(ip).IsLoopback() {
		return nil, fmt.Errorf("the relay listens on %q, not on a loopback address", addr)
	}
	// The relay passes on what the first connection sends to the second.
	mover, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	defer mover.Close()
	// Dialled first, it is accepted first; its first byte the relay reads
	// before it takes the opponent.
	if _, err := mover.Write([]byte{0}); err != nil {
		return nil, err
	}
	opponent, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	defer opponent.Close()

	var h histogram
	// Room for the reader's last word, the error when the run closes its
	// connection, so that it ends then.
	arrived := make(chan error, 1)
	go func() {
		buf := make([]byte, floorMessage)
		for {
			if _, err := io.ReadFull(opponent, buf); err != nil {
				arrived <- err
				return
			}
			arrived <- nil
		}
	}()
	msg := make([]byte, floorMessage)
	for i := range msg {
		msg[i] = 'm'
	}
	end := time.Now().Add(duration)
	for time.Now().Add(think).Before(end) {
		select {
		case <-time.After(think):
		case <-ctx.Done():
			return &FloorReport{Think: think.String(), Latency: h.summary()}, nil
		}
		sent := time.Now()
		if _, err := mover.Write(msg); err != nil {
			return nil, fmt.Errorf("sending: %w", err)
		}
		if err := <-arrived; err != nil {
			return nil, fmt.Errorf("reading what the relay passed on: %w", err)
		}
		h.record(time.Since(sent))
	}
	return &FloorReport{Think: think.String(), Latency: h.summary()}, nil
}

// ServeRelay is the relay of Floor: it listens on a loopback port, tells
// its address on out, and passes on what its first connection sends
// (after a first byte of its own) to its second, until either closes.
func ServeRelay(out io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	if _, err := fmt.Fprintln(out, ln.Addr()); err != nil {
		return err
	}
	from, err := ln.Accept()
	if err != nil {
		return err
	}
	defer from.Close()
	first := make([]byte, 1)
	if _, err := io.ReadFull(from, first); err != nil {
		return err
	}
	to, err := ln.Accept()
	if err != nil {
		return err
	}
	defer to.Close()
	// A plain read and write, as a site's would be: io.Copy between two
	// sockets could splice them in the kernel.
	buf := make([]byte, 4096)
	for {
		n, err := from.Read(buf)
		if n > 0 {
			if _, err := to.Write(buf[:n]); err != nil {
				return err
			}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
