package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"

	bt "bretter/internal/browsertest"
)

// A whole game against the computer on every board: the person types the
// first of their legal moves into the move box, the computer answers on
// its own, until the rules end the game.
func TestWholeGameAgainstTheComputer(t *testing.T) {
	srv := bt.StartServer(t, "")
	for _, tc := range []struct {
		game, size string
	}{{"havannah", "4"}, {"dvonn", ""}, {"fanorona", ""}} {
		t.Run(tc.game, func(t *testing.T) {
			p := bt.NewProfile(t)
			must(t, bt.Navigate(p, srv.URL+"/"+tc.game))
			if tc.size != "" {
				_, err := bt.Eval[bool](p, fmt.Sprintf(`(document.querySelector("form.new-game [name=size]").value = %q) !== ""`, tc.size))
				must(t, err)
			}
			must(t, bt.Click(p, `form.new-game input[name=opponent][value=computer]`))
			_, err := bt.Eval[bool](p, `(document.querySelector("form.new-game [name=level]").value = "1") !== ""`)
			must(t, err)
			must(t, bt.Click(p, `form.new-game input[name=start][value=friend]`))
			must(t, bt.Click(p, `form.new-game button[type=submit]`))
			must(t, bt.WaitText(p, "#players", "bretter, level 1"))
			secret := secretOf(t, inputValue(t, p, "player-url"))
			id, _ := bt.Eval[string](p, `location.pathname.split("/")[2]`)
			// It resigns, but offers no draw: the computer declines them all.
			must(t, bt.WaitText(p, "#actions button.resign", "Resign"))
			// The player's name is kept without a chat to go with it.
			typeInto(t, p, "#name-input", "Ada"+kb.Enter)
			must(t, bt.WaitText(p, "#players", "Ada · "))
			if s := stateAs(t, srv, id, secret); s.Players[s.Seat].Name != "Ada" {
				t.Fatalf("the name stored is %q", s.Players[s.Seat].Name)
			}
			if draw, err := bt.Eval[bool](p, `document.querySelector("#actions button.offer-draw") !== null`); err != nil || draw {
				t.Fatalf("a draw is offered to the computer: %v", err)
			}

			deadline := time.Now().Add(3 * time.Minute)
			for time.Now().Before(deadline) {
				s := stateAs(t, srv, id, secret)
				if s.Status == "over" {
					break
				}
				if s.ToMove != s.Seat || len(s.Legal) == 0 {
					time.Sleep(30 * time.Millisecond)
					continue
				}
				waitMoves(t, p, len(s.Moves)) // the page has seen the computer's move
				_, err := bt.Eval[bool](p, fmt.Sprintf(`(document.getElementById("move-input").value = %q,
					document.getElementById("move-form").requestSubmit(), true)`, s.Legal[0]))
				must(t, err)
				waitFor(t, p, fmt.Sprintf(`document.querySelectorAll("#moves li[data-ply]").length > %d`, len(s.Moves)), true, "my move in the list")
			}
			s := stateAs(t, srv, id, secret)
			if s.Status != "over" || s.Result == nil {
				t.Fatalf("the game did not end: %+v", s)
			}
			want := map[string]string{s.Seat: "You won", otherColour(s.Seat): "You lost", "none": "draw"}[s.Result.Winner]
			must(t, bt.WaitText(p, "#status", want))
			// Nobody to chat with, no notices of moves that come within
			// seconds, and the next game is against the computer too.
			must(t, bt.WaitText(p, "#actions button.rematch", "New game against the computer"))
			if friendly, _ := bt.Eval[[]string](p, `["chat", "notices"].filter((id) => document.getElementById(id))`); len(friendly) > 0 {
				t.Fatalf("against the computer the page has %v", friendly)
			}
			bt.Screenshot(t, p, tc.game+"-computer-end")
		})
	}
}

func otherColour(seat string) string {
	if seat == "white" {
		return "black"
	}
	return "white"
}

// secretOf takes the secret from a player's private link, /g/ID/p/SECRET.
func secretOf(t *testing.T, link string) string {
	t.Helper()
	i := strings.LastIndex(link, "/")
	if i < 0 || link[i+1:] == "" {
		t.Fatalf("private link %q", link)
	}
	return link[i+1:]
}

// seatState is the API's state as a seated player reads it.
type seatState struct {
	snapshot
	Seat    string                           `json:"seat"`
	Legal   []string                         `json:"legal"`
	Players map[string]struct{ Name string } `json:"players"`
}

func stateAs(t *testing.T, srv *bt.Server, id, secret string) seatState {
	t.Helper()
	return readState[seatState](t, srv, id, secret)
}

// From an imported record, stepped back one move, the player plays on
// against the computer: the new game starts from that position with the
// player on the side to move, and the computer answers.
func TestPlayOnFromAnImportedRecord(t *testing.T) {
	srv := bt.StartServer(t, "")
	p := bt.NewProfile(t)
	openImport(t, p, srv)
	setValue(t, p, "#record-text", "(;FF[4]SZ[5]RE[B];W[E5];B[D4];W[F6];B[resign])")
	must(t, bt.Click(p, `#import-form button[type=submit]`))
	must(t, bt.WaitText(p, "#replay-banner", "Final position (3 moves)"))
	press(t, p, kb.ArrowLeft)
	must(t, bt.WaitText(p, "#replay-banner", "Viewing move 2 of 3"))
	_, err := bt.Eval[bool](p, `(document.querySelector("#play-on [name=level]").value = "1") !== ""`)
	must(t, err)
	must(t, bt.Click(p, `#play-on button[type=submit]`))
	waitStatus(t, p, "Your turn (White)")
	waitMoves(t, p, 2)
	must(t, bt.WaitText(p, "#players", "bretter, level 1"))
	clickCell(t, p, "c3")
	waitMoves(t, p, 4) // the computer answered
	waitStatus(t, p, "Your turn (White)")
}
