package server

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A client may send its first message with the upgrade request, before
// it has the answer: the message must not be lost in the buffer the
// request was read into.
func TestMessageWithUpgradeRequest(t *testing.T) {
	ts := newTestServer(t)
	g := ts.newGame(t, `{"game":"havannah","start":"me"}`)
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	req := "GET /api/games/" + g.id + "/ws HTTP/1.1\r\nHost: " + strings.TrimPrefix(ts.URL, "http://") + "\r\n" +
		"Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	msg := `{"type":"nonsense","id":7}`
	if _, err := conn.Write(append([]byte(req), maskedText(msg)...)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("status %d", res.StatusCode)
	}
	for {
		var m message
		if err := json.Unmarshal(readFrame(t, br), &m); err != nil {
			t.Fatal(err)
		}
		if m.ID == 7 {
			if m.Type != "error" || m.Code != "bad_request" {
				t.Fatalf("answer %+v, want a bad_request error", m)
			}
			return
		}
	}
}

// maskedText is one text frame from a client.
func maskedText(s string) []byte {
	key := [4]byte{1, 2, 3, 4}
	f := []byte{0x81, 0x80 | byte(len(s))}
	f = append(f, key[:]...)
	for i := range len(s) {
		f = append(f, s[i]^key[i%4])
	}
	return f
}

// readFrame reads one unmasked frame of the server and returns its payload.
func readFrame(t *testing.T, r io.Reader) []byte {
	t.Helper()
	var h [2]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		t.Fatal(err)
	}
	n := uint64(h[1] & 0x7f)
	switch n {
	case 126:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			t.Fatal(err)
		}
		n = uint64(binary.BigEndian.Uint16(b[:]))
	case 127:
		var b [8]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			t.Fatal(err)
		}
		n = binary.BigEndian.Uint64(b[:])
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(r, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// countingConn records each write.
type countingConn struct {
	net.Conn
	writes []string
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.writes = append(c.writes, string(p))
	return len(p), nil
}

func (c *countingConn) SetWriteDeadline(time.Time) error { return nil }

func TestBatchWriter(t *testing.T) {
	c := &countingConn{}
	b := &batchWriter{conn: c}
	b.Write([]byte("ping"))
	b.begin()
	b.Write([]byte("one,"))
	b.Write([]byte("two,"))
	b.Write([]byte("three"))
	if len(c.writes) != 1 {
		t.Fatalf("written during a batch: %q", c.writes)
	}
	if err := b.end(time.Second); err != nil {
		t.Fatal(err)
	}
	b.Write([]byte("pong"))
	if want := []string{"ping", "one,two,three", "pong"}; strings.Join(c.writes, "|") != strings.Join(want, "|") {
		t.Errorf("writes %q, want %q", c.writes, want)
	}
}

// A page's reader goes on reading while a message is carried out, and
// the messages are carried out in the order they came.
func TestInboxKeepsReading(t *testing.T) {
	var in inbox
	release := make(chan struct{})
	var got []string
	carry := func(m pageMessage) {
		<-release
		got = append(got, string(m.data))
	}
	added := make(chan struct{})
	go func() {
		for _, s := range []string{"a", "b", "c"} {
			in.add(pageMessage{data: []byte(s)}, carry)
		}
		close(added)
	}()
	<-added // a reader that waited for carry would never get here
	close(release)
	in.done.Wait()
	if strings.Join(got, "") != "abc" {
		t.Errorf("carried out %q, want a, b, c in order", got)
	}
}
