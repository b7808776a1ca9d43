package loadtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Watchers apart: with Config.WatchersApart, a second process holds the
// watchers' connections. A thousand watchers' messages of one move keep a
// process busy for milliseconds, and in the players' own process that
// delay would be counted against the site; on a real site the watchers
// are other people's machines. The two processes speak in lines of text:
//
//	to the watchers:  watch ID IP,IP,...   connect one watcher of game ID from each address
//	                  sent ID PLY NANOS    the move of PLY in game ID was sent at this Unix time
//	                  report               say what the watchers measured
//	                  close ID             close the watchers of game ID
//	from them:        ready ID             every watcher of ID is connected and reading
//	                  failed ID MESSAGE    they could not be (none stays connected)
//	                  watched HISTOGRAM    the latencies to the watchers so far (histogram.text)
//	                  error MESSAGE        something went wrong with a watcher
//	                  closed ID            every watcher of ID has gone
//
// Both processes read the same clock, so a move's time in one and its
// arrival in the other can be compared. The watchers' process compares
// them itself: a line for each watcher and move kept the players' process
// busy for a millisecond and a half a move at a thousand watchers, and
// that while the next move's event was on its way to the opponent.

// apart is the players' end of the watchers' process.
type apart struct {
	r   *run
	cmd *exec.Cmd

	inMu sync.Mutex
	in   io.WriteCloser

	mu       sync.Mutex
	tables   map[string]*table     // those with watchers there, by game
	ready    map[string]chan error // games waiting for their watchers
	gone     bool                  // the process has ended
	done     chan struct{}         // closed when its output has ended
	reported chan error            // the answers to report
}

// startApart starts the watchers' process.
func startApart(r *run, cmd *exec.Cmd) (*apart, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the watchers' process: %w", err)
	}
	a := &apart{r: r, cmd: cmd, in: in, tables: map[string]*table{}, ready: map[string]chan error{},
		done: make(chan struct{}), reported: make(chan error, 1)}
	go a.read(out)
	return a, nil
}

func (a *apart) send(format string, args ...any) error {
	a.inMu.Lock()
	defer a.inMu.Unlock()
	_, err := fmt.Fprintf(a.in, format+"\n", args...)
	return err
}

// watch connects t's watchers, one from each of ips, and waits until they
// are all reading.
func (a *apart) watch(ctx context.Context, t *table, ips []net.IP) error {
	addrs := make([]string, len(ips))
	for i, ip := range ips {
		addrs[i] = ip.String()
	}
	ready := make(chan error, 1)
	a.mu.Lock()
	if a.gone {
		a.mu.Unlock()
		return errApartGone
	}
	a.tables[t.id], a.ready[t.id] = t, ready
	a.mu.Unlock()
	err := a.send("watch %s %s", t.id, strings.Join(addrs, ","))
	if err == nil {
		select {
		case err = <-ready:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	if err != nil {
		a.mu.Lock()
		delete(a.tables, t.id)
		delete(a.ready, t.id)
		a.mu.Unlock()
		a.send("close %s", t.id)
	}
	return err
}

var errApartGone = errors.New("the watchers' process has ended")

// report adds what the watchers measured to the run's latencies to
// watchers, waiting at most d for it.
func (a *apart) report(d time.Duration) error {
	if err := a.send("report"); err != nil {
		return fmt.Errorf("asking the watchers' process for its latencies: %w", err)
	}
	select {
	case err := <-a.reported:
		return err
	case <-a.done:
		return errApartGone
	case <-time.After(d):
		return fmt.Errorf("the watchers' process did not report its latencies within %s", d)
	}
}

// close has the watchers of game id go.
func (a *apart) close(id string) { a.send("close %s", id) }

// read carries out what the watchers' process says until it ends.
func (a *apart) read(out io.Reader) {
	defer close(a.done)
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		kind, rest, _ := strings.Cut(lines.Text(), " ")
		id, rest, _ := strings.Cut(rest, " ")
		switch kind {
		case "ready", "failed":
			var err error
			if kind == "failed" {
				err = errors.New(rest)
			}
			a.mu.Lock()
			ready := a.ready[id]
			delete(a.ready, id)
			a.mu.Unlock()
			if ready != nil {
				ready <- err
			}
		case "watched":
			err := a.r.watchers.addText(id + " " + rest)
			if err != nil {
				err = fmt.Errorf("the watchers' process's latencies: %w", err)
			}
			select {
			case a.reported <- err:
			default: // nobody asked
			}
		case "error":
			a.r.fail(errors.New(strings.TrimSpace(id + " " + rest)))
		case "closed":
			a.mu.Lock()
			t := a.tables[id]
			delete(a.tables, id)
			a.mu.Unlock()
			if t != nil {
				t.closed()
			}
		}
	}
	// The process is gone: nothing more will come of its watchers.
	a.mu.Lock()
	a.gone = true
	tables, ready := a.tables, a.ready
	a.tables, a.ready = map[string]*table{}, map[string]chan error{}
	a.mu.Unlock()
	for _, c := range ready {
		c <- errApartGone
	}
	if !a.r.stopping.Load() {
		a.r.fail(errApartGone)
	}
	for id, t := range tables {
		if _, waiting := ready[id]; !waiting {
			t.closed()
		}
	}
}

// stop ends the watchers' process, once the run has closed its games.
func (a *apart) stop() {
	a.inMu.Lock()
	a.in.Close()
	a.inMu.Unlock()
	<-a.done
	a.cmd.Wait()
}

// ServeWatchers is the watchers' process of a run against target: it
// reads commands from in and tells out what its watchers see, until in
// ends.
func ServeWatchers(target *url.URL, in io.Reader, out io.Writer) error {
	r := newRun(Config{Target: target})
	r.measuring.Store(true)
	r.tell = &teller{w: out}
	commands := bufio.NewScanner(in)
	commands.Buffer(nil, 1<<24) // a thousand addresses fit easily
	for commands.Scan() {
		kind, rest, _ := strings.Cut(commands.Text(), " ")
		id, addrs, _ := strings.Cut(rest, " ")
		switch kind {
		case "watch":
			go func() {
				t, err := r.watchersOf(id, strings.Split(addrs, ","))
				if err != nil {
					r.tell.line("failed %s %s", id, strings.ReplaceAll(err.Error(), "\n", " "))
					return
				}
				r.startTable(t)
				r.tell.line("ready %s", id)
			}()
		case "sent":
			ply, nanos, _ := strings.Cut(addrs, " ")
			p, err1 := strconv.Atoi(ply)
			n, err2 := strconv.ParseInt(nanos, 10, 64)
			t := r.table(id)
			if err1 != nil || err2 != nil || p < 0 {
				r.tell.line("error a malformed line: %q", commands.Text())
			} else if t != nil {
				t.toldSent(p, time.Unix(0, n))
			}
		case "report":
			r.tell.line("watched %s", r.watchers.text())
		case "close":
			if t := r.table(id); t != nil {
				t.abort()
			}
		}
	}
	r.stop()
	return commands.Err()
}

// watchersOf connects a watcher of game id from each address.
func (r *run) watchersOf(id string, addrs []string) (*table, error) {
	ctx, cancel := context.WithTimeout(r.ctx, 30*time.Second)
	defer cancel()
	t := &table{r: r, id: id}
	for i, a := range addrs {
		ip := net.ParseIP(a)
		if ip == nil {
			return nil, fmt.Errorf("%q is not an address", a)
		}
		c := &conn{t: t, name: fmt.Sprintf("watcher %d", i+1)}
		if err := c.connect(ctx, ip, ""); err != nil {
			for _, c := range t.conns {
				c.ws.CloseNow()
			}
			return nil, fmt.Errorf("%s of game %s: %w", c.name, id, err)
		}
		t.conns = append(t.conns, c)
	}
	return t, nil
}

// teller writes the watchers' process's lines, each in one write: the
// other process waits for them.
type teller struct {
	mu sync.Mutex
	w  io.Writer
}

func (t *teller) line(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.w, format+"\n", args...)
}

// table returns the game id being played, if it is.
func (r *run) table(id string) *table {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tables[id]
}
