package cli

import (
	"net"
	"testing"
)

func TestListenURL(t *testing.T) {
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
		if got := listenURL(tt.asked, addr); got != tt.want {
			t.Errorf("listenURL(%q, %s) = %s, want %s", tt.asked, tt.got, got, tt.want)
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
	for _, bad := range [][]string{{"-public-url", "bretter.example"}, {"-public-url", "https://bretter.example/play"},
		{"-trusted-proxies", "10.0.0.0/8,nonsense"}} {
		if _, code := runCmd(t, "", append([]string{"serve"}, bad...)...); code != 2 {
			t.Fatalf("serve %v: exit %d, want 2", bad, code)
		}
	}
	if _, code := runCmd(t, "", "serve", "-addr", "not an address", "-db", t.TempDir()+"/x.db"); code != 1 {
		t.Fatalf("an address that cannot be listened on: exit %d", code)
	}
}
