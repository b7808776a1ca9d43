package browsertest

import (
	"bufio"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Server is a running `bretter serve` process.
type Server struct {
	URL string // base URL without a trailing slash, e.g. http://127.0.0.1:43123
	DB  string // path of the SQLite file; start another server on it to restart

	t       testing.TB
	cmd     *exec.Cmd
	exited  chan struct{} // closed once the process has been waited for
	waitErr error         // valid after exited is closed
	drained chan struct{} // closed once all output has been read

	mu       sync.Mutex
	lines    []string
	stopping bool // Stop or Kill was called, so an exit is expected
}

// Waits that only matter when something is wrong; generous because the
// machines running the tests are often busy.
const (
	startTimeout = 20 * time.Second
	stopTimeout  = 10 * time.Second
)

// servingURL finds the address in the line the server logs once it listens.
var servingURL = regexp.MustCompile(`http://127\.0\.0\.1:\d+`)

// StartServer builds bretter (once) and runs `bretter serve` on a free
// loopback port with the SQLite file db, or with a new file in t.TempDir()
// when db is "". It returns once the server has logged its URL. The server
// is stopped when the test ends, and its output is logged if the test failed.
func StartServer(t testing.TB, db string) *Server {
	t.Helper()
	return startServer(t, Build(t), db)
}

// StartServerEnv is StartServer with variables added to the server's
// environment, such as BRETTER_BUS for an instance of several.
func StartServerEnv(t testing.TB, db string, env ...string) *Server {
	t.Helper()
	return startServer(t, Build(t), db, env...)
}

// startServer runs bin as if it were bretter; extraEnv lets the self-test
// run a stand-in.
func startServer(t testing.TB, bin, db string, extraEnv ...string) *Server {
	t.Helper()
	if db == "" {
		db = filepath.Join(t.TempDir(), "bretter.db")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatalf("browsertest: starting bretter serve: %v", err)
	}
	cmd := exec.Command(bin, "serve", "-addr", "127.0.0.1:0", "-db", db)
	cmd.Env = append(os.Environ(), extraEnv...)
	// One pipe for both streams keeps the log in the order it was written.
	cmd.Stdout, cmd.Stderr = w, w
	err = cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		t.Fatalf("browsertest: starting bretter serve: %v", err)
	}

	s := &Server{
		DB:      db,
		t:       t,
		cmd:     cmd,
		exited:  make(chan struct{}),
		drained: make(chan struct{}),
	}
	found := make(chan string, 1)
	go s.readOutput(r, found)
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(s.cleanup)

	select {
	case s.URL = <-found:
		return s
	case <-s.exited:
		s.mu.Lock()
		s.stopping = true // reported here, not again by cleanup
		s.mu.Unlock()
		t.Fatalf("browsertest: bretter serve exited before serving: %v (its output follows)", s.waitErr)
	case <-time.After(startTimeout):
		t.Fatalf("browsertest: bretter serve logged no %s URL within %v (its output follows)",
			servingURL, startTimeout)
	}
	return nil
}

// readOutput keeps every line the server writes, for Log and for failures,
// and hands over the first URL it sees. It reads until the process and
// anything it started have closed the pipe, so the server never blocks on a
// full pipe.
func (s *Server) readOutput(r io.ReadCloser, found chan<- string) {
	defer close(s.drained)
	defer r.Close()
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			line = strings.TrimRight(line, "\r\n")
			s.mu.Lock()
			s.lines = append(s.lines, line)
			s.mu.Unlock()
			if found != nil {
				if u := servingURL.FindString(line); u != "" {
					found <- u
					found = nil
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// Log returns everything the server has written so far, one line per line.
func (s *Server) Log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.lines, "\n")
}

// Stop asks the server to shut down with SIGTERM and waits for it; a server
// that needs more than 10 s is killed and fails the test, as does one that
// exits with an error.
func (s *Server) Stop() {
	s.t.Helper()
	if err := s.stop(); err != nil {
		s.t.Errorf("browsertest: %v", err)
	}
}

func (s *Server) stop() error {
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
	select {
	case <-s.exited:
		return nil
	default:
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-s.exited:
		if s.waitErr != nil {
			return errors.New("bretter serve did not exit cleanly on SIGTERM: " + s.waitErr.Error())
		}
		return nil
	case <-time.After(stopTimeout):
		s.cmd.Process.Kill()
		<-s.exited
		return errors.New("bretter serve did not exit within " + stopTimeout.String() + " of SIGTERM and was killed")
	}
}

// Kill ends the server with SIGKILL, as a crash or power cut would, and
// waits until it is gone.
func (s *Server) Kill() {
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
	s.cmd.Process.Kill()
	<-s.exited
}

// cleanup stops a server the test left running and shows its output when the
// test failed. A server that died on its own fails the test: a panic in a
// handler would otherwise only show up as some unrelated timeout.
func (s *Server) cleanup() {
	s.mu.Lock()
	expected := s.stopping
	s.mu.Unlock()
	select {
	case <-s.exited:
		if !expected {
			s.t.Errorf("browsertest: bretter serve exited during the test: %v", s.waitErr)
		}
	default:
		if err := s.stop(); err != nil {
			s.t.Errorf("browsertest: %v", err)
		}
	}
	select {
	case <-s.drained:
	case <-time.After(stopTimeout):
		// Something the server started still holds the pipe; show what we have.
	}
	if s.t.Failed() {
		s.t.Logf("bretter serve output:\n%s", s.Log())
	}
}
