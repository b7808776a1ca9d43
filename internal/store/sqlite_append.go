package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"time"
)

// Appends, the moves of every game, are most of what the store writes.
// They are written by one goroutine in batches: every append waiting when
// a transaction starts goes into it, and one sync to disk serves them all.
// Each append is still checked on its own, and its caller is answered only
// once the transaction that holds it is committed.

// Append adds events, numbered from the one after the last, and records
// the ending they bring, if any: all of them or none. A taken number, or
// a game already over, is ErrConflict, so exactly one of two racing
// appends lands. It returns once the events are on disk.
func (s *SQLite) Append(ctx context.Context, id string, events []Event, end *Ending) error {
	if len(events) == 0 {
		return fmt.Errorf("game %s: nothing to append", id)
	}
	req := appendRequest{id: id, events: events, end: end, done: make(chan error, 1)}
	var err error
	select {
	case s.appends <- req:
		// Once queued, the request is carried out whatever happens to
		// ctx: its answer must say whether the events are stored.
		err = <-req.done
	case <-ctx.Done():
		err = ctx.Err()
	case <-s.closing:
		err = errClosed
	}
	if err != nil {
		return fmt.Errorf("game %s: appending event %d: %w", id, events[0].Seq, err)
	}
	return nil
}

var errClosed = errors.New("the store is closed")

type appendRequest struct {
	id     string
	events []Event
	end    *Ending
	done   chan error // buffered: the writer never waits for a caller
}

// maxBatch bounds how many appends share one transaction. A batch of a
// thousand takes a few milliseconds to write, about as long as its sync.
const maxBatch = 1024

// appendQueries are the statements of an append, prepared once: parsing
// them anew for every move cost more than running them.
//
// A move writes only its event: the game's row changes when the game
// starts or ends, not with every move. Each page a commit changes is
// written to the log, and later again to the database file; rewriting the
// game's row doubled that for every move, and with it the time each
// commit and checkpoint waits for the disk. The game's version is its
// last event's number, found by the events' key.
var appendQueries = [...]string{
	// Most appends are a move in a game in play: one statement stores
	// it if it follows the last event, and otherwise stores nothing, and
	// appendLast finds out why.
	appendNext: `INSERT INTO events (game_id, seq, kind, seat, move, at)
		SELECT ?1, ?2, ?3, ?4, ?5, ?6 FROM games
		WHERE id = ?1 AND status = 'playing' AND ` + lastSeq + ` = ?2 - 1`,
	appendLast:   `SELECT status, ` + lastSeq + ` FROM games WHERE id = ?`,
	appendStart:  `UPDATE games SET status = 'playing', updated_at = ? WHERE id = ?`,
	appendEnd:    `UPDATE games SET status = 'over', winner = ?, reason = ?, updated_at = ? WHERE id = ?`,
	appendInsert: `INSERT INTO events (game_id, seq, kind, seat, move, at) VALUES (?, ?, ?, ?, ?, ?)`,
}

const (
	appendNext = iota
	appendLast
	appendStart
	appendEnd
	appendInsert
)

type appendStmts [len(appendQueries)]*sql.Stmt

// prepareAppends prepares the statements of an append on the writing
// connection.
func (s *SQLite) prepareAppends() error {
	return prepare(s.write, s.appendStmts[:], appendQueries[:])
}

// commitAppends writes the appends that come in until the store closes.
func (s *SQLite) commitAppends() {
	defer s.stopped.Done()
	for {
		var batch []appendRequest
		select {
		case req := <-s.appends:
			batch = append(batch, req)
		case <-s.closing:
			return
		}
		// Callers about to append are often ready to run but not yet
		// running: let them come first. Otherwise most transactions
		// held one append at a thousand games played flat out, each
		// paying a whole commit; with them, a few hundred share one.
		// When nothing else is ready to run, this returns at once.
		runtime.Gosched()
	more:
		for len(batch) < maxBatch {
			select {
			case req := <-s.appends:
				batch = append(batch, req)
			default:
				break more
			}
		}
		s.writeBatch(batch)
	}
}

// ObserveCommits has f told of every transaction of appends once it is
// committed: how many appends it held and how long it took, from its
// beginning to its commit. (An append that took long while its
// transaction did not waited for the writer, not for SQLite or the disk.)
// There is one observer; f is called by the writer and must not wait.
func (s *SQLite) ObserveCommits(f func(appends int, took time.Duration)) {
	s.observe.Store(&f)
}

// writeBatch writes appends in one transaction and answers each.
func (s *SQLite) writeBatch(batch []appendRequest) {
	start := time.Now()
	if len(batch) == 1 {
		if done, err := s.appendAlone(batch[0]); done {
			if err == nil {
				s.written.Add(1)
				s.observed(1, start)
			}
			batch[0].done <- err
			return
		}
	}
	results := make([]error, len(batch))
	failed := false // an append failed, not the transaction around them
	err := s.tx(context.Background(), func(tx *sql.Tx) error {
		var stmts appendStmts
		for i, st := range s.appendStmts {
			stmts[i] = tx.Stmt(st)
		}
		for i, req := range batch {
			// A refused append has written nothing, so the others
			// go on.
			if results[i] = appendOne(&stmts, req); results[i] != nil && !refused(results[i]) {
				failed = true
				return results[i]
			}
		}
		return nil
	})
	if failed && len(batch) > 1 {
		// An append failed for another reason than a refusal, and took
		// the whole transaction with it. Each append goes again in a
		// transaction of its own, so that only the one to blame fails.
		// (When the transaction itself cannot begin or commit, every
		// append in it gets that answer: alone, each would fare the
		// same, one after the other.)
		for _, req := range batch {
			s.writeBatch([]appendRequest{req})
		}
		return
	}
	if err == nil {
		s.written.Add(int64(len(batch) - 1)) // tx counted the commit
		s.observed(len(batch), start)
	}
	for i, req := range batch {
		if err != nil {
			req.done <- err
		} else {
			req.done <- results[i]
		}
	}
}

// observed tells the observer of commits, if there is one, of a
// transaction of appends begun at start and now committed.
func (s *SQLite) observed(appends int, start time.Time) {
	if f := s.observe.Load(); f != nil {
		(*f)(appends, time.Since(start))
	}
}

// appendAlone stores a lone move of a game in play, the most common
// append, as one statement that SQLite commits by itself, and reports
// whether it was done. Beginning and committing a transaction of our own,
// two statements the driver prepares anew each time, cost twice as much
// as the move's statement after a quiet spell, when SQLite's code is no
// longer in the processor's caches. An append that is not a lone move, or
// that the statement does not store (the game is waiting or over, or the
// number is taken), is not done: nothing was written, and it goes in a
// transaction.
func (s *SQLite) appendAlone(req appendRequest) (bool, error) {
	if req.end != nil || len(req.events) != 1 {
		return false, nil
	}
	stored, err := storeNext(s.appendStmts[appendNext], req)
	return stored || err != nil, err
}

// storeNext stores req's first event with next, the statement appendNext,
// if it follows the last event of a game in play, and reports whether it
// did.
func storeNext(next *sql.Stmt, req appendRequest) (bool, error) {
	e := req.events[0]
	res, err := next.Exec(req.id, e.Seq, e.Kind, e.Seat, e.Move, e.At.UnixMilli())
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// refused reports whether err is an append's refusal rather than a
// failure of the database.
func refused(err error) bool {
	return errors.Is(err, ErrConflict) || errors.Is(err, ErrNotFound)
}

// appendOne carries out one append in a batch's transaction, whose
// statements are stmts. It decides whether to refuse before it writes
// anything. Appends are written by one connection, one after the other,
// so what it reads cannot change before it writes.
func appendOne(stmts *appendStmts, req appendRequest) error {
	first, last := req.events[0], req.events[len(req.events)-1]
	for i, e := range req.events[1:] {
		if e.Seq != req.events[i].Seq+1 {
			return fmt.Errorf("%w: event %d cannot follow %d", ErrConflict, e.Seq, req.events[i].Seq)
		}
	}
	if req.end == nil {
		if stored, err := storeNext(stmts[appendNext], req); err != nil {
			return err
		} else if stored {
			return storeEvents(stmts, req.id, req.events[1:])
		}
	}
	var status string
	var version int
	err := stmts[appendLast].QueryRow(req.id).Scan(&status, &version)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return ErrNotFound
	case err != nil:
		return err
	case first.Seq != version+1:
		return ErrConflict
	}
	// Only what AfterEnd allows may follow the end, and it leaves the
	// result be.
	switch {
	case status == "over":
		if req.end != nil || !AfterEnd(req.events) {
			return ErrConflict
		}
	case req.end != nil:
		_, err = stmts[appendEnd].Exec(req.end.Winner, req.end.Reason, last.At.UnixMilli(), req.id)
	case status != "playing":
		_, err = stmts[appendStart].Exec(last.At.UnixMilli(), req.id)
	}
	if err != nil {
		return err
	}
	return storeEvents(stmts, req.id, req.events)
}

func storeEvents(stmts *appendStmts, id string, events []Event) error {
	for _, e := range events {
		if _, err := stmts[appendInsert].Exec(id, e.Seq, e.Kind, e.Seat, e.Move, e.At.UnixMilli()); err != nil {
			return err
		}
	}
	return nil
}
