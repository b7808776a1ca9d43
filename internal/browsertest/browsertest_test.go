package browsertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"image/png"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fakeServerEnv makes the test binary act as a stand-in for `bretter serve`,
// so that the server handling can be tested without the real site.
const fakeServerEnv = "BROWSERTEST_FAKE_SERVER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeServerEnv); mode != "" {
		os.Exit(fakeServe(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeServe behaves like `bretter serve -addr A -db D` in the given mode:
// "ok" serves until SIGTERM, "crash" fails before listening.
func fakeServe(mode string, args []string) int {
	if len(args) != 5 || args[0] != "serve" || args[1] != "-addr" || args[3] != "-db" {
		fmt.Fprintf(os.Stderr, "fake bretter: unexpected arguments %q\n", args)
		return 2
	}
	if mode == "crash" {
		fmt.Fprintln(os.Stderr, "bretter: cannot open the database")
		return 1
	}
	ln, err := net.Listen("tcp", args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("fake bretter: db=%s\n", args[4])
	fmt.Fprintf(os.Stderr, "bretter: serving on http://%s\n", ln.Addr())
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "fake bretter")
	})}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Shutdown(context.Background())
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return 1
	}
	return 0
}

// recorder is a testing.TB that collects errors instead of failing the
// test, so that a test can check what the harness reports.
type recorder struct {
	testing.TB

	mu     sync.Mutex
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// Fatalf must end the goroutine like the real one; run code that may call
// it in a goroutine of its own.
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) messages() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.errors, "\n")
}

func fakeBinary(t *testing.T) string {
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestServerStartsServesAndStops(t *testing.T) {
	t.Parallel()
	s := startServer(t, fakeBinary(t), "", fakeServerEnv+"=ok")

	resp, err := http.Get(s.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "fake bretter" {
		t.Errorf("GET %s = %q, want the fake server's page", s.URL, body)
	}
	if !filepath.IsAbs(s.DB) || filepath.Base(s.DB) != "bretter.db" {
		t.Errorf("DB = %q, want a bretter.db in a temporary directory", s.DB)
	}

	s.Stop()
	log := s.Log()
	for _, want := range []string{"serving on " + s.URL, "db=" + s.DB} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if _, err := http.Get(s.URL + "/"); err == nil {
		t.Errorf("server still answers after Stop")
	}
}

func TestServerKill(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "kept.db")
	s := startServer(t, fakeBinary(t), db, fakeServerEnv+"=ok")
	s.Kill()
	if _, err := http.Get(s.URL + "/"); err == nil {
		t.Errorf("server still answers after Kill")
	}
	if s.DB != db {
		t.Errorf("DB = %q, want %q", s.DB, db)
	}
}

func TestServerThatExitsEarlyFailsTheTest(t *testing.T) {
	t.Parallel()
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		startServer(rec, fakeBinary(t), "", fakeServerEnv+"=crash")
		rec.Errorf("startServer returned")
	}()
	<-done
	if got := rec.messages(); !strings.Contains(got, "exited before serving") || strings.Contains(got, "returned") {
		t.Errorf("reported %q, want only that the server exited before serving", got)
	}
}

// testSite serves the pages the browser tests use.
func testSite(t *testing.T) string {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		seat := "nobody"
		if c, err := r.Cookie("seat"); err == nil {
			seat = c.Value
		}
		fmt.Fprintf(w, `<!doctype html>
<meta name="viewport" content="width=device-width">
<title>browsertest</title>
<p id="seat">%s</p>
<button id="go">Go</button>
<p id="status">waiting</p>
<script>
const go = document.getElementById("go");
go.addEventListener("click", () => { document.getElementById("status").textContent = "clicked"; });
go.addEventListener("touchstart", () => { document.body.dataset.touched = "yes"; });
</script>`, html.EscapeString(seat))
	})
	mux.HandleFunc("GET /sit", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "seat", Value: "north", Path: "/"})
		http.Redirect(w, r, "/", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /broken", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `<!doctype html>
<title>broken</title>
<script>
console.log("fine");
console.error("bad move", 42);
throw new Error("boom");
</script>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestProfilesDoNotShareCookies(t *testing.T) {
	t.Parallel()
	site := testSite(t)
	alice, bob := NewProfile(t), NewProfile(t)

	if err := Navigate(alice, site+"/sit"); err != nil {
		t.Fatal(err)
	}
	if err := WaitText(alice, "#seat", "north"); err != nil {
		t.Fatal(err)
	}
	if err := Navigate(bob, site+"/"); err != nil {
		t.Fatal(err)
	}
	if err := WaitText(bob, "#seat", "nobody"); err != nil {
		t.Error(err)
	}
	if c, err := Eval[string](bob, "document.cookie"); err != nil || c != "" {
		t.Errorf("second profile has cookies %q (%v), want none", c, err)
	}
}

func TestClickWaitAndScreenshot(t *testing.T) {
	artifacts := t.TempDir()
	t.Setenv("BRETTER_ARTIFACTS", artifacts)
	site := testSite(t)
	ctx := NewProfile(t)

	if err := Navigate(ctx, site+"/"); err != nil {
		t.Fatal(err)
	}
	size, err := Eval[[]int](ctx, "[innerWidth, innerHeight]")
	if err != nil || len(size) != 2 || size[0] != 1280 || size[1] != 900 {
		t.Errorf("viewport = %v (%v), want 1280×900", size, err)
	}

	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	err = WaitText(short, "#status", "clicked")
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), `its text is "waiting"`) {
		t.Errorf("WaitText before the click = %v, want a timeout naming the text it saw", err)
	}
	short, cancel = context.WithTimeout(ctx, 300*time.Millisecond)
	err = WaitText(short, "#missing", "x")
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no element matches") {
		t.Errorf("WaitText for a missing element = %v, want a timeout saying nothing matched", err)
	}

	if err := Click(ctx, "#go"); err != nil {
		t.Fatal(err)
	}
	if err := WaitText(ctx, "#status", "clicked"); err != nil {
		t.Fatal(err)
	}

	path := Screenshot(t, ctx, "selftest/clicked")
	if want := filepath.Join(artifacts, "screenshots", "selftest", "clicked.png"); path != want {
		t.Errorf("screenshot saved as %s, want %s", path, want)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot is no PNG: %v", err)
	}
	if w := img.Bounds().Dx(); w != 1280 {
		t.Errorf("screenshot is %d pixels wide, want 1280", w)
	}

	if _, err := screenshot(ctx, "../outside"); err == nil {
		t.Errorf("a screenshot name with .. was accepted")
	}
}

func TestPhone(t *testing.T) {
	t.Parallel()
	site := testSite(t)
	ctx := NewProfile(t, Phone)
	if err := Navigate(ctx, site+"/"); err != nil {
		t.Fatal(err)
	}
	type device struct {
		Width, Height int
		Coarse        bool
		TouchPoints   int
	}
	got, err := Eval[device](ctx, `({
		Width: innerWidth, Height: innerHeight,
		Coarse: matchMedia("(pointer: coarse)").matches,
		TouchPoints: navigator.maxTouchPoints,
	})`)
	if err != nil {
		t.Fatal(err)
	}
	if got.Width != 390 || got.Height != 844 || !got.Coarse || got.TouchPoints == 0 {
		t.Errorf("phone looks like %+v, want 390×844 with a coarse pointer and touch points", got)
	}

	if err := Tap(ctx, "#go"); err != nil {
		t.Fatal(err)
	}
	if err := WaitText(ctx, "#status", "clicked"); err != nil {
		t.Error(err)
	}
	if touched, err := Eval[string](ctx, `document.body.dataset.touched ?? ""`); err != nil || touched != "yes" {
		t.Errorf("touchstart seen = %q (%v), want yes", touched, err)
	}
}

func TestJavaScriptErrorsFailTheTest(t *testing.T) {
	t.Parallel()
	site := testSite(t)

	rec := &recorder{TB: t}
	ctx := NewProfile(rec)
	if err := Navigate(ctx, site+"/broken"); err != nil {
		t.Fatal(err)
	}
	// The reply to a command comes after the events the page caused before
	// it, so once Eval returns the reporter has seen the page's errors.
	if _, err := Eval[int](ctx, "1"); err != nil {
		t.Fatal(err)
	}
	got := rec.messages()
	for _, want := range []string{"console.error: bad move 42", "uncaught Error: boom"} {
		if !strings.Contains(got, want) {
			t.Errorf("reported errors lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "fine") {
		t.Errorf("console.log was reported as an error:\n%s", got)
	}

	// An exception in an expression the test evaluates is the test's
	// business: Eval returns it, and it must not be reported twice.
	before := len(rec.messages())
	if _, err := Eval[int](ctx, `(() => { throw new Error("from the test") })()`); err == nil {
		t.Errorf("Eval of a throwing expression returned no error")
	}
	if _, err := Eval[int](ctx, "1"); err != nil {
		t.Fatal(err)
	}
	if after := rec.messages(); len(after) != before {
		t.Errorf("Eval's own exception was reported as a page error:\n%s", after)
	}

	quiet := &recorder{TB: t}
	ctx = NewProfile(quiet, AllowConsoleErrors)
	if err := Navigate(ctx, site+"/broken"); err != nil {
		t.Fatal(err)
	}
	if _, err := Eval[int](ctx, "1"); err != nil {
		t.Fatal(err)
	}
	if got := quiet.messages(); got != "" {
		t.Errorf("AllowConsoleErrors still reported:\n%s", got)
	}
}
