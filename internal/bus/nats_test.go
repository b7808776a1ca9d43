package bus

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// testNATS is where the tests find NATS with JetStream.
func testNATS() string {
	if u := os.Getenv("BRETTER_TEST_NATS"); u != "" {
		return u
	}
	return "nats://127.0.0.1:4222"
}

// pair connects two instances with a prefix of the test's own.
func pair(t *testing.T) (*NATS, *NATS) { return pairTTL(t, 0) }

// pairTTL is pair with leases of the given life.
func pairTTL(t *testing.T, ttl time.Duration) (*NATS, *NATS) {
	t.Helper()
	b := make([]byte, 6)
	rand.Read(b)
	prefix := "bustest" + hex.EncodeToString(b)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	var out [2]*NATS
	for i := range out {
		n, err := Dial(t.Context(), Config{URL: testNATS(), Prefix: prefix, Name: "test", Log: log, LeaseTTL: ttl})
		if err != nil {
			t.Fatalf("the tests need NATS with JetStream at %s: %v", testNATS(), err)
		}
		t.Cleanup(n.Close)
		out[i] = n
	}
	t.Cleanup(func() {
		js, err := jetstream.New(out[0].conn)
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			js.DeleteKeyValue(ctx, prefix+"_leases")
		}
	})
	return out[0], out[1]
}

// A message reaches the other instance, on its game, in order, and not
// the one that sent it.
func TestPublishReachesTheOthers(t *testing.T) {
	a, b := pair(t)
	type got struct{ game, data string }
	heard := func(n *NATS) chan got {
		ch := make(chan got, 10)
		if err := n.Listen(func(game string, data []byte) { ch <- got{game, string(data)} }, func() {}); err != nil {
			t.Fatal(err)
		}
		return ch
	}
	atA, atB := heard(a), heard(b)
	for _, m := range []string{"one", "two", "three"} {
		if err := a.Publish("abcdefghij", []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Publish("bcdefghijk", []byte("four")); err != nil {
		t.Fatal(err)
	}
	for _, want := range []got{{"abcdefghij", "one"}, {"abcdefghij", "two"}, {"abcdefghij", "three"}, {"bcdefghijk", "four"}} {
		select {
		case g := <-atB:
			if g != want {
				t.Fatalf("heard %+v, want %+v", g, want)
			}
		case <-t.Context().Done():
			t.Fatal("nothing heard")
		}
	}
	// A round trip after the messages: had a heard itself, it would be
	// queued by now.
	if err := a.Ping(t.Context()); err != nil {
		t.Fatal(err)
	}
	select {
	case g := <-atA:
		t.Fatalf("the sender heard itself: %+v", g)
	default:
	}
}

// One instance holds a lease at a time; released, it is free again.
func TestLeaseHasOneHolder(t *testing.T) {
	a, b := pair(t)
	release, ok, err := a.Hold(t.Context(), "computer.abcdefghij")
	if err != nil || !ok {
		t.Fatalf("the first hold: %v %v", ok, err)
	}
	if _, ok, err := b.Hold(t.Context(), "computer.abcdefghij"); err != nil || ok {
		t.Fatalf("a second instance held the lease too: %v %v", ok, err)
	}
	if _, ok, err := a.Hold(t.Context(), "computer.abcdefghij"); err != nil || ok {
		t.Fatalf("the holder held it twice: %v %v", ok, err)
	}
	if r, ok, err := b.Hold(t.Context(), "computer.bcdefghijk"); err != nil || !ok {
		t.Fatalf("another lease: %v %v", ok, err)
	} else {
		r()
	}
	release()
	again, ok, err := b.Hold(t.Context(), "computer.abcdefghij")
	if err != nil || !ok {
		t.Fatalf("after the release: %v %v", ok, err)
	}
	again()
}

// A lease is renewed while it is held, beyond its life; the lease of an
// instance that died lapses, and another takes it.
func TestLeaseLapsesWhenItsHolderDies(t *testing.T) {
	const ttl = 3 * time.Second
	a, b := pairTTL(t, ttl)
	release, ok, err := a.Hold(t.Context(), "computer.abcdefghij")
	if err != nil || !ok {
		t.Fatalf("the first hold: %v %v", ok, err)
	}
	time.Sleep(ttl + ttl/3)
	if _, ok, err := b.Hold(t.Context(), "computer.abcdefghij"); err != nil || ok {
		t.Fatalf("a lease held and renewed was taken: %v %v", ok, err)
	}
	a.Close() // it dies: no renewal, no release
	defer release()
	// Only to end a test that hangs; not a measure of speed.
	deadline := time.Now().Add(time.Minute)
	for {
		r, ok, err := b.Hold(t.Context(), "computer.abcdefghij")
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			r()
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the dead holder's lease never lapsed")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A closed connection is not ready.
func TestPing(t *testing.T) {
	a, _ := pair(t)
	if err := a.Ping(t.Context()); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if err := a.Ping(t.Context()); err == nil {
		t.Fatal("a closed bus answers")
	}
}

func TestPrefixIsChecked(t *testing.T) {
	for _, p := range []string{"", "a.b", "a b", "a*", "a>"} {
		if _, err := Dial(t.Context(), Config{URL: testNATS(), Prefix: p, Name: "test", Log: slog.New(slog.NewTextHandler(io.Discard, nil))}); err == nil {
			t.Errorf("prefix %q was taken", p)
		}
	}
}

// A password or token in the bus's address never reaches a log, nor the
// error of a failed connection.
func TestAddressShownWithoutSecrets(t *testing.T) {
	for addr, want := range map[string]string{
		"nats://alice:S3cret@127.0.0.1:4222":                     "nats://127.0.0.1:4222",
		"nats://T0ken@db.example:4222, nats://bob:S3cret@b:4222": "nats://db.example:4222,nats://b:4222",
		"alice:S3cret@127.0.0.1:4222":                            "127.0.0.1:4222",
		"nats://127.0.0.1:4222":                                  "nats://127.0.0.1:4222",
	} {
		if got := Shown(addr); got != want {
			t.Errorf("Shown(%q) = %q, want %q", addr, got, want)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	_, err := Dial(ctx, Config{URL: "nats://alice:S3cret@127.0.0.1:1", Prefix: "shown", Name: "test", Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err == nil || strings.Contains(err.Error(), "S3cret") {
		t.Errorf("a failed connection: %v", err)
	}
}
