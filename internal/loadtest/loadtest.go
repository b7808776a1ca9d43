// Package loadtest plays many games at once against a running bretter site,
// through its JSON API and its live WebSocket protocol, as people would:
// each player and each watcher from its own loopback address, thinking
// between moves. It measures how long a move takes from being sent to
// reaching the opponent's socket and the watchers' sockets.
//
// It is light enough to drive ten thousand games from two cores: one
// goroutine per connection, which reads; moves are sent from timers.
package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Config says what load to make.
type Config struct {
	Target             *url.URL // from Target
	Game               string   // the game's name, played with its default options
	Games              int      // played at once; a finished game is replaced by a new one
	Watchers           int      // per game
	Computer           int      // games against the computer, played beside Games
	Level              int      // the computer's level
	ThinkMin, ThinkMax time.Duration
	Duration           time.Duration
	PID                int       // the server's process; 0: the one listening on the target's port
	Progress           io.Writer // where to say how setting up went; nil: nowhere
	// WatchersApart, if set, makes the process that holds the watchers'
	// connections (see apart.go); nil: this process holds them.
	WatchersApart func() *exec.Cmd
	// PlayersNice, unless 0, is the niceness this process takes once the
	// watchers' process has started (which keeps its own).
	PlayersNice int
	// WatchersNice is the niceness the watchers' process took (it takes it
	// itself), for the report.
	WatchersNice int
}

// Report is what one run measured.
type Report struct {
	Target          string     `json:"target"`
	Game            string     `json:"game"`
	Games           int        `json:"games"`
	Watchers        int        `json:"watchers_per_game"`
	Computer        int        `json:"computer_games"`
	Level           int        `json:"level,omitempty"`
	Think           string     `json:"think"`
	PlayersNice     int        `json:"players_nice,omitempty"`
	WatchersNice    int        `json:"watchers_nice,omitempty"`
	SetupSeconds    float64    `json:"setup_s"`
	Seconds         float64    `json:"seconds"`
	GamesFinished   int64      `json:"games_finished"`
	Moves           int64      `json:"moves"`
	MovesPerSecond  float64    `json:"moves_per_s"`
	Opponent        Latency    `json:"opponent"`
	WatchersLatency Latency    `json:"watchers"`
	ComputerLatency Latency    `json:"computer"` // from a move to the computer's answer
	Errors          int64      `json:"errors"`
	FirstErrors     []string   `json:"first_errors"`
	Server          *Usage     `json:"server,omitempty"`
	ServerNote      string     `json:"server_note,omitempty"`    // why there are no server figures
	SiteMove        *SiteShare `json:"site_move,omitempty"`      // the site's part of the opponent's latency
	SiteMoveNote    string     `json:"site_move_note,omitempty"` // why there is none
	Self            *Usage     `json:"loadtest,omitempty"`
	WatchersProcess *Usage     `json:"watchers_process,omitempty"` // with WatchersApart
	Machine         *Machine   `json:"machine,omitempty"`          // where /proc/stat can be read
}

// setupParallel bounds how many games are being set up at once.
const setupParallel = 32

// Run makes the load until cfg.Duration has passed or ctx ends. It fails
// only when not even one game can be set up; later failures are counted
// in the report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	r := newRun(cfg)
	if cfg.WatchersApart != nil && cfg.Watchers > 0 {
		a, err := startApart(r, cfg.WatchersApart())
		if err != nil {
			return nil, err
		}
		r.apart = a
		defer a.stop()
	}
	if cfg.PlayersNice != 0 {
		if err := Renice(cfg.PlayersNice); err != nil {
			r.stop()
			return nil, fmt.Errorf("the players' process: %w", err)
		}
	}
	began := time.Now()
	tables, failed, err := r.setUp(ctx)
	if err != nil {
		r.stop()
		return nil, err
	}
	setup := time.Since(began)
	if cfg.Progress != nil {
		fmt.Fprintf(cfg.Progress, "loadtest: %d games set up in %.1fs, playing for %s\n", len(tables), setup.Seconds(), cfg.Duration)
	}

	report := &Report{
		Target: cfg.Target.String(), Game: cfg.Game, Games: cfg.Games, Watchers: cfg.Watchers,
		Computer: cfg.Computer, Level: cfg.Level,
		Think: fmt.Sprintf("%s-%s", cfg.ThinkMin, cfg.ThinkMax), PlayersNice: cfg.PlayersNice, WatchersNice: cfg.WatchersNice, SetupSeconds: setup.Seconds(),
	}
	server, note := watchServer(cfg)
	self, _ := watch(selfPID())
	var watchers *watcher
	if r.apart != nil {
		watchers, _ = watch(r.apart.cmd.Process.Pid)
	}
	movesBefore, movesErr := r.moveTimes(ctx)
	processors, processorsErr := readProcessorTimes()
	start := time.Now()
	r.measuring.Store(true)
	for _, t := range tables {
		r.startTable(t)
	}
	for _, computer := range failed {
		r.setups.Go(func() { r.replace(computer) })
	}
	tick := time.NewTicker(time.Second)
	end := time.NewTimer(cfg.Duration)
wait:
	for {
		select {
		case <-tick.C:
			if server != nil {
				server.sample()
			}
			if self != nil {
				self.sample()
			}
			if watchers != nil {
				watchers.sample()
			}
		case <-end.C:
			break wait
		case <-ctx.Done():
			break wait
		}
	}
	tick.Stop()
	r.measuring.Store(false)
	if now, err := readProcessorTimes(); err == nil && processorsErr == nil {
		m := now.since(processors)
		report.Machine = &m
	}
	if r.apart != nil {
		if err := r.apart.report(10 * time.Second); err != nil {
			r.fail(err)
		}
	}
	report.Seconds = time.Since(start).Seconds()
	report.SiteMove, report.SiteMoveNote = r.siteShareSince(movesBefore, movesErr)
	if server != nil {
		if u, err := server.finish(); err == nil {
			report.Server = &u
		} else {
			report.ServerNote = err.Error()
		}
	} else {
		report.ServerNote = note
	}
	if self != nil {
		if u, err := self.finish(); err == nil {
			report.Self = &u
		}
	}
	if watchers != nil {
		if u, err := watchers.finish(); err == nil {
			report.WatchersProcess = &u
		}
	}
	r.stop()

	report.GamesFinished = r.finished.Load()
	report.Opponent = r.opponent.summary()
	report.WatchersLatency = r.watchers.summary()
	report.ComputerLatency = r.computer.summary()
	report.Moves = report.Opponent.Count
	report.MovesPerSecond = float64(report.Moves) / report.Seconds
	report.Errors, report.FirstErrors = r.errs.get()
	return report, nil
}

// setUp sets up the games, several at a time, and returns them with
// those that failed (true: against the computer). Only a failure of the
// first is fatal: the site is not there.
func (r *run) setUp(ctx context.Context) ([]*table, []bool, error) {
	first, err := r.newTable(ctx, false)
	if err != nil {
		return nil, nil, fmt.Errorf("setting up a game at %s: %w", r.cfg.Target, err)
	}
	tables := []*table{first}
	var failed []bool
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, setupParallel)
	for i := range r.cfg.Games - 1 + r.cfg.Computer {
		if ctx.Err() != nil {
			break
		}
		computer := i >= r.cfg.Games-1
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			t, err := r.newTable(ctx, computer)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				r.fail(err)
				failed = append(failed, computer)
				return
			}
			tables = append(tables, t)
		})
	}
	wg.Wait()
	return tables, failed, nil
}

func watchServer(cfg Config) (*watcher, string) {
	pid := cfg.PID
	if pid == 0 {
		port, err := strconv.Atoi(cfg.Target.Port())
		if err == nil {
			pid, err = listenerPID(port)
		}
		if err != nil {
			return nil, err.Error()
		}
	}
	w, err := watch(pid)
	if err != nil {
		return nil, fmt.Sprintf("reading process %d: %v", pid, err)
	}
	return w, ""
}

// run is one load test under way.
type run struct {
	cfg    Config
	client *http.Client
	addrs  addresses

	measuring atomic.Bool // latencies count only while true
	stopping  atomic.Bool
	ctx       context.Context // of the games set up while playing; ends with stop
	cancel    context.CancelFunc

	readers sync.WaitGroup // one per open connection
	setups  sync.WaitGroup // games set up in place of finished ones

	mu     sync.Mutex
	tables map[string]*table // being played, by game

	finished                     atomic.Int64
	opponent, watchers, computer histogram
	errs                         errorLog

	apart *apart  // the watchers' process, if they are held apart
	tell  *teller // in the watchers' process: where what they see is told
}

// source is the context key of the address a connection is dialled from.
type source struct{}

func newRun(cfg Config) *run {
	dialer := net.Dialer{Timeout: 10 * time.Second}
	transport := &http.Transport{
		// Each request goes from its own address: a pooled connection
		// would carry it from another's.
		DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			d := dialer
			if ip, ok := ctx.Value(source{}).(net.IP); ok {
				d.LocalAddr = &net.TCPAddr{IP: ip}
			}
			return d.DialContext(ctx, network, addr)
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &run{cfg: cfg, client: &http.Client{Transport: transport}, tables: map[string]*table{}, ctx: ctx, cancel: cancel}
}

// post sends a JSON request from the address src and reads the JSON answer.
func (r *run) post(ctx context.Context, src net.IP, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(context.WithValue(ctx, source{}, src), "POST", r.cfg.Target.String()+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("POST %s: %s: %s", path, resp.Status, strings.TrimSpace(string(data)))
	}
	return json.Unmarshal(data, out)
}

// newTable creates a game from one address and, unless it is against
// the computer, joins it from another; it connects the players and the
// watchers, each from its own address, and reads what each is sent
// first. Nobody moves before startTable.
func (r *run) newTable(ctx context.Context, computer bool) (*table, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	whiteIP := r.addrs.take()
	var created struct {
		ID, Seat, Secret string
		Invite           string `json:"invite_url"`
	}
	req := map[string]any{"game": r.cfg.Game, "start": "me", "opponent": "friend"}
	if computer {
		req["opponent"], req["level"] = "computer", r.cfg.Level
	}
	if err := r.post(ctx, whiteIP, "/api/games", req, &created); err != nil {
		return nil, fmt.Errorf("creating a game: %w", err)
	}
	t := &table{r: r, id: created.ID, computer: computer, players: 1}
	t.conns = []*conn{{t: t, seat: created.Seat, name: created.Seat, planned: -1}}
	secrets := []string{created.Secret}
	ips := []net.IP{whiteIP}
	if !computer {
		blackIP := r.addrs.take()
		var joined struct{ Seat, Secret string }
		invite := created.Invite[strings.LastIndex(created.Invite, "/")+1:]
		if err := r.post(ctx, blackIP, "/api/games/"+created.ID+"/join", map[string]string{"invite": invite}, &joined); err != nil {
			return nil, fmt.Errorf("joining game %s: %w", created.ID, err)
		}
		t.players = 2
		t.conns = append(t.conns, &conn{t: t, seat: joined.Seat, name: joined.Seat, planned: -1})
		secrets = append(secrets, joined.Secret)
		ips = append(ips, blackIP)
	}
	watchers := r.cfg.Watchers
	if computer {
		watchers = 0
	}
	var apart []net.IP
	for i := range watchers {
		if r.apart != nil {
			apart = append(apart, r.addrs.take())
			continue
		}
		t.conns = append(t.conns, &conn{t: t, name: fmt.Sprintf("watcher %d", i+1)})
		secrets = append(secrets, "")
		ips = append(ips, r.addrs.take())
	}
	for i, c := range t.conns {
		if err := c.connect(ctx, ips[i], secrets[i]); err != nil {
			for _, c := range t.conns[:i] {
				c.ws.CloseNow()
			}
			return nil, fmt.Errorf("%s of game %s: %w", c.name, t.id, err)
		}
	}
	if len(apart) > 0 {
		if err := r.apart.watch(ctx, t, apart); err != nil {
			for _, c := range t.conns {
				c.ws.CloseNow()
			}
			return nil, fmt.Errorf("the watchers of game %s: %w", t.id, err)
		}
		t.apart = true
	}
	return t, nil
}

// startTable lets a game's players play and starts reading every
// connection of it.
func (r *run) startTable(t *table) {
	r.mu.Lock()
	if r.stopping.Load() {
		r.mu.Unlock()
		t.abort()
		return
	}
	r.tables[t.id] = t
	open := len(t.conns)
	if t.apart {
		open++ // the watchers over there, who go together
	}
	t.open.Store(int32(open))
	r.mu.Unlock()
	for _, c := range t.conns {
		c.start()
	}
}

// ended is called when every connection of t is closed: a new game takes
// its place.
func (r *run) ended(t *table) {
	r.mu.Lock()
	delete(r.tables, t.id)
	r.mu.Unlock()
	if r.tell != nil {
		r.tell.line("closed %s", t.id)
		return
	}
	if !t.aborted.Load() && r.measuring.Load() {
		r.finished.Add(1)
	}
	if !r.stopping.Load() {
		r.setups.Go(func() { r.replace(t.computer) })
	}
}

// replace sets up a new game, trying again every second while the site
// refuses.
func (r *run) replace(computer bool) {
	for !r.stopping.Load() {
		t, err := r.newTable(r.ctx, computer)
		if err == nil {
			r.startTable(t)
			return
		}
		if r.stopping.Load() {
			return
		}
		r.fail(err)
		time.Sleep(time.Second)
	}
}

// stop closes every connection and waits for the readers (and games being
// set up) to end.
func (r *run) stop() {
	r.mu.Lock()
	r.stopping.Store(true)
	r.cancel()
	tables := make([]*table, 0, len(r.tables))
	for _, t := range r.tables {
		tables = append(tables, t)
	}
	r.mu.Unlock()
	for _, t := range tables {
		t.abort()
	}
	r.readers.Wait()
	r.setups.Wait()
}

func (r *run) think() time.Duration { return thinkBetween(r.cfg.ThinkMin, r.cfg.ThinkMax) }

// thinkBetween is a thinking time picked at random from lo to hi.
func thinkBetween(lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + rand.N(hi-lo+1)
}

func (r *run) fail(err error) {
	if r.tell != nil {
		r.tell.line("error %s", strings.ReplaceAll(err.Error(), "\n", " "))
		return
	}
	r.errs.add(err)
}

// A table is one game being played: its players' and watchers'
// connections, and when each move was sent. In a game against the
// computer the one player is the first connection, and nobody watches.
type table struct {
	r        *run
	id       string
	computer bool
	players  int32        // connections of players, before the watchers'
	conns    []*conn      // players first
	open     atomic.Int32 // connections still open, counting those apart as one
	apart    bool         // its watchers are in the watchers' process
	aborted  atomic.Bool
	over     atomic.Int32 // players who have seen the end
	once     sync.Once

	mu   sync.Mutex
	sent []time.Time // by ply; zero: not sent (yet)
	// In the watchers' process, the arrivals of moves whose time the
	// players' process has not told yet, by ply.
	early map[int][]time.Time
}

// abort ends the game's connections before the game is over: at the end
// of the run, or after a failure.
func (t *table) abort() {
	t.once.Do(func() {
		t.aborted.Store(true)
		for _, c := range t.conns {
			if c.ws != nil {
				c.ws.CloseNow()
			}
		}
		if t.apart {
			t.r.apart.close(t.id)
		}
	})
}

// arrived records that the move of ply reached a player (or a watcher)
// at at. Against the computer it records how long the computer took to
// answer the player's move before it.
func (t *table) arrived(ply int, at time.Time, watcher bool) {
	if t.computer {
		ply--
	}
	var sent time.Time
	t.mu.Lock()
	if ply >= 0 && ply < len(t.sent) {
		sent = t.sent[ply]
	}
	if sent.IsZero() && watcher && t.r.tell != nil {
		if t.early == nil {
			t.early = map[int][]time.Time{}
		}
		t.early[ply] = append(t.early[ply], at)
	}
	t.mu.Unlock()
	if sent.IsZero() || !t.r.measuring.Load() {
		return
	}
	switch {
	case t.computer:
		t.r.computer.record(at.Sub(sent))
	case watcher:
		t.r.watchers.record(at.Sub(sent))
	default:
		t.r.opponent.record(at.Sub(sent))
		if t.apart {
			// Told once the opponent has the move, so that the
			// watchers' process wakes for it outside the time measured.
			t.r.apart.send("sent %s %d %d", t.id, ply, sent.UnixNano())
		}
	}
}

// toldSent records, in the watchers' process, when the move of ply was
// sent, and times the arrivals that came before.
func (t *table) toldSent(ply int, sent time.Time) {
	t.mu.Lock()
	if ply >= len(t.sent) {
		t.sent = append(t.sent, make([]time.Time, ply+1-len(t.sent))...)
	}
	t.sent[ply] = sent
	early := t.early[ply]
	// Moves are told in order: an earlier one not told was not measured.
	for p := range t.early {
		if p <= ply {
			delete(t.early, p)
		}
	}
	t.mu.Unlock()
	for _, at := range early {
		t.r.watchers.record(at.Sub(sent))
	}
}

// readBufs are the buffers messages are read into, shared by every
// connection: flat out, a new one for each message cost this process a
// tenth of its own (user) time, and one kept by each connection would hold
// tens of megabytes at ten thousand games.
var readBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// A conn is one live connection: a player's (seat set) or a watcher's.
type conn struct {
	t    *table
	ws   *websocket.Conn
	seat string
	name string // for error messages

	// Each connection is read from the moment it is set up, so that it
	// answers the site's pings however long the others take; what comes
	// before the game starts waits.
	startMu    sync.Mutex
	started    bool
	first      *message   // the first message, read while setting up
	early      []*message // what came after it before the start
	endedEarly bool       // the connection ended before the start...
	endErr     error      // ...with this

	// Only the reading goroutine uses these.
	version int // of the game, as last seen
	ply     int // moves seen
	planned int // the ply of the last move planned, -1 before the first
	over    bool

	// The number of moves in the last state seen: a move planned for an
	// earlier one is not sent. (A DVONN move that forces a pass comes as
	// two events, the first with a state in which the other player is to
	// move.)
	current atomic.Int64

	// The move last sent, to send again when the site asks to slow down.
	mu       sync.Mutex
	lastPly  int
	lastMove string
	ids      atomic.Int64
}

// message is the part of the site's live messages that playing needs. An
// event comes either with the whole state after it, or with what it
// changed and, for the player to move, the legal moves.
type message struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
	Code    string `json:"code"`
	Error   string `json:"error"`
	Event   *event `json:"event"`
	State   *struct {
		Status string          `json:"status"`
		ToMove string          `json:"to_move"`
		Moves  []string        `json:"moves"`
		Legal  json.RawMessage `json:"legal"`
	} `json:"state"`
	Change *change         `json:"change"`
	Legal  json.RawMessage `json:"legal"` // read by randomMove
}

type event struct {
	Kind string `json:"kind"`
	Seat string `json:"seat"`
}

type change struct {
	Status string `json:"status"`
	ToMove string `json:"to_move"`
}

// The members read of an event and of a change: their keys, and where
// each goes.
var (
	eventKeys  = [2]string{"kind", "seat"}
	changeKeys = [2]string{"status", "to_move"}
)

func (e *event) fields() [2]*string  { return [2]*string{&e.Kind, &e.Seat} }
func (c *change) fields() [2]*string { return [2]*string{&c.Status, &c.ToMove} }

func (c *conn) connect(ctx context.Context, src net.IP, secret string) error {
	h := http.Header{}
	if secret != "" {
		h.Set("Authorization", "Bearer "+secret)
	}
	u := "ws://" + c.t.r.cfg.Target.Host + "/api/games/" + c.t.id + "/ws"
	ws, _, err := websocket.Dial(context.WithValue(ctx, source{}, src), u, &websocket.DialOptions{HTTPClient: c.t.r.client, HTTPHeader: h})
	if err != nil {
		return err
	}
	// The state of a long game is larger than the default limit.
	ws.SetReadLimit(4 << 20)
	c.ws = ws
	_, data, err := ws.Read(ctx)
	if err == nil {
		c.first, err = playerView(data)
	}
	if err == nil && c.first.Type != "state" {
		err = fmt.Errorf("the first message is %q, not the state", c.first.Type)
	}
	if err != nil {
		ws.CloseNow()
		return err
	}
	c.t.r.readers.Add(1)
	go c.read()
	return nil
}

// start handles what came before the game started, and from then on
// every message as it comes.
func (c *conn) start() {
	c.startMu.Lock()
	defer c.startMu.Unlock()
	c.started = true
	now := time.Now()
	c.handle(c.first, now)
	for _, m := range c.early {
		c.handle(m, now)
	}
	c.first, c.early = nil, nil
	if c.endedEarly {
		c.finish(c.endErr)
	}
}

// deliver handles m, or keeps it for the start (with its own copy of
// what it holds of the buffer it was read into).
func (c *conn) deliver(m *message, at time.Time) {
	c.startMu.Lock()
	defer c.startMu.Unlock()
	if !c.started {
		m.Legal = bytes.Clone(m.Legal)
		c.early = append(c.early, m)
		return
	}
	c.handle(m, at)
}

// read handles every message until the connection closes.
func (c *conn) read() {
	defer c.t.r.readers.Done()
	var err error
	for {
		var r io.Reader
		if _, r, err = c.ws.Reader(context.Background()); err != nil {
			break
		}
		buf := readBufs.Get().(*bytes.Buffer)
		buf.Reset()
		if _, err = buf.ReadFrom(r); err != nil {
			readBufs.Put(buf)
			break
		}
		data := buf.Bytes()
		at := time.Now()
		var m *message
		var bad error
		if c.seat == "" {
			m, bad = watcherView(data)
		}
		if c.seat != "" || bad == nil && m.Type == "state" {
			m, bad = playerView(data)
		}
		if bad != nil {
			c.t.r.fail(fmt.Errorf("%s of game %s: an unreadable message: %w", c.name, c.t.id, bad))
		} else {
			c.deliver(m, at)
		}
		readBufs.Put(buf)
	}
	c.startMu.Lock()
	defer c.startMu.Unlock()
	if !c.started {
		c.endedEarly, c.endErr = true, err
		return
	}
	c.finish(err)
}

// finish counts the end of a started connection, with err. (In the
// watchers' process a table has no players: a watcher's connection that
// ends before the game does is always an error there.)
func (c *conn) finish(err error) {
	t := c.t
	if !c.over && (t.players == 0 || t.over.Load() < t.players) && !t.aborted.Load() && !t.r.stopping.Load() {
		t.r.fail(fmt.Errorf("%s of game %s: the connection ended: %w", c.name, t.id, err))
		t.abort()
	}
	t.closed()
}

// closed counts a connection of t that has ended (or all of its watchers
// apart); the last ends t.
func (t *table) closed() {
	if t.open.Add(-1) == 0 {
		t.r.ended(t)
	}
}

// handle reacts to one message, received at at.
func (c *conn) handle(m *message, at time.Time) {
	switch m.Type {
	case "state":
		if m.State == nil {
			return
		}
		c.version = m.Version
		c.ply = len(m.State.Moves)
	case "event":
		// An event the last state held already is no news.
		if m.Version <= c.version {
			return
		}
		c.version = m.Version
		// Counted here rather than from the state: a DVONN move and the
		// pass it forces are stored together and come as two events.
		if m.Event != nil && m.Event.Kind == "move" {
			c.ply++
			if m.Event.Seat != c.seat {
				c.t.arrived(c.ply-1, at, c.seat == "")
			}
		}
	case "error":
		c.t.r.fail(fmt.Errorf("%s of game %s: %s: %s", c.name, c.t.id, m.Code, m.Error))
		if m.Code == "rate" {
			c.mu.Lock()
			ply, move := c.lastPly, c.lastMove
			c.mu.Unlock()
			time.AfterFunc(time.Second, func() { c.send(ply, move) })
		}
		return
	default:
		return
	}
	var status, toMove string
	var legal json.RawMessage
	var moves int
	switch {
	case m.State != nil:
		status, toMove, legal, moves = m.State.Status, m.State.ToMove, m.State.Legal, len(m.State.Moves)
	case m.Change != nil:
		status, toMove, legal, moves = m.Change.Status, m.Change.ToMove, m.Legal, c.ply
	default:
		return
	}
	c.current.Store(int64(moves))
	if status == "over" {
		c.over = true
		c.ws.CloseNow()
		if c.seat != "" && c.t.over.Add(1) == c.t.players {
			// Both players have seen every move: so have the watchers,
			// unless they lag, and then they would miss one move at most.
			for _, w := range c.t.conns[c.t.players:] {
				w.ws.CloseNow()
			}
			if c.t.apart {
				c.t.r.apart.close(c.t.id)
			}
		}
		return
	}
	if c.seat == "" || status != "playing" || toMove != c.seat {
		return
	}
	if moves <= c.planned {
		return // already on its way
	}
	move, ok := randomMove(legal)
	if !ok {
		return
	}
	c.planned = moves
	// Played flat out, the move goes at once, from here: a timer and a
	// goroutine for each would cost more than the rest of a move.
	if think := c.t.r.think(); think > 0 {
		time.AfterFunc(think, func() { c.send(moves, move) })
	} else {
		c.send(moves, move)
	}
}

// moveMessage is the message that plays move at ply, as the page writes
// it. It is made for every move, and four members need no reflection.
func moveMessage(id int64, ply int, move string) []byte {
	quoted, err := json.Marshal(move)
	if err != nil {
		panic(err)
	}
	msg := make([]byte, 0, 48+len(quoted))
	msg = append(msg, `{"type":"move","id":`...)
	msg = strconv.AppendInt(msg, id, 10)
	msg = append(msg, `,"ply":`...)
	msg = strconv.AppendInt(msg, int64(ply), 10)
	msg = append(msg, `,"move":`...)
	msg = append(msg, quoted...)
	return append(msg, '}')
}

// send sends a move; it runs on a timer's goroutine.
func (c *conn) send(ply int, move string) {
	t := c.t
	if t.aborted.Load() || t.r.stopping.Load() || c.current.Load() != int64(ply) {
		return
	}
	msg := moveMessage(c.ids.Add(1), ply, move)
	c.mu.Lock()
	c.lastPly, c.lastMove = ply, move
	c.mu.Unlock()
	t.mu.Lock()
	if ply >= len(t.sent) {
		t.sent = append(t.sent, make([]time.Time, ply+1-len(t.sent))...)
	}
	t.sent[ply] = time.Now()
	t.mu.Unlock()
	// No deadline: a context that can end costs every write a
	// registration, and a write the site never takes ends when the run
	// closes the connection.
	err := c.ws.Write(context.Background(), websocket.MessageText, msg)
	// A player closes its connection when it sees the end, which the
	// other player's move may have brought meanwhile.
	if err != nil && !t.aborted.Load() && !t.r.stopping.Load() && t.over.Load() == 0 {
		t.r.fail(fmt.Errorf("%s of game %s: sending a move: %w", c.name, t.id, err))
		t.abort()
	}
}

// errorLog counts errors and keeps the first few.
type errorLog struct {
	mu    sync.Mutex
	n     int64
	first []string
}

const keptErrors = 5

func (l *errorLog) add(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	if len(l.first) < keptErrors {
		l.first = append(l.first, err.Error())
	}
}

func (l *errorLog) get() (int64, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n, append([]string{}, l.first...)
}
