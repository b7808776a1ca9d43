package server

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
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

// Frames of every length class read back as they were given.
func TestAppendFrame(t *testing.T) {
	var stream []byte
	lengths := []int{0, 1, 125, 126, 0xffff, 0x10000, 200000}
	for i, n := range lengths {
		stream = appendFrame(stream, bytes.Repeat([]byte{byte('a' + i)}, n))
	}
	r := bytes.NewReader(stream)
	for i, n := range lengths {
		if got := readFrame(t, r); !bytes.Equal(got, bytes.Repeat([]byte{byte('a' + i)}, n)) {
			t.Fatalf("frame %d: %d bytes back, want %d", i, len(got), n)
		}
	}
	if r.Len() != 0 {
		t.Fatalf("%d bytes left over", r.Len())
	}
}

// socketPair is both ends of a loopback TCP connection.
func socketPair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := l.Accept()
		accepted <- c
	}()
	client, err = net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("nothing accepted")
	}
	t.Cleanup(func() { server.Close(); client.Close() })
	return server, client
}

// A try writes what the socket takes at once and never waits: the rest
// goes first with the next write, a control frame included, so that the
// page reads every message once and in order.
func TestTryLeavesTheRestForTheNextWrite(t *testing.T) {
	server, client := socketPair(t)
	// As the site's listener hands it over.
	b := newBatchWriter(&countedConn{Conn: server, release: func() {}})
	if b.raw == nil {
		t.Fatal("a TCP connection has no descriptor to try")
	}
	msg := func(i int) []byte { return []byte(fmt.Sprintf("%06d%s", i, strings.Repeat("x", 994))) }
	// The page reads nothing yet: the socket fills, and a try then
	// returns without having written all.
	sent, full := 0, false
	for !full {
		if sent == 100000 {
			t.Fatal("100 MB taken by a socket nobody reads")
		}
		done := make(chan bool)
		go func() {
			left, all, err := b.try([][]byte{msg(sent)})
			if err != nil || left != nil {
				t.Errorf("try: left %d, err %v", len(left), err)
			}
			done <- all
		}()
		select {
		case all := <-done:
			full = !all
		case <-time.After(5 * time.Second):
			t.Fatal("a try waited for the page")
		}
		sent++
	}
	if len(b.rest) == 0 {
		t.Fatal("a try that did not write all kept no rest")
	}
	// The next send, and a control frame after it, wait for the page.
	wrote := make(chan error, 2)
	go func() {
		wrote <- b.send([][]byte{msg(sent)}, 10*time.Second)
		_, err := b.Write(appendFrame(nil, []byte("control")))
		wrote <- err
	}()
	client.SetReadDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(client)
	for i := 0; i <= sent; i++ {
		if got := readFrame(t, r); !bytes.Equal(got, msg(i)) {
			t.Fatalf("message %d: got %.12q", i, got)
		}
	}
	if got := readFrame(t, r); string(got) != "control" {
		t.Fatalf("after the messages: %.12q, want the control frame", got)
	}
	for range 2 {
		if err := <-wrote; err != nil {
			t.Fatal(err)
		}
	}
}

// A try never waits for another write to the page: it hands its messages
// back.
func TestTryWhileAnotherWrites(t *testing.T) {
	server, _ := socketPair(t)
	b := newBatchWriter(server)
	b.mu.Lock()
	left, all, err := b.try([][]byte{[]byte("a"), []byte("b")})
	b.mu.Unlock()
	if all || err != nil || len(left) != 2 {
		t.Fatalf("try while locked: left %q, all %v, err %v; want both back", left, all, err)
	}
}

// No message follows a close frame.
func TestNoMessageAfterClose(t *testing.T) {
	server, client := socketPair(t)
	b := newBatchWriter(server)
	closeFrame := []byte{0x80 | opClose, 2, 0x03, 0xe8}
	if _, err := b.Write(closeFrame); err != nil {
		t.Fatal(err)
	}
	if err := b.send([][]byte{[]byte("late")}, time.Second); !errors.Is(err, net.ErrClosed) {
		t.Errorf("send after the close frame: %v", err)
	}
	if _, _, err := b.try([][]byte{[]byte("late")}); !errors.Is(err, net.ErrClosed) {
		t.Errorf("try after the close frame: %v", err)
	}
	server.Close()
	got, _ := io.ReadAll(client)
	if !bytes.Equal(got, closeFrame) {
		t.Errorf("the page got %q, want only the close frame", got)
	}
}

// A carrier that has carried out a message takes the next one, until it
// has waited too long; one busy carrier holds up no other message.
func TestCarriers(t *testing.T) {
	p := carrierPool{idle: make(chan func()), wait: 20 * time.Millisecond}
	release, done := make(chan struct{}), make(chan string, 3)
	p.run(func() { <-release; done <- "slow" })
	p.run(func() { done <- "quick" })
	if got := <-done; got != "quick" {
		t.Fatalf("%s first, want the quick one: the slow one held it up", got)
	}
	select {
	case p.idle <- func() { done <- "again" }:
	case <-time.After(5 * time.Second):
		t.Fatal("no carrier waited for more work")
	}
	if got := <-done; got != "again" {
		t.Fatalf("%s, want the work handed to the waiting carrier", got)
	}
	close(release)
	<-done
	time.Sleep(20 * p.wait)
	select {
	case p.idle <- func() {}:
		t.Error("a carrier still waited long after its time")
	default:
	}
}

// A batch that the page's socket takes at once costs no allocation:
// there is one for every message the site sends.
func TestTryAllocatesNothing(t *testing.T) {
	server, client := socketPair(t)
	go io.Copy(io.Discard, client)
	b := newBatchWriter(server)
	msgs := [][]byte{[]byte(`{"type":"event","version":7}`)}
	b.try(msgs) // the first borrows the batch buffer
	if n := testing.AllocsPerRun(100, func() {
		if _, all, err := b.try(msgs); !all || err != nil {
			t.Fatalf("try: all %v, %v", all, err)
		}
	}); n > 0 {
		t.Errorf("%.1f allocations a batch", n)
	}
}
