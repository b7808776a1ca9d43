package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"bretter/game"
	"bretter/games/dvonn"
	"bretter/games/fanorona"
	bt "bretter/internal/browsertest"
)

// Two friends play a whole game of DVONN by clicking: White at a desktop,
// Black on a phone, tapping. The game has a cut-off and a forced pass; the
// pages must show both, keep the score and agree with the engine on the
// result.
func TestDVONNWholeGame(t *testing.T) {
	plan := dvonnPlan(t)

	srv := bt.StartServer(t, "")
	alice := bt.NewProfile(t)
	bob := bt.NewProfile(t, bt.Phone)
	id := newGame(t, alice, srv, "dvonn", nil, "me")
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, bob, "Your friend's turn")
	waitStatus(t, alice, "Your turn")
	must(t, bt.WaitText(alice, "#summary", "Still to place: 3 DVONN, 23 white, 23 black."))

	pages := map[game.Player]context.Context{game.White: alice, game.Black: bob}
	s := dvonn.New()
	var cutSeen, passSeen, asked bool
	for i := 0; i < len(plan); {
		mover := s.ToMove()
		ctx := pages[mover]
		waitStatus(t, ctx, "Your turn")
		keyed := ""
		switch {
		case i == 2:
			// The third DVONN piece goes down by keyboard.
			pressEnterOn(t, ctx, plan[i])
			keyed = plan[i]
		case len(plan[i]) == 4 && !s.Placing() && s.Ply() == dvonn.PlacementPlies:
			chooseStack(t, ctx, s, plan[i])
			bt.Screenshot(t, ctx, "dvonn-desktop-choose")
			tapOrClick(t, ctx, mover, plan[i][2:])
		case len(plan[i]) == 4:
			tapOrClick(t, ctx, mover, plan[i][:2])
			tapOrClick(t, ctx, mover, plan[i][2:])
		default:
			tapOrClick(t, ctx, mover, plan[i])
		}
		if mover == game.Black && confirmIfAsked(t, ctx, plan[i], !asked) {
			asked = true
		}
		play(t, s, plan[i])
		i++
		cut := s.LastCaptured()
		removed := len(s.View().(dvonn.View).Removed)
		passed := false
		for i < len(plan) && plan[i] == "PASS" { // the server plays it
			play(t, s, plan[i])
			i++
			passed = true
		}
		waitMoves(t, pages[mover.Other()], i)
		waitMoves(t, ctx, i)
		if keyed != "" {
			// The turn has passed, and the focus stays where it was, for
			// Tab to go on from there rather than from the page's top.
			waitFor(t, ctx, `document.activeElement.dataset.cell ?? document.activeElement.tagName`, keyed, "the focus kept on the space played")
		}

		if cut > 0 && !cutSeen {
			cutSeen = true
			label := fmt.Sprintf("%s\u00a0×%d", plan[indexOfLastMove(plan[:i])], cut)
			for _, page := range pages {
				must(t, bt.WaitText(page, "#moves", label))
				gone, err := bt.Eval[int](page, `document.querySelectorAll("#board .space.gone").length`)
				must(t, err)
				if gone != removed {
					t.Errorf("after %s the board marks %d spaces as cut off, want %d", label, gone, removed)
				}
			}
			for _, page := range pages { // the cut-off stacks fade out, then leave an outline
				_, err := bt.Eval[bool](page, `Promise.all(document.getAnimations().map((a) => a.finished)).then(() => true)`)
				must(t, err)
			}
			bt.Screenshot(t, alice, "dvonn-desktop-cutoff")
			bt.Screenshot(t, bob, "dvonn-phone-cutoff")
		}
		if passed {
			passSeen = true
			who := map[game.Player]string{game.White: "White", game.Black: "Black"}[mover.Other()]
			for _, page := range pages {
				must(t, bt.WaitText(page, "#summary", who+" cannot move and passes."))
				must(t, bt.WaitText(page, "#moves li.latest", "pass"))
			}
			must(t, bt.WaitText(ctx, "#announce", who+" cannot move and passes."))
			bt.Screenshot(t, alice, "dvonn-desktop-pass")
			bt.Screenshot(t, bob, "dvonn-phone-pass")
		}
		if i == 3 {
			bt.Screenshot(t, bob, "dvonn-phone-placing")
		}
	}
	if !cutSeen || !passSeen {
		t.Fatalf("the game had a cut-off: %v, a pass: %v", cutSeen, passSeen)
	}
	// Each side's moves stay in its column of the list, through the turn
	// from placing to moving and through passes.
	columns, err := bt.Eval[[]int](alice, `["white", "black"].map((seat) =>
		new Set([...document.querySelectorAll("#moves li." + seat)].map((li) => Math.round(li.getBoundingClientRect().left))).size)`)
	must(t, err)
	if columns[0] != 1 || columns[1] != 1 {
		t.Errorf("White's moves stand in %d columns, Black's in %d", columns[0], columns[1])
	}
	// An empty space looks nothing like a white piece, in high contrast
	// too: no fill, a dashed ring.
	must(t, bt.Click(alice, "#settings summary"))
	must(t, bt.Click(alice, `input[data-setting="contrast"]`))
	hole, err := bt.Eval[string](alice, `(() => { const h = document.querySelector("#board .hole:not(.covered)"); const s = getComputedStyle(h); return s.fill + " " + s.strokeDasharray; })()`)
	must(t, err)
	if !strings.HasPrefix(hole, "none ") || strings.HasSuffix(hole, " none") {
		t.Errorf("an empty space is drawn with %q", hole)
	}
	bt.Screenshot(t, alice, "dvonn-desktop-contrast")
	// The terms of a new game stay on offer however often the page redraws.
	waitFor(t, alice, `document.querySelector("#actions #rematch-terms") !== null`, true, "the terms of a new game")

	out := s.Outcome()
	w, b := s.Score()
	result := fmt.Sprintf("%s wins: White %d, Black %d.", map[game.Player]string{game.White: "White", game.Black: "Black"}[out.Winner], w, b)
	if out.Winner == game.Nobody {
		result = fmt.Sprintf("A draw, %d to %d.", w, b)
	}
	for seat, page := range pages {
		must(t, bt.WaitText(page, "#status", result))
		if out.Winner != game.Nobody {
			must(t, bt.WaitText(page, "#status", map[bool]string{true: "You won", false: "You lost"}[seat == out.Winner]))
		}
		must(t, bt.WaitText(page, "#summary", fmt.Sprintf("Score: White %d, Black %d.", w, b)))
	}
	// Stepping back, the summary speaks of the position on the board.
	must(t, bt.Click(alice, `#moves button[data-ply="3"]`))
	must(t, bt.WaitText(alice, "#replay-banner", "Viewing move 3"))
	must(t, bt.WaitText(alice, "#summary", "Still to place: 23 white, 23 black."))
	must(t, bt.Click(alice, `#replay button[data-step="last"]`))
	must(t, bt.WaitText(alice, "#summary", fmt.Sprintf("Score: White %d, Black %d.", w, b)))
	checkLabels(t, bob, s)
	bt.Screenshot(t, alice, "dvonn-desktop-end")
	bt.Screenshot(t, bob, "dvonn-phone-end")

	api := apiState(t, srv, id)
	if strings.Join(api.Moves, " ") != strings.Join(plan, " ") {
		t.Fatalf("the API has the moves\n%s\nwant\n%s", strings.Join(api.Moves, " "), strings.Join(plan, " "))
	}
	replayed, _, err := game.Replay(dvonn.Game(), nil, api.Moves)
	must(t, err)
	got := replayed.Outcome()
	if api.Status != "over" || api.Result == nil || api.Result.Winner != got.Winner.String() || api.Result.Reason != got.Reason || !got.Over {
		t.Fatalf("the API says %s %+v; the engine, replaying its moves, says %+v", api.Status, api.Result, got)
	}
}

// dvonnPlan picks the game to click through: the first seed whose random
// game (uniform over the engine's legal moves) cuts pieces off, has a forced
// pass, ends with a winner and is short. Everything is deterministic, so the
// test plays the same game every time.
func dvonnPlan(t *testing.T) []string {
	t.Helper()
	for seed := uint64(1); seed <= 2000; seed++ {
		rng := rand.New(rand.NewPCG(seed, 0))
		s := dvonn.New()
		var moves []string
		cut, pass := false, false
		for !s.Outcome().Over {
			legal := s.Legal(nil)
			m := legal[rng.IntN(len(legal))]
			play(t, s, s.FormatMove(m))
			moves = append(moves, s.FormatMove(m))
			cut = cut || s.LastCaptured() > 0
			pass = pass || moves[len(moves)-1] == "PASS"
		}
		if w, b := s.Score(); cut && pass && w != b && len(moves) <= 75 {
			return moves
		}
	}
	t.Fatal("no seed gives a short game with a cut-off and a pass")
	return nil
}

func play(t *testing.T, s *dvonn.State, move string) {
	t.Helper()
	m, err := s.ParseMove(move)
	must(t, err)
	must(t, s.Play(m))
}

func indexOfLastMove(moves []string) int {
	i := len(moves) - 1
	for moves[i] == "PASS" {
		i--
	}
	return i
}

// tapOrClick picks a space the way the player's device does: Black plays
// on a phone.
func tapOrClick(t *testing.T, ctx context.Context, p game.Player, space string) {
	t.Helper()
	if p == game.Black {
		must(t, bt.Tap(ctx, fmt.Sprintf(`#board [data-cell=%q]`, space)))
		return
	}
	clickCell(t, ctx, space)
}

// confirmIfAsked confirms a move the page holds back for confirmation (the
// default where a finger is the pointer), after checking that the board
// shows the move as chosen. It reports whether the page asked.
func confirmIfAsked(t *testing.T, ctx context.Context, move string, screenshot bool) bool {
	t.Helper()
	sel := fmt.Sprintf(`#board [data-cell=%q].preview, #board [data-cell=%q].preview-to`, move, move[len(move)-2:])
	shown, err := bt.Eval[string](ctx, fmt.Sprintf(`(() => {
		const box = document.getElementById('pending');
		if (!box || box.hidden) return 'not asked';
		return document.querySelector(%q) ? 'shown' : 'not shown';
	})()`, sel))
	must(t, err)
	if shown == "not asked" {
		return false
	}
	if shown != "shown" {
		t.Errorf("%s waits for confirmation but the board does not show it", move)
	}
	if screenshot {
		bt.Screenshot(t, ctx, "dvonn-phone-confirm")
	}
	must(t, bt.Tap(ctx, "#pending-yes"))
	return true
}

// pressEnterOn moves the keyboard focus to a space and presses Enter.
func pressEnterOn(t *testing.T, ctx context.Context, space string) {
	t.Helper()
	role, err := bt.Eval[string](ctx, fmt.Sprintf(`(() => {
		const el = document.querySelector('#board [data-cell=%q]');
		el.focus();
		return document.activeElement === el ? el.getAttribute('role') : 'not focused';
	})()`, space))
	must(t, err)
	if role != "button" {
		t.Fatalf("space %s: role %q, want a focusable button", space, role)
	}
	must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)))
}

// chooseStack clicks the source of the first stack move and checks what the
// board offers: every stack with a legal move ringed, the other stacks of
// the mover marked as stuck, and the landing spaces of the chosen one.
func chooseStack(t *testing.T, ctx context.Context, s *dvonn.State, move string) {
	t.Helper()
	sources := map[string]bool{}
	var targets []string
	for _, m := range s.Legal(nil) {
		text := s.FormatMove(m)
		sources[text[:2]] = true
		if text[:2] == move[:2] {
			targets = append(targets, text[2:])
		}
	}
	own := 0
	for _, st := range s.View().(dvonn.View).Stacks {
		if st.Top == s.ToMove().String() {
			own++
		}
	}
	clickCell(t, ctx, move[:2])
	type offer struct {
		Movable, Selected, Stuck int
		Targets                  []string
		Label                    string
	}
	got, err := bt.Eval[offer](ctx, fmt.Sprintf(`(() => {
		const q = (sel) => [...document.querySelectorAll('#board ' + sel)];
		return {
			Movable: q('.space.movable').length,
			Selected: q('.space.selected').length,
			Stuck: q('.space.stuck').length,
			Targets: q('.space.target[role=button]').map((e) => e.dataset.cell).sort(),
			Label: document.querySelector('#board [data-cell=%q]').getAttribute('aria-label'),
		};
	})()`, move[:2]))
	must(t, err)
	if got.Movable+got.Selected != len(sources) || got.Selected != 1 || got.Stuck != own-len(sources) {
		t.Errorf("the board offers %+v; the engine has %d stacks that can move and %d stuck", got, len(sources), own-len(sources))
	}
	if strings.Join(got.Targets, " ") != strings.Join(slices.Sorted(slices.Values(targets)), " ") {
		t.Errorf("landing spaces for %s: %v, want %v", move[:2], got.Targets, targets)
	}
	if !strings.Contains(got.Label, "chosen") {
		t.Errorf("the chosen stack's label is %q", got.Label)
	}
}

// checkLabels compares the screen reader's name of every stack left at
// the end with the engine's position.
func checkLabels(t *testing.T, ctx context.Context, s *dvonn.State) {
	t.Helper()
	for _, st := range s.View().(dvonn.View).Stacks {
		var want string
		switch {
		case st.Top == "red":
			want = st.Space + ", DVONN piece"
		case st.Height == 1:
			want = fmt.Sprintf("%s, %s piece", st.Space, st.Top)
		default:
			want = fmt.Sprintf("%s, %s stack of %d pieces", st.Space, st.Top, st.Height)
		}
		switch {
		case st.Dvonns == 1 && st.Top != "red":
			want += " with a DVONN piece"
		case st.Dvonns > 1:
			want += fmt.Sprintf(" with %d DVONN pieces", st.Dvonns)
		}
		got, err := bt.Eval[string](ctx, fmt.Sprintf(`document.querySelector('#board [data-cell=%q]').getAttribute('aria-label')`, st.Space))
		must(t, err)
		if !strings.HasPrefix(got, want) {
			t.Errorf("%s is labelled %q, want %q", st.Space, got, want)
		}
	}
}

// endsInACapture plays random games until Black makes a move that took
// pieces, ending moves that wanted is true of (with the pieces it took),
// and gives those moves.
func endsInACapture(t *testing.T, start func() game.State, wanted func(moves []string, took int) bool) []string {
	t.Helper()
	for seed := uint64(0); seed < 1000; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		s := start()
		var moves []string
		for !s.Outcome().Over {
			legal := s.Legal(nil)
			m := legal[rng.IntN(len(legal))]
			black := s.ToMove() == game.Black
			moves = append(moves, s.FormatMove(m))
			must(t, s.Play(m))
			if took := s.(game.Capturer).LastCaptured(); black && took > 0 && wanted(moves, took) {
				return moves
			}
		}
	}
	t.Fatal("no such capture in 1000 random games")
	return nil
}

// The last move in the list beside the board, in bold, stays on one line
// with its number and what it took, within the list: a DVONN move that
// cut off twenty pieces or more, and a Fanorona capture of one step.
func TestMovesKeepACaptureWithItsMove(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t, bt.Size(1280, 800))
	for _, c := range []struct {
		game   string
		start  func() game.State
		wanted func([]string, int) bool
	}{
		// Past the ninth move, so that its number has two digits.
		{"dvonn", func() game.State { return dvonn.New() }, func(moves []string, took int) bool { return len(moves) >= 10 && took >= 20 }},
		// Turns of one step each, so that the list keeps two columns.
		{"fanorona", func() game.State { return fanorona.New() }, func(moves []string, took int) bool {
			return len(moves) >= 4 && took < 10 && !slices.ContainsFunc(moves, func(m string) bool { return strings.Count(m, "-") > 1 })
		}},
	} {
		moves := endsInACapture(t, c.start, c.wanted)
		list, _ := json.Marshal(moves)
		id := createGame(t, srv.URL, `{"game":"`+c.game+`","moves":`+string(list)+`}`)
		must(t, bt.Navigate(p, srv.URL+"/g/"+id))
		waitMoves(t, p, len(moves))
		must(t, bt.WaitText(p, fmt.Sprintf(`#moves li.latest[data-ply="%d"]`, len(moves)), "×"))
		bt.Screenshot(t, p, c.game+"-capture-in-the-list")
		// A move is its button, one line high, and its number is the
		// item's marker, on that line then.
		broken, err := bt.Eval[[]string](p, `[...document.querySelectorAll("#moves li[data-ply] button")].filter((b) => {
			const list = b.closest("ol"), r = b.getBoundingClientRect();
			return r.height > 1.5 * parseFloat(getComputedStyle(b).lineHeight) || r.right > list.getBoundingClientRect().right || list.scrollWidth > list.clientWidth;
		}).map((b) => b.textContent)`)
		must(t, err)
		if len(broken) > 0 {
			t.Errorf("%s: %q take more than a line, or stick out of the list", c.game, broken)
		}
	}
}

// A stack of the player's that cannot move says so when it is tapped,
// rather than that a space is no legal move; the player's other choices
// stay as they were. The full board of the rules page: White's piece on
// E3 is surrounded, the black one on E4 is not White's to move.
func TestDVONNStuckStackSaysWhy(t *testing.T) {
	srv := bt.StartServer(t, "")
	placed, err := json.Marshal(strings.Fields("C3 F3 I3 E4 F2 G2 E3 D4 H3 J4 G5 D2 D3 C4 I5 G4 K4 J2 E1 I2 A2 A1 F5 H4 J5 H1 E5 G3 E2 H5 C5 K5 A3 F1 D5 B4 F4 B2 B3 C2 C1 D1 H2 G1 K3 B1 I1 J3 I4"))
	must(t, err)
	g := apiPair(t, srv, `{"game":"dvonn","start":"me","moves":`+string(placed)+`}`)
	p := bt.NewProfile(t, bt.Phone, bt.Size(360, 740))
	must(t, bt.Navigate(p, g.playerURL))
	waitStatus(t, p, "Your turn")
	waitFor(t, p, `document.querySelector("#actions button") !== null`, true, "the player's controls")
	if c := classes(t, p, "E3"); !strings.Contains(c, "stuck") {
		t.Fatalf("E3 is drawn as %q", c)
	}
	must(t, bt.Tap(p, `#board [data-cell="E3"]`))
	must(t, bt.WaitText(p, "#notice", "Your stack on E3 cannot move now: it is surrounded, or no stack stands at its distance in a straight line."))
	must(t, bt.Tap(p, `#board [data-cell="E4"]`))
	must(t, bt.WaitText(p, "#notice", "E4 is not a legal move here."))
	must(t, bt.Tap(p, `#board [data-cell="D5"]`))
	if c := classes(t, p, "D5"); !strings.Contains(c, "selected") {
		t.Fatalf("D5 tapped is drawn as %q", c)
	}
}
