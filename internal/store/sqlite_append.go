package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// Appends, the moves of every game, are most of what the store writes.
// They are written in batches: every append waiting when a transaction
// starts goes into it, and one sync to disk serves them all. Each append
// is still checked on its own, and its caller is answered only once the
// transaction that holds it is committed.
//
// The batches are written by the callers themselves, one at a time: the
// caller that finds no one writing writes what waits, its own append
// first, and then hands the turn to the first caller still waiting, if
// any. A lone move on a quiet store is thus written by its own goroutine
// at once. Handing each append to a writer goroutine instead made it wait
// twice for a processor, once for the writer to run and once to be
// answered, and on a busy machine those waits took several times as long
// as the transaction.

// Append adds events, numbered from the one after the last, and records
// the ending they bring, if any: all of them or none. A taken number, or
// a game already over, is ErrConflict, so exactly one of two racing
// appends lands. It returns once the events are on disk.
func (s *SQLite) Append(ctx context.Context, id string, events []Event, end *Ending) error {
	if len(events) == 0 {
		return fmt.Errorf("game %s: nothing to append", id)
	}
	err := ctx.Err()
	if err == nil {
		// Once queued, the append is carried out whatever happens to
		// ctx: its answer must say whether the events are stored.
		err = s.queueAppend(appendRequest{id: id, events: events, end: end, done: make(chan appendAnswer, 1)})
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
	done   chan appendAnswer // buffered: no one waits to answer
}

// appendAnswer tells a waiting caller either how its append went or that
// it is its turn to write.
type appendAnswer struct {
	err   error
	write bool
}

// appendQueue holds the appends waiting to be written.
type appendQueue struct {
	sync.Mutex
	waiting []appendRequest
	writing bool // a caller is writing, or has been handed the turn
	closed  bool
	pending sync.WaitGroup // queued appends not yet answered
}

// queueAppend queues req and returns its answer, once it is written by
// this caller or another.
func (s *SQLite) queueAppend(req appendRequest) error {
	q := &s.queue
	q.Lock()
	if q.closed {
		q.Unlock()
		return errClosed
	}
	q.waiting = append(q.waiting, req)
	q.pending.Add(1)
	write := !q.writing
	q.writing = true
	q.Unlock()
	if !write {
		if a := <-req.done; !a.write {
			return a.err
		}
	}
	// The turn falls only to the first caller waiting, so req is
	// the first in the queue and goes into the batch written now.
	s.writeWaiting()
	return (<-req.done).err
}

// writeWaiting writes the appends waiting, up to maxBatch of them, in one
// transaction, hands the turn on and answers them.
func (s *SQLite) writeWaiting() {
	// Callers about to append are often ready to run but not yet
	// running: let them come first. Otherwise most transactions held one
	// append at a thousand games played flat out, each paying a whole
	// commit; with them, a few hundred share one. When nothing else is
	// ready to run, this returns at once.
	runtime.Gosched()
	q := &s.queue
	q.Lock()
	n := min(len(q.waiting), maxBatch)
	batch := q.waiting[:n:n]
	q.waiting = q.waiting[n:]
	q.Unlock()

	var errs []error
	defer func() {
		// Should writing panic, the panic goes on up this caller's
		// stack, where the site may recover from it; the store must
		// not be left waiting for a turn that never ends, nor the
		// batch's callers for their answers.
		p := recover()
		if p != nil {
			errs = make([]error, len(batch))
			for i := range errs {
				errs[i] = fmt.Errorf("writing the appends panicked: %v", p)
			}
		}
		q.Lock()
		if len(q.waiting) > 0 {
			q.waiting[0].done <- appendAnswer{write: true}
		} else {
			q.waiting = nil // lets go of what the batches before used
			q.writing = false
		}
		q.Unlock()
		for i, req := range batch {
			req.done <- appendAnswer{err: errs[i]}
			q.pending.Done()
		}
		if p != nil {
			panic(p)
		}
	}()
	errs = s.writeBatch(batch)
}

// closeAppends refuses appends from now on and waits for those queued.
func (s *SQLite) closeAppends() {
	s.queue.Lock()
	s.queue.closed = true
	s.queue.Unlock()
	s.queue.pending.Wait()
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
	appendEnd:    `UPDATE games SET status = 'over', winner = ?, reason = ?, updated_at = ? WHERE id = ?`,
	appendInsert: `INSERT INTO events (game_id, seq, kind, seat, move, at) VALUES (?, ?, ?, ?, ?, ?)`,
}

const (
	appendNext = iota
	appendLast
	appendEnd
	appendInsert
)

type appendStmts [len(appendQueries)]*sql.Stmt

// prepareAppends prepares the statements of an append on the writing
// connection.
func (s *SQLite) prepareAppends() error {
	return prepare(s.write, s.appendStmts[:], appendQueries[:])
}

// ObserveCommits has f told of every transaction of appends once it is
// committed: how many appends it held and how long it took, from its
// beginning to its commit. (An append that took long while its
// transaction did not waited for its turn, not for SQLite or the disk.)
// There is one observer; f is called by the caller writing the batch, and
// must not wait.
func (s *SQLite) ObserveCommits(f func(appends int, took time.Duration)) {
	s.observe.Store(&f)
}

// writeBatch writes appends in one transaction and returns their answers.
func (s *SQLite) writeBatch(batch []appendRequest) []error {
	start := time.Now()
	if len(batch) == 1 {
		if done, err := s.appendAlone(batch[0]); done {
			if err == nil {
				s.written.Add(1)
				s.observed(1, start)
			}
			return []error{err}
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
	switch {
	case failed && len(batch) > 1:
		// An append failed for another reason than a refusal, and took
		// the whole transaction with it. Each append goes again in a
		// transaction of its own, so that only the one to blame fails.
		// (When the transaction itself cannot begin or commit, every
		// append in it gets that answer: alone, each would fare the
		// same, one after the other.)
		for i := range batch {
			results[i] = s.writeBatch(batch[i : i+1])[0]
		}
	case err != nil:
		for i := range results {
			results[i] = err
		}
	default:
		s.written.Add(int64(len(batch) - 1)) // tx counted the commit
		s.observed(len(batch), start)
	}
	return results
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
	// result be. Events before the friend joins (a name) leave the game
	// waiting: only the join starts it.
	switch {
	case status == "over":
		if req.end != nil || !AfterEnd(req.events) {
			return ErrConflict
		}
	case req.end != nil:
		_, err = stmts[appendEnd].Exec(req.end.Winner, req.end.Reason, last.At.UnixMilli(), req.id)
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
