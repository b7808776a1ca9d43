package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
// them anew for every move cost more than running them. The updates of
// the game check its version and status in their WHERE, so an append
// that lands takes one update and its inserts.
var appendQueries = [...]string{
	appendGoOn: `UPDATE games SET version = ?, status = 'playing', updated_at = ?
		WHERE id = ? AND version = ? AND status != 'over'`,
	appendEnd: `UPDATE games SET version = ?, status = 'over', winner = ?, reason = ?, updated_at = ?
		WHERE id = ? AND version = ? AND status != 'over'`,
	// What follows the end leaves the result be.
	appendAfterEnd: `UPDATE games SET version = ?, updated_at = ?
		WHERE id = ? AND version = ? AND status = 'over'`,
	appendGame:   `SELECT 1 FROM games WHERE id = ?`,
	appendInsert: `INSERT INTO events (game_id, seq, kind, seat, move, at) VALUES (?, ?, ?, ?, ?, ?)`,
}

const (
	appendGoOn = iota
	appendEnd
	appendAfterEnd
	appendGame
	appendInsert
)

type appendStmts [len(appendQueries)]*sql.Stmt

// prepareAppends prepares the statements of an append on the writing
// connection.
func (s *SQLite) prepareAppends() error {
	for i, q := range appendQueries {
		st, err := s.write.Prepare(q)
		if err != nil {
			s.closeAppends()
			return err
		}
		s.appendStmts[i] = st
	}
	return nil
}

func (s *SQLite) closeAppends() error {
	var errs []error
	for _, st := range s.appendStmts {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(errs...)
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

// writeBatch writes appends in one transaction and answers each.
func (s *SQLite) writeBatch(batch []appendRequest) {
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
	for i, req := range batch {
		if err != nil {
			req.done <- err
		} else {
			req.done <- results[i]
		}
	}
}

// refused reports whether err is an append's refusal rather than a
// failure of the database.
func refused(err error) bool {
	return errors.Is(err, ErrConflict) || errors.Is(err, ErrNotFound)
}

// appendOne carries out one append in a batch's transaction, whose
// statements are stmts. It decides whether to refuse before it writes
// anything.
func appendOne(stmts *appendStmts, req appendRequest) error {
	first, last := req.events[0], req.events[len(req.events)-1]
	for i, e := range req.events[1:] {
		if e.Seq != req.events[i].Seq+1 {
			return fmt.Errorf("%w: event %d cannot follow %d", ErrConflict, e.Seq, req.events[i].Seq)
		}
	}
	var res sql.Result
	var err error
	if req.end == nil {
		res, err = stmts[appendGoOn].Exec(last.Seq, last.At.UnixMilli(), req.id, first.Seq-1)
	} else {
		res, err = stmts[appendEnd].Exec(last.Seq, req.end.Winner, req.end.Reason, last.At.UnixMilli(), req.id, first.Seq-1)
	}
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		// The number is taken, the game is over or there is no such game;
		// only what AfterEnd allows may follow the end.
		if req.end == nil && AfterEnd(req.events) {
			res, err = stmts[appendAfterEnd].Exec(last.Seq, last.At.UnixMilli(), req.id, first.Seq-1)
			if err != nil {
				return err
			}
			if n, err = res.RowsAffected(); err != nil {
				return err
			}
		}
		if n == 0 {
			var one int
			if err := stmts[appendGame].QueryRow(req.id).Scan(&one); errors.Is(err, sql.ErrNoRows) {
				return ErrNotFound
			} else if err != nil {
				return err
			}
			return ErrConflict
		}
	}
	for _, e := range req.events {
		if _, err := stmts[appendInsert].Exec(req.id, e.Seq, e.Kind, e.Seat, e.Move, e.At.UnixMilli()); err != nil {
			return err
		}
	}
	return nil
}
