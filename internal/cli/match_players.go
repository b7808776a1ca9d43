package cli

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"bretter/ai"
	"bretter/game"
)

// player is one side of one game of a match.
type player interface {
	// move returns the player's move in the game's notation for the
	// position s, where it is the player's turn, or "resign".
	move(ctx context.Context, s game.State) (string, error)
	// played tells the player of a move the rules accepted, made by the
	// player itself (mine) or by the other side; after is the position it
	// reached.
	played(m game.Move, text string, mine bool, after game.State) error
	// close ends the player, and its program if it has one.
	close() error
}

// playerSpec is a SPEC of `bretter match`: our search at a level, with an
// iteration or time budget per move, the greedy player, or an outside
// program.
type playerSpec struct {
	text string
	kind string    // level, iter, time, greedy, gtp or codecup
	cfg  ai.Config // for our search
	argv []string  // for an outside program
}

func parsePlayerSpec(g game.Game, opts game.Options, text string) (playerSpec, error) {
	gameName := g.Name
	if text == "greedy" {
		s, err := g.New(opts)
		if err != nil {
			return playerSpec{}, err
		}
		if _, ok := s.(game.Capturer); !ok {
			return playerSpec{}, fmt.Errorf("player %q: %s has no captures", text, gameName)
		}
		return playerSpec{text: text, kind: text}, nil
	}
	kind, arg, ok := strings.Cut(text, ":")
	if !ok || arg == "" {
		return playerSpec{}, fmt.Errorf("player %q: want level:N, iter:N, depth:N, time:D, greedy, gtp:COMMAND or codecup:COMMAND", text)
	}
	p := playerSpec{text: text, kind: kind}
	switch kind {
	case "level":
		n, err := strconv.Atoi(arg)
		if err != nil {
			return p, fmt.Errorf("player %q: the level is a number", text)
		}
		if p.cfg, err = ai.Level(gameName, n); err != nil {
			return p, fmt.Errorf("player %q: %w", text, err)
		}
	case "iter":
		n, err := strconv.Atoi(arg)
		if err != nil || n <= 0 {
			return p, fmt.Errorf("player %q: iterations are a positive number", text)
		}
		p.cfg = ai.Tuning(gameName)
		p.cfg.Iterations = n
	case "depth":
		n, err := strconv.Atoi(arg)
		if err != nil || n <= 0 {
			return p, fmt.Errorf("player %q: the depth is a positive number of moves", text)
		}
		p.cfg = ai.Tuning(gameName)
		if !p.cfg.AlphaBeta {
			return p, fmt.Errorf("player %q: %s is not searched to a depth", text, gameName)
		}
		p.cfg.Depth, p.cfg.Time = n, ai.MaxThink
	case "time":
		d, err := time.ParseDuration(arg)
		if err != nil || d <= 0 {
			return p, fmt.Errorf("player %q: the time per move is a duration such as 1s", text)
		}
		p.cfg = ai.Tuning(gameName)
		p.cfg.Time = d
	case "gtp", "codecup":
		if want := map[string]string{"gtp": "havannah", "codecup": "dvonn"}[kind]; gameName != want {
			return p, fmt.Errorf("player %q: a %s program plays %s only", text, kind, want)
		}
		p.argv = strings.Fields(arg)
		if _, err := exec.LookPath(p.argv[0]); err != nil {
			return p, fmt.Errorf("player %q: %w", text, err)
		}
	default:
		return p, fmt.Errorf("player %q: unknown kind %q: want level, iter, depth, time, greedy, gtp or codecup", text, kind)
	}
	if p.kind != "gtp" && p.kind != "codecup" {
		if _, err := ai.Level(gameName, ai.MinLevel); err != nil {
			return p, fmt.Errorf("player %q: %w", text, err)
		}
	}
	return p, nil
}

// outside holds how outside programs are started and timed.
type outside struct {
	timePerMove time.Duration
	timeCommand string // GTP command that sets the time per move; {s} stands for seconds
	size        int    // Havannah's board side
}

// start makes the player for one game in which it plays colour.
func (p playerSpec) start(ctx context.Context, startPos game.State, colour game.Player, seed uint64, o outside) (player, error) {
	switch p.kind {
	case "gtp":
		return startGTPPlayer(ctx, p.argv, colour, o)
	case "codecup":
		return startCodecupPlayer(ctx, p.argv, colour)
	case "greedy":
		return &greedyPlayer{rng: rand.New(rand.NewPCG(seed, 0))}, nil
	}
	cfg := p.cfg
	cfg.Seed = seed
	return &searchPlayer{search: ai.New(startPos, cfg)}, nil
}

// searchPlayer is our own search, following the game with one searcher.
type searchPlayer struct {
	search *ai.Searcher
}

func (p *searchPlayer) move(ctx context.Context, s game.State) (string, error) {
	r, err := p.search.Search(ctx)
	if err != nil {
		return "", err
	}
	return s.FormatMove(r.Move), nil
}

func (p *searchPlayer) played(m game.Move, _ string, _ bool, _ game.State) error {
	return p.search.Play(m)
}

func (p *searchPlayer) close() error { return nil }

// greedyPlayer plays the legal move that captures the most pieces, one of
// the best at random when several capture as many: the opponent that the
// first lesson of a capturing game beats, and a yardstick for our search.
// It plays only games whose states are game.Capturers.
type greedyPlayer struct {
	rng   *rand.Rand
	legal []game.Move
}

func (p *greedyPlayer) move(_ context.Context, s game.State) (string, error) {
	p.legal = s.Legal(p.legal[:0])
	best, ties := -1, 0
	var pick game.Move
	for _, m := range p.legal {
		after := s.Clone()
		if err := after.Play(m); err != nil {
			return "", err
		}
		switch n := after.(game.Capturer).LastCaptured(); {
		case n > best:
			best, ties, pick = n, 1, m
		case n == best:
			// Each of the ties is kept with the same chance.
			if ties++; p.rng.IntN(ties) == 0 {
				pick = m
			}
		}
	}
	if best < 0 {
		return "", errors.New("no legal move")
	}
	return s.FormatMove(pick), nil
}

func (p *greedyPlayer) played(game.Move, string, bool, game.State) error { return nil }

func (p *greedyPlayer) close() error { return nil }

// errResigned is what a player's move says when it gives up.
var errResigned = errors.New("resigned")
