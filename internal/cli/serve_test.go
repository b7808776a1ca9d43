package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"bretter/internal/server"
	"bretter/internal/store"
	"bretter/internal/store/pgtest"
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
		{"-trusted-proxies", "10.0.0.0/8,nonsense"}, {"-sync", "sometimes"},
		{"-sync", "os", "-db", "postgres://127.0.0.1:5432/test"}, {"-push-contact", "http://bretter.example"},
		{"-push-contact", "http://you@bretter.example"}, {"-push-contact", "nobody"}} {
		_, errOut, code := runCmdErr(append([]string{"serve"}, bad...)...)
		if code != 2 {
			t.Fatalf("serve %v: exit %d, want 2", bad, code)
		}
		if bad[0] == "-sync" && !strings.Contains(errOut, "-sync: ") {
			t.Fatalf("serve %v says %q, not what is wrong with -sync", bad, errOut)
		}
	}
	if _, code := runCmd(t, "", "serve", "-addr", "not an address", "-db", t.TempDir()+"/x.db"); code != 1 {
		t.Fatalf("an address that cannot be listened on: exit %d", code)
	}
}

// syncBuffer is a log that the server writes while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// `-db postgres://...` keeps the games in PostgreSQL, and the logs name
// the instance.
func TestServeOnPostgres(t *testing.T) {
	db := pgtest.URL(t)
	addr := freeAddr(t)
	var out syncBuffer
	log := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelDebug})).With("instance", "east-1")
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, addr, storeOptions{db: db}, busOptions{}, server.Config{Games: testGames, Log: log}, log, &out)
	}()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	for !strings.Contains(out.String(), "serving on") {
		select {
		case err := <-done:
			t.Fatalf("serve stopped: %v\n%s", err, out.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if !strings.Contains(out.String(), "(PostgreSQL on 127.0.0.1:5432/") {
		t.Errorf("the start message does not name PostgreSQL: %s", out.String())
	}
	res, err := http.Post("http://"+addr+"/api/games", "application/json", strings.NewReader(`{"game":"havannah","start":"me"}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID string }
	json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", res.StatusCode)
	}
	req, _ := http.NewRequest("GET", "http://"+addr+"/healthz", nil)
	req.Header.Set("Cookie", "seat_"+created.ID+"="+strings.Repeat("A", 2*maxHeaderBytes))
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("a request with a header too large: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	st, err := store.OpenPostgres(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, _, err := st.Load(t.Context(), created.ID); err != nil {
		t.Fatalf("the game is not in PostgreSQL: %v", err)
	}
	if !strings.Contains(out.String(), "instance=east-1") {
		t.Errorf("the log does not name the instance:\n%s", out.String())
	}
}

func TestInstanceName(t *testing.T) {
	t.Setenv("BRETTER_INSTANCE", "")
	host, _ := os.Hostname()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-instance", "west-2"}, "instance=west-2"},
		{nil, "instance=" + host},
	} {
		// An address that cannot be listened on stops serve at once, with
		// its error logged.
		var errOut bytes.Buffer
		args := append([]string{"serve", "-addr", "not an address", "-db", t.TempDir() + "/x.db"}, tt.args...)
		if code := Run(args, testGames, strings.NewReader(""), &bytes.Buffer{}, &errOut); code != 1 {
			t.Fatalf("%v: exit %d", args, code)
		}
		if !strings.Contains(errOut.String(), tt.want) {
			t.Errorf("%v logged %s, want %s", tt.args, errOut.String(), tt.want)
		}
	}
}

// A PostgreSQL server that cannot be reached stops serve with the reason,
// and the password in its address is not repeated.
func TestServeWithoutPostgres(t *testing.T) {
	var errOut bytes.Buffer
	args := []string{"serve", "-addr", "127.0.0.1:0", "-db", "postgres://root:hunter2@127.0.0.1:1/test?sslmode=disable"}
	if code := Run(args, testGames, strings.NewReader(""), &bytes.Buffer{}, &errOut); code != 1 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(errOut.String(), "PostgreSQL") || strings.Contains(errOut.String(), "hunter2") {
		t.Fatalf("logged %s", errOut.String())
	}
	errOut.Reset()
	args[4] = "postgres://root:hunter2@127.0.0.1:notaport/test"
	if code := Run(args, testGames, strings.NewReader(""), &bytes.Buffer{}, &errOut); code != 1 {
		t.Fatalf("a bad address: exit %d", code)
	}
	if strings.Contains(errOut.String(), "hunter2") {
		t.Fatalf("logged %s", errOut.String())
	}
}

// A bus that cannot be reached, or a prefix that cannot name subjects,
// stops the server at once with the reason.
func TestServeRefusesABadBus(t *testing.T) {
	nobody := freeAddr(t)
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

func TestHelpFlagPointsToTheCommands(t *testing.T) {
	_, errOut, _ := runCmdErr("-h")
	if !strings.Contains(errOut, "bretter help lists every command") || !strings.Contains(errOut, "-addr") {
		t.Fatalf("bretter -h says:\n%s", errOut)
	}
}

// freeAddr is a loopback address where nothing listens.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
