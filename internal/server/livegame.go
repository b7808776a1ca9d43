package server

import (
	"sync"
	"time"

	"bretter/game"
	"bretter/internal/clock"
	"bretter/internal/store"
)

// liveGame is a game rebuilt from its events, with its open pages. Every
// field is guarded by mu.
type liveGame struct {
	mu      sync.Mutex
	evicted bool // dropped from the hub: whoever holds it must look again
	used    time.Time

	subs map[*subscriber]struct{}
	// toWatchers are messages for every watcher, in order, that
	// tellWatchers has yet to hand out; tellingWatchers says it runs.
	toWatchers      [][]byte
	tellingWatchers bool
	presence        [2]presence // this instance's pages
	// spared is, by seat, the last notice not sent because a page here
	// was on screen, until that page is put away (see hub.leave); news
	// from other instances leaves one too (see spareForPagesHere).
	spared [2]*notice
	looks  [2]int // by seat, how often a page here said it is on screen
	// rematchTold is, by seat, when the other was last told of its offer
	// of a new game.
	rematchTold [2]time.Time
	// presenceSent is when presence was last broadcast; presencePending
	// says a broadcast is due (see broadcastPresence); presenceChanged,
	// that this instance's pages changed since the last.
	presenceSent    time.Time
	presencePending bool
	presenceChanged bool
	pagesDue        bool // this instance's pages are to be sent the presence
	// remote is what the other instances said of their pages, by
	// instance; asked is set once they have been asked.
	remote  map[string]remotePresence
	asked   bool
	checked time.Time // when a quiet copy was last checked against the store (see sweep)
	// spare is a position nothing uses any more, the one the last move
	// left behind, for after to play the next move on (see copyOfState).
	spare game.State
	// stored is the version of the last events this instance stored;
	// 0: none. While it is the game's version, the computer's move is
	// this instance's to ask for (see computerMove).
	stored int
	// client is the address of the last request of a player here that
	// changed the game: the computer's searches for it take its turn
	// (see searchKey). "": none since the game was loaded.
	client string
	now    func() time.Time      // the hub's clock
	down   func() clock.Downtime // the hub's downtime
	// givesBack reports whether a takeback at a moment gives back the
	// increments of the moves it takes back (see hub.givesBack).
	givesBack func(at time.Time) bool

	replayed
}

// replayed is what loading a game from the store rebuilds.
type replayed struct {
	loaded   bool
	rec      store.Game
	events   []store.Event
	engine   game.Game
	state    game.State
	moves    []string
	captured []int // pieces each move removed, for games that capture
	view     any
	ticks    []clock.Move // what the clocks count: moves and takebacks
	offer    *Offer       // an offer waiting for an answer
	names    [2]string    // the players' names, by seatIndex
	chat     []store.ChatLine
}

type presence struct {
	conns   int
	looking int       // of conns, the pages that said they are on screen
	since   time.Time // when the last page of this seat closed
}

// lookingAt reports whether a page of seat, here or on another instance,
// said it is on screen: the player sees the news there, and a notice of
// it would only interrupt.
func (g *liveGame) lookingAt(seat string, now time.Time) bool {
	i := seatIndex(seat)
	if g.presence[i].looking > 0 {
		return true
	}
	for _, p := range g.remote {
		if p.Looking[i] > 0 && now.Sub(p.heard) <= presenceLasts {
			return true
		}
	}
	return false
}

// play plays a move on the game's position.
func (g *liveGame) play(text string) error {
	m, err := g.state.ParseMove(text)
	if err == nil {
		err = g.state.Play(m)
	}
	if err != nil {
		return err
	}
	g.noteMove(text)
	return nil
}

// noteMove adds the move just played to the move list, with what it
// captured in games that capture.
func (g *liveGame) noteMove(text string) {
	g.moves = append(g.moves, text)
	if c, ok := g.state.(game.Capturer); ok {
		g.captured = append(g.captured, c.LastCaptured())
	}
}

// after returns a copy of the position with text played on it.
func (g *liveGame) after(text string) (game.State, string, error) {
	next := g.copyOfState()
	m, err := next.ParseMove(text)
	if err == nil {
		err = next.Play(m)
	}
	if err != nil {
		g.spare = next // nothing else has it
		return nil, "", err
	}
	return next, next.FormatMove(m), nil
}

// copyOfState copies the position into the spare one when there is one.
// A new copy for every move was a third of the bytes the site allocated
// in games played flat out (a Havannah position is 2.6 kB), and so of its
// garbage collection.
func (g *liveGame) copyOfState() game.State {
	if c, ok := g.spare.(game.Copier); ok {
		next := g.spare
		g.spare = nil
		c.CopyFrom(g.state)
		return next
	}
	return g.state.Clone()
}

// seatOf returns the seat whose secret this is, or "".
func (g *liveGame) seatOf(secret string) string {
	switch {
	case matches(secret, g.rec.WhiteHash):
		return "white"
	case matches(secret, g.rec.BlackHash):
		return "black"
	}
	return ""
}

// viewer is the seat c's holder reads the game as, "" for a watcher. A
// secret given that is no seat's is a mistake to report; a cookie that is
// no seat's (a seat's old one, say) only means watching, as the browser
// sent it by itself. Reading the state and the live connection both ask
// this, so that one request is never a player on one and refused on the
// other.
func (g *liveGame) viewer(c credential) (string, error) {
	if seat := g.seatOf(c.secret); seat != "" || !c.given {
		return seat, nil
	}
	return "", errWrongSecret
}

func (g *liveGame) seat(secret string) (string, error) {
	if secret == "" {
		return "", errNoSecret
	}
	seat := g.seatOf(secret)
	if seat == "" {
		return "", errWrongSecret
	}
	return seat, nil
}

// playing returns the seat of secret's holder, if the game is in play.
func (g *liveGame) playing(secret string) (string, error) {
	seat, err := g.seat(secret)
	if err != nil {
		return "", err
	}
	switch g.rec.Status {
	case "over":
		return "", errOver
	case "waiting":
		return "", errWaiting
	}
	return seat, nil
}

func otherSeat(seat string) string {
	if seat == "white" {
		return "black"
	}
	return "white"
}
