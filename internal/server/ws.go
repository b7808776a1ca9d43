package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"bretter/internal/jsonscan"
)

// clientMessage is what a page sends over the live connection.
type clientMessage struct {
	Type   string  `json:"type"` // a key of messageMembers
	ID     int64   `json:"id"`   // echoed in the answer
	Ply    *int    `json:"ply"`
	Move   string  `json:"move"`
	After  *int    `json:"after"`
	Kind   string  `json:"kind"`   // of an offer, an answer or a withdrawal
	Accept *bool   `json:"accept"` // of an answer
	Name   *string `json:"name"`   // a player's new name
	Shown  *bool   `json:"shown"`  // whether a player's page is on screen
	Text   string  `json:"text"`   // a chat line
	// The terms of a new game, all optional.
	Options json.RawMessage `json:"options"`
	Clock   json.RawMessage `json:"clock"`
	Start   string          `json:"start"`
}

// messageMembers are the members each type of client message may have,
// besides "type" and "id". All types share clientMessage: a member of
// another type would otherwise be taken and ignored.
var messageMembers = map[string][]string{
	"move":     {"ply", "move"},
	"resign":   nil,
	"rematch":  {"options", "clock", "start"},
	"withdraw": {"kind"},
	"offer":    {"kind"},
	"chat":     {"text"},
	"name":     {"name"},
	"answer":   {"kind", "accept"},
	"resync":   {"after"},
	"shown":    {"shown"},
}

// foreignMember is the first member of the message data, of type typ,
// that such a message does not have, or "" (also for an unknown type,
// refused as such).
func foreignMember(typ string, data []byte) string {
	allowed, ok := messageMembers[typ]
	if !ok {
		return ""
	}
	foreign := ""
	jsonscan.EachMember(data, func(key, _ []byte) error {
		if k := string(key); k != "type" && k != "id" && !slices.Contains(allowed, k) {
			foreign = k
			return jsonscan.ErrStop
		}
		return nil
	})
	return foreign
}

// reply answers one client message.
type reply struct {
	Type    string `json:"type"` // "ack" or "error"
	ID      int64  `json:"id"`
	Version int    `json:"version,omitempty"`
	Next    string `json:"next,omitempty"`
	Code    string `json:"code,omitempty"`
	Error   string `json:"error,omitempty"`
	// Reasons say Error in a form the page puts into its language.
	Reasons []reason `json:"reasons,omitempty"`
}

const (
	pingEvery    = 30 * time.Second
	writeTimeout = 10 * time.Second
	busyRetry    = 10 // seconds a page waits when the instance is full
)

var errBusy = refuse(http.StatusServiceUnavailable, "busy", "this site has as many live games open as it can hold: try again in a moment")

// live is the WebSocket of one game page: first the state (or, with
// ?after=V, the events after version V and then the state), then every
// event as it happens; moves sent over it get an ack or an error.
func (s *Server) live(w http.ResponseWriter, r *http.Request) {
	client := clientKey(r)
	if !s.lives.allow(client, s.hub.now()) {
		writeError(w, refuse(http.StatusTooManyRequests, "rate", "too many connections opened from your address: slow down"))
		return
	}
	// What is set up here is undone when the page goes: by this handler
	// if it stops early, else by the page's reader.
	var undo undoList
	handedOver := false
	defer func() {
		if !handedOver {
			undo.run()
		}
	}()
	if n := s.liveNow.Add(1); s.maxLive > 0 && n > s.maxLive {
		s.liveNow.Add(-1)
		w.Header().Set("Retry-After", strconv.Itoa(busyRetry))
		writeError(w, errBusy)
		return
	}
	undo.add(func() { s.liveNow.Add(-1) })
	id := r.PathValue("id")
	after := -1
	if v := r.URL.Query().Get("after"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			writeError(w, refuse(http.StatusBadRequest, "bad_request", "after must be a version number"))
			return
		}
		after = n
	}
	cred := s.credential(r, id)
	// Refuse unknown games and wrong secrets with a plain HTTP answer,
	// before upgrading, as reading the state does.
	secret, err := within(r.Context(), s.hub, id, func(g *liveGame) (string, error) {
		if seat, err := g.viewer(cred); seat == "" {
			return "", err
		}
		return cred.secret, nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	if !s.conns.open(client) {
		writeError(w, refuse(http.StatusTooManyRequests, "rate", "too many open games from your address"))
		return
	}
	undo.add(func() { s.conns.close(client) })
	// Accept refuses pages of other sites: the Origin must be this host,
	// or the public URL's, which a proxy may not pass on as the Host.
	sw := &smallBuffers{ResponseWriter: w}
	conn, err := websocket.Accept(sw, r, s.acceptOptions)
	if err != nil {
		return
	}
	undo.add(func() { conn.CloseNow() })
	// Only the writer is kept: the ResponseWriter would keep all of
	// net/http's state of the request.
	out := sw.out
	conn.SetReadLimit(maxMessage)
	s.hub.metrics.sockets.Inc()
	undo.add(s.hub.metrics.sockets.Dec)

	// The page outlives this request: its context ends with the page. How
	// the page reached the site is asked for at every move: put again on
	// top, it is found at once instead of below net/http's layers, which
	// took 1.7% of the site's time in games played flat out.
	ctx, cancel := context.WithCancel(context.WithValue(context.WithoutCancel(r.Context()), originKey{}, originFrom(r)))
	undo.add(cancel)
	sub, err := s.hub.subscribe(ctx, id, secret, after)
	if err != nil {
		conn.Close(websocket.StatusPolicyViolation, asError(err).Message)
		return
	}
	undo.add(func() { s.hub.unsubscribe(id, sub) })
	sub.attach(livePage{conn, out})
	// Pings find pages that are gone without a word; a timer, not a
	// goroutine, waits for the next one.
	var pings *time.Timer
	pings = time.AfterFunc(pingEvery, func() {
		pctx, done := context.WithTimeout(ctx, writeTimeout)
		defer done()
		if err := conn.Ping(pctx); err != nil {
			cancel()
			return
		}
		pings.Reset(pingEvery)
	})
	undo.add(func() { pings.Stop() })

	// This goroutine has grown a deep stack serving the request; the page
	// is read by a fresh one with a small stack, and this one ends: an
	// idle page costs one small goroutine.
	handedOver = true
	go func() {
		defer undo.run()
		s.readPage(ctx, cancel, conn, id, secret, client, sub)
	}()
}

// readPage reads what a page sends until it goes. Another goroutine,
// running only while messages wait, carries them out in order: the reader
// keeps reading (and so answering pings) while a move waits for the
// store, and the deep stack of a move is not kept by every idle page.
func (s *Server) readPage(ctx context.Context, stop func(), conn *websocket.Conn, id, secret, client string, sub *subscriber) {
	var in inbox
	// What was read before the page went is still carried out.
	defer in.done.Wait()
	carry := func(m pageMessage) {
		var rep reply
		ok := true
		switch {
		case !s.moves.allow(client, s.hub.now()):
			// Every message costs the server work, some of it under the
			// game's lock: all of them count against the address's
			// budget, those it cannot read too.
			rep = errorReply(messageID(m.data), refuse(http.StatusTooManyRequests, "rate", "too many messages: slow down"))
		case m.typ != websocket.MessageText:
			rep = errorReply(0, refuse(http.StatusBadRequest, "bad_request", "only text messages are understood"))
		case !utf8.Valid(m.data):
			rep = errorReply(0, refuse(http.StatusBadRequest, "bad_request", "the message is not valid UTF-8"))
		default:
			// What the message brings the page itself (its own move's
			// event) waits for the answer, and both go in one write.
			sub.hold()
			rep, ok = s.handleMessage(ctx, client, id, secret, sub, m.data, m.at)
		}
		pushed := !ok || sub.push(encode(rep))
		sub.release()
		if !pushed {
			stop() // cannot keep up: the page reconnects and resumes
		}
	}
	// The page's context ending closes the connection, which ends the
	// read below: given ctx, the library would register with it and
	// forget it again at every message, 2% of the site's time in games
	// played flat out.
	defer context.AfterFunc(ctx, func() { conn.CloseNow() })()
	for {
		typ, data, err := readMessage(conn)
		if err != nil {
			return
		}
		in.add(pageMessage{typ, data, time.Now()}, carry)
	}
}

// readBuffers hold messages while they are read. The library's own Read
// starts with 512 bytes for a message of fifty: a twentieth of all the
// site allocated in games played flat out.
var readBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// readMessage reads a page's next message whole, into a slice of its size.
func readMessage(conn *websocket.Conn) (websocket.MessageType, []byte, error) {
	typ, r, err := conn.Reader(context.Background())
	if err != nil {
		return 0, nil, err
	}
	buf := readBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	_, err = buf.ReadFrom(r)
	data := bytes.Clone(buf.Bytes())
	readBuffers.Put(buf) // no larger than the read limit lets it grow
	return typ, data, err
}

type pageMessage struct {
	typ  websocket.MessageType
	data []byte
	at   time.Time // when it was read
}

// maxWaiting is how many messages of a page may wait to be carried out
// before its reader waits for them.
const maxWaiting = 16

// An inbox holds what a page sent until it is carried out.
type inbox struct {
	mu      sync.Mutex
	queue   []pageMessage
	running bool
	done    sync.WaitGroup // the goroutine carrying messages out
}

// add queues m and starts a goroutine to carry out what waits if none
// runs. Only the page's reader calls it; when too much waits, it waits
// until all is done.
func (in *inbox) add(m pageMessage, carry func(pageMessage)) {
	in.mu.Lock()
	in.queue = append(in.queue, m)
	start := !in.running
	in.running = true
	full := len(in.queue) >= maxWaiting
	in.mu.Unlock()
	if start {
		in.done.Add(1)
		carriers.run(func() { in.work(carry) })
	}
	if full {
		in.done.Wait()
	}
}

func (in *inbox) work(carry func(pageMessage)) {
	defer in.done.Done()
	for {
		in.mu.Lock()
		batch := in.queue
		in.queue = nil
		in.running = len(batch) > 0
		in.mu.Unlock()
		if len(batch) == 0 {
			return
		}
		for _, m := range batch {
			carry(m)
		}
	}
}

// carriers are the goroutines that carry out pages' messages. A move
// goes deep (JSON, the rules, the store), and a new goroutine's stack grew
// by copying for every message, 4% of the site's time with a thousand
// games moving at once; a carrier is used again while it is still there.
var carriers = carrierPool{idle: make(chan func()), wait: 10 * time.Second}

type carrierPool struct {
	idle chan func()   // the carriers waiting for work receive from it
	wait time.Duration // how long a carrier waits for work before it ends
}

// run runs f on a carrier waiting for work, or on a new one.
func (p *carrierPool) run(f func()) {
	select {
	case p.idle <- f:
	default:
		go p.carry(f)
	}
}

func (p *carrierPool) carry(f func()) {
	idle := time.NewTimer(p.wait)
	defer idle.Stop()
	for {
		f()
		idle.Reset(p.wait)
		select {
		case f = <-p.idle:
		case <-idle.C:
			return
		}
	}
}

// undoList undoes, newest first, what was set up for a live page.
type undoList []func()

func (u *undoList) add(f func()) { *u = append(*u, f) }

func (u undoList) run() {
	for i := len(u) - 1; i >= 0; i-- {
		u[i]()
	}
}

// handleMessage carries out one client message, read at received. It
// returns the reply to send, or false when there is none (a resync answers
// with the events).
func (s *Server) handleMessage(ctx context.Context, client, id, secret string, sub *subscriber, data []byte, received time.Time) (reply, bool) {
	var m clientMessage
	if id, ply, move, ok := plainMove(data); ok {
		m = clientMessage{Type: "move", ID: id, Ply: &ply, Move: move}
	} else if err := decodeStrict(data, &m); err != nil {
		return errorReply(messageID(data), refuse(http.StatusBadRequest, "bad_request", "malformed message: %s", jsonProblem(err))), true
	} else if name := foreignMember(m.Type, data); name != "" {
		article := "a" // the types that begin with a vowel: "answer", "offer"
		if strings.ContainsRune("aeiou", rune(m.Type[0])) {
			article = "an"
		}
		return errorReply(m.ID, refuse(http.StatusBadRequest, "bad_request", "%s %q message has no %q", article, m.Type, name)), true
	}
	var err error
	rep := reply{Type: "ack", ID: m.ID}
	switch m.Type {
	case "move":
		if m.Ply == nil || m.Move == "" {
			return errorReply(m.ID, refuse(http.StatusBadRequest, "bad_request", `a move needs "ply" and "move"`)), true
		}
		rep.Version, err = s.move(ctx, id, secret, *m.Ply, m.Move, received)
	case "resign":
		rep.Version, err = s.hub.resign(ctx, id, secret)
	case "rematch":
		var res rematched
		res, err = s.rematch(ctx, id, secret, rematchRequest{Options: m.Options, Clock: m.Clock, Start: m.Start})
		// A new game that started is the answer, however often it is
		// asked for: it is no event of this game, and has no version.
		if rep.Next = res.next; rep.Next == "" {
			rep.Version = res.version
		}
	case "withdraw":
		if m.Kind != "rematch" {
			return errorReply(m.ID, refuse(http.StatusBadRequest, "bad_request", `only an offer of a new game ("kind": "rematch") can be withdrawn`)), true
		}
		rep.Version, err = s.hub.withdrawRematch(ctx, id, secret)
	case "offer":
		rep.Version, err = s.hub.offer(ctx, id, secret, m.Kind)
	case "chat":
		if !s.chats.allow(client, s.hub.now()) {
			return errorReply(m.ID, refuse(http.StatusTooManyRequests, "rate", "too many chat lines: slow down")), true
		}
		_, err = s.hub.say(ctx, id, secret, m.Text)
	case "name":
		if m.Name == nil {
			return errorReply(m.ID, refuse(http.StatusBadRequest, "bad_request", `a name message needs "name"`)), true
		}
		rep.Version, err = s.hub.rename(ctx, id, secret, *m.Name)
	case "answer":
		if m.Accept == nil || m.Kind == "" {
			return errorReply(m.ID, refuse(http.StatusBadRequest, "bad_request", `an answer needs "kind" and "accept"`)), true
		}
		rep.Version, err = s.hub.answer(ctx, id, secret, m.Kind, *m.Accept)
	case "shown":
		if m.Shown == nil {
			return errorReply(m.ID, refuse(http.StatusBadRequest, "bad_request", `a shown message needs "shown"`)), true
		}
		// Like the page's presence, it needs no answer.
		if err := s.hub.look(ctx, id, sub, *m.Shown); err != nil {
			return errorReply(m.ID, err), true
		}
		return reply{}, false
	case "resync":
		after := -1
		if m.After != nil {
			after = *m.After
		}
		if err := s.hub.resync(ctx, id, sub, after); err != nil {
			s.logFailure(id, m.Type, err)
			return errorReply(m.ID, err), true
		}
		return reply{}, false
	default:
		return errorReply(m.ID, refuse(http.StatusBadRequest, "bad_request", "unknown message type %q", m.Type)), true
	}
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return reply{}, false
		}
		s.logFailure(id, m.Type, err)
		return errorReply(m.ID, err), true
	}
	return rep, true
}

// logFailure logs a live command that failed: a fault of the server with
// its cause, a refusal (an illegal move, say) only in the verbose log.
func (s *Server) logFailure(id, kind string, err error) {
	if e := asError(err); e.Status >= 500 {
		s.log.Error("live command failed", "game", id, "type", kind, "err", err)
	} else {
		s.log.Debug("live command refused", "game", id, "type", kind, "code", e.Code)
	}
}

// notUpgraded answers a request for the live route that is not a
// WebSocket upgrade, whatever its method, at once, and closes the
// connection rather than wait for a body nobody needs.
func notUpgraded(w http.ResponseWriter) {
	w.Header().Set("Upgrade", "websocket")
	w.Header().Set("Connection", "close")
	// Nothing more is read: the server would otherwise drain the body
	// before answering.
	http.NewResponseController(w).SetReadDeadline(time.Now())
	writeError(w, refuse(http.StatusUpgradeRequired, "bad_request", "this address speaks only WebSocket"))
}

// isLivePath reports whether p is the live route of a game.
func isLivePath(p string) bool {
	id, ok := strings.CutPrefix(p, "/api/games/")
	if !ok {
		return false
	}
	id, ok = strings.CutSuffix(id, "/ws")
	return ok && !strings.Contains(id, "/")
}

// isUpgrade reports whether r asks for a WebSocket.
func isUpgrade(r *http.Request) bool {
	return headerHas(r.Header, "Connection", "upgrade") && headerHas(r.Header, "Upgrade", "websocket")
}

// headerHas reports whether a comma-separated header lists token.
func headerHas(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// messageID is the id of a message that could not be read whole, if it
// has one that can be, so that the page knows which of its messages the
// refusal answers; 0 otherwise. It is the member named exactly "id",
// whatever follows it: encoding/json would take "Id" or "ID" too, and
// the last of them.
func messageID(data []byte) int64 {
	var id int64
	jsonscan.EachMember(data, func(key, value []byte) error {
		if string(key) != "id" {
			return nil
		}
		if json.Unmarshal(value, &id) != nil {
			id = 0
		}
		return jsonscan.ErrStop
	})
	return id
}

func errorReply(id int64, err error) reply {
	e := asError(err)
	return reply{Type: "error", ID: id, Code: e.Code, Error: e.Message, Reasons: reasonsOf(e.Cause)}
}
