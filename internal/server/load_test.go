package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// BenchmarkLiveGames plays games at once (1, then 100), each between two
// WebSocket clients, through the whole path: message → engine → SQLite
// (synced) → broadcast. Every client moves as soon as it may, so 100 games
// saturate the server. It reports moves per second over all games and the
// time from one player sending a move to the other player's socket
// receiving it.
//
//	go test ./internal/server -run '^$' -bench LiveGames -benchtime 1x
func BenchmarkLiveGames(b *testing.B) {
	for _, games := range []int{1, 100} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) { benchmarkLiveGames(b, games, 0) })
	}
	// The same 100 games while 50 games against the computer (at the
	// default level) keep its searches busy.
	b.Run("games=100/computer=50", func(b *testing.B) { benchmarkLiveGames(b, 100, 50) })
}

func benchmarkLiveGames(b *testing.B, games, computerGames int) {
	const movesPerGame = 40
	ts := newTestServer(b)
	ctx, stop := context.WithCancel(b.Context())
	defer stop()
	var busy sync.WaitGroup
	for i := range computerGames {
		var c createResponse
		ts.call(b, "POST", "/api/games", "", `{"game":"havannah","options":{"size":8},"opponent":"computer"}`, &c)
		conn := ts.dial(b, c.ID, c.Secret, "").conn
		busy.Go(func() { playAgainstComputer(ctx, conn, c.Seat, uint64(i)) })
	}
	defer busy.Wait()
	defer stop()
	benchmarkGamesOn(b, games, ts, ts, nil)
}

// BenchmarkInstances plays games at once between two players on two
// instances joined by NATS (the store shared), against the same games on
// one instance alone. Besides moves/s and the time from one player's move
// to the other's socket, it reports the bus's lag: from the instance that
// stored a move publishing it to another instance applying it.
//
//	go test ./internal/server -run '^$' -bench Instances -benchtime 3x
func BenchmarkInstances(b *testing.B) {
	for _, games := range []int{1, 20} {
		b.Run(fmt.Sprintf("instances=1/games=%d", games), func(b *testing.B) {
			ts := newTestServer(b)
			benchmarkGamesOn(b, games, ts, ts, nil)
		})
		b.Run(fmt.Sprintf("instances=3/games=%d", games), func(b *testing.B) {
			c := newCluster(b, 3)
			benchmarkGamesOn(b, games, c.nodes[0].testServer, c.nodes[1].testServer, c.nodes)
		})
	}
}

func benchmarkGamesOn(b *testing.B, games int, white, black *testServer, nodes []*node) {
	const movesPerGame = 40
	var all []time.Duration
	var moves int
	var elapsed time.Duration
	for b.Loop() {
		list := make([]testGame, games)
		for i := range list {
			list[i] = white.newGame(b, `{"game":"havannah","options":{"size":10},"start":"me"}`)
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		start := time.Now()
		for i, g := range list {
			wg.Go(func() {
				lat := playLoadGameOn(b, white, black, g, movesPerGame, uint64(i))
				mu.Lock()
				all = append(all, lat...)
				mu.Unlock()
			})
		}
		wg.Wait()
		elapsed += time.Since(start)
		moves += games * movesPerGame
	}
	slices.Sort(all)
	b.ReportMetric(float64(moves)/elapsed.Seconds(), "moves/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	var lags []time.Duration
	for _, n := range nodes {
		n.mu.Lock()
		lags = append(lags, n.lags...)
		n.mu.Unlock()
	}
	if len(lags) > 0 {
		slices.Sort(lags)
		b.ReportMetric(float64(lags[len(lags)/2].Microseconds())/1000, "bus-p50-ms")
		b.ReportMetric(float64(lags[len(lags)*99/100].Microseconds())/1000, "bus-p99-ms")
	}
}

// playAgainstComputer answers every move of the computer at once with a
// random legal move, until ctx ends or the game does.
func playAgainstComputer(ctx context.Context, conn *websocket.Conn, seat string, seed uint64) {
	defer conn.CloseNow()
	rng := rand.New(rand.NewPCG(seed, 11))
	var (
		ply    int
		toMove string
		legal  []string
	)
	for id := 1; ; {
		_, data, err := conn.Read(ctx)
		if err != nil {
			return
		}
		var m message
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		switch {
		case m.State != nil:
			if m.State.Status == "over" {
				return
			}
			ply, toMove, legal = len(m.State.Moves), m.State.ToMove, m.State.Legal
		case m.Change != nil:
			if m.Change.Status == "over" {
				return
			}
			if strings.Contains(string(m.Event), `"kind":"move"`) {
				ply++
			}
			toMove, legal = m.Change.ToMove, m.Legal
		default:
			continue
		}
		if toMove != seat || len(legal) == 0 {
			continue
		}
		move, _ := json.Marshal(map[string]any{"type": "move", "id": id, "ply": ply, "move": legal[rng.IntN(len(legal))]})
		id++
		if conn.Write(ctx, websocket.MessageText, move) != nil {
			return
		}
	}
}

// playLoadGameOn plays random moves, White's page on one server and
// Black's on another (or the same), and returns, for each move, how long
// it took from sending to the opponent's socket receiving it.
func playLoadGameOn(b *testing.B, white, black *testServer, g testGame, n int, seed uint64) []time.Duration {
	rng := rand.New(rand.NewPCG(seed, 7))
	players := [2]*client{white.dial(b, g.id, g.white, ""), black.dial(b, g.id, g.black, "")}
	legal := players[0].next("state").State.Legal
	players[1].next("state")
	var out []time.Duration
	for ply := range n {
		mover, other := players[ply%2], players[1-ply%2]
		sent := time.Now()
		mover.send(map[string]any{"type": "move", "id": ply + 1, "ply": ply, "move": legal[rng.IntN(len(legal))]})
		for {
			m := other.next("event")
			if m.Version == ply+1 {
				out = append(out, time.Since(sent))
				if m.Change == nil {
					// Caught up after a reload: the state follows.
					m = other.next("state")
					legal = m.State.Legal
				} else {
					legal = m.Legal
				}
				break
			}
		}
		if ack := mover.next("ack"); ack.Version != ply+1 {
			panic(fmt.Sprintf("ack %+v", ack))
		}
		if len(legal) == 0 {
			break // the game ended
		}
	}
	return out
}
