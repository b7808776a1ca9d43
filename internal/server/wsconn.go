package server

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

// An idle page must cost little: thousands of them wait at once. After
// the upgrade net/http would leave the WebSocket its 4 KB read buffer and a
// fresh 4 KB write buffer for the life of the connection; the page gets
// small ones instead, and the bytes of its messages wait in a buffer
// borrowed only while they are written.
const (
	// readBuffer holds a page's usual message in one read; a longer one is
	// read straight into the message.
	readBuffer = 256
	// writeBuffer holds any control frame (at most 2+125 bytes) whole, so
	// that a ping, pong or close goes out in one write.
	writeBuffer = 128
	// keptBatch is the largest batch buffer kept for the next batch; a
	// larger one (a long game's state) is left to the collector.
	keptBatch = 64 << 10
)

var batches = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// smallBuffers hands the WebSocket library the connection of a page with
// small buffers when it hijacks it.
type smallBuffers struct {
	http.ResponseWriter
	out *batchWriter // set by Hijack
}

func (w *smallBuffers) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *smallBuffers) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	// What the client sent after its request already sits in net/http's
	// buffer: the new one starts with it.
	br := bufio.NewReaderSize(conn, readBuffer)
	if n := brw.Reader.Buffered(); n > 0 {
		rest, _ := brw.Reader.Peek(n)
		br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(bytes.Clone(rest)), conn), max(readBuffer, n))
		br.Peek(n) // cannot fail: the bytes are there
	}
	// The response's header has gone out with the hijack: net/http's
	// writer holds nothing.
	w.out = newBatchWriter(conn)
	return conn, bufio.NewReadWriter(br, bufio.NewWriterSize(w.out, writeBuffer)), nil
}

// livePage is a page's live connection, as its subscriber writes it.
type livePage struct {
	conn *websocket.Conn
	out  *batchWriter
}

func (p livePage) send(msgs [][]byte) error { return p.out.send(msgs, writeTimeout) }

func (p livePage) try(msgs [][]byte) ([][]byte, bool, error) { return p.out.try(msgs) }

func (p livePage) stop() {
	p.conn.Close(websocket.StatusTryAgainLater, "too slow or shutting down: reconnect")
}

// A batchWriter writes a page's connection. The page's messages are
// framed here, as many as wait, into one write from a buffer borrowed for
// that time. The WebSocket library writes only its control frames (ping,
// pong, close) through Write, each whole in one call, so the two never
// interleave within a frame.
type batchWriter struct {
	conn net.Conn
	raw  syscall.RawConn // tries a write without waiting; nil: every write may wait

	mu     sync.Mutex
	rest   []byte  // what the page did not take at once of the last batch: it goes first
	restOf *[]byte // the borrowed buffer rest lies in
	shut   bool    // the close frame has been written: no more messages

	// The write writeNow hands raw, made once: a closure made for each
	// write, with what it reads and sets, was three allocations a message.
	writeFD func(fd uintptr) bool
	now     []byte // what writeFD writes...
	wrote   int    // ...how much of it went...
	werr    error  // ...and what went wrong
}

func newBatchWriter(conn net.Conn) *batchWriter {
	b := &batchWriter{conn: conn}
	if sc, ok := conn.(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil {
			b.raw = raw
		}
	}
	b.writeFD = func(fd uintptr) bool {
		b.wrote, b.werr = syscall.Write(int(fd), b.now)
		return true // done, whatever it took: the rest is for a writer that may wait
	}
	return b
}

// Write writes a control frame of the library, after what is left of the
// last batch. After a close frame no message follows.
func (b *batchWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(p) > 0 && p[0]&0x0f == opClose {
		b.shut = true
	}
	if len(b.rest) > 0 {
		err := b.writeAll(b.rest, writeTimeout)
		b.dropRest()
		if err != nil {
			return 0, err
		}
	}
	return b.conn.Write(p)
}

// send writes msgs, each as a text message, after what try left, taking
// at most timeout.
func (b *batchWriter) send(msgs [][]byte, timeout time.Duration) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.shut {
		return net.ErrClosed
	}
	buf := b.gather(msgs)
	// Most batches fit the socket's buffer at once: only a page that is
	// slow to read needs the deadline, which costs a timer's set-up and
	// removal each time.
	var n int
	var err error
	if b.raw != nil {
		n, err = b.writeNow(*buf)
	}
	if err == nil && n < len(*buf) {
		err = b.writeAll((*buf)[n:], timeout)
	}
	b.put(buf)
	return err
}

// try writes msgs as send does, but only as far as the page's socket
// takes them without waiting. Unless all went out, a send must follow,
// with the messages returned: those not begun on because another write
// held the connection. (What was begun on waits in rest.)
func (b *batchWriter) try(msgs [][]byte) (left [][]byte, all bool, err error) {
	if !b.mu.TryLock() {
		return msgs, false, nil
	}
	defer b.mu.Unlock()
	if b.shut {
		return nil, false, net.ErrClosed
	}
	buf := b.gather(msgs)
	n, err := b.writeNow(*buf)
	if err != nil || n == len(*buf) {
		b.put(buf)
		return nil, err == nil, err
	}
	b.rest, b.restOf = (*buf)[n:], buf
	return nil, false, nil
}

// gather borrows a buffer and fills it with what is left of the last
// batch and msgs, framed; b.mu is held.
func (b *batchWriter) gather(msgs [][]byte) *[]byte {
	buf := batches.Get().(*[]byte)
	out := append((*buf)[:0], b.rest...)
	b.dropRest()
	for _, m := range msgs {
		out = appendFrame(out, m)
	}
	*buf = out
	return buf
}

// dropRest forgets what was left of the last batch, giving back its
// buffer; b.mu is held.
func (b *batchWriter) dropRest() {
	if b.restOf != nil {
		b.put(b.restOf)
	}
	b.rest, b.restOf = nil, nil
}

func (b *batchWriter) put(buf *[]byte) {
	if cap(*buf) <= keptBatch {
		batches.Put(buf)
	}
}

// Opcodes of WebSocket frames (RFC 6455, section 5.2).
const (
	opText  = 0x1
	opClose = 0x8
)

// appendFrame appends msg as one text frame, unmasked, as a server sends
// it.
func appendFrame(out, msg []byte) []byte {
	const finText = 0x80 | opText
	switch n := len(msg); {
	case n < 126:
		out = append(out, finText, byte(n))
	case n <= 0xffff:
		out = append(out, finText, 126, byte(n>>8), byte(n))
	default:
		out = append(out, finText, 127)
		out = binary.BigEndian.AppendUint64(out, uint64(n))
	}
	return append(out, msg...)
}

func (b *batchWriter) writeAll(p []byte, timeout time.Duration) error {
	if len(p) == 0 {
		return nil
	}
	b.conn.SetWriteDeadline(time.Now().Add(timeout))
	_, err := b.conn.Write(p)
	b.conn.SetWriteDeadline(time.Time{})
	return err
}

// writeNow writes as much of p as the socket takes at once, and never
// waits. A connection without a socket of its own is written in full.
// b.mu is held.
func (b *batchWriter) writeNow(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if b.raw == nil {
		if err := b.writeAll(p, writeTimeout); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	b.now = p
	err := b.raw.Write(b.writeFD)
	n, werr := b.wrote, b.werr
	b.now, b.werr = nil, nil
	switch {
	case err != nil:
		return 0, err
	case werr == syscall.EAGAIN || werr == syscall.EINTR:
		return 0, nil
	case werr != nil:
		return 0, werr
	}
	return n, nil
}
