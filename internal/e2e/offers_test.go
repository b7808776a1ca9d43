package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"

	"bretter/games/dvonn"
	bt "bretter/internal/browsertest"
	"bretter/internal/store"
	"bretter/internal/web"
)

// Two friends give names, chat (their text shown as text, never run as
// markup, and never to a watcher), then agree a draw.
func TestNamesChatAndADraw(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob, carol := bt.NewProfile(t), bt.NewProfile(t), bt.NewProfile(t)
	id := startPair(t, srv, alice, bob, "5")
	must(t, bt.Navigate(carol, srv.URL+"/g/"+id))
	waitStatus(t, carol, "White to move")

	setValue(t, alice, "#name-input", "")
	typeInto(t, alice, "#name-input", "Alice <b>"+kb.Enter)
	must(t, bt.WaitText(bob, "#players", "Alice <b> · White"))
	must(t, bt.WaitText(carol, "#players", "Alice <b> · White"))

	typeInto(t, alice, "#chat-input", `<img src=x onerror="document.title='owned'">good luck`+kb.Enter)
	must(t, bt.WaitText(bob, "#chat-lines", `Alice <b>: <img src=x onerror="document.title='owned'">good luck`))
	// The chat is a live region: a new line is added to it, and the
	// lines before stay as they were, or a screen reader reads them again.
	must(t, bt.WaitText(alice, "#chat-lines", "good luck"))
	_, err := bt.Eval[bool](alice, `(document.querySelector("#chat-lines li").dataset.seen = "1") !== ""`)
	must(t, err)
	typeInto(t, bob, "#chat-input", "danke!"+kb.Enter)
	must(t, bt.WaitText(alice, "#chat-lines", "Black: danke!"))
	if kept, err := bt.Eval[bool](alice, `document.querySelector("#chat-lines li").dataset.seen === "1"`); err != nil || !kept {
		t.Errorf("the chat was drawn anew for a line (%v)", err)
	}
	if n, _ := bt.Eval[int](bob, `document.querySelectorAll("#chat-lines img").length`); n != 0 {
		t.Fatal("a chat line became markup")
	}
	if has, _ := bt.Eval[bool](carol, `document.getElementById("chat") !== null`); has {
		t.Fatal("a watcher has the chat")
	}
	bt.Screenshot(t, bob, "chat-desktop")

	// A takeback comes as a state without the chat: the lines stay.
	clickCell(t, alice, "c3")
	waitMoves(t, bob, 1)
	must(t, bt.Click(alice, "#actions button.takeback"))
	must(t, bt.Click(bob, "#actions button.accept"))
	waitMoves(t, alice, 0)
	for _, who := range []context.Context{alice, bob} {
		if n, err := bt.Eval[int](who, `document.querySelectorAll("#chat-lines li").length`); err != nil || n != 2 {
			t.Fatalf("after a takeback the chat has %d lines (%v)", n, err)
		}
	}
	clickCell(t, alice, "c3")
	waitMoves(t, bob, 1)
	must(t, bt.Click(bob, "#actions button.offer-draw"))
	must(t, bt.WaitText(alice, "#actions", "Your friend offers a draw."))
	must(t, bt.WaitText(bob, "#actions", "You offered a draw"))
	must(t, bt.Click(alice, "#actions button.accept"))
	waitStatus(t, bob, "A draw by agreement.")
	waitStatus(t, carol, "A draw by agreement.")
	must(t, bt.WaitText(alice, "#moves", "Draw agreed"))
	must(t, bt.WaitText(carol, "#moves", "Draw agreed"))

	// A watcher's page carries no messages of the players' scripts
	// (web.PlayersScripts), so it must never load one.
	loaded := `performance.getEntriesByType("resource").map((e) => new URL(e.name).pathname)`
	for _, who := range []struct {
		ctx    context.Context
		seated bool
	}{{alice, true}, {carol, false}} {
		paths, err := bt.Eval[[]string](who.ctx, loaded)
		must(t, err)
		for _, script := range web.PlayersScripts {
			found := slices.ContainsFunc(paths, func(p string) bool { return strings.HasSuffix(p, "/"+script) })
			if script != "js/notices.js" && found != who.seated {
				t.Errorf("seated %v: %s loaded %v, in %q", who.seated, script, found, paths)
			}
			if !who.seated && found {
				t.Errorf("a watcher loaded %s", script)
			}
		}
	}
}

// An offer of a new game can be withdrawn by the one who made it: the
// friend is told, nobody is moved, and either may offer again.
func TestWithdrawARematchOffer(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	id := startPair(t, srv, alice, bob, "4")
	must(t, bt.Click(alice, "#actions button.resign"))
	must(t, bt.Click(alice, `#confirm button[value=yes]`))
	waitStatus(t, bob, "You won")

	must(t, bt.Click(bob, "#actions button.rematch"))
	must(t, bt.WaitText(alice, "#actions", "Your friend offers a new game"))
	must(t, bt.WaitText(bob, "#actions", "You offered a new game"))
	waitFor(t, alice, `document.querySelector("#actions button.withdraw") === null`, true, "no withdrawal of the friend's offer")
	must(t, bt.Click(bob, "#actions button.withdraw"))
	must(t, bt.WaitText(alice, "#notice", "Your friend withdrew the offer of a new game."))
	for _, ctx := range []context.Context{alice, bob} {
		waitFor(t, ctx, `document.querySelector("#actions .rematch-offer-text") === null && document.querySelector("#actions button.rematch") !== null`, true, "the offer gone and a new one possible")
		if path, err := bt.Eval[string](ctx, `location.pathname`); err != nil || path != "/g/"+id {
			t.Fatalf("a withdrawal moved a page to %s (%v)", path, err)
		}
	}
	s := readState[struct {
		Offer  *struct{ By string }
		Next   string
		Events []struct{ Kind, Seat, Move string }
	}](t, srv, id, "")
	last := s.Events[len(s.Events)-1]
	if s.Offer != nil || s.Next != "" || last.Kind != "withdraw" || last.Seat != "black" || last.Move != "rematch" {
		t.Fatalf("after the withdrawal the API says offer %+v, next %q, last event %+v", s.Offer, s.Next, last)
	}

	must(t, bt.Click(alice, "#actions button.rematch"))
	must(t, bt.WaitText(bob, "#actions", "Your friend offers a new game"))
	must(t, bt.Click(bob, "#actions button.accept"))
	for _, ctx := range []context.Context{alice, bob} {
		must(t, bt.WaitText(ctx, "#moves", "No moves yet"))
	}
}

// A click on the board that chooses nothing is explained. A takeback asked
// for and declined, then asked for again and agreed: the
// friend's offer and answer show where the eye looks, in the notice, and
// nothing said of the position before stays once the move is taken back.
func TestTakebackNotices(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	id := startPair(t, srv, alice, bob, "5")

	clickCell(t, alice, "c3")
	waitStatus(t, bob, "Your turn")
	// A click that chooses nothing is told why.
	clickCell(t, alice, "d4")
	must(t, bt.WaitText(alice, "#notice", "It is not your turn."))
	clickCell(t, bob, "c3")
	must(t, bt.WaitText(bob, "#notice", "c3 is not a legal move here."))
	must(t, bt.Click(alice, "#actions button.takeback"))
	must(t, bt.WaitText(bob, "#notice", "Your friend asks to take back their last move."))
	must(t, bt.Click(bob, "#actions button.decline"))
	must(t, bt.WaitText(alice, "#notice", "The takeback was declined."))
	waitFor(t, bob, `document.getElementById("notice").textContent`, "", "the answered offer's notice gone")

	typeInto(t, bob, "#move-input", "c3"+kb.Enter)
	must(t, bt.WaitText(bob, "#notice", "That move is not allowed: illegal move c3: the cell is taken"))
	must(t, bt.Click(alice, "#actions button.takeback"))
	waitFor(t, alice, `document.getElementById("notice").textContent`, "", "her own offer clears her notice")
	must(t, bt.WaitText(bob, "#notice", "Your friend asks to take back their last move."))
	must(t, bt.Click(bob, "#actions button.accept"))
	waitStatus(t, alice, "Your turn")
	must(t, bt.WaitText(alice, "#notice", "Your move was taken back."))
	waitFor(t, bob, `document.getElementById("notice").textContent`, "", "no notice of the position before the takeback")
	if s := apiState(t, srv, id); len(s.Moves) != 0 {
		t.Fatalf("moves after the takeback: %v", s.Moves)
	}
	// A move taken back is not taken back again: no button the server
	// would refuse.
	waitFor(t, alice, `document.querySelector("#actions button.offer-draw") !== null && document.querySelector("#actions button.takeback") === null`, true, "no takeback to ask for")
}

// A takeback whose acceptance would leave a clock without time can never
// be granted, as the time left only shrinks until a move is played: the
// site withdraws it, and both players are told why, each in their own
// language.
func TestTakebackWithdrawnWhenItWouldLeaveNoTime(t *testing.T) {
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":5},"start":"me","clock":{"initial_s":15,"increment_s":10}}`)
	white, black := bt.NewProfile(t), bt.NewProfile(t)
	must(t, bt.Navigate(white, g.playerURL))
	must(t, bt.Navigate(black, g.otherURL+"?lang=de"))
	g.move(t, srv, "white", 0, "e5")
	g.move(t, srv, "black", 1, "d4") // the clocks start: White's runs
	time.Sleep(13 * time.Second)
	g.move(t, srv, "white", 2, "f5") // White: 15 - 13 + 10 = 12 s
	g.move(t, srv, "black", 3, "c3")
	// Taken back, f5 gives back its 10 s: White has 2 s to spare, less
	// the time until the takeback.
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		code, err := post(t, srv.URL+"/api/games/"+g.id+"/offer", g.secrets["white"], `{"kind":"takeback"}`, nil)
		must(t, err)
		if code == http.StatusOK {
			break
		}
		if code != http.StatusTooManyRequests || time.Since(start) > bt.Timeout {
			t.Fatalf("White asks to take back f5: %d", code)
		}
	}
	must(t, bt.WaitText(black, "#notice", "Dein Gegenüber möchte den letzten Zug zurücknehmen."))
	time.Sleep(2500 * time.Millisecond) // no longer
	must(t, bt.Click(black, "#actions button.accept"))
	must(t, bt.WaitText(white, "#notice", "Your request to take back your move was withdrawn: taking back would leave a clock without time"))
	must(t, bt.WaitText(black, "#notice", "Nach einer Rücknahme bliebe eine Uhr ohne Zeit"))
	waitFor(t, black, `document.querySelector("#actions button.accept") === null`, true, "the offer's buttons gone")
	bt.Screenshot(t, white, "takeback-withdrawn")
	if s := apiState(t, srv, g.id); len(s.Moves) != 4 {
		t.Fatalf("moves after the takeback was withdrawn: %v", s.Moves)
	}
}

// A pass the rules made is no move to take back: a player whose only
// move of their own is one gets no takeback button, which the server
// would refuse. Nor is the passer told it is their turn before the pass;
// what the move before it cut off stays marked on the board.
func TestNoTakebackOfAPass(t *testing.T) {
	f := forcedPass(t)
	page := bt.NewProfile(t)
	seat := map[string]string{"white": f.playerURL, "black": f.otherURL}[f.passer]
	must(t, bt.Navigate(page, seat))
	waitStatus(t, page, "Your friend's turn")
	noteStatus(t, page)
	f.force(t)
	waitMoves(t, page, f.ply+2)
	must(t, bt.WaitText(page, "#moves li.latest", "pass"))
	neverSaid(t, page, "Your turn")
	f.cutOffKept(t, page)
	waitFor(t, page, `document.querySelector("#actions button.offer-draw") !== null && document.querySelector("#actions button.takeback") === null`, true, "no takeback of a pass")
	if code, err := post(t, f.srv.URL+"/api/games/"+f.id+"/offer", f.secrets[f.passer], `{"kind":"takeback"}`, nil); err != nil || code != http.StatusConflict {
		t.Fatalf("the server answers a takeback of the pass with %d %v", code, err)
	}
}

// A watcher is not told that the player who must pass is to move either:
// after the pass it is the other's turn again, and so the status says
// throughout. What the move cut off stays marked here too.
func TestWatcherNotToldThePasserIsToMove(t *testing.T) {
	f := forcedPass(t)
	page := bt.NewProfile(t)
	must(t, bt.Navigate(page, f.srv.URL+"/g/"+f.id))
	forcer, passer := colour(f.forcer), colour(f.passer)
	waitStatus(t, page, forcer+" to move")
	noteStatus(t, page)
	f.force(t)
	waitMoves(t, page, f.ply+2)
	must(t, bt.WaitText(page, "#moves li.latest", "pass"))
	waitStatus(t, page, forcer+" to move")
	neverSaid(t, page, passer+" to move")
	f.cutOffKept(t, page)
}

// passGame is a DVONN game between two players at the move that forces
// the first pass of dvonnPlan's game.
type passGame struct {
	pair
	srv            *bt.Server
	plan           []string
	ply            int // the moves played: the forcing move is the next
	forcer, passer string
	cut            int // the stacks the forcing move cuts off
}

// forcedPass starts a game from the moves before the one that forces a
// pass.
func forcedPass(t *testing.T) passGame {
	t.Helper()
	plan := dvonnPlan(t)
	p := slices.Index(plan, "PASS")
	s := dvonn.New()
	for _, m := range plan[:p-1] {
		play(t, s, m)
	}
	forcer, passer := s.ToMove().String(), s.ToMove().Other().String()
	play(t, s, plan[p-1])
	given, _ := json.Marshal(plan[:p-1])
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, fmt.Sprintf(`{"game":"dvonn","start":"me","moves":%s}`, given))
	return passGame{pair: g, srv: srv, plan: plan, ply: p - 1, forcer: forcer, passer: passer, cut: len(s.View().(dvonn.View).Removed)}
}

// cutOffKept checks that the board, showing the pass, still marks the
// stacks the forcing move cut off: the pass changes nothing on the board.
func (f passGame) cutOffKept(t *testing.T, page context.Context) {
	t.Helper()
	if f.cut == 0 {
		t.Fatal("the move that forces the pass cuts nothing off")
	}
	gone, err := bt.Eval[int](page, `document.querySelectorAll("#board .space.gone").length`)
	must(t, err)
	if gone != f.cut {
		t.Errorf("after the pass the board marks %d stacks as cut off, want %d", gone, f.cut)
	}
}

// force plays the move that forces the pass.
func (f passGame) force(t *testing.T) {
	t.Helper()
	f.move(t, f.srv, f.forcer, f.ply, f.plan[f.ply])
}

func colour(seat string) string {
	return map[string]string{"white": "White", "black": "Black"}[seat]
}

// noteStatus has the page keep every text its status line shows from now
// on, for neverSaid.
func noteStatus(t *testing.T, page context.Context) {
	t.Helper()
	_, err := bt.Eval[bool](page, `(window.said = [], new MutationObserver(() => said.push(document.getElementById("status").textContent))
		.observe(document.getElementById("status"), { childList: true, subtree: true, characterData: true }), true)`)
	must(t, err)
}

// neverSaid fails unless every status noted (see noteStatus) lacks text:
// a pass comes right after the move that forced it, and the page must not
// say anything of the moment between.
func neverSaid(t *testing.T, page context.Context, text string) {
	t.Helper()
	said, err := bt.Eval[[]string](page, `said`)
	must(t, err)
	for _, s := range said {
		if strings.Contains(s, text) {
			t.Errorf("before the pass the status said %q (all it said: %q)", s, said)
		}
	}
}

// Calling a game off ends it for both at once, so the page asks first; a
// no leaves the game as it was.
func TestCallTheGameOffAsksFirst(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	id := startPair(t, srv, alice, bob, "4")
	must(t, bt.Click(alice, "#actions button.abort"))
	must(t, bt.WaitText(alice, "#confirm-text", "Call this game off?"))
	must(t, bt.Click(alice, `#confirm button[value=no]`))
	waitFor(t, alice, `document.getElementById("confirm").open`, false, "the question put away")
	if s := apiState(t, srv, id); s.Status != "playing" {
		t.Fatalf("after a no the game is %s", s.Status)
	}
	must(t, bt.Click(alice, "#actions button.abort"))
	must(t, bt.Click(alice, `#confirm button[value=yes]`))
	waitStatus(t, bob, "The game was called off.")
	// How the game ended is no move: it has no number in the list.
	waitFor(t, bob, `getComputedStyle(document.querySelector("#moves li.abort")).listStyleType`, "none", "the ending unnumbered")
}

// Against the computer there is no friend for whom the game would end
// too: the question says what calling it off means there. A first move
// and the computer's answer, taken back, leave a game nobody has moved
// in, which can still be called off.
func TestCallTheGameOffAgainstTheComputer(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	must(t, bt.Navigate(p, srv.URL+"/havannah"))
	must(t, bt.Click(p, `form.new-game input[name=opponent][value=computer]`))
	must(t, bt.Click(p, `form.new-game input[name=start][value=me]`))
	must(t, bt.Click(p, `form.new-game button[type=submit]`))
	waitStatus(t, p, "Your turn")
	clickCell(t, p, "h8")
	waitMoves(t, p, 2)
	waitStatus(t, p, "Your turn")
	must(t, bt.Click(p, "#actions button.takeback"))
	waitMoves(t, p, 0)
	must(t, bt.Click(p, "#actions button.abort"))
	must(t, bt.WaitText(p, "#confirm-text", "Call this game off?"))
	text, err := bt.Eval[string](p, `document.getElementById("confirm-text").textContent`)
	must(t, err)
	if strings.Contains(text, "friend") {
		t.Fatalf("against the computer the question is %q", text)
	}
}

// An offer's notice goes with the game in play: once the game ends some
// other way, it no longer asks anything.
func TestOfferNoticeEndsWithTheGame(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	startPair(t, srv, alice, bob, "4")
	clickCell(t, alice, "a1")
	waitMoves(t, bob, 1)
	must(t, bt.Click(alice, "#actions button.offer-draw"))
	must(t, bt.WaitText(bob, "#notice", "Your friend offers a draw."))
	must(t, bt.Click(alice, "#actions button.resign"))
	must(t, bt.Click(alice, `#confirm button[value=yes]`))
	waitStatus(t, bob, "You won")
	waitFor(t, bob, `document.getElementById("notice").textContent`, "", "the offer's notice gone")
}

// A game called off before the friend came has nobody to chat with and no
// turn to tell of: the creator's page puts both away at once.
func TestCallOffBeforeTheFriendCame(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice := bt.NewProfile(t)
	newGame(t, alice, srv, "havannah", map[string]string{"size": "4"}, "me")
	waitFor(t, alice, `document.getElementById("chat") !== null`, true, "the chat while waiting")
	must(t, bt.Click(alice, "#actions button.abort"))
	must(t, bt.Click(alice, `#confirm button[value=yes]`))
	waitStatus(t, alice, "The game was called off.")
	waitFor(t, alice, `document.getElementById("chat") === null && document.getElementById("notices") === null`, true, "the chat and notices put away")
}

// With the connection lost, what a player sends besides a move (which
// waits and goes out later) is not sent, and the player is told so: a
// chat line stays in its box to be sent again, and a resignation is not
// taken for done.
func TestNothingLostOffline(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	startPair(t, srv, alice, bob, "4")
	// The chat box is in the page as served; the resign button comes
	// once the scripts have the game, which they must before the site
	// goes away.
	waitFor(t, alice, `document.querySelector("#actions button.resign") !== null`, true, "the page's controls")
	srv.Kill()
	waitFor(t, alice, `!document.getElementById("connection").hidden`, true, "the connection lost")

	typeInto(t, alice, "#chat-input", "still there?"+kb.Enter)
	must(t, bt.WaitText(alice, "#notice", "Not sent"))
	if v := inputValue(t, alice, "chat-input"); v != "still there?" {
		t.Fatalf("the chat box holds %q after a line that could not be sent", v)
	}
	_, err := bt.Eval[bool](alice, `(document.getElementById("notice").textContent = "", true)`)
	must(t, err)
	must(t, bt.Click(alice, "#actions button.resign"))
	must(t, bt.Click(alice, `#confirm button[value=yes]`))
	must(t, bt.WaitText(alice, "#notice", "Not sent"))
}

// Played on from a position of the replay after a takeback, the new game
// has the player on the side to move there: the move taken back is not
// counted among the moves.
func TestReplayPlayOnAfterATakeback(t *testing.T) {
	srv := bt.StartServer(t, "")
	g := apiPair(t, srv, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	g.move(t, srv, "white", 0, "a1")
	if code, err := post(t, srv.URL+"/api/games/"+g.id+"/offer", g.secrets["white"], `{"kind":"takeback"}`, nil); err != nil || code != http.StatusOK {
		t.Fatalf("the takeback asked for: %d %v", code, err)
	}
	if code, err := post(t, srv.URL+"/api/games/"+g.id+"/answer", g.secrets["black"], `{"kind":"takeback","accept":true}`, nil); err != nil || code != http.StatusOK {
		t.Fatalf("the takeback granted: %d %v", code, err)
	}
	g.move(t, srv, "white", 0, "b2")
	g.move(t, srv, "black", 1, "c3")

	alice := bt.NewProfile(t)
	must(t, bt.Navigate(alice, g.playerURL))
	waitMoves(t, alice, 2)
	must(t, bt.Click(alice, `#moves button[data-ply="1"]`))
	must(t, bt.WaitText(alice, "#replay-banner", "Viewing move 1 of 2"))
	_, err := bt.Eval[bool](alice, `(document.querySelector("#play-on [name=level]").value = "1") !== ""`)
	must(t, err)
	must(t, bt.Click(alice, `#play-on button[type=submit]`))
	waitStatus(t, alice, "Your turn (Black)")
	waitMoves(t, alice, 1)
}

// readsLeftToRight reports, for the first text in the element at selector
// that holds word, whether the browser draws word from left to right: a
// name written with a right-to-left override before it would turn it
// round.
func readsLeftToRight(t *testing.T, ctx context.Context, selector, word string) bool {
	t.Helper()
	ltr, err := bt.Eval[bool](ctx, fmt.Sprintf(`(() => {
		const walk = document.createTreeWalker(document.querySelector(%q), NodeFilter.SHOW_TEXT);
		for (let n; (n = walk.nextNode());) {
			const i = n.data.indexOf(%q);
			if (i < 0) continue;
			const left = (k) => { const r = document.createRange(); r.setStart(n, k); r.setEnd(n, k + 1); return r.getBoundingClientRect().left; };
			return left(i) < left(i + %d);
		}
		throw new Error("no " + %[2]q + " in " + %[1]q);
	})()`, selector, word, len(word)-1))
	must(t, err)
	return ltr
}

// A name that turns the writing round (U+202E) turns only itself: the
// site's words after it, in the list of players, the chat and the list of
// one's games, read as they should. The site refuses such a name now, but
// one given before it did is still in the store.
func TestNamesTurnNothingRound(t *testing.T) {
	old := bt.StartServer(t, "")
	g := apiPair(t, old, `{"game":"havannah","options":{"size":4},"start":"me"}`)
	if code, err := post(t, old.URL+"/api/games/"+g.id+"/name", g.secrets["black"], `{"name":"\u202eBob"}`, nil); err != nil || code != http.StatusBadRequest {
		t.Fatalf("a name that turns the writing round: %d %v, want 400", code, err)
	}
	if code, err := post(t, old.URL+"/api/games/"+g.id+"/chat", g.secrets["black"], `{"text":"good luck"}`, nil); err != nil || code != http.StatusOK {
		t.Fatalf("the chat line sent: %d %v", code, err)
	}
	old.Stop()
	nameInStore(t, old.DB, g.id, "black", "\u202eBob")
	srv := bt.StartServer(t, old.DB)
	g.playerURL = strings.Replace(g.playerURL, old.URL, srv.URL, 1)
	alice := bt.NewProfile(t)
	must(t, bt.Navigate(alice, g.playerURL))
	must(t, bt.WaitText(alice, "#players li.black", "Bob · Black (your friend)"))
	must(t, bt.WaitText(alice, "#chat-lines", "good luck"))
	if !readsLeftToRight(t, alice, "#players li.black", "Black") {
		t.Error("the list of players reads the colour after the name backwards")
	}
	if !readsLeftToRight(t, alice, "#chat-lines li", "good luck") {
		t.Error("the chat reads the line after the name backwards")
	}
	must(t, bt.Navigate(alice, srv.URL+"/my"))
	must(t, bt.WaitText(alice, ".my-game", "you play White"))
	if !readsLeftToRight(t, alice, ".my-game", "you play") {
		t.Error("my games read the colour after the name backwards")
	}
}

// nameInStore gives seat of game id a name in the store of a stopped
// server, past the checks the site makes.
func nameInStore(t *testing.T, db, id, seat, name string) {
	t.Helper()
	st, err := store.OpenSQLite(db)
	must(t, err)
	defer st.Close()
	_, events, err := st.Load(context.Background(), id)
	must(t, err)
	e := store.Event{Seq: len(events) + 1, Kind: "name", Seat: seat, Move: name, At: time.Now()}
	must(t, st.Append(context.Background(), id, []store.Event{e}, nil))
}
