package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	bt "bretter/internal/browsertest"
)

// newGame creates a game by filling in the board page's form: options maps
// a select's name to the value to choose (on/off options: "1" ticks the
// box), start is "me", "friend" or "random". It returns the game's id once
// the game page shows.
func newGame(t *testing.T, ctx context.Context, srv *bt.Server, game string, options map[string]string, start string) string {
	t.Helper()
	must(t, bt.Navigate(ctx, srv.URL+"/"+game))
	for name, value := range options {
		sel := fmt.Sprintf(`form.new-game [name=%q]`, name)
		kind, err := bt.Eval[string](ctx, fmt.Sprintf(`document.querySelector(%q).type`, sel))
		must(t, err)
		if kind == "checkbox" {
			checked, err := bt.Eval[bool](ctx, fmt.Sprintf(`document.querySelector(%q).checked`, sel))
			must(t, err)
			if checked != (value == "1") {
				must(t, bt.Click(ctx, sel))
			}
			continue
		}
		_, err = bt.Eval[bool](ctx, fmt.Sprintf(`(document.querySelector(%q).value = %q) !== ""`, sel, value))
		must(t, err)
	}
	must(t, bt.Click(ctx, fmt.Sprintf(`form.new-game input[name=start][value=%q]`, start)))
	must(t, bt.Click(ctx, `form.new-game button[type=submit]`))
	waitStatus(t, ctx, "")
	url, err := bt.Eval[string](ctx, `location.pathname`)
	must(t, err)
	id, ok := strings.CutPrefix(url, "/g/")
	if !ok {
		t.Fatalf("after creating a game the page is %s", url)
	}
	return id
}

// inputValue reads a text field, such as the invitation link.
func inputValue(t *testing.T, ctx context.Context, id string) string {
	t.Helper()
	v, err := bt.Eval[string](ctx, fmt.Sprintf(`document.getElementById(%q)?.value ?? ""`, id))
	must(t, err)
	return v
}

// waitStatus waits until the status line contains text and no longer says
// that the game is loading.
func waitStatus(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	for start := time.Now(); ; {
		must(t, bt.WaitText(ctx, "#status", text))
		s, err := bt.Eval[string](ctx, `document.getElementById("status").textContent`)
		must(t, err)
		if !strings.Contains(s, "…") {
			return
		}
		if time.Since(start) > bt.Timeout {
			t.Fatalf("status still says %q", s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// clickCell clicks the board point or cell named in the game's notation.
func clickCell(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	must(t, bt.Click(ctx, fmt.Sprintf(`#board [data-cell=%q]`, name)))
}

// snapshot is the part of the API's game state the tests read.
type snapshot struct {
	Status string   `json:"status"`
	Moves  []string `json:"moves"`
	ToMove string   `json:"to_move"`
	Result *struct {
		Winner, Reason string
	} `json:"result"`
	Version int            `json:"version"`
	Options map[string]int `json:"options"`
}

// apiState reads a game through the JSON API, as a watcher.
func apiState(t *testing.T, srv *bt.Server, id string) snapshot {
	t.Helper()
	return readState[snapshot](t, srv, id, "")
}

// readState reads a game through the JSON API, as the holder of secret
// (a watcher without one).
func readState[S any](t *testing.T, srv *bt.Server, id, secret string) S {
	t.Helper()
	req, err := http.NewRequest("GET", srv.URL+"/api/games/"+id, nil)
	must(t, err)
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	res, err := http.DefaultClient.Do(req)
	must(t, err)
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/games/%s: %s", id, res.Status)
	}
	var s S
	must(t, json.NewDecoder(res.Body).Decode(&s))
	return s
}

// waitFor evaluates a JavaScript expression until it gives want, and
// fails the test with what it gave last when that takes too long.
func waitFor[T comparable](t *testing.T, ctx context.Context, expression string, want T, what string) {
	t.Helper()
	deadline := time.Now().Add(bt.Timeout)
	for {
		got, err := bt.Eval[T](ctx, expression)
		must(t, err)
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: got %v, want %v", what, got, want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitMoves waits until the page's move list has n entries.
func waitMoves(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	waitFor(t, ctx, `document.querySelectorAll("#moves li[data-ply]").length`, n, "moves in the list")
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// openImport opens the import page and waits until its script can take a
// record.
func openImport(t *testing.T, ctx context.Context, srv *bt.Server) {
	t.Helper()
	must(t, bt.Navigate(ctx, srv.URL+"/import"))
	waitFor(t, ctx, `document.querySelector("#import-form button[type=submit]").disabled`, false, "the import form ready")
}

// acceptInvitation opens the invitation at url and takes the seat it
// offers, as the friend does: with a finger on a touch screen, else with
// the mouse, on the button where it shows on the first screen.
func acceptInvitation(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	must(t, bt.Navigate(ctx, url))
	waitFor(t, ctx, `!document.getElementById("take-seat").hidden`, true, "the button to take the seat")
	// The friend sees it without looking for it: not below the screen,
	// nor under a phone's action bar.
	seen, err := bt.Eval[bool](ctx, `(() => { const b = document.getElementById("take-seat"), r = b.getBoundingClientRect(); return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b; })()`)
	must(t, err)
	if !seen {
		t.Fatal("the button to take the seat is not on the first screen")
	}
	touch, err := bt.Eval[bool](ctx, `matchMedia("(pointer: coarse)").matches`)
	must(t, err)
	if touch {
		must(t, bt.Tap(ctx, "#take-seat"))
	} else {
		must(t, bt.Click(ctx, "#take-seat"))
	}
}
