package server

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
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
	w.out = &batchWriter{conn: conn}
	return conn, bufio.NewReadWriter(br, bufio.NewWriterSize(w.out, writeBuffer)), nil
}

// A batchWriter writes a page's frames to its connection: at once, or,
// between begin and end, all in one write at the end, in a buffer borrowed
// for that time.
type batchWriter struct {
	conn net.Conn

	mu  sync.Mutex
	buf *[]byte // the batch being gathered; nil: none
}

func (b *batchWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.buf == nil {
		return b.conn.Write(p)
	}
	*b.buf = append(*b.buf, p...)
	return len(p), nil
}

// begin starts gathering what is written.
func (b *batchWriter) begin() {
	buf := batches.Get().(*[]byte)
	*buf = (*buf)[:0]
	b.mu.Lock()
	b.buf = buf
	b.mu.Unlock()
}

// end writes what was gathered since begin, taking at most timeout, and
// writes at once again from then on.
func (b *batchWriter) end(timeout time.Duration) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	buf := b.buf
	b.buf = nil
	if len(*buf) == 0 {
		batches.Put(buf)
		return nil
	}
	b.conn.SetWriteDeadline(time.Now().Add(timeout))
	_, err := b.conn.Write(*buf)
	b.conn.SetWriteDeadline(time.Time{})
	if cap(*buf) <= keptBatch {
		batches.Put(buf)
	}
	return err
}
