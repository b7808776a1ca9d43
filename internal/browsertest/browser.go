package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// ChromiumPath is Debian's Chromium, which scripts/test.sh installs.
const ChromiumPath = "/usr/bin/chromium"

// Timeout bounds a helper call whose context has no deadline of its own, so
// that a page that never reaches the expected state fails the test instead
// of hanging it.
const Timeout = 15 * time.Second

// Option changes how NewProfile sets up a browser.
type Option func(*profileConfig)

type profileConfig struct {
	width, height int64
	phone         bool
	allowErrors   bool
}

// Phone makes the profile a phone in portrait: a 390×844 CSS pixel viewport
// at device scale 3, mobile layout (meta viewport honoured) and a touch
// screen, so that touch events fire and (pointer: coarse) matches.
func Phone(c *profileConfig) {
	c.width, c.height, c.phone = 390, 844, true
}

// Size gives the profile a viewport of width×height CSS pixels, keeping
// whether it is a phone.
func Size(width, height int64) Option {
	return func(c *profileConfig) { c.width, c.height = width, height }
}

// AllowConsoleErrors keeps JavaScript errors from failing the test, for
// tests that provoke them on purpose.
func AllowConsoleErrors(c *profileConfig) {
	c.allowErrors = true
}

// profiles numbers the profiles of the test binary, to name their failure
// screenshots apart.
var profiles atomic.Int64

// NewProfile starts a fresh Chromium with its own user-data-dir, so that no
// cookie or storage is shared with another profile: one profile is one
// player. It is headless with a 1280×900 viewport unless an option says
// otherwise. Uncaught exceptions and console.error calls fail the test (see
// AllowConsoleErrors). When the test ends, a failed test gets a screenshot
// of the page and the browser is closed.
//
// The returned context carries the browser; pass it to chromedp or to the
// helpers of this package. Give a helper a context with a deadline derived
// from it to wait longer or shorter than Timeout.
func NewProfile(t testing.TB, opts ...Option) context.Context {
	t.Helper()
	cfg := profileConfig{width: 1280, height: 900}
	for _, o := range opts {
		o(&cfg)
	}
	if _, err := os.Stat(ChromiumPath); err != nil {
		t.Fatalf("browsertest: no Chromium at %s; run scripts/test.sh, which installs it", ChromiumPath)
	}

	allocOpts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(ChromiumPath),
		chromedp.NoSandbox, // the tests run as root
		chromedp.DisableGPU,
		chromedp.WindowSize(int(cfg.width), int(cfg.height)),
		// The test machines reach no network: anything Chromium dials on its
		// own only adds waits and noise, so switch off what phones home and
		// make every host but the loopback fail at once.
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"),
		chromedp.Flag("no-first-run", true),
		// Without a user-data-dir flag the allocator makes a fresh directory
		// for this browser and removes it once the browser has exited.
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), allocOpts...)

	var ctxOpts []chromedp.ContextOption
	reporter := &errorReporter{t: t}
	if !cfg.allowErrors {
		// A listener given at creation sees the events from the first page on.
		ctxOpts = append(ctxOpts, chromedp.WithListener(reporter.listen))
	}
	ctx, cancelCtx := chromedp.NewContext(allocCtx, ctxOpts...)

	n := profiles.Add(1)
	started := false
	t.Cleanup(func() {
		if started && t.Failed() {
			name := fmt.Sprintf("failed/%s-profile%d", t.Name(), n)
			screenshot(ctx, name) // best effort: the browser may be what failed
		}
		reporter.close()
		cancelCtx()
		cancelAlloc() // waits until Chromium has exited and its directory is gone
	})

	// Start the browser here, with a context that has no deadline: the first
	// run ties the browser's life to its context, and a helper's timeout must
	// never end the browser.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("browsertest: starting Chromium: %v", err)
	}
	started = true
	viewport := chromedp.EmulateViewport(cfg.width, cfg.height)
	if cfg.phone {
		viewport = chromedp.EmulateViewport(cfg.width, cfg.height,
			chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch,
			chromedp.EmulateScale(3))
	}
	// The window size counts the window's frame (a 900 px high window has a
	// 757 px high page), so the viewport is set exactly by emulation.
	if err := chromedp.Do(ctx, viewport); err != nil {
		t.Fatalf("browsertest: setting the viewport: %v", err)
	}
	return ctx
}

// errorReporter turns JavaScript errors of a page into test errors.
type errorReporter struct {
	t testing.TB

	mu     sync.Mutex
	closed bool // the test is ending; t may no longer be used
}

// listen runs on the goroutine that reads the browser's messages, so it only
// formats and reports.
func (r *errorReporter) listen(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		msg = "uncaught " + exceptionText(ev.ExceptionDetails)
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeAssert {
			return
		}
		msg = "console." + string(ev.Type) + ": " + argsText(ev.Args)
	default:
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.t.Errorf("browsertest: JavaScript %s", msg)
	}
}

func (r *errorReporter) close() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
}

// exceptionText describes an exception with its place, as a console would.
func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "exception"
	}
	// An Error's description holds its message and stack with places.
	if d.Exception != nil && d.Exception.Description != "" {
		return d.Exception.Description
	}
	if d.URL != "" {
		return fmt.Sprintf("%s (%s:%d:%d)", d.Text, d.URL, d.LineNumber+1, d.ColumnNumber+1)
	}
	return d.Text
}

// argsText joins the arguments of a console call: strings as they are,
// other values by their JSON or their description.
func argsText(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		var s string
		switch {
		case len(a.Value) > 0 && json.Unmarshal(a.Value, &s) == nil:
		case len(a.Value) > 0:
			s = string(a.Value)
		case a.Description != "":
			s = a.Description
		default:
			s = string(a.Type)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// Screenshot saves a full-page PNG of the profile's page as
// <artifacts>/screenshots/<name>.png and returns the path, where
// <artifacts> is $BRETTER_ARTIFACTS or testdata/artifacts in the module
// root. name may contain slashes to make subfolders. A screenshot that cannot
// be taken or saved fails the test but does not stop it.
func Screenshot(t testing.TB, ctx context.Context, name string) string {
	t.Helper()
	path, err := screenshot(ctx, name)
	if err != nil {
		t.Errorf("browsertest: %v", err)
	}
	return path
}

// unsafeName matches what should not go into a file name.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._/-]+`)

func screenshot(ctx context.Context, name string) (string, error) {
	rel := filepath.FromSlash(unsafeName.ReplaceAllString(name, "_") + ".png")
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("screenshot name %q leaves the screenshots folder", name)
	}
	dir, err := artifactsDir()
	if err != nil {
		return "", fmt.Errorf("screenshot %q: %w", name, err)
	}
	path := filepath.Join(dir, "screenshots", rel)

	ctx, cancel := withTimeout(ctx)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return "", fmt.Errorf("screenshot %q: %w", name, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("screenshot %q: %w", name, err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		return "", fmt.Errorf("screenshot %q: %w", name, err)
	}
	return path, nil
}

// withTimeout gives ctx the default Timeout unless it has a deadline already.
func withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, Timeout)
}

// Navigate opens url in the profile's tab and waits for the page to load.
func Navigate(ctx context.Context, url string) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("opening %s: %w", url, err)
	}
	return nil
}

// Click waits until an element matching the CSS selector is visible and
// clicks its centre with the mouse.
func Click(ctx context.Context, selector string) error {
	if err := again(ctx, func(ctx context.Context) error { return chromedp.Do(ctx, chromedp.Click(chromedp.CSS(selector))) }); err != nil {
		return fmt.Errorf("clicking %q: %w", selector, err)
	}
	return nil
}

// again runs act until it does not find its element drawn anew between
// being found and being acted on, as a person clicks again on what the
// page has just redrawn, within the usual timeout.
func again(ctx context.Context, act func(context.Context) error) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	for {
		err := act(ctx)
		if err == nil || !strings.Contains(err.Error(), "Could not find node with given id") || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pollInterval):
		}
	}
}

// Tap is Click with a finger; it needs a Phone profile, as only a touch
// screen delivers touch events.
func Tap(ctx context.Context, selector string) error {
	if err := again(ctx, func(ctx context.Context) error { return chromedp.Do(ctx, chromedp.Tap(chromedp.CSS(selector))) }); err != nil {
		return fmt.Errorf("tapping %q: %w", selector, err)
	}
	return nil
}

// Eval evaluates a JavaScript expression in the page, waits for it if it is
// a promise, and decodes its JSON value into a T.
func Eval[T any](ctx context.Context, expression string) (T, error) {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expression, chromedp.EvalAwaitPromise))
	if err != nil {
		return v, fmt.Errorf("evaluating %q: %w", expression, err)
	}
	return v, nil
}

// pollInterval is how often WaitText looks again; the pages under test
// change within milliseconds of a WebSocket message.
const pollInterval = 50 * time.Millisecond

// WaitText waits until the first element matching the CSS selector exists
// and its textContent contains substring. It looks again until ctx ends,
// across page loads, and the error tells what the element said last.
func WaitText(ctx context.Context, selector, substring string) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	expr := fmt.Sprintf(`document.querySelector(%s)?.textContent ?? null`, jsString(selector))
	var (
		last    *string
		lastErr error
	)
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		text, err := chromedp.Run(ctx, chromedp.Evaluate[*string](expr))
		switch {
		case err != nil:
			lastErr = err // a page that is loading has no document to ask
		case text != nil && strings.Contains(*text, substring):
			return nil
		default:
			last, lastErr = text, nil
		}
		select {
		case <-ctx.Done():
			switch {
			case last != nil:
				return fmt.Errorf("waiting for %q to contain %q: its text is %q: %w", selector, substring, *last, ctx.Err())
			case lastErr != nil && !errors.Is(lastErr, ctx.Err()):
				return fmt.Errorf("waiting for %q to contain %q: %w (last error: %v)", selector, substring, ctx.Err(), lastErr)
			default:
				return fmt.Errorf("waiting for %q to contain %q: no element matches: %w", selector, substring, ctx.Err())
			}
		case <-tick.C:
		}
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}
