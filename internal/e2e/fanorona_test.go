package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"bretter/game"
	"bretter/games/fanorona"
	bt "bretter/internal/browsertest"
)

// Two friends play a whole game of Fanorona by clicking: White on a desktop
// browser (its first turn by keyboard), Black on a phone by tapping and
// confirming each turn if the page asks. The game is chosen with the engine
// so that it holds a capture chain of at least two captures, a step that
// captures either way, a chain stopped early and a plain move; every turn
// is clicked out step by step.
func TestFanoronaWithAFriend(t *testing.T) {
	turns := fanoronaGame(t)
	srv := bt.StartServer(t, "")
	alice := bt.NewProfile(t)
	bob := bt.NewProfile(t, bt.Phone)

	id := newGame(t, alice, srv, "fanorona", nil, "me")
	waitStatus(t, alice, "Waiting for your friend")
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, bob, "Your friend's turn")
	waitStatus(t, alice, "Your turn")
	label, err := bt.Eval[string](alice, `document.querySelector('#board [data-cell="e3"]').getAttribute("aria-label")`)
	must(t, err)
	if label != "e3, empty" {
		t.Errorf("e3 is labelled %q", label)
	}
	bt.Screenshot(t, alice, "fanorona-desktop-start")
	bt.Screenshot(t, bob, "fanorona-phone-start")
	// On the phone the hint and buttons under the board keep off the edge.
	if m, _ := bt.Eval[float64](bob, `parseFloat(getComputedStyle(document.querySelector("#board .fanorona-controls")).marginLeft)`); m < 8 {
		t.Errorf("the controls under the board stand %.0f px from the screen's edge", m)
	}
	// Count on each page how often it replays a turn of the opponent.
	for _, ctx := range []context.Context{alice, bob} {
		_, err := bt.Eval[bool](ctx, `(() => {
			window.replays = 0;
			const board = document.querySelector("#board svg");
			new MutationObserver(() => { if (board.classList.contains("replaying")) window.replays++; })
				.observe(board, { attributes: true, attributeFilter: ["class"] });
			return true;
		})()`)
		must(t, err)
	}

	p := &fanoronaPlayer{t: t, st: fanorona.New(), shots: map[string]bool{}}
	for i, turn := range turns {
		mover, other := alice, bob
		p.phone, p.keys = false, i == 0
		if i%2 == 1 {
			mover, other = bob, alice
			p.phone = true
		}
		waitStatus(t, mover, "Your turn")
		p.play(mover, turn)
		waitMoves(t, other, i+1)
		waitMoves(t, mover, i+1)
		// The opponent's page replays the turn and ends on the engine's
		// position.
		waitBoard(t, other, p.st.View().(fanorona.View).Board)
	}

	for i, ctx := range []context.Context{alice, bob} {
		n, err := bt.Eval[int](ctx, `window.replays`)
		must(t, err)
		// Each page replays every turn of the other side.
		if want := (len(turns) + i) / 2; n != want {
			t.Errorf("page %d replayed %d turns, want %d", i, n, want)
		}
	}

	o := p.st.Outcome()
	if !o.Over || o.Winner == game.Nobody {
		t.Fatalf("the scripted game ends with %+v", o)
	}
	winner, loser := alice, bob
	if o.Winner == game.Black {
		winner, loser = bob, alice
	}
	want := map[string]string{"all_captured": "every enemy piece is captured", "no_moves": "has no move left"}[o.Reason]
	waitStatus(t, winner, want)
	waitStatus(t, loser, want)
	must(t, bt.WaitText(winner, "#status", "You won"))
	must(t, bt.WaitText(loser, "#status", "You lost"))
	if s := apiState(t, srv, id); s.Status != "over" || s.Result == nil || s.Result.Winner != o.Winner.String() || s.Result.Reason != o.Reason ||
		strings.Join(s.Moves, " ") != strings.Join(turns, " ") {
		t.Fatalf("the API says %+v, the engine %+v after %v", s, o, turns)
	}

	// The move list shows every turn with the pieces it took.
	for _, ctx := range []context.Context{alice, bob} {
		got, err := bt.Eval[[]string](ctx, `[...document.querySelectorAll("#moves li[data-ply]")].map((li) => li.textContent)`)
		must(t, err)
		if strings.Join(got, "|") != strings.Join(p.labels, "|") {
			t.Errorf("move list %q, want %q", got, p.labels)
		}
	}
	w, b := p.st.Pieces()
	must(t, bt.WaitText(alice, "#summary", fmt.Sprintf("White %d, Black %d", w, b)))
	waitStill(t, alice)
	waitStill(t, bob)
	bt.Screenshot(t, alice, "fanorona-desktop-end")
	bt.Screenshot(t, bob, "fanorona-phone-end")
	for _, seen := range []string{"chain", "choice", "stop", "escape", "take back"} {
		if !p.shots[seen] {
			t.Errorf("the game had no %s", seen)
		}
	}
}

// fanoronaPlayer clicks turns out on a page and follows them on an engine.
type fanoronaPlayer struct {
	t      *testing.T
	st     *fanorona.State
	phone  bool // tap rather than click
	keys   bool // use the keyboard rather than the pointer
	labels []string
	shots  map[string]bool // situations met so far: chain, choice, stop, ...
	ways   int             // approach-or-withdrawal questions answered
}

// play builds turn on the page: the piece, then every landing point; a
// step that captures either way is answered with a button or by picking
// a piece of the line; a chain that could go on is stopped with the button.
func (p *fanoronaPlayer) play(ctx context.Context, turn string) {
	t := p.t
	t.Helper()
	legal := legalTurns(p.st)
	parts := strings.Split(turn, "-")
	p.press(ctx, fmt.Sprintf(`#board [data-cell=%q].choosable`, parts[0]))
	for k := 1; k < len(parts); k++ {
		prefix := strings.Join(parts[:k+1], "-")
		landing, how := parts[k][:2], parts[k][2:]
		p.press(ctx, fmt.Sprintf(`#board [data-cell=%q].target`, landing))
		if other := map[string]string{"A": "W", "W": "A"}[how]; other != "" && hasPrefix(legal, prefix[:len(prefix)-1]+other) {
			p.ways++
			p.shot(ctx, "choice")
			if p.ways == 1 && !p.phone && !p.keys {
				// Escape puts the question away; the landing point asks again.
				p.shots["escape"] = true
				must(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)))
				if n, err := bt.Eval[int](ctx, `document.querySelectorAll("#board .pt.way").length`); err != nil || n != 0 {
					t.Fatalf("after Escape %d pieces still offer a line (%v)", n, err)
				}
				p.press(ctx, fmt.Sprintf(`#board [data-cell=%q].target`, landing))
			}
			if p.ways%2 == 1 {
				p.press(ctx, ".fanorona-buttons button.way-"+how)
			} else {
				took := p.takes(prefix)
				p.press(ctx, fmt.Sprintf(`#board [data-cell=%q].way`, took[0]))
			}
		}
		if k < len(parts)-1 || continues(legal, prefix) {
			// The chain goes on: the captured pieces are gone already,
			// where the piece has been is marked, and it may stop.
			for _, c := range p.takes(prefix) {
				cls, err := bt.Eval[string](ctx, fmt.Sprintf(`document.querySelector('#board [data-cell=%q]').getAttribute("class")`, c))
				must(t, err)
				if strings.Contains(cls, "white") || strings.Contains(cls, "black") {
					t.Fatalf("after %s the captured piece on %s is still shown (%s)", prefix, c, cls)
				}
			}
			visited, err := bt.Eval[bool](ctx, fmt.Sprintf(`document.querySelector('#board [data-cell=%q]').classList.contains("visited")`, parts[0]))
			must(t, err)
			if !visited {
				t.Fatalf("after %s the start point is not marked as visited", prefix)
			}
			if k == 1 {
				p.shot(ctx, "chain")
			}
			if k == 1 && !p.shots["take back"] && !p.phone && !p.keys {
				// Taking the turn back brings the captured pieces back.
				p.shots["take back"] = true
				p.press(ctx, ".fanorona-buttons button.restart")
				waitBoard(t, ctx, p.st.View().(fanorona.View).Board)
				p.play(ctx, turn)
				return
			}
		}
	}
	if continues(legal, turn) {
		p.shot(ctx, "stop")
		p.press(ctx, ".fanorona-buttons button.stop")
	}
	// Where a finger is the pointer, the page asks to confirm the turn.
	asks, err := bt.Eval[bool](ctx, `(() => { const b = document.getElementById("pending"); return !!b && !b.hidden; })()`)
	must(t, err)
	if asks {
		p.shot(ctx, "confirm")
		p.press(ctx, "#pending-yes")
	}
	m, err := p.st.ParseMove(turn)
	must(t, err)
	must(t, p.st.Play(m))
	label := turn
	if n := p.st.LastCaptured(); n > 0 {
		label += fmt.Sprintf("\u00a0×%d", n)
	}
	p.labels = append(p.labels, label)
}

// press activates what selector matches once it is there: it waits, as
// the page offers nothing while it replays the opponent's turn.
func (p *fanoronaPlayer) press(ctx context.Context, selector string) {
	p.t.Helper()
	var err error
	switch {
	case p.keys:
		ctx, cancel := context.WithTimeout(ctx, bt.Timeout)
		defer cancel()
		err = chromedp.Do(ctx, chromedp.Focus(selector), chromedp.KeyEvent(kb.Enter))
	case p.phone:
		err = bt.Tap(ctx, selector)
	default:
		err = bt.Click(ctx, selector)
	}
	must(p.t, err)
}

// shot saves a screenshot the first time a situation comes up.
func (p *fanoronaPlayer) shot(ctx context.Context, what string) {
	if p.shots[what] {
		return
	}
	p.shots[what] = true
	size := "desktop"
	if p.phone {
		size = "phone"
	}
	waitStill(p.t, ctx)
	bt.Screenshot(p.t, ctx, fmt.Sprintf("fanorona-%s-%s", size, what))
}

// takes lists the points that the last step of prefix empties, from the
// engine: prefix is a legal turn of its own.
func (p *fanoronaPlayer) takes(prefix string) []string {
	before := p.st.View().(fanorona.View).Board
	whole := p.st.Clone()
	m, err := whole.ParseMove(prefix)
	must(p.t, err)
	must(p.t, whole.Play(m))
	captured := whole.View().(fanorona.View).Captured
	parts := strings.Split(prefix, "-")
	if len(parts) > 2 {
		earlier := p.st.Clone()
		m, err := earlier.ParseMove(strings.Join(parts[:len(parts)-1], "-"))
		must(p.t, err)
		must(p.t, earlier.Play(m))
		done := map[string]bool{}
		for _, c := range earlier.View().(fanorona.View).Captured {
			done[c] = true
		}
		var last []string
		for _, c := range captured {
			if !done[c] {
				last = append(last, c)
			}
		}
		captured = last
	}
	if len(captured) == 0 {
		p.t.Fatalf("%s captures nothing on %s", prefix, before)
	}
	return captured
}

// waitBoard waits until the page has replayed the last turn and shows the
// pieces of board, in the notation of fanorona.View.
func waitBoard(t *testing.T, ctx context.Context, board string) {
	t.Helper()
	const read = `document.querySelector("#board .replaying") ? "replaying" :
		[...document.querySelectorAll("#board .pt")].map((g) => g.classList.contains("white") ? "W" : g.classList.contains("black") ? "B" : ".").join("")`
	waitFor(t, ctx, read, board, "the board")
}

// waitStill waits until nothing moves on the page, so that a screenshot
// shows where the pieces are.
func waitStill(t *testing.T, ctx context.Context) {
	t.Helper()
	waitFor(t, ctx, `!document.querySelector("#board .replaying") && document.getAnimations().length === 0`, true, "the page keeps moving")
}

func legalTurns(s *fanorona.State) []string {
	var out []string
	for _, m := range s.Legal(nil) {
		out = append(out, s.FormatMove(m))
	}
	return out
}

// continues reports whether some legal turn goes on after turn.
func continues(legal []string, turn string) bool {
	for _, l := range legal {
		if strings.HasPrefix(l, turn+"-") {
			return true
		}
	}
	return false
}

// hasPrefix reports whether prefix is a legal turn or begins one.
func hasPrefix(legal []string, prefix string) bool {
	for _, l := range legal {
		if l == prefix || strings.HasPrefix(l, prefix+"-") {
			return true
		}
	}
	return false
}

// fanoronaGame finds, among games played by a fixed random policy that
// mostly takes the biggest capture, the first that ends in a win within 30
// turns and holds all the situations the test must click through.
func fanoronaGame(t *testing.T) []string {
	for seed := uint64(1); seed < 500; seed++ {
		turns, ok := scriptGame(seed)
		if ok {
			t.Logf("game of seed %d: %s", seed, strings.Join(turns, " "))
			return turns
		}
	}
	t.Fatal("no seed gives a game with a chain, a choice, a stop and a plain move")
	return nil
}

func scriptGame(seed uint64) ([]string, bool) {
	r := rand.New(rand.NewPCG(seed, 1))
	s := fanorona.New()
	var turns []string
	var chain, choice, stop, paika bool
	for !s.Outcome().Over {
		if len(turns) == 30 {
			return nil, false
		}
		legal := legalTurns(s)
		pick := legal[r.IntN(len(legal))]
		if r.IntN(4) > 0 {
			var best []string
			most := -1
			for _, l := range legal {
				c := s.Clone().(*fanorona.State)
				m, _ := c.ParseMove(l)
				c.Play(m)
				if n := c.LastCaptured(); n > most {
					best, most = nil, n
				}
				if c.LastCaptured() == most {
					best = append(best, l)
				}
			}
			pick = best[r.IntN(len(best))]
		}
		parts := strings.Split(pick, "-")
		chain = chain || len(parts) > 2
		paika = paika || !strings.ContainsAny(pick, "AW")
		stop = stop || continues(legal, pick)
		for k := 1; k < len(parts); k++ {
			prefix := strings.Join(parts[:k+1], "-")
			if other := map[byte]string{'A': "W", 'W': "A"}[prefix[len(prefix)-1]]; other != "" && hasPrefix(legal, prefix[:len(prefix)-1]+other) {
				choice = true
			}
		}
		m, err := s.ParseMove(pick)
		if err == nil {
			err = s.Play(m)
		}
		if err != nil {
			panic(err) // the engine offered pick
		}
		turns = append(turns, pick)
	}
	return turns, s.Outcome().Winner != game.Nobody && chain && choice && stop && paika
}

// A capture played after a takeback is announced with what it took: the
// move taken back is no longer counted among the turns.
func TestFanoronaCaptureAfterATakeback(t *testing.T) {
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, `{"game":"fanorona","start":"me"}`)
	bob := bt.NewProfile(t)
	must(t, bt.Navigate(bob, g.otherURL))
	waitStatus(t, bob, "Your friend's turn")

	g.move(t, srv, "white", 0, "d3-e3W")
	const want = "White plays d3-e3W and captures"
	must(t, bt.WaitText(bob, "#announce", want))
	told, err := bt.Eval[string](bob, `document.getElementById("announce").textContent`)
	must(t, err)
	if code, err := post(t, srv.URL+"/api/games/"+g.id+"/offer", g.secrets["white"], `{"kind":"takeback"}`, nil); err != nil || code != http.StatusOK {
		t.Fatalf("the takeback asked for: %d %v", code, err)
	}
	if code, err := post(t, srv.URL+"/api/games/"+g.id+"/answer", g.secrets["black"], `{"kind":"takeback","accept":true}`, nil); err != nil || code != http.StatusOK {
		t.Fatalf("the takeback granted: %d %v", code, err)
	}
	waitMoves(t, bob, 0)
	_, err = bt.Eval[bool](bob, `(document.getElementById("announce").textContent = "") === ""`)
	must(t, err)

	g.move(t, srv, "white", 0, "d3-e3W")
	waitMoves(t, bob, 1)
	waitFor(t, bob, `document.getElementById("announce").textContent`, told, "the capture after the takeback announced")
}

// A turn typed into the move box that the rules do not allow is refused
// with the rules' own reason, in the page's language, and stays in the
// box to be put right; the position does not change.
func TestFanoronaTypedTurnRefusedWithAReason(t *testing.T) {
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, `{"game":"fanorona","start":"me"}`)
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	acceptLanguage(t, bob, "pl-PL,pl;q=0.9")
	must(t, bt.Navigate(alice, g.playerURL))
	waitStatus(t, alice, "Your turn")

	for _, c := range []struct{ typed, why string }{
		{"d2-e3", "That move is not allowed: illegal move d2-e3: capture is compulsory: a paika is not allowed"},
		{"d3-e3X", `That move is not allowed: malformed move "d3-e3X": "X" is not A (approach) or W (withdrawal)`},
		{"e5-e4", "That move is not allowed: illegal move e5-e4: there is no white piece on e5"},
	} {
		setValue(t, alice, "#move-input", "")
		typeInto(t, alice, "#move-input", c.typed+kb.Enter)
		must(t, bt.WaitText(alice, "#notice", c.why))
		if v := inputValue(t, alice, "move-input"); v != c.typed {
			t.Fatalf("after %s was refused the box holds %q", c.typed, v)
		}
	}
	if s := apiState(t, srv, g.id); len(s.Moves) != 0 {
		t.Fatalf("refused turns were played: %v", s.Moves)
	}

	setValue(t, alice, "#move-input", "")
	typeInto(t, alice, "#move-input", "D3-E3w"+kb.Enter)
	waitMoves(t, alice, 1)
	if v := inputValue(t, alice, "move-input"); v != "" {
		t.Fatalf("after a turn was played the box still holds %q", v)
	}

	must(t, bt.Navigate(bob, g.otherURL))
	waitFor(t, bob, `document.querySelectorAll("#moves li[data-ply]").length`, 1, "the turn in the list")
	waitFor(t, bob, `document.getElementById("move-input") !== null`, true, "the move box")
	typeInto(t, bob, "#move-input", "e1-e2"+kb.Enter)
	must(t, bt.WaitText(bob, "#notice", "na e1 nie ma czarnego pionka"))
	must(t, bt.WaitText(bob, "#notice", "Ten ruch jest niedozwolony: "))
}

// A turn waiting for its confirmation stays chosen when something that
// is no move comes meanwhile (the friend offers a draw, names themself):
// the position it was chosen in still stands, and the turn is played as
// it was built.
func TestFanoronaConfirmationOutlastsAnOffer(t *testing.T) {
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, `{"game":"fanorona","start":"me","moves":["d2-e3A"]}`)
	p := bt.NewProfile(t, bt.Phone, bt.Size(360, 740))
	must(t, bt.Navigate(p, g.otherURL))
	waitStatus(t, p, "Your turn")
	for _, c := range []string{"g4", "g5", "f4"} {
		must(t, bt.Tap(p, fmt.Sprintf(`#board [data-cell=%q]`, c)))
	}
	must(t, bt.Tap(p, `.fanorona-buttons button.stop`))
	must(t, bt.WaitText(p, "#pending-text", "g4-g5W-f4A"))

	if code, err := post(t, srv.URL+"/api/games/"+g.id+"/offer", g.secrets["white"], `{"kind":"draw"}`, nil); err != nil || code != http.StatusOK {
		t.Fatalf("the draw offered: %d %v", code, err)
	}
	if code, err := post(t, srv.URL+"/api/games/"+g.id+"/name", g.secrets["white"], `{"name":"Ada"}`, nil); err != nil || code != http.StatusOK {
		t.Fatalf("the name given: %d %v", code, err)
	}
	must(t, bt.WaitText(p, "#notice", "draw"))
	waitFor(t, p, `document.querySelector(".players").textContent.includes("Ada")`, true, "the friend's name shown")
	waitFor(t, p, `document.getElementById("pending").hidden ? "" : document.getElementById("pending-text").textContent`, "Play g4-g5W-f4A?", "the confirmation after the offer")
	must(t, bt.Tap(p, `#pending-yes`))
	waitMoves(t, p, 2)
	if s := apiState(t, srv, g.id); s.Moves[1] != "g4-g5W-f4A" {
		t.Fatalf("played %v", s.Moves)
	}
}
