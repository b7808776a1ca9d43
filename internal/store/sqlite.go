package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite" // the pure-Go driver: nothing to install
)

// SQLite is the default store: one file, in WAL mode. By default every
// commit is synced to disk before it is acknowledged (see Sync).
type SQLite struct {
	// SQLite takes one writer at a time. Writes share one connection, so
	// they queue in Go instead of sleeping in SQLite's busy handler; reads
	// have a pool of their own and run beside them.
	write *sql.DB
	read  *sql.DB

	queue       appendQueue
	appendStmts appendStmts                                           // prepared on write
	setupStmts  setupStmts                                            // prepared on write
	observe     atomic.Pointer[func(appends int, took time.Duration)] // see ObserveCommits
	// subscriptions are asked after every move, for the player whose
	// turn it is: prepared once, on read, one for each of
	// subscriptionBatches.
	subscriptions [len(subscriptionBatches)]*sql.Stmt
	// checkpoint copies the log into the database file, on a connection
	// of its own, so that the writer never waits for it (see
	// checkpoints).
	checkpoint *sql.DB
	written    atomic.Int64   // commits and appends so far, for checkpoints
	log        *os.File       // the log, to sync it between copies; nil with SyncDisk
	logSyncs   atomic.Int64   // how often it was synced
	closing    chan struct{}  // closed by Close
	stopped    sync.WaitGroup // the checkpoints
	once       sync.Once
}

// Sync says when a commit counts as stored.
type Sync int

const (
	// SyncDisk syncs the log to disk at every commit: nothing
	// acknowledged is lost, even to a power cut. Each move waits for the
	// disk, and a disk that stalls stalls every game.
	SyncDisk Sync = iota
	// SyncOS hands every commit to the operating system, which keeps it
	// when the server dies or is killed; the log reaches the disk at the
	// next checkpoint, within about a second, so a power cut or a crash
	// of the machine can lose the last second of moves (never the
	// database's consistency).
	SyncOS
)

// ParseSync reads a Sync by its name, "disk" or "os".
func ParseSync(name string) (Sync, error) {
	switch name {
	case "disk":
		return SyncDisk, nil
	case "os":
		return SyncOS, nil
	}
	return 0, fmt.Errorf("sync %q: want disk or os", name)
}

// The log is copied into the database file, at most every
// checkpointEvery, once checkpointAfter commits and appends have gathered
// in it since the last copy. A copy of the whole log lets the next commit
// start the log anew, and SQLite then syncs the log's header to disk,
// whatever the sync mode: copying every second, a quiet site made one move
// in ten wait for the disk. Between copies, reads find the newer pages in
// the log, and with SyncOS the log itself is synced every checkpointEvery
// instead, as a copy would have, so that a power cut still loses at most
// the last second.
const (
	checkpointEvery = time.Second
	checkpointAfter = 1000
)

// migrations run in order, each in its own transaction; the schema's
// version is the number of migrations applied.
var migrations = []string{
	`CREATE TABLE games (
		id          TEXT PRIMARY KEY,
		game        TEXT NOT NULL,
		options     TEXT NOT NULL,
		white_hash  BLOB,
		black_hash  BLOB,
		invite_hash BLOB NOT NULL,
		creator     TEXT NOT NULL,
		created_at  INTEGER NOT NULL,
		updated_at  INTEGER NOT NULL,
		status      TEXT NOT NULL,
		winner      TEXT NOT NULL DEFAULT '',
		reason      TEXT NOT NULL DEFAULT '',
		next_id     TEXT NOT NULL DEFAULT '',
		version     INTEGER NOT NULL DEFAULT 0
	);
	CREATE TABLE events (
		game_id TEXT NOT NULL REFERENCES games(id),
		seq     INTEGER NOT NULL,
		kind    TEXT NOT NULL,
		seat    TEXT NOT NULL,
		move    TEXT NOT NULL,
		at      INTEGER NOT NULL,
		PRIMARY KEY (game_id, seq)
	) WITHOUT ROWID;`,
	`ALTER TABLE games ADD COLUMN computer TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN level INTEGER NOT NULL DEFAULT 0;
	CREATE INDEX games_computer_playing ON games (status) WHERE computer != '';`,
	`ALTER TABLE games ADD COLUMN clock_initial_ms INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE games ADD COLUMN clock_increment_ms INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE games ADD COLUMN clock_days INTEGER NOT NULL DEFAULT 0;
	CREATE INDEX games_timed_playing ON games (status) WHERE clock_initial_ms != 0 OR clock_days != 0;`,
	`CREATE TABLE chat (
		game_id TEXT NOT NULL REFERENCES games(id),
		seq     INTEGER NOT NULL,
		seat    TEXT NOT NULL,
		text    TEXT NOT NULL,
		at      INTEGER NOT NULL,
		PRIMARY KEY (game_id, seq)
	) WITHOUT ROWID;`,
	`CREATE TABLE settings (
		name  TEXT PRIMARY KEY,
		value TEXT NOT NULL
	);
	CREATE TABLE push_subscriptions (
		game_id  TEXT NOT NULL REFERENCES games(id),
		seat     TEXT NOT NULL,
		endpoint TEXT NOT NULL,
		p256dh   TEXT NOT NULL,
		auth     TEXT NOT NULL,
		lang     TEXT NOT NULL,
		PRIMARY KEY (game_id, seat, endpoint)
	) WITHOUT ROWID;`,
	`CREATE TABLE holdings (
		browser BLOB NOT NULL,
		game_id TEXT NOT NULL REFERENCES games(id),
		sealed  BLOB NOT NULL,
		at      INTEGER NOT NULL,
		PRIMARY KEY (browser, game_id)
	) WITHOUT ROWID;
	CREATE INDEX holdings_recent ON holdings (browser, at);`,
	`ALTER TABLE games ADD COLUMN join_key BLOB;
	ALTER TABLE games ADD COLUMN join_sealed BLOB;`,
	// A game's version is its last event's number, and its last change
	// the later of its row's and its last event's: a move writes only
	// its event (see appendQueries).
	`ALTER TABLE games DROP COLUMN version;`,
	`ALTER TABLE games ADD COLUMN given INTEGER NOT NULL DEFAULT 0;`,
	// A seat's subscriptions are numbered, newest last: it keeps its
	// newest few (see Subscribe).
	`ALTER TABLE push_subscriptions ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;`,
	// The times the site was down, which the clocks leave out (see
	// SeenUp); when it was last seen up is the setting seen_up.
	`CREATE TABLE outages (
		began INTEGER NOT NULL,
		ended INTEGER NOT NULL
	);`,
	// The grace after an outage, charged to nobody either (see SeenUp).
	`ALTER TABLE outages ADD COLUMN grace_ms INTEGER NOT NULL DEFAULT 0;`,
}

// lastChange is when game g last changed: its row's updated_at (created,
// joined, ended) or its last event's time, whichever is later.
const lastChange = `MAX(g.updated_at, ` + lastEventAt + `)`

// pageSize is the page size of a new database (an existing one keeps
// its own). Each commit writes every page it changed to the log, and a
// move changes one page of its game's events: small pages make that a
// kilobyte instead of four, and with it the syncs and checkpoints that
// keep moves waiting.
const pageSize = "page_size(1024)"

// OpenSQLite opens (creating if needed) the database file at path and
// brings its schema up to date; every commit is synced to disk.
func OpenSQLite(path string) (*SQLite, error) {
	return OpenSQLiteSync(path, SyncDisk)
}

// OpenSQLiteSync is OpenSQLite with commits stored as mode says.
func OpenSQLiteSync(path string, mode Sync) (*SQLite, error) {
	synchronous := "synchronous(FULL)"
	if mode == SyncOS {
		synchronous = "synchronous(NORMAL)"
	}
	open := func(conns int, txlock string, pragmas ...string) (*sql.DB, error) {
		q := url.Values{}
		// No connection checkpoints when it commits: checkpoints does,
		// apart.
		for _, p := range append([]string{pageSize, "busy_timeout(10000)", synchronous, "foreign_keys(1)", "wal_autocheckpoint(0)"}, pragmas...) {
			q.Add("_pragma", p)
		}
		// The driver sets the journal mode after the pragmas: once set, it
		// would fix the page size of a new database.
		q.Set("_journal_mode", "WAL")
		q.Set("_txlock", txlock)
		db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
		if err != nil {
			return nil, fmt.Errorf("opening %s: %w", path, err)
		}
		db.SetMaxOpenConns(conns)
		// database/sql keeps two idle connections unless told: a third
		// reader would open a connection, set it up and prepare its
		// statements anew every time, only to close it again.
		db.SetMaxIdleConns(conns)
		return db, nil
	}
	// Every move reads its game's row and writes a page of its events:
	// the writer keeps more pages in memory than SQLite's default 2 MB,
	// which a thousand games in play outgrow.
	write, err := open(1, "immediate", "cache_size(-16384)")
	if err != nil {
		return nil, err
	}
	if err := firstConnection(write); err != nil {
		write.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	s := &SQLite{write: write}
	// fail closes what was opened so far.
	fail := func(err error) (*SQLite, error) {
		s.release()
		return nil, err
	}
	if err := s.migrate(context.Background()); err != nil {
		return fail(fmt.Errorf("preparing %s: %w", path, err))
	}
	if s.read, err = open(4, "deferred", "query_only(1)"); err != nil {
		return fail(err)
	}
	if err := s.prepareSubscriptions(); err != nil {
		return fail(fmt.Errorf("preparing %s: %w", path, err))
	}
	if err := s.prepareAppends(); err != nil {
		return fail(fmt.Errorf("preparing %s: %w", path, err))
	}
	if err := prepare(s.write, s.setupStmts[:], setupQueries[:]); err != nil {
		return fail(fmt.Errorf("preparing %s: %w", path, err))
	}
	if mode == SyncOS {
		// The log exists while a connection is open: the writer's is.
		if s.log, err = os.Open(path + "-wal"); err != nil {
			return fail(fmt.Errorf("opening the log of %s: %w", path, err))
		}
	}
	if s.checkpoint, err = open(1, "deferred"); err != nil {
		return fail(err)
	}
	s.closing = make(chan struct{})
	s.stopped.Add(1)
	go s.checkpoints()
	return s, nil
}

// checkpoints copies the log into the database file as often as
// checkpointEvery and checkpointAfter say, until the store closes. Left to
// the writing connection, a checkpoint (and its syncs of the database
// file) would hold up every commit behind it; here the writer goes on
// appending to the log meanwhile. A passive checkpoint never waits for
// readers or the writer: what it cannot copy now, the next one does.
func (s *SQLite) checkpoints() {
	defer s.stopped.Done()
	tick := time.NewTicker(checkpointEvery)
	defer tick.Stop()
	var copied, synced int64 // s.written at the last checkpoint, and sync of the log
	for {
		select {
		case <-tick.C:
			// A failure is tried again at the next tick; the log
			// keeps everything meanwhile.
			switch n := s.written.Load(); {
			case n-copied >= checkpointAfter:
				if _, err := s.checkpoint.Exec(`PRAGMA wal_checkpoint(PASSIVE)`); err == nil {
					copied, synced = n, n
				}
			case n != synced && s.log != nil:
				if s.log.Sync() == nil {
					synced = n
					s.logSyncs.Add(1)
				}
			}
		case <-s.closing:
			return
		}
	}
}

// firstConnection opens db's first connection. Turning a new file to WAL
// takes it for a moment, and SQLite then answers other connections
// "busy" at once, without waiting: instances started together on a new
// file try again until it is their turn.
func firstConnection(db *sql.DB) error {
	for tries := 0; ; tries++ {
		err := db.Ping()
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqliteBusy || tries == 200 {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sqliteBusy is SQLite's primary result code SQLITE_BUSY.
const sqliteBusy = 5

func (s *SQLite) migrate(ctx context.Context) error {
	// Each step reads the version in the transaction that changes it:
	// instances started at once on a new file take turns, and each
	// migration runs once.
	for {
		done := false
		err := s.tx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
				return err
			}
			var version int
			err := tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&version)
			if errors.Is(err, sql.ErrNoRows) {
				_, err = tx.ExecContext(ctx, `INSERT INTO schema_version VALUES (0)`)
			}
			if err != nil {
				return err
			}
			if version > len(migrations) {
				return fmt.Errorf("the database has schema version %d, newer than this program's %d", version, len(migrations))
			}
			if version == len(migrations) {
				done = true
				return nil
			}
			if _, err := tx.ExecContext(ctx, migrations[version]); err != nil {
				return fmt.Errorf("migration %d: %w", version+1, err)
			}
			_, err = tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, version+1)
			return err
		})
		if err != nil || done {
			return err
		}
	}
}

// Close waits for the appends under way and closes the database.
func (s *SQLite) Close() error {
	s.once.Do(func() { close(s.closing) })
	s.closeAppends()
	s.stopped.Wait()
	return s.release()
}

// release closes whatever of the store is open: its statements, its
// connections and its log.
func (s *SQLite) release() error {
	errs := []error{closeStmts(s.appendStmts[:]), closeStmts(s.setupStmts[:]), closeStmts(s.subscriptions[:])}
	for _, db := range []*sql.DB{s.read, s.checkpoint, s.write} {
		if db != nil {
			errs = append(errs, db.Close())
		}
	}
	if s.log != nil {
		errs = append(errs, s.log.Close())
	}
	return errors.Join(errs...)
}

// Ping says whether the database can be read.
func (s *SQLite) Ping(ctx context.Context) error {
	select {
	case <-s.closing:
		return errClosed
	default:
	}
	return s.read.PingContext(ctx)
}

func (s *SQLite) tx(ctx context.Context, f func(*sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.written.Add(1)
	return nil
}

// Create stores a new game, with the events it starts from (the moves of
// a game played on from a record), all or nothing.
func (s *SQLite) Create(ctx context.Context, g Game, events ...Event) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.insertGame(ctx, tx, g); err != nil {
			return err
		}
		for i, e := range events {
			if e.Seq != i+1 {
				return fmt.Errorf("event %d has number %d", i+1, e.Seq)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO events (game_id, seq, kind, seat, move, at) VALUES (?, ?, ?, ?, ?, ?)`,
				g.ID, e.Seq, e.Kind, e.Seat, e.Move, e.At.UnixMilli()); err != nil {
				return fmt.Errorf("storing event %d: %w", e.Seq, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("game %s: creating: %w", g.ID, err)
	}
	return nil
}

func (s *SQLite) insertGame(ctx context.Context, tx *sql.Tx, g Game) error {
	opts, err := json.Marshal(g.Options)
	if err != nil {
		return err
	}
	_, err = tx.StmtContext(ctx, s.setupStmts[setupGame]).ExecContext(ctx,
		g.ID, g.Game, string(opts), g.WhiteHash, g.BlackHash, g.InviteHash, g.Creator,
		g.Created.UnixMilli(), g.Updated.UnixMilli(), g.Status, g.Computer, g.Level,
		g.Clock.Initial.Milliseconds(), g.Clock.Increment.Milliseconds(), g.Clock.Days, g.Given)
	return err
}

// setupQueries set a game up: store it, seat a player, note the seat in
// the player's browser. They are prepared once, on the writer: a thousand
// games played flat out end and start anew some seventy times a second,
// and preparing the statements each time took a hundredth of the site's
// time.
var setupQueries = [...]string{
	setupGame: `INSERT INTO games
		(id, game, options, white_hash, black_hash, invite_hash, creator, created_at, updated_at, status, computer, level,
		clock_initial_ms, clock_increment_ms, clock_days, given)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	setupWhite: joinQuery("white_hash"),
	setupBlack: joinQuery("black_hash"),
	setupHold: `INSERT INTO holdings (browser, game_id, sealed, at) VALUES (?, ?, ?, ?)
		ON CONFLICT (browser, game_id) DO UPDATE SET sealed = excluded.sealed, at = excluded.at`,
}

const (
	setupGame = iota
	setupWhite
	setupBlack
	setupHold
)

type setupStmts [len(setupQueries)]*sql.Stmt

// joinQuery seats a player whose secret's hash goes in column, unless
// the seat is taken or the game over.
func joinQuery(column string) string {
	return `UPDATE games SET ` + column + ` = ?, updated_at = ?, join_key = ?, join_sealed = ?,
		status = CASE status WHEN 'waiting' THEN 'playing' ELSE status END
		WHERE id = ? AND ` + column + ` IS NULL AND status != 'over'`
}

// Load returns a game and all its events in order, as of one moment.
func (s *SQLite) Load(ctx context.Context, id string) (Game, []Event, error) {
	g, events, err := s.load(ctx, id)
	if err != nil {
		return Game{}, nil, fmt.Errorf("game %s: loading: %w", id, err)
	}
	return g, events, nil
}

func (s *SQLite) load(ctx context.Context, id string) (Game, []Event, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Game{}, nil, err
	}
	defer tx.Rollback()
	var g Game
	var opts string
	var created, updated, initial, increment int64
	err = tx.QueryRowContext(ctx, `SELECT id, game, options, white_hash, black_hash, invite_hash, creator,
		created_at, updated_at, status, winner, reason, next_id, computer, level,
		clock_initial_ms, clock_increment_ms, clock_days, join_key, join_sealed, given FROM games WHERE id = ?`, id).
		Scan(&g.ID, &g.Game, &opts, &g.WhiteHash, &g.BlackHash, &g.InviteHash, &g.Creator,
			&created, &updated, &g.Status, &g.Winner, &g.Reason, &g.Next, &g.Computer, &g.Level,
			&initial, &increment, &g.Clock.Days, &g.JoinKey.Hash, &g.JoinKey.Sealed, &g.Given)
	if errors.Is(err, sql.ErrNoRows) {
		return Game{}, nil, ErrNotFound
	}
	if err != nil {
		return Game{}, nil, err
	}
	g.Created = time.UnixMilli(created)
	g.Clock.Initial, g.Clock.Increment = time.Duration(initial)*time.Millisecond, time.Duration(increment)*time.Millisecond
	if err := json.Unmarshal([]byte(opts), &g.Options); err != nil {
		return Game{}, nil, fmt.Errorf("options: %w", err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT seq, kind, seat, move, at FROM events WHERE game_id = ? ORDER BY seq`, id)
	if err != nil {
		return Game{}, nil, err
	}
	defer rows.Close()
	var events []Event
	for rows.Next() {
		var e Event
		var at int64
		if err := rows.Scan(&e.Seq, &e.Kind, &e.Seat, &e.Move, &at); err != nil {
			return Game{}, nil, err
		}
		if e.Seq != len(events)+1 {
			return Game{}, nil, fmt.Errorf("event %d stored where %d was expected", e.Seq, len(events)+1)
		}
		e.At = time.UnixMilli(at)
		updated = max(updated, at)
		events = append(events, e)
	}
	if err := rows.Err(); err != nil {
		return Game{}, nil, err
	}
	g.Version, g.Updated = len(events), time.UnixMilli(updated)
	return g, events, nil
}

// Join fills the free seat with a secret's hash, and keeps the key the
// friend joined with (none: zero JoinKey). A filled seat, or a game
// already over, is ErrConflict.
func (s *SQLite) Join(ctx context.Context, id, seat string, hash []byte, key JoinKey, at time.Time) error {
	stmt, ok := map[string]*sql.Stmt{"white": s.setupStmts[setupWhite], "black": s.setupStmts[setupBlack]}[seat]
	if !ok {
		return fmt.Errorf("no seat %q", seat)
	}
	res, err := stmt.ExecContext(ctx, hash, at.UnixMilli(), key.Hash, key.Sealed, id)
	if err != nil {
		return fmt.Errorf("game %s: taking the %s seat: %w", id, seat, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		if _, _, err := s.load(ctx, id); err != nil {
			return fmt.Errorf("game %s: taking the %s seat: %w", id, seat, err)
		}
		return fmt.Errorf("game %s: taking the %s seat: %w", id, seat, ErrConflict)
	}
	return nil
}

// Follow stores next as the game that follows id and links them, unless
// id already has a follower: then it is ErrConflict and nothing is stored.
// An unknown id is ErrNotFound.
func (s *SQLite) Follow(ctx context.Context, id string, next Game) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var follower string
		err := tx.QueryRowContext(ctx, `SELECT next_id FROM games WHERE id = ?`, id).Scan(&follower)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return ErrNotFound
		case err != nil:
			return err
		case follower != "":
			return ErrConflict
		}
		if _, err := tx.ExecContext(ctx, `UPDATE games SET next_id = ? WHERE id = ?`, next.ID, id); err != nil {
			return err
		}
		return s.insertGame(ctx, tx, next)
	})
	if err != nil {
		return fmt.Errorf("game %s: linking the next game %s: %w", id, next.ID, err)
	}
	return nil
}

// ComputerGames lists the games in play against the computer, for a server
// that starts to give the computer its moves.
func (s *SQLite) ComputerGames(ctx context.Context) ([]string, error) {
	return s.ids(ctx, "games against the computer",
		`SELECT id FROM games g WHERE status = 'playing' AND computer != '' ORDER BY `+lastChange)
}

// TimedGames lists the games in play with a clock, for a server that
// starts to watch their clocks.
func (s *SQLite) TimedGames(ctx context.Context) ([]string, error) {
	return s.ids(ctx, "games with a clock",
		`SELECT id FROM games g WHERE status = 'playing' AND (clock_initial_ms != 0 OR clock_days != 0) ORDER BY `+lastChange)
}

// ids runs a query of game ids.
func (s *SQLite) ids(ctx context.Context, what, query string) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", what, err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("listing %s: %w", what, err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing %s: %w", what, err)
	}
	return ids, nil
}

// Say stores a chat line of a game, numbered after the last, and returns
// it with its number.
func (s *SQLite) Say(ctx context.Context, id string, line ChatLine) (ChatLine, error) {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM chat WHERE game_id = ?`, id).Scan(&line.Seq); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO chat (game_id, seq, seat, text, at) VALUES (?, ?, ?, ?, ?)`,
			id, line.Seq, line.Seat, line.Text, line.At.UnixMilli())
		return err
	})
	if err != nil {
		return ChatLine{}, fmt.Errorf("game %s: storing a chat line: %w", id, err)
	}
	return line, nil
}

// Chat returns a game's chat lines in order.
func (s *SQLite) Chat(ctx context.Context, id string) ([]ChatLine, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT seq, seat, text, at FROM chat WHERE game_id = ? ORDER BY seq`, id)
	if err != nil {
		return nil, fmt.Errorf("game %s: reading the chat: %w", id, err)
	}
	defer rows.Close()
	var lines []ChatLine
	for rows.Next() {
		var l ChatLine
		var at int64
		if err := rows.Scan(&l.Seq, &l.Seat, &l.Text, &at); err != nil {
			return nil, fmt.Errorf("game %s: reading the chat: %w", id, err)
		}
		l.At = time.UnixMilli(at)
		lines = append(lines, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("game %s: reading the chat: %w", id, err)
	}
	return lines, nil
}

// Setting returns the value of a setting of the site, keeping value as it
// when it has none yet: whoever stores one first, every later caller (and
// every other instance) gets the same.
func (s *SQLite) Setting(ctx context.Context, name, value string) (string, error) {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, name, value); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE name = ?`, name).Scan(&value)
	})
	if err != nil {
		return "", fmt.Errorf("setting %s: %w", name, err)
	}
	return value, nil
}

// Subscribe keeps a browser's push subscription for a seat of a game.
func (s *SQLite) Subscribe(ctx context.Context, sub Subscription) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, subscribeQuery, sub.Game, sub.Seat, sub.Endpoint, sub.P256DH, sub.Auth, sub.Lang); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, subscriptionsCapQuery, sub.Game, sub.Seat, SubscriptionsPerSeat)
		return err
	})
	if err != nil {
		return fmt.Errorf("game %s: keeping a push subscription: %w", sub.Game, err)
	}
	return nil
}

// Unsubscribe forgets a push subscription of a game's seat; seat "" forgets
// it for every seat (the push service said it is gone).
func (s *SQLite) Unsubscribe(ctx context.Context, gameID, seat, endpoint string) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM push_subscriptions WHERE game_id = ? AND (seat = ? OR ? = '') AND endpoint = ?`,
			gameID, seat, seat, endpoint)
		return err
	})
	if err != nil {
		return fmt.Errorf("game %s: forgetting a push subscription: %w", gameID, err)
	}
	return nil
}

// subscriptionBatches are how many seats the prepared lookups of
// subscriptions take at once. A lookup of fewer seats takes the next
// larger, with the last seat named again: parsing a query for every
// number of seats cost more than running it.
var subscriptionBatches = [...]int{1, 8, 64}

func (s *SQLite) prepareSubscriptions() error {
	queries := make([]string, len(subscriptionBatches))
	for i, n := range subscriptionBatches {
		queries[i] = `SELECT game_id, seat, endpoint, p256dh, auth, lang FROM push_subscriptions
			WHERE (game_id, seat) IN (VALUES ` + strings.Repeat("(?, ?), ", n-1) + `(?, ?))`
	}
	return prepare(s.read, s.subscriptions[:], queries)
}

// prepare prepares queries on db into stmts, one for one. After an error
// it closes what it prepared.
func prepare(db *sql.DB, stmts []*sql.Stmt, queries []string) error {
	for i, q := range queries {
		st, err := db.Prepare(q)
		if err != nil {
			closeStmts(stmts)
			return err
		}
		stmts[i] = st
	}
	return nil
}

// closeStmts closes the statements of stmts that were prepared.
func closeStmts(stmts []*sql.Stmt) error {
	var errs []error
	for _, st := range stmts {
		if st != nil {
			errs = append(errs, st.Close())
		}
	}
	return errors.Join(errs...)
}

// SubscriptionsOf lists the push subscriptions of several seats at once,
// in no particular order: one query for the notices that gathered while
// the last were sent, instead of one each.
func (s *SQLite) SubscriptionsOf(ctx context.Context, seats []SeatOf) ([]Subscription, error) {
	// A seat named in two lookups would be found twice.
	seats = slices.Clone(seats)
	slices.SortFunc(seats, func(a, b SeatOf) int {
		return cmp.Or(strings.Compare(a.Game, b.Game), strings.Compare(a.Seat, b.Seat))
	})
	seats = slices.Compact(seats)
	var out []Subscription
	for len(seats) > 0 {
		i := 0
		for subscriptionBatches[i] < len(seats) && i < len(subscriptionBatches)-1 {
			i++
		}
		n := subscriptionBatches[i]
		args := make([]any, 0, 2*n)
		for j := range n {
			seat := seats[min(j, len(seats)-1)]
			args = append(args, seat.Game, seat.Seat)
		}
		seats = seats[min(n, len(seats)):]
		var err error
		if out, err = s.subscriptionsOf(ctx, s.subscriptions[i], args, out); err != nil {
			return nil, fmt.Errorf("reading push subscriptions: %w", err)
		}
	}
	return out, nil
}

// SubscribedSeats lists every seat that has a push subscription, once.
func (s *SQLite) SubscribedSeats(ctx context.Context) ([]SeatOf, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT DISTINCT game_id, seat FROM push_subscriptions`)
	if err != nil {
		return nil, fmt.Errorf("listing subscribed seats: %w", err)
	}
	defer rows.Close()
	var out []SeatOf
	for rows.Next() {
		var seat SeatOf
		if err := rows.Scan(&seat.Game, &seat.Seat); err != nil {
			return nil, fmt.Errorf("listing subscribed seats: %w", err)
		}
		out = append(out, seat)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing subscribed seats: %w", err)
	}
	return out, nil
}

// subscriptionsOf appends to out what a prepared lookup finds.
func (s *SQLite) subscriptionsOf(ctx context.Context, lookup *sql.Stmt, args []any, out []Subscription) ([]Subscription, error) {
	rows, err := lookup.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var sub Subscription
		if err := rows.Scan(&sub.Game, &sub.Seat, &sub.Endpoint, &sub.P256DH, &sub.Auth, &sub.Lang); err != nil {
			return nil, err
		}
		out = append(out, sub)
	}
	return out, rows.Err()
}

// Hold keeps a seat against a browser, replacing the seat it held in that
// game before.
func (s *SQLite) Hold(ctx context.Context, browser []byte, h Holding) error {
	// One statement, which SQLite commits by itself: a transaction of
	// our own would add two more.
	_, err := s.setupStmts[setupHold].ExecContext(ctx, browser, h.Game, h.Sealed, h.At.UnixMilli())
	if err != nil {
		return fmt.Errorf("game %s: keeping a browser's seat: %w", h.Game, err)
	}
	s.written.Add(1)
	return nil
}

// Holding is the seat a browser holds in a game; ErrNotFound when none.
func (s *SQLite) Holding(ctx context.Context, browser []byte, gameID string) (Holding, error) {
	h := Holding{Game: gameID}
	var at int64
	err := s.read.QueryRowContext(ctx, `SELECT sealed, at FROM holdings WHERE browser = ? AND game_id = ?`, browser, gameID).Scan(&h.Sealed, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Holding{}, ErrNotFound
	}
	if err != nil {
		return Holding{}, fmt.Errorf("game %s: reading a browser's seat: %w", gameID, err)
	}
	h.At = time.UnixMilli(at)
	return h, nil
}

// Holdings lists the seats a browser holds with their games' status, the
// most recently taken first, at most limit of them.
func (s *SQLite) Holdings(ctx context.Context, browser []byte, limit int) ([]Holding, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT h.game_id, h.sealed, h.at, g.status, `+lastChange+`
		FROM holdings h JOIN games g ON g.id = h.game_id WHERE h.browser = ? ORDER BY h.at DESC LIMIT ?`, browser, limit)
	if err != nil {
		return nil, fmt.Errorf("listing a browser's seats: %w", err)
	}
	defer rows.Close()
	var out []Holding
	for rows.Next() {
		var h Holding
		var at, updated int64
		if err := rows.Scan(&h.Game, &h.Sealed, &at, &h.Status, &updated); err != nil {
			return nil, fmt.Errorf("listing a browser's seats: %w", err)
		}
		h.At, h.Updated = time.UnixMilli(at), time.UnixMilli(updated)
		out = append(out, h)
	}
	return out, rows.Err()
}
