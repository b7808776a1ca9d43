package loadtest

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
)

func TestHistogramQuantiles(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h histogram
	var samples []time.Duration
	for range 20000 {
		// From microseconds to seconds, most of them around a millisecond.
		d := time.Duration(math.Exp(rng.NormFloat64()*2+7)) * time.Microsecond
		samples = append(samples, d)
		h.record(d)
	}
	slices.Sort(samples)
	got := h.summary()
	if got.Count != int64(len(samples)) {
		t.Fatalf("count %d", got.Count)
	}
	for _, q := range []struct {
		p   float64
		got float64
	}{{0.50, got.P50}, {0.95, got.P95}, {0.99, got.P99}} {
		want := float64(samples[int(math.Ceil(q.p*float64(len(samples))))-1].Microseconds()) / 1000
		if math.Abs(q.got-want) > want*0.01+0.001 {
			t.Errorf("p%.0f = %.3f ms, want %.3f ms within 1%%", q.p*100, q.got, want)
		}
	}
	if want := float64(samples[len(samples)-1].Microseconds()) / 1000; got.Max != want {
		t.Errorf("max %.3f, want %.3f", got.Max, want)
	}
	var empty histogram
	if s := empty.summary(); s != (Latency{}) {
		t.Errorf("nothing recorded: %+v", s)
	}
}

// A histogram written as text by one process and added in another keeps
// its samples; a damaged one adds nothing.
func TestHistogramAsText(t *testing.T) {
	var there, here histogram
	for _, ms := range []int{1, 1, 2, 3, 40, 900} {
		there.record(time.Duration(ms) * time.Millisecond)
	}
	here.record(5 * time.Millisecond)
	if err := here.addText(there.text()); err != nil {
		t.Fatal(err)
	}
	got := here.summary()
	if got.Count != 7 || got.P50 < 2.9 || got.P50 > 3.1 || got.Max != 900 {
		t.Fatalf("after adding: %+v, want 7 samples, p50 3 ms, max 900 ms", got)
	}
	var empty histogram
	if err := here.addText(empty.text()); err != nil || here.summary() != got {
		t.Fatalf("adding nothing: %v, %+v", err, here.summary())
	}
	for _, bad := range []string{"", "3", "x 5", "2 5 1:1", "1 5 1:1 2:1", "1 5 1x1", "1 5 -1:1", "1 5 99999:1", "1 5 1:0"} {
		if err := here.addText(bad); err == nil {
			t.Errorf("%q was taken", bad)
		}
	}
	if here.summary() != got {
		t.Errorf("damaged histograms changed it: %+v", here.summary())
	}
}

// The watchers' process writes its histogram while arrivals may still be
// recorded: what it writes must still add up.
func TestHistogramAsTextWhileRecording(t *testing.T) {
	var h histogram
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
					h.record(time.Duration(i%5000) * time.Microsecond)
				}
			}
		})
	}
	defer func() { close(stop); wg.Wait() }()
	for range 200 {
		var copied histogram
		if err := copied.addText(h.text()); err != nil {
			t.Fatal(err)
		}
	}
}

// In the watchers' process a move's arrivals are timed when the players'
// process tells when it was sent, whether they came before or after.
func TestWatchersTimeArrivals(t *testing.T) {
	r := &run{tell: &teller{w: io.Discard}}
	r.measuring.Store(true)
	tb := &table{r: r, id: "game00001"}
	sent := time.Unix(1_790_000_000, 0)
	tb.arrived(0, sent.Add(9*time.Millisecond), true) // never told: not measured
	tb.arrived(1, sent.Add(3*time.Millisecond), true)
	tb.arrived(1, sent.Add(4*time.Millisecond), true)
	if n := r.watchers.summary().Count; n != 0 {
		t.Fatalf("%d arrivals timed before their move's time was told", n)
	}
	tb.toldSent(1, sent)
	tb.arrived(1, sent.Add(5*time.Millisecond), true)
	got := r.watchers.summary()
	if got.Count != 3 || got.Max != 5 || math.Abs(got.P50-4) > 0.05 {
		t.Fatalf("timed %+v, want 3 arrivals, p50 4 ms, max 5 ms", got)
	}
	if len(tb.early) != 0 {
		t.Errorf("arrivals still kept: %v", tb.early)
	}
}

func TestBucketsCoverEveryValue(t *testing.T) {
	last := -1
	for _, us := range []int64{0, 1, 255, 256, 257, 511, 512, 1000, 1 << 20, 1<<40 + 12345, math.MaxInt64} {
		i := bucketOf(us)
		if i < last || i >= histBuckets {
			t.Fatalf("bucket of %d µs is %d (after %d)", us, i, last)
		}
		last = i
		if mid := bucketMid(i); math.Abs(mid-float64(us)) > float64(us)/128+1 {
			t.Errorf("%d µs counted as %.0f", us, mid)
		}
	}
}

func TestParseThink(t *testing.T) {
	for _, tt := range []struct {
		in     string
		lo, hi time.Duration
		ok     bool
	}{
		{"2s-10s", 2 * time.Second, 10 * time.Second, true},
		{"0s-0s", 0, 0, true},
		{"500ms", 500 * time.Millisecond, 500 * time.Millisecond, true},
		{"1m-1m30s", time.Minute, 90 * time.Second, true},
		{"10s-2s", 0, 0, false},
		{"-1s-2s", 0, 0, false},
		{"2s-", 0, 0, false},
		{"", 0, 0, false},
		{"2-10", 0, 0, false},
		{"2s-10s-20s", 0, 0, false},
	} {
		lo, hi, err := ParseThink(tt.in)
		if (err == nil) != tt.ok || lo != tt.lo || hi != tt.hi {
			t.Errorf("ParseThink(%q) = %v, %v, %v", tt.in, lo, hi, err)
		}
	}
}

func TestTarget(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"http://localhost:8080/", "http://127.0.0.1:8080"},
		{"http://127.3.2.1:1/some/path", "http://127.3.2.1:1"},
		{"http://10.0.0.1:8080", ""},
		{"http://[::1]:8080", ""},
		{"http://[::ffff:127.0.0.1]:8080", ""},
		{"http://bretter.example:80", ""},
		{"https://127.0.0.1:8443", ""},
		{"http://127.0.0.1", ""},
		{"127.0.0.1:8080", ""},
	} {
		u, err := Target(tt.in)
		got := ""
		if err == nil {
			got = u.String()
		}
		if got != tt.want {
			t.Errorf("Target(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestAddressesAreDistinctAndLoopback(t *testing.T) {
	var a addresses
	seen := map[string]bool{}
	for range 100000 {
		ip := a.take()
		if !ip.IsLoopback() || ip[15] == 0 || ip[15] == 255 || ip.Equal(net.IPv4(127, 0, 0, 1)) || ip[13] == 0 {
			t.Fatalf("address %s", ip)
		}
		if seen[ip.String()] {
			t.Fatalf("address %s twice", ip)
		}
		seen[ip.String()] = true
	}
}

// The machine's share is read from /proc/stat's line for all processors;
// a line it cannot read is an error, not a share of nothing.
func TestMachineShare(t *testing.T) {
	before, err := parseProcessorTimes("cpu  100 10 50 800 20 5 5 10 0 0\ncpu0 50 5 25 400 10 3 2 5 0 0\ncpu1 50 5 25 400 10 2 3 5 0 0\nintr 12345\n")
	if err != nil {
		t.Fatal(err)
	}
	// 100 ticks later: 30 busy, 60 idle (of which 5 waiting for the disk), 10 stolen.
	after, err := parseProcessorTimes("cpu  120 10 58 855 25 6 6 20 0 0\ncpu0 60 5 29 427 12 3 3 10 0 0\ncpu1 60 5 29 428 13 3 3 10 0 0\n")
	if err != nil {
		t.Fatal(err)
	}
	m := after.since(before)
	if m.Processors != 2 || math.Abs(m.BusyPercent-30) > 1e-9 || math.Abs(m.StolenPercent-10) > 1e-9 {
		t.Fatalf("share %+v, want 2 processors, 30%% busy, 10%% stolen", m)
	}
	if m := after.since(after); m.BusyPercent != 0 || m.StolenPercent != 0 {
		t.Fatalf("no time passed: %+v", m)
	}
	for _, bad := range []string{"", "intr 1 2 3\n", "cpu  1 2 3\n", "cpu  1 2 x 4 5 6 7 8 0 0\n"} {
		if _, err := parseProcessorTimes(bad); err == nil {
			t.Errorf("%q was read", bad)
		}
	}
	if runtime.GOOS == "linux" {
		if now, err := readProcessorTimes(); err != nil || now.processors < 1 || now.busy+now.idle <= 0 {
			t.Errorf("this machine: %+v, %v", now, err)
		}
	}
}

func TestListenerAndUsage(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	p, _ := strconv.Atoi(port)
	pid, err := listenerPID(p)
	if err != nil || pid != os.Getpid() {
		t.Fatalf("listener of port %d: %d, %v; want %d", p, pid, err, os.Getpid())
	}
	ln.Close()
	if pid, err := listenerPID(p); err == nil {
		t.Errorf("a closed port is held by %d", pid)
	}
	u, err := readUsage(os.Getpid())
	if err != nil || u.rss <= 0 {
		t.Errorf("usage %+v, %v", u, err)
	}
}

func TestWatcherView(t *testing.T) {
	for _, tt := range []struct {
		in         string
		typ, seat  string
		moveEvent  bool
		wantsError bool
	}{
		{`{"type":"event","version":3,"event":{"seq":3,"kind":"move","seat":"white","move":"e5","at":"2026-01-01T00:00:00Z"},"state":{"status":"playing","moves":["a1","b2","e5"]}}`, "event", "white", true, false},
		{`{"state":{"moves":["a1"]},"event":{"kind":"move","seat":"black"},"version":1,"type":"event"}`, "event", "black", true, false},
		{`{"type":"event","version":4,"event":{"kind":"name","seat":"black"}}`, "event", "black", false, false},
		{`{"type":"presence","players":{"white":{"online":true}}}`, "presence", "", false, false},
		{`["type","event"]`, "", "", false, true},
		{`{"type":"event","event":{"kind":`, "", "", false, true},
	} {
		m, err := watcherView([]byte(tt.in))
		if (err != nil) != tt.wantsError {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if err != nil {
			continue
		}
		seat, move := "", false
		if m.Event != nil {
			seat, move = m.Event.Seat, m.Event.Kind == "move"
		}
		if m.Type != tt.typ || seat != tt.seat || move != tt.moveEvent {
			t.Errorf("%s: type %q, seat %q, move %v", tt.in, m.Type, seat, move)
		}
	}
}

// A player plans its move from an event that carries the whole state after
// it, and from one that carries only what changed.
func TestPlayerPlansFromEitherKindOfEvent(t *testing.T) {
	for _, msg := range []string{
		`{"type":"event","version":5,"event":{"kind":"move","seat":"white"},"state":{"status":"playing","to_move":"black","moves":["a","b","c","d","e"],"legal":["f","g"]}}`,
		`{"type":"event","version":5,"event":{"kind":"move","seat":"white"},"change":{"status":"playing","to_move":"black"},"legal":["f","g"]}`,
	} {
		r := &run{cfg: Config{ThinkMin: time.Hour, ThinkMax: time.Hour}}
		tb := &table{r: r, sent: []time.Time{4: time.Now()}}
		c := &conn{t: tb, seat: "black", ply: 4, planned: -1}
		r.measuring.Store(true)
		var m message
		if err := json.Unmarshal([]byte(msg), &m); err != nil {
			t.Fatal(err)
		}
		c.handle(&m, time.Now())
		if c.ply != 5 || c.planned != 5 || c.current.Load() != 5 || r.opponent.n.Load() != 1 {
			t.Errorf("%s: ply %d, planned %d, current %d, latencies %d", msg, c.ply, c.planned, c.current.Load(), r.opponent.n.Load())
		}
	}
}

// A random legal move is any of the list, escapes and all, and none of an
// empty one.
func TestRandomMove(t *testing.T) {
	list := json.RawMessage(`["e5", "a\"1", "b\\", "\u00e9,x"]`)
	seen := map[string]int{}
	for range 400 {
		m, ok := randomMove(list)
		if !ok {
			t.Fatalf("no move picked from %s", list)
		}
		seen[m]++
	}
	for _, want := range []string{"e5", `a"1`, `b\`, "é,x"} {
		if seen[want] < 50 {
			t.Errorf("%q picked %d times in 400, want about 100 (%v)", want, seen[want], seen)
		}
	}
	if len(seen) != 4 {
		t.Errorf("picked %v, want only the four moves", seen)
	}
	for _, empty := range []string{``, `[]`, `null`, `[ ]`} {
		if m, ok := randomMove(json.RawMessage(empty)); ok {
			t.Errorf("from %q picked %q", empty, m)
		}
	}
}

// A player's view of a message is what decoding it whole gives, the legal
// moves kept as they are written, wherever they stand and whatever the
// strings around them hold.
func TestPlayerViewDecodesAsWhole(t *testing.T) {
	for _, in := range []string{
		`{"type":"event","version":5,"event":{"kind":"move","seat":"white"},"change":{"status":"playing","to_move":"black"},"legal":["f","g"]}`,
		`{"legal":["a\"]","b\\"],"type":"event","version":2}`,
		`{ "type" : "event" , "legal" : [ "x" , "y" ] , "version" : 7 }`,
		`{"type":"event","error":"\"legal\":[1]","code":"legal","legal":["z"]}`,
		`{"type":"state","version":3,"state":{"status":"playing","to_move":"white","moves":["a"],"legal":["b","c"]}}`,
		`{"type":"event","event":{"kind":"move","seat":"black","legal":["q"]},"version":9,"legal":[]}`,
		`{"type":"event","version":1,"legal":null}`,
		`{"typ\u0065":"event","\u006cegal":["a"],"change":null}`,
		` {} `,
		`{"type":"presence","players":{"white":{"online":true}}}`,
	} {
		var want message
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		got, err := playerView([]byte(in))
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		var wantLegal, gotLegal bytes.Buffer
		if len(want.Legal) > 0 {
			json.Compact(&wantLegal, want.Legal)
		}
		if len(got.Legal) > 0 {
			json.Compact(&gotLegal, got.Legal)
		}
		if wantLegal.String() != gotLegal.String() {
			t.Errorf("%s: legal %s, want %s", in, got.Legal, want.Legal)
		}
		want.Legal, got.Legal = nil, nil
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("%s: %+v, want %+v", in, *got, want)
		}
	}
}

// A message that is not JSON, or is cut short, is refused, the legal moves
// or not.
func TestPlayerViewRefusesBrokenMessages(t *testing.T) {
	for _, in := range []string{
		``,
		`{"type":"event","legal":["a","b"`,
		`{"type":"event","legal":["a"],"version":`,
		`{"type":"event","legal":["a"]`,
		`{"type":"event","legal":"a\"}`,
		`{"type":"event","legal":}`,
		`["legal",["a"]]`,
		`{"type":"event","legal":["a"]}}`,
		`{"type":"event",}`,
		`{"type":"event" "version":1}`,
		`{"type" "event"}`,
		`{"type":"event","change":{"status":}}`,
		`{"type":"event","version":"one"}`,
	} {
		if m, err := playerView([]byte(in)); err == nil {
			t.Errorf("%q: accepted as %+v", in, m)
		}
	}
}

// anEvent is a message as the player to move gets it in the middle of a
// Havannah game on a board of side 8: what changed, the board, and 150
// legal moves.
func anEvent() []byte {
	var legal []string
	for c := 'a'; c <= 'o'; c++ {
		for r := 1; r <= 10; r++ {
			legal = append(legal, string(c)+strconv.Itoa(r))
		}
	}
	l, _ := json.Marshal(legal)
	return []byte(`{"type":"event","version":40,"event":{"seq":40,"kind":"move","seat":"white","move":"h8","at":"2026-12-02T12:00:00.123Z"},` +
		`"change":{"status":"playing","to_move":"black","result":null,"view":{"size":8,"swap":true,"stones":"` + strings.Repeat(".wb.", 42) + `.","last":"h8","swapped":false,"structures":[],"winning":[]},` +
		`"players":{"white":{"online":true,"name":"","computer":false},"black":{"online":true,"name":"","computer":false}},"offer":null,"updated":"2026-12-02T12:00:00Z"},"legal":` + string(l) + `}`)
}

// BenchmarkPlayerView is what a player's message costs the load command:
// compare BenchmarkDecodeWhole.
func BenchmarkPlayerView(b *testing.B) {
	data := anEvent()
	for b.Loop() {
		m, err := playerView(data)
		if err != nil || m.Change.ToMove != "black" || len(m.Legal) == 0 {
			b.Fatal(m, err)
		}
		randomMove(m.Legal)
	}
}

func BenchmarkDecodeWhole(b *testing.B) {
	data := anEvent()
	for b.Loop() {
		var m message
		if err := json.Unmarshal(data, &m); err != nil || m.Change.ToMove != "black" {
			b.Fatal(m, err)
		}
		randomMove(m.Legal)
	}
}

// Every thread of the players' process takes the niceness asked for, and
// so do the threads started after it. (Run in a process of its own, which
// it changes for good.)
func TestRenice(t *testing.T) {
	if os.Getenv("BRETTER_RENICE_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRenice$", "-test.v")
		cmd.Env = append(os.Environ(), "BRETTER_RENICE_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestRenice") {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	want := niceOf(t, "self") + 3
	if want > 19 {
		want = 19
	}
	if err := Renice(want); err != nil {
		t.Fatal(err)
	}
	// Threads blocked in system calls make the runtime start others.
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			r, w, _ := os.Pipe()
			defer r.Close()
			go func() { time.Sleep(50 * time.Millisecond); w.Close() }()
			r.Read(make([]byte, 1))
		})
	}
	wg.Wait()
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		if got := niceOf(t, "self/task/"+task.Name()); got != want {
			t.Errorf("thread %s has niceness %d, want %d", task.Name(), got, want)
		}
	}
	if len(tasks) < 3 {
		t.Errorf("only %d threads to look at", len(tasks))
	}
}

// niceOf reads the niceness of a process or thread, /proc/<which>/stat's
// nineteenth field.
func niceOf(t *testing.T, which string) int {
	t.Helper()
	data, err := os.ReadFile("/proc/" + which + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	// The command's name, in parentheses, may hold spaces.
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	n, err := strconv.Atoi(fields[16])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// histogramOf makes a histogram as the site tells it: cumulative counts
// under each bound, the last +Inf.
func histogramOf(sum float64, bounds []float64, cumulative ...uint64) *dto.Histogram {
	h := &dto.Histogram{SampleSum: &sum}
	for i := range bounds {
		h.Bucket = append(h.Bucket, &dto.Bucket{UpperBound: &bounds[i], CumulativeCount: &cumulative[i]})
	}
	n := cumulative[len(cumulative)-1]
	h.SampleCount = &n
	return h
}

func TestSiteShare(t *testing.T) {
	bounds := []float64{0.001, 0.002, 0.004, math.Inf(1)}
	before := histogramOf(0.5, bounds, 10, 10, 10, 10)
	// 100 moves since: 60 within 1 ms, 35 within 2, 4 within 4, 1 beyond.
	after := histogramOf(0.65, bounds, 70, 105, 109, 110)
	s, err := siteShare(before, after)
	if err != nil {
		t.Fatal(err)
	}
	if want := (SiteShare{Count: 100, Mean: 1.5, P50: 1, P95: 2, P99: 4}); math.Abs(s.Mean-want.Mean) > 1e-9 || s.Count != want.Count || s.P50 != want.P50 || s.P95 != want.P95 || s.P99 != want.P99 {
		t.Errorf("got %+v, want %+v", s, want)
	}
	// Beyond the last finite bound, the quantile is unknown.
	after = histogramOf(5, bounds, 10, 10, 10, 110)
	if s, err := siteShare(before, after); err != nil || s.P50 != -1 || s.P99 != -1 {
		t.Errorf("all beyond the last bound: %+v, %v", s, err)
	}
	// No moves: nothing to sum up.
	if s, err := siteShare(before, before); err != nil || s != (SiteShare{}) {
		t.Errorf("no moves: %+v, %v", s, err)
	}
	if _, err := siteShare(before, histogramOf(1, bounds[:2], 10, 10)); err == nil {
		t.Error("buckets that changed were summed up")
	}
}

// A message kept for the start holds its own copy of the legal moves: the
// buffer it was read into takes the next message.
func TestEarlyMessageOwnsItsMoves(t *testing.T) {
	data := []byte(`{"type":"event","version":2,"change":{"status":"playing","to_move":"white"},"legal":["a1","b2"]}`)
	m, err := playerView(data)
	if err != nil {
		t.Fatal(err)
	}
	c := &conn{}
	c.deliver(m, time.Now())
	copy(data, bytes.Repeat([]byte("x"), len(data)))
	if len(c.early) != 1 || string(c.early[0].Legal) != `["a1","b2"]` {
		t.Errorf("kept %q", c.early[0].Legal)
	}
}

func TestMoveMessage(t *testing.T) {
	for _, tt := range []struct {
		id   int64
		ply  int
		move string
	}{{1, 0, "e5"}, {123456789012, 250, "d4-d6,c3"}, {7, 3, `a"b\c`}} {
		msg := moveMessage(tt.id, tt.ply, tt.move)
		var got struct {
			Type string
			ID   int64
			Ply  int
			Move string
		}
		if err := json.Unmarshal(msg, &got); err != nil {
			t.Fatalf("moveMessage(%d, %d, %q) = %s: %v", tt.id, tt.ply, tt.move, msg, err)
		}
		if got.Type != "move" || got.ID != tt.id || got.Ply != tt.ply || got.Move != tt.move {
			t.Errorf("moveMessage(%d, %d, %q) = %s", tt.id, tt.ply, tt.move, msg)
		}
	}
}
