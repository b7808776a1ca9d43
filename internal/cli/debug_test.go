package cli

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"syscall"
	"testing"
)

func TestDebugServer(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "example.com:0"} {
		if _, _, err := debugServer(addr, slog.New(slog.DiscardHandler)); err == nil {
			t.Errorf("%s: a profiler off this machine", addr)
		}
	}
	srv, addr, err := debugServer("127.0.0.1:0", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	resp, err := http.Get("http://" + addr + "/debug/pprof/goroutine?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	body.ReadFrom(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(body.String(), "goroutine profile:") {
		t.Errorf("%s: %.200s", resp.Status, body.String())
	}
	for _, addr := range []string{"0.0.0.0:6060", "no port"} {
		if _, errOut, code := runCmdErr("serve", "-debug-addr", addr, "-db", t.TempDir()+"/x.db"); code != 2 || !strings.Contains(errOut, "-debug-addr") {
			t.Errorf("serve -debug-addr %q: exit %d, %q", addr, code, errOut)
		}
	}
}

func TestRaiseFileLimit(t *testing.T) {
	var was syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &was); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &was) })
	low := syscall.Rlimit{Cur: min(was.Max/2, 512), Max: was.Max}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Fatal(err)
	}
	got, err := raiseFileLimit()
	if err != nil {
		t.Fatal(err)
	}
	var now syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &now); err != nil {
		t.Fatal(err)
	}
	if got != was.Max || now.Cur != was.Max {
		t.Errorf("raised to %d, soft limit now %d; want the hard limit %d", got, now.Cur, was.Max)
	}
}

func TestDefaultMaxLive(t *testing.T) {
	for files, want := range map[uint64]int{1024: 768, 20000: 15000, 0: 0, 1 << 62: 805306368} {
		if got := defaultMaxLive(files); got != want {
			t.Errorf("defaultMaxLive(%d) = %d, want %d", files, got, want)
		}
	}
}
