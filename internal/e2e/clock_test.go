package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	bt "bretter/internal/browsertest"
)

// A 1+0 game: the clocks start after both first moves, White's ticks
// down on both pages, shows tenths under ten seconds, and White loses on
// time with nobody touching anything.
func TestLiveClockLosesOnTime(t *testing.T) {
	t.Parallel() // most of it is waiting a minute
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	newGame(t, alice, srv, "havannah", map[string]string{"size": "4", "clock": "60+0"}, "me")
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, bob, "Your friend's turn") // the friend's page, once it has joined and reloaded
	waitStatus(t, alice, "Your turn")
	must(t, bt.WaitText(alice, "#clocks", "1:00"))
	must(t, bt.WaitText(alice, "#clocks", "The clocks start after both first moves"))

	clickCell(t, alice, "a1")
	waitMoves(t, bob, 1)
	clickCell(t, bob, "d4")
	waitMoves(t, alice, 2)
	waitFor(t, alice, `document.querySelector("#clocks .clock.white.running") !== null`, true, "White's clock running")
	first, err := bt.Eval[string](bob, `document.querySelector("#clocks .white .time").textContent`)
	must(t, err)
	time.Sleep(1500 * time.Millisecond)
	later, err := bt.Eval[string](bob, `document.querySelector("#clocks .white .time").textContent`)
	must(t, err)
	if first == later {
		t.Fatalf("White's clock stands at %s on Black's page", later)
	}
	bt.Screenshot(t, alice, "clock-running")
	// A watcher reading German sees the tenths with a decimal comma.
	id, err := bt.Eval[string](alice, `location.pathname.split("/")[2]`)
	must(t, err)
	watcher := bt.NewProfile(t)
	must(t, bt.Navigate(watcher, srv.URL+"/g/"+id+"?lang=de"))

	deadline := time.Now().Add(75 * time.Second)
	for tenths := false; !tenths; {
		s, err := bt.Eval[string](alice, `document.querySelector("#clocks .white .time").textContent`)
		must(t, err)
		tenths = len(s) == 3 && s[1] == '.'
		if time.Now().After(deadline) {
			t.Fatalf("White's clock shows %q, never tenths", s)
		}
		if tenths {
			waitFor(t, watcher, `/^\d,\d$/.test(document.querySelector("#clocks .white .time").textContent)`, true, "tenths with a comma in German")
		}
		time.Sleep(200 * time.Millisecond)
	}
	waitFor(t, alice, `document.querySelector("#clocks .white.low") !== null`, true, "White's clock marked low")
	for _, p := range []struct {
		who  string
		want string
	}{{"alice", "You lost"}, {"bob", "You won"}} {
		ctx := alice
		if p.who == "bob" {
			ctx = bob
		}
		for !statusHas(t, ctx, "White ran out of time: Black wins") {
			if time.Now().After(deadline) {
				t.Fatalf("%s's page never showed the loss on time", p.who)
			}
			time.Sleep(200 * time.Millisecond)
		}
		must(t, bt.WaitText(ctx, "#status", p.want))
	}
	if s, _ := bt.Eval[string](alice, `document.querySelector("#clocks .white .time").textContent`); s != "0.0" {
		t.Errorf("White's clock shows %q after the flag", s)
	}
	bt.Screenshot(t, bob, "clock-timeout")
}

// statusHas reports whether the status line says text now.
func statusHas(t *testing.T, ctx context.Context, text string) bool {
	t.Helper()
	s, err := bt.Eval[string](ctx, `document.getElementById("status").textContent`)
	must(t, err)
	return strings.Contains(s, text)
}

// A slow game says, as a live one does, that no clock runs before both
// first moves: a full day on each clock does not mean a day to move.
func TestSlowClockNotStarted(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice := bt.NewProfile(t)
	newGame(t, alice, srv, "havannah", map[string]string{"size": "4", "clock": "d1"}, "me")
	must(t, bt.WaitText(alice, "#clocks", "The clocks start after both first moves"))
}

// A move of a week is due on a weekday that comes twice in the week
// ahead: the phone's bar gives the date. A friend away since another day
// is said to be away since that date, not only since a time of day.
func TestSlowClockDueInAWeek(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t), bt.NewProfile(t)
	newGame(t, alice, srv, "havannah", map[string]string{"size": "4", "clock": "d7"}, "me")
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, alice, "Your turn")
	clickCell(t, alice, "a1")
	waitMoves(t, bob, 1)
	clickCell(t, bob, "b1")
	waitMoves(t, alice, 2)
	waitFor(t, bob, `(() => {
		const bar = document.querySelector(".player-bar .bar-clock.white")?.textContent;
		const at = new Intl.DateTimeFormat("en", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
		const then = Date.now() + 7 * 86400000;
		return bar === "by " + at.format(then) || bar === "by " + at.format(then - 60000);
	})()`, true, "the date the move is due in White's bar")

	away, err := bt.Eval[[]string](bob, `(async () => {
		const { time } = await import(new URL("i18n.js", document.querySelector("script[type=module]").src));
		const now = new Date(), before = new Date(now - 2 * 86400000);
		const month = (d) => new Intl.DateTimeFormat("en", { month: "short" }).format(d);
		return [time(now), time(before), month(now), month(before)];
	})()`)
	must(t, err)
	if strings.Contains(away[0], away[2]) || !strings.Contains(away[1], away[3]) {
		t.Errorf("a moment today is %q and two days ago %q: only the second names its day", away[0], away[1])
	}
}

// The phone's bars show whose clock runs and whose is low as soon as
// they are drawn: a slow game's clocks are redrawn only every half
// minute, so a bar drawn without the marks would keep them that long.
func TestPhoneBarClockMarkedAtOnce(t *testing.T) {
	srv := bt.StartServer(t, "")
	alice, bob := bt.NewProfile(t, bt.Phone), bt.NewProfile(t)
	newGame(t, alice, srv, "havannah", map[string]string{"size": "4", "clock": "d1"}, "me")
	acceptInvitation(t, bob, inputValue(t, alice, "invite-url"))
	waitStatus(t, alice, "Your turn")
	must(t, bt.Tap(alice, `#board [data-cell="a1"]`))
	must(t, bt.Tap(alice, "#pending-yes"))
	waitStatus(t, bob, "Your turn")
	clickCell(t, bob, "b1")
	// The side panel's clock and the bars are drawn from the same state,
	// in the same task.
	waitFor(t, alice, `document.querySelector("#clocks .clock.white.running") !== null`, true, "White's clock running")
	bars, err := bt.Eval[[]string](alice, `[...document.querySelectorAll(".player-bar .bar-clock")].map((b) => b.className)`)
	must(t, err)
	if len(bars) != 2 || !strings.Contains(strings.Join(bars, "|"), "bar-clock white days running") {
		t.Fatalf("the bars' clocks are %q: White's is not marked running", bars)
	}
}

// Low time is read out in words a listener understands: the seconds left,
// counted in the page's language, not a figure without a unit.
func TestLowTimeAnnouncedInSeconds(t *testing.T) {
	srv := bt.StartServer(t, "")
	var c struct {
		ID string `json:"id"`
	}
	if code, err := post(t, srv.URL+"/api/games", "", `{"game":"havannah","options":{"size":4},"start":"me","clock":{"initial_s":60,"increment_s":0}}`, &c); err != nil || code != 201 {
		t.Fatalf("creating a game: %d %v", code, err)
	}
	want := map[string][]string{
		"en": {"X: 5 seconds left.", "X: 2 seconds left.", "X: 1 second left."},
		"de": {"X: noch 5 Sekunden.", "X: noch 2 Sekunden.", "X: noch 1 Sekunde."},
		"pl": {"X: zostało 5 sekund.", "X: zostały 2 sekundy.", "X: została 1 sekunda."},
	}
	for lang, texts := range want {
		p := bt.NewProfile(t)
		must(t, bt.Navigate(p, srv.URL+"/g/"+c.ID+"?lang="+lang))
		waitFor(t, p, `document.getElementById("clocks").hidden`, false, "the clocks shown")
		// The page's own clocks are drawn with the running clock at 4.5,
		// 1.5 and 0.5 seconds; what they announce last is read out.
		said, err := bt.Eval[[]string](p, `(async () => {
			const base = document.querySelector("script[type=module]").src;
			const { createClocks } = await import(new URL("clocks.js", base));
			const { t } = await import(new URL("i18n.js", base));
			return [4500, 1500, 500].map((ms) => {
				let said = "";
				const clocks = createClocks({ t, root: document.createElement("div"), announce: (text) => { said = text; },
					colourName: () => "X", soundOn: () => false, mySeat: "" });
				const clock = { white_ms: ms, black_ms: 60000, initial_ms: 60000, increment_ms: 0 };
				clocks.update({ status: "playing", clock: { ...clock, running: "white" } });
				clocks.update({ status: "over", clock: { ...clock, running: null } });
				return said;
			});
		})()`)
		must(t, err)
		for i, text := range texts {
			if i >= len(said) || said[i] != text {
				t.Errorf("in %s the page says %q, want %q", lang, said, texts)
				break
			}
		}
	}
}

// A slow game's clock in its last hour shows the minutes alone, counted
// up: never "0 h 0 min left" while the player may still move. Drawn by
// the page's own clocks, in each language, from the times a state brings.
func TestSlowClockLastHour(t *testing.T) {
	srv := bt.StartServer(t, "")
	var c struct {
		ID string `json:"id"`
	}
	if code, err := post(t, srv.URL+"/api/games", "", `{"game":"havannah","options":{"size":4},"clock":{"days":1}}`, &c); err != nil || code != 201 {
		t.Fatalf("create: %d %v", code, err)
	}
	watcher := bt.NewProfile(t)
	for lang, want := range map[string][]string{
		"en": {"42 min left", "1 min left", "1 h 0 min left", "1 day 0 h left"},
		"de": {"noch 42 Min.", "noch 1 Min.", "noch 1 Std. 0 Min.", "noch 1 Tag 0 Std."},
		"pl": {"zostały 42 min", "została 1 min", "została 1 godz. 0 min", "został 1 dzień 0 godz."},
	} {
		must(t, bt.Navigate(watcher, srv.URL+"/g/"+c.ID+"?lang="+lang))
		waitStatus(t, watcher, "")
		got, err := bt.Eval[[]string](watcher, `(async () => {
			const src = document.querySelector("script[type=module]").src;
			const { createClocks } = await import(new URL("clocks.js", src));
			const { t } = await import(new URL("i18n.js", src));
			const root = document.createElement("div");
			const clocks = createClocks({ t, root, announce() {}, colourName: (seat) => seat, soundOn: () => false, mySeat: null });
			return [42 * 60000, 30000, 59 * 60000 + 30000, 86400000].map((ms) => {
				clocks.update({ status: "playing", clock: { days: 1, white_ms: ms, black_ms: 86400000, running: null, server_ms: Date.now() } });
				return root.querySelector(".white .time").textContent;
			});
		})()`)
		must(t, err)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: a slow clock shows %q, want %q", lang, got, want)
		}
	}
}
