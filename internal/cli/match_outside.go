package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"bretter/game"
)

// process is an outside program with its standard input and output.
type process struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan outsideLine // what it writes, line by line
	done  chan struct{}    // closed when it is stopped
	wait  time.Duration    // how long it may take to write a line
	// broken says an answer went wrong (too late, too long): the program
	// is out of step, and is stopped at once.
	broken bool
}

type outsideLine struct {
	text string
	err  error
}

// What a program may write: a line much longer than any move or answer,
// or an answer of many lines, is a program gone wrong, not one to wait
// for or keep in memory.
const (
	maxOutsideLine  = 64 << 10
	maxOutsideLines = 1000
)

// replyWait is how long an outside program may take to answer, with
// perMove its time for a move (0: its own affair, within a minute).
func replyWait(perMove time.Duration) time.Duration {
	if perMove == 0 {
		return time.Minute
	}
	return 10*time.Second + 3*perMove
}

func startProcess(ctx context.Context, argv []string, wait time.Duration) (*process, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.WaitDelay = 2 * time.Second
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, in: in, lines: make(chan outsideLine), done: make(chan struct{}), wait: wait}
	go p.read(bufio.NewReader(out))
	return p, nil
}

// read hands the program's lines to readLine until it fails or stops.
func (p *process) read(r *bufio.Reader) {
	for {
		var line []byte
		var err error
		for {
			var part []byte
			part, err = r.ReadSlice('\n')
			line = append(line, part...)
			if len(line) > maxOutsideLine {
				err = fmt.Errorf("a line longer than %d bytes", maxOutsideLine)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if err == io.EOF && len(line) > 0 {
			err = nil // the last line, without its end
		}
		select {
		case p.lines <- outsideLine{strings.TrimRight(string(line), "\r\n"), err}:
		case <-p.done:
			return
		}
		if err != nil {
			return
		}
	}
}

func (p *process) send(line string) error {
	_, err := io.WriteString(p.in, line+"\n")
	return err
}

func (p *process) readLine() (string, error) {
	timer := time.NewTimer(p.wait)
	defer timer.Stop()
	select {
	case l, ok := <-p.lines:
		if !ok {
			return "", errors.New("reading from the program: it has stopped")
		}
		if l.err != nil {
			close(p.lines) // nothing follows a failure
			p.broken = true
			return "", fmt.Errorf("reading from the program: %w", l.err)
		}
		return l.text, nil
	case <-timer.C:
		p.broken = true
		return "", fmt.Errorf("the program wrote nothing for %v", p.wait)
	}
}

// stop sends last (if any), closes the program's input and waits for it
// to end, killing it if it takes longer than a few seconds.
func (p *process) stop(last string) error {
	if last != "" {
		p.send(last) // the program may already be gone; then Wait says why
	}
	p.in.Close()
	close(p.done)
	if p.broken {
		p.cmd.Process.Kill()
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		return <-done
	}
}

// gtpPlayer is a Havannah program that speaks GTP, such as Castro.
type gtpPlayer struct {
	p      *process
	colour game.Player
}

func startGTPPlayer(ctx context.Context, argv []string, colour game.Player, o outside) (*gtpPlayer, error) {
	p, err := startProcess(ctx, argv, replyWait(o.timePerMove))
	if err != nil {
		return nil, err
	}
	g := &gtpPlayer{p: p, colour: colour}
	setup := []string{"boardsize " + strconv.Itoa(o.size), "clear_board"}
	if o.timePerMove > 0 && o.timeCommand != "" {
		secs := strconv.FormatFloat(o.timePerMove.Seconds(), 'f', -1, 64)
		setup = append(setup, strings.ReplaceAll(o.timeCommand, "{s}", secs))
	}
	for _, c := range setup {
		if _, err := g.ask(c); err != nil {
			p.stop("")
			return nil, err
		}
	}
	return g, nil
}

// ask sends one command and returns the text of its success response.
func (g *gtpPlayer) ask(command string) (string, error) {
	if err := g.p.send(command); err != nil {
		return "", fmt.Errorf("%s: %w", command, err)
	}
	var lines []string
	for read := 0; ; read++ {
		if read > maxOutsideLines {
			g.p.broken = true
			return "", fmt.Errorf("%s: an answer of more than %d lines", command, maxOutsideLines)
		}
		line, err := g.p.readLine()
		if err != nil {
			return "", fmt.Errorf("%s: %w", command, err)
		}
		if line == "" {
			if len(lines) == 0 {
				continue // blank lines before a response are not part of it
			}
			break
		}
		lines = append(lines, line)
	}
	first := lines[0]
	if first[0] != '=' && first[0] != '?' {
		return "", fmt.Errorf("%s: not a GTP response: %q", command, first)
	}
	text := strings.TrimLeft(first[1:], "0123456789") // the id, if any
	text = strings.TrimSpace(strings.Join(append([]string{text}, lines[1:]...), "\n"))
	if first[0] == '?' {
		return "", fmt.Errorf("%s: the program answered: %s", command, text)
	}
	return text, nil
}

func (g *gtpPlayer) move(ctx context.Context, s game.State) (string, error) {
	text, err := g.ask("genmove " + g.colour.String())
	if err != nil {
		return "", err
	}
	if strings.EqualFold(text, "resign") {
		return "", errResigned
	}
	return text, nil
}

func (g *gtpPlayer) played(m game.Move, text string, mine bool, after game.State) error {
	if mine {
		return nil // genmove has played it
	}
	_, err := g.ask("play " + g.colour.Other().String() + " " + text)
	return err
}

func (g *gtpPlayer) close() error {
	if !g.p.broken {
		g.ask("quit")
	}
	return g.p.stop("")
}

// codecupPlayer is a DVONN program that speaks the CodeCup protocol, such
// as PrimaDvonna: it is told "Start" if it moves first, then the other
// side's moves, each when it is its turn, and "Quit" at the end.
type codecupPlayer struct {
	p *process
}

func startCodecupPlayer(ctx context.Context, argv []string, colour game.Player) (*codecupPlayer, error) {
	p, err := startProcess(ctx, argv, replyWait(0))
	if err != nil {
		return nil, err
	}
	if colour == game.White {
		if err := p.send("Start"); err != nil {
			p.stop("")
			return nil, err
		}
	}
	return &codecupPlayer{p: p}, nil
}

func (c *codecupPlayer) move(ctx context.Context, s game.State) (string, error) {
	for range maxOutsideLines {
		line, err := c.p.readLine()
		if err != nil {
			return "", err
		}
		if line = strings.TrimSpace(line); line != "" {
			return line, nil
		}
	}
	c.p.broken = true
	return "", fmt.Errorf("%d blank lines and no move", maxOutsideLines)
}

// played passes the other side's move on, but not the move that ends the
// game: the referee of the CodeCup sends Quit instead.
func (c *codecupPlayer) played(m game.Move, text string, mine bool, after game.State) error {
	if mine || after.Outcome().Over {
		return nil
	}
	return c.p.send(text)
}

func (c *codecupPlayer) close() error {
	err := c.p.stop("Quit")
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return nil // how it ends after Quit is its own affair
	}
	return err
}
