package cli

import (
	"bytes"
	"net"
	"strings"
	"testing"
)

func TestPublicURL(t *testing.T) {
	for _, tt := range []struct{ asked, got, want string }{
		{"localhost:8080", "127.0.0.1:8080", "http://localhost:8080"},
		{":8080", "[::]:8080", "http://localhost:8080"},
		{"0.0.0.0:0", "0.0.0.0:41234", "http://localhost:41234"},
		{"127.0.0.1:0", "127.0.0.1:39000", "http://127.0.0.1:39000"},
	} {
		addr, err := net.ResolveTCPAddr("tcp", tt.got)
		if err != nil {
			t.Fatal(err)
		}
		if got := publicURL(tt.asked, addr); got != tt.want {
			t.Errorf("publicURL(%q, %s) = %s, want %s", tt.asked, tt.got, got, tt.want)
		}
	}
}

func TestServeSettingsFromEnvironment(t *testing.T) {
	t.Setenv("BRETTER_ADDR", "")
	if got := envOr("BRETTER_ADDR", "localhost:8080"); got != "localhost:8080" {
		t.Fatalf("default address %q", got)
	}
	t.Setenv("BRETTER_ADDR", "127.0.0.1:9999")
	if got := envOr("BRETTER_ADDR", "localhost:8080"); got != "127.0.0.1:9999" {
		t.Fatalf("address from the environment %q", got)
	}
	if _, code := runCmd(t, "", "serve", "-nonsense"); code != 2 {
		t.Fatalf("an unknown flag: exit %d", code)
	}
	if _, code := runCmd(t, "", "serve", "-addr", "not an address", "-db", t.TempDir()+"/x.db"); code != 1 {
		t.Fatalf("an address that cannot be listened on: exit %d", code)
	}
}

// A bus that cannot be reached, or a prefix that cannot name subjects,
// stops the server at once with the reason.
func TestServeRefusesABadBus(t *testing.T) {
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	nobody := free.Addr().String()
	free.Close()
	for _, tt := range []struct{ args []string }{
		{[]string{"-bus", "nats://" + nobody}},
		{[]string{"-bus", "nats://" + nobody, "-bus-prefix", "a.b"}},
	} {
		args := append([]string{"serve", "-addr", "127.0.0.1:0", "-db", t.TempDir() + "/x.db"}, tt.args...)
		var out, errOut bytes.Buffer
		code := Run(args, testGames, strings.NewReader(""), &out, &errOut)
		if code != 1 || !strings.Contains(errOut.String(), "bus") {
			t.Errorf("serve %v: exit %d, %q", tt.args, code, errOut.String())
		}
	}
}
