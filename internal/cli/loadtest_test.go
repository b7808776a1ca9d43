package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"bretter/internal/loadtest"
	"bretter/internal/server"
	"bretter/internal/store"
	"bretter/internal/web"
)

// runCmdErr runs a command and returns its output, its error output and
// its exit status.
func runCmdErr(args ...string) (string, string, int) {
	var out, errOut bytes.Buffer
	code := Run(args, testGames, strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

// startSite serves a fresh site on a free loopback port, in this process,
// and returns its address and the client addresses it has seen.
func startSite(t *testing.T) (string, func() map[string]bool) {
	t.Helper()
	site, err := web.New(testGames)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "site.db"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{Store: st, Games: testGames, Site: site, Log: slog.New(slog.DiscardHandler)})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Run(ctx); close(done) }()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := net.SplitHostPort(r.RemoteAddr)
		mu.Lock()
		seen[host] = true
		mu.Unlock()
		srv.ServeHTTP(w, r)
	})}
	go hs.Serve(ln)
	t.Cleanup(func() {
		hs.Close()
		cancel()
		<-done
		st.Close()
	})
	return "http://" + ln.Addr().String(), func() map[string]bool {
		mu.Lock()
		defer mu.Unlock()
		return seen
	}
}

// The watchers are held by a process of their own, or with -watchers-here
// by the players' process.
func TestLoadtestPlaysGames(t *testing.T) {
	for _, here := range []bool{false, true} {
		t.Run(fmt.Sprintf("watchers-here=%v", here), func(t *testing.T) { loadtestPlaysGames(t, here) })
	}
}

func loadtestPlaysGames(t *testing.T, here bool) {
	url, seen := startSite(t)
	const games, watchers = 3, 2
	// Players think long enough to stay within the site's budget of
	// messages per address.
	args := []string{"loadtest", "-url", url, "-games", "3", "-watchers", "2",
		"-think", "20ms-60ms", "-duration", "2s", "-json", fmt.Sprintf("-watchers-here=%v", here)}
	if !here {
		args = append(args, "-watchers-nice", "5")
	}
	out, errOut, code := runCmdErr(args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var r loadtest.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if r.Errors != 0 || len(r.FirstErrors) != 0 {
		t.Errorf("errors: %d %q", r.Errors, r.FirstErrors)
	}
	if r.Moves == 0 || r.Moves != r.Opponent.Count || r.MovesPerSecond <= 0 {
		t.Errorf("moves %d, %.1f/s, latencies to the opponent %d", r.Moves, r.MovesPerSecond, r.Opponent.Count)
	}
	// Every move reaches both watchers, but the last moves may still be
	// on their way when the measurement ends.
	if r.WatchersLatency.Count == 0 || r.WatchersLatency.Count > watchers*r.Moves {
		t.Errorf("%d latencies to watchers for %d moves", r.WatchersLatency.Count, r.Moves)
	}
	for _, l := range []loadtest.Latency{r.Opponent, r.WatchersLatency} {
		if !(0 < l.P50 && l.P50 <= l.P95 && l.P95 <= l.P99 && l.P99 <= l.Max) {
			t.Errorf("latencies out of order: %+v", l)
		}
	}
	// The site timed the same moves, give or take those under way when
	// the measurement began and ended.
	if s := r.SiteMove; s == nil || s.Count <= 0 || s.Count < r.Moves-2*games || s.Count > r.Moves+2*games ||
		!(0 < s.Mean && 0 < s.P50 && s.P50 <= s.P95 && s.P95 <= s.P99) {
		t.Errorf("the site's part %+v (%s) for %d moves", s, r.SiteMoveNote, r.Moves)
	}
	// The site listens in this very process.
	if r.Server == nil || r.Server.PID != os.Getpid() || r.Server.RSSMB <= 0 {
		t.Errorf("server usage %+v (%s), want this process, %d", r.Server, r.ServerNote, os.Getpid())
	}
	if m := r.Machine; m == nil || m.Processors < 1 || m.BusyPercent <= 0 || m.BusyPercent > 100 || m.StolenPercent < 0 {
		t.Errorf("the machine's share %+v", m)
	}
	if apart := r.WatchersProcess; here != (apart == nil) || apart != nil && (apart.PID == os.Getpid() || apart.RSSMB <= 0) {
		t.Errorf("with -watchers-here=%v the watchers' process is %+v", here, apart)
	}
	if apart := r.WatchersProcess; apart != nil && (apart.Nice != 5 || r.WatchersNice != 5) {
		t.Errorf("with -watchers-nice 5 the watchers' process ran at %d (reported %d)", apart.Nice, r.WatchersNice)
	}
	// Each player and watcher came from its own loopback address, none
	// from the usual one.
	hosts := seen()
	if len(hosts) < games*(2+watchers) {
		t.Errorf("%d client addresses, want at least %d: %v", len(hosts), games*(2+watchers), hosts)
	}
	for h := range hosts {
		if ip, err := netip.ParseAddr(h); err != nil || !ip.IsLoopback() || h == "127.0.0.1" {
			t.Errorf("a client from %s", h)
		}
	}

	out, _, code = runCmdErr("loadtest", "-url", url, "-games", "1", "-think", "10ms-30ms", "-duration", "1s")
	if code != 0 || !strings.Contains(out, "opponent") || !strings.Contains(out, "errors      0") || !strings.Contains(out, "bretter_move_seconds") ||
		!strings.Contains(out, "% taken by the host") {
		t.Errorf("text report, exit %d:\n%s", code, out)
	}
}

// Random Fanorona games end within a second or two: finished games are
// replaced by new ones, and the watchers go with their game.
func TestLoadtestReplacesFinishedGames(t *testing.T) {
	url, _ := startSite(t)
	// A -pid that names no process: the server is not measured, and the
	// report says why.
	out, errOut, code := runCmdErr("loadtest", "-url", url, "-game", "fanorona", "-games", "2", "-watchers", "1",
		"-think", "10ms-30ms", "-duration", "4s", "-json", "-pid", "2147483647")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var r loadtest.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if r.GamesFinished == 0 || r.Errors != 0 || r.Moves == 0 || r.WatchersLatency.Count == 0 {
		t.Errorf("%d games finished, %d moves, %d seen by watchers, errors %d %q",
			r.GamesFinished, r.Moves, r.WatchersLatency.Count, r.Errors, r.FirstErrors)
	}
	if r.Server != nil || !strings.Contains(r.ServerNote, "process 2147483647") {
		t.Errorf("server %+v, note %q", r.Server, r.ServerNote)
	}
}

// Games against the computer are played beside the others: the
// computer's answers are timed on their own, and the relay between
// people counts only the games between people.
func TestLoadtestBesideTheComputer(t *testing.T) {
	url, seen := startSite(t)
	out, errOut, code := runCmdErr("loadtest", "-url", url, "-games", "2", "-computer", "2", "-level", "1",
		"-think", "20ms-60ms", "-duration", "3s", "-json")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	var r loadtest.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if r.Errors != 0 || r.Computer != 2 || r.Level != 1 {
		t.Errorf("errors %d %q; %d games against level %d", r.Errors, r.FirstErrors, r.Computer, r.Level)
	}
	if r.Opponent.Count == 0 || r.ComputerLatency.Count == 0 || r.Moves != r.Opponent.Count {
		t.Errorf("%d moves relayed, %d answers of the computer; %d moves", r.Opponent.Count, r.ComputerLatency.Count, r.Moves)
	}
	// Two players for each game between people, one for each against
	// the computer.
	if n := len(seen()); n < 2*2+2 {
		t.Errorf("%d client addresses, want at least 6", n)
	}

	out, _, code = runCmdErr("loadtest", "-url", url, "-games", "1", "-computer", "1", "-think", "10ms-30ms", "-duration", "1s")
	if code != 0 || !strings.Contains(out, "1 games against the computer at level 4") || !strings.Contains(out, "\ncomputer ") {
		t.Errorf("text report, exit %d:\n%s", code, out)
	}
}

func TestLoadtestRefusesBadArguments(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-url", "http://192.0.2.1:8080"}, "loopback"},
		{[]string{"-url", "http://example.com:8080"}, "loopback"},
		{[]string{"-url", "http://[::1]:8080"}, "IPv4 loopback"},
		{[]string{"-url", "https://127.0.0.1:8080"}, "http://"},
		{[]string{"-url", "http://127.0.0.1"}, "port"},
		{[]string{}, "-url is required"},
		{[]string{"-url", "http://127.0.0.1:1", "-think", "soon"}, `-think: "soon" is not a thinking time`},
		{[]string{"-url", "http://127.0.0.1:1", "-think", "5s-1s"}, "ends before it starts"},
		{[]string{"-url", "http://127.0.0.1:1", "-think", "2s-"}, "is not a thinking time"},
		{[]string{"-url", "http://127.0.0.1:1", "-games", "0"}, "-games"},
		{[]string{"-url", "http://127.0.0.1:1", "-game", "chess"}, "unknown game"},
		{[]string{"-url", "http://127.0.0.1:1", "-duration", "0s"}, "-duration"},
		{[]string{"-url", "http://127.0.0.1:1", "-computer", "-1"}, "-computer"},
		{[]string{"-url", "http://127.0.0.1:1", "-computer", "2", "-level", "9"}, "-level must be between 1 and 8"},
		{[]string{"-url", "http://127.0.0.1:1", "-players-nice", "-21"}, "-players-nice must be between -20 and 19"},
		{[]string{"-url", "http://127.0.0.1:1", "-players-nice", "20"}, "-players-nice must be between -20 and 19"},
		{[]string{"-url", "http://127.0.0.1:1", "-watchers-nice", "20"}, "-watchers-nice must be between -20 and 19"},
		{[]string{"-url", "http://127.0.0.1:1", "-watchers-nice", "5", "-watchers-here"}, "-watchers-here does without"},
	} {
		out, errOut, code := runCmdErr(append([]string{"loadtest"}, tt.args...)...)
		if code != 2 || !strings.Contains(errOut, tt.want) || out != "" {
			t.Errorf("%q: exit %d, %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
	for _, args := range [][]string{{}, {"-nice", "30", "http://127.0.0.1:1"}, {"http://127.0.0.1:1", "more"}} {
		out, errOut, code := runCmdErr(append([]string{"loadtest-watchers"}, args...)...)
		if code != 2 || !strings.Contains(errOut, "usage: bretter loadtest-watchers [-nice N] URL") || out != "" {
			t.Errorf("loadtest-watchers %q: exit %d, %q", args, code, errOut)
		}
	}
}

func TestLoadtestReportsAnUnreachableSite(t *testing.T) {
	addr := freeAddr(t)
	_, errOut, code := runCmdErr("loadtest", "-url", "http://"+addr, "-games", "2", "-duration", "1s")
	if code != 1 || !strings.Contains(errOut, "setting up a game") {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

// The floor passes messages through a relay of its own, from each of
// -pairs pairs, paced by -think.
func TestLoadtestFloor(t *testing.T) {
	for _, tt := range []struct {
		pairs, think string
		most         int64 // messages: each after at least 5 ms of quiet and its way through
	}{{"1", "5ms", 80}, {"20", "5ms-15ms", 20 * 80}} {
		out, errOut, code := runCmdErr("loadtest-floor", "-pairs", tt.pairs, "-think", tt.think, "-duration", "400ms", "-json")
		if code != 0 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
		}
		var r struct {
			Pairs   int
			Think   string
			Latency loadtest.Latency
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		l := r.Latency
		if strconv.Itoa(r.Pairs) != tt.pairs || r.Think != tt.think || l.Count < int64(r.Pairs)*3 || l.Count > tt.most || !(0 < l.P50 && l.P50 <= l.P95 && l.P95 <= l.P99 && l.P99 <= l.Max) {
			t.Errorf("-pairs %s -think %s: floor %+v", tt.pairs, tt.think, r)
		}
	}
	out, _, code := runCmdErr("loadtest-floor", "-think", "5ms", "-duration", "100ms")
	if code != 0 || !strings.Contains(out, "opponent") || !strings.Contains(out, "1 pair,") {
		t.Errorf("text report, exit %d:\n%s", code, out)
	}
	for _, args := range [][]string{
		{"-think", "0s"}, {"-think", "1s", "-duration", "500ms"}, {"extra"}, {"-think", "soon"},
		{"-think", "5ms-1ms"}, {"-pairs", "0"}, {"-pairs", "20000"},
	} {
		if _, errOut, code := runCmdErr(append([]string{"loadtest-floor"}, args...)...); code != 2 || errOut == "" {
			t.Errorf("loadtest-floor %q: exit %d, %q", args, code, errOut)
		}
	}
	if _, errOut, code := runCmdErr("loadtest-relay", "extra"); code != 2 || errOut == "" {
		t.Errorf("loadtest-relay with an argument: exit %d, %q", code, errOut)
	}
}
