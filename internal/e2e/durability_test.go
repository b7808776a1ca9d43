package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bretter/games/havannah"
	bt "bretter/internal/browsertest"
)

// post sends a JSON body with an optional secret and decodes the answer.
func post(t *testing.T, url, secret, body string, out any) (int, error) {
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			return res.StatusCode, fmt.Errorf("%s: %w", data, err)
		}
	}
	return res.StatusCode, nil
}

// Every move the server acknowledged survives SIGKILL: moves go in as
// fast as the server takes them, the server is killed in the middle, and a
// new server on the same file has every acknowledged move, in order. It
// holds whether the store waits for the disk or for the operating system.
func TestAcknowledgedMovesSurviveKill(t *testing.T) {
	for _, sync := range []string{"disk", "os"} {
		t.Run(sync, func(t *testing.T) { acknowledgedMovesSurviveKill(t, sync) })
	}
}

func acknowledgedMovesSurviveKill(t *testing.T, sync string) {
	db := filepath.Join(t.TempDir(), "games.db")
	env := "BRETTER_SYNC=" + sync
	srv := bt.StartServerEnv(t, db, env)
	if inOS := strings.Contains(srv.Log(), "synced within a second"); inOS != (sync == "os") {
		t.Fatalf("with %s the server says:\n%s", env, srv.Log())
	}
	var c struct{ ID, Secret, Invite_URL string }
	if code, err := post(t, srv.URL+"/api/games", "", `{"game":"havannah","options":{"size":10},"start":"me"}`, &c); code != 201 || err != nil {
		t.Fatalf("create: %d %v", code, err)
	}
	var j struct{ Secret string }
	invite := c.Invite_URL[strings.LastIndex(c.Invite_URL, "/")+1:]
	if code, err := post(t, srv.URL+"/api/games/"+c.ID+"/join", "", `{"invite":"`+invite+`"}`, &j); code != 200 || err != nil {
		t.Fatalf("join: %d %v", code, err)
	}
	secrets := [2]string{c.Secret, j.Secret}

	// The cells of a long game without a structure: a filled row pattern
	// would end it, so play the engine's order and stop short of a win.
	// The plan holds one move more than is sent, so that the game can go
	// on after the restart even if every move sent was acknowledged.
	const sent = 120
	s, _ := havannah.New(10, false)
	var plan []string
	for _, m := range s.Legal(nil) {
		if s.WouldWin(m) != 0 {
			continue
		}
		if err := s.Play(m); err != nil {
			continue
		}
		plan = append(plan, s.FormatMove(m))
		if len(plan) == sent+1 {
			break
		}
	}

	acked := make(chan string, sent)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for ply, move := range plan[:sent] {
			var v struct{ Version int }
			code, err := post(t, srv.URL+"/api/games/"+c.ID+"/moves", secrets[ply%2], fmt.Sprintf(`{"ply":%d,"move":%q}`, ply, move), &v)
			for err == nil && code == http.StatusTooManyRequests {
				// The rate limit must not end the stream of moves before
				// the kill: send the move again a little later.
				time.Sleep(20 * time.Millisecond)
				code, err = post(t, srv.URL+"/api/games/"+c.ID+"/moves", secrets[ply%2], fmt.Sprintf(`{"ply":%d,"move":%q}`, ply, move), &v)
			}
			if err != nil || code != 200 {
				return // the server is gone
			}
			if v.Version != ply+1 {
				t.Errorf("move %d acknowledged as version %d", ply+1, v.Version)
			}
			acked <- move
		}
	}()
	// Let some moves land, then pull the plug.
	deadline := time.Now().Add(10 * time.Second)
	for len(acked) < 40 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	srv.Kill()
	<-stopped
	close(acked)
	var want []string
	for m := range acked {
		want = append(want, m)
	}
	if len(want) < 40 {
		t.Fatalf("only %d moves were acknowledged before the kill", len(want))
	}

	again := bt.StartServerEnv(t, db, env)
	got := apiState(t, again, c.ID)
	if len(got.Moves) < len(want) || !bytes.Equal([]byte(strings.Join(got.Moves[:len(want)], " ")), []byte(strings.Join(want, " "))) {
		t.Fatalf("after the kill the game has %d moves, %d were acknowledged:\n got %v\nwant %v", len(got.Moves), len(want), got.Moves, want)
	}
	// At most the one move in flight may have landed unacknowledged, and
	// the game goes on from where the store says it is.
	if len(got.Moves) > len(want)+1 {
		t.Fatalf("%d moves stored but only %d acknowledged", len(got.Moves), len(want))
	}
	ply := len(got.Moves)
	if code, _ := post(t, again.URL+"/api/games/"+c.ID+"/moves", secrets[ply%2], fmt.Sprintf(`{"ply":%d,"move":%q}`, ply, plan[ply]), nil); code != 200 {
		t.Fatalf("the game does not go on after the restart: %d", code)
	}
	again.Stop()
}
