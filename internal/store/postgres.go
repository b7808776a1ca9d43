package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Postgres is the store for several instances of the site on one
// database. It keeps the same data as SQLite, in the same shape: times
// are milliseconds since 1970, options JSON text.
type Postgres struct {
	pool *pgxpool.Pool
}

// postgresMigrations are SQLite's migrations in PostgreSQL's dialect, one
// for one: the n-th of each brings its schema to version n.
var postgresMigrations = []string{
	`CREATE TABLE games (
		id          TEXT PRIMARY KEY,
		game        TEXT NOT NULL,
		options     TEXT NOT NULL,
		white_hash  BYTEA,
		black_hash  BYTEA,
		invite_hash BYTEA NOT NULL,
		creator     TEXT NOT NULL,
		created_at  BIGINT NOT NULL,
		updated_at  BIGINT NOT NULL,
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
		at      BIGINT NOT NULL,
		PRIMARY KEY (game_id, seq)
	);`,
	`ALTER TABLE games ADD COLUMN computer TEXT NOT NULL DEFAULT '';
	ALTER TABLE games ADD COLUMN level INTEGER NOT NULL DEFAULT 0;
	CREATE INDEX games_computer_playing ON games (status) WHERE computer != '';`,
	`ALTER TABLE games ADD COLUMN clock_initial_ms BIGINT NOT NULL DEFAULT 0;
	ALTER TABLE games ADD COLUMN clock_increment_ms BIGINT NOT NULL DEFAULT 0;
	ALTER TABLE games ADD COLUMN clock_days INTEGER NOT NULL DEFAULT 0;
	CREATE INDEX games_timed_playing ON games (status) WHERE clock_initial_ms != 0 OR clock_days != 0;`,
	`CREATE TABLE chat (
		game_id TEXT NOT NULL REFERENCES games(id),
		seq     INTEGER NOT NULL,
		seat    TEXT NOT NULL,
		text    TEXT NOT NULL,
		at      BIGINT NOT NULL,
		PRIMARY KEY (game_id, seq)
	);`,
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
	);`,
	`CREATE TABLE holdings (
		browser BYTEA NOT NULL,
		game_id TEXT NOT NULL REFERENCES games(id),
		sealed  BYTEA NOT NULL,
		at      BIGINT NOT NULL,
		PRIMARY KEY (browser, game_id)
	);
	CREATE INDEX holdings_recent ON holdings (browser, at);`,
	`ALTER TABLE games ADD COLUMN join_key BYTEA;
	ALTER TABLE games ADD COLUMN join_sealed BYTEA;`,
	`ALTER TABLE games DROP COLUMN version;`,
	`ALTER TABLE games ADD COLUMN given INTEGER NOT NULL DEFAULT 0;`,
	// A seat's subscriptions are numbered, newest last: it keeps its
	// newest few (see Subscribe).
	`ALTER TABLE push_subscriptions ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;`,
	// The times the site was down, which the clocks leave out (see
	// SeenUp); when it was last seen up is the setting seen_up.
	`CREATE TABLE outages (
		began BIGINT NOT NULL,
		ended BIGINT NOT NULL
	);`,
	// The grace after an outage, charged to nobody either (see SeenUp).
	`ALTER TABLE outages ADD COLUMN grace_ms BIGINT NOT NULL DEFAULT 0;`,
}

// lastChangePostgres is lastChange in PostgreSQL's words.
const lastChangePostgres = `GREATEST(g.updated_at, ` + lastEventAt + `)`

// defaultMaxConns is the connections an instance holds at most, unless
// its address says otherwise (pool_max_conns=N): a few instances stay well
// within PostgreSQL's default limit of 100.
const defaultMaxConns = 16

// migrationLock is the advisory lock that instances starting together
// take to bring the schema up to date one after the other.
const migrationLock = 0x62726574746572 // "bretter"

// OpenPostgres connects to the database at url (postgres://...) and
// brings its schema up to date.
func OpenPostgres(ctx context.Context, url string) (*Postgres, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message repeats the url, password and all.
		return nil, errors.New("the PostgreSQL address cannot be read")
	}
	if !strings.Contains(url, "pool_max_conns") {
		// Each append waits for its commit to reach the disk; with more
		// of them under way, PostgreSQL syncs several commits at once.
		cfg.MaxConns = defaultMaxConns
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connecting to PostgreSQL: %w", err)
	}
	s := &Postgres{pool: pool}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("preparing the PostgreSQL database: %w", err)
	}
	return s, nil
}

// migrate applies the migrations the database lacks, each in its own
// transaction under the migration lock, so that another instance starting
// at the same time waits and then finds the work done.
func (s *Postgres) migrate(ctx context.Context) error {
	for {
		done := false
		err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
				return err
			}
			var version int
			err := tx.QueryRow(ctx, `SELECT version FROM schema_version`).Scan(&version)
			if errors.Is(err, pgx.ErrNoRows) {
				_, err = tx.Exec(ctx, `INSERT INTO schema_version VALUES (0)`)
			}
			if err != nil {
				return err
			}
			switch {
			case version > len(postgresMigrations):
				return fmt.Errorf("the database has schema version %d, newer than this program's %d", version, len(postgresMigrations))
			case version == len(postgresMigrations):
				done = true
				return nil
			}
			if _, err := tx.Exec(ctx, postgresMigrations[version]); err != nil {
				return fmt.Errorf("migration %d: %w", version+1, err)
			}
			_, err = tx.Exec(ctx, `UPDATE schema_version SET version = $1`, version+1)
			return err
		})
		if err != nil || done {
			return err
		}
	}
}

// Close closes the connections; appends under way finish first.
func (s *Postgres) Close() error {
	s.pool.Close()
	return nil
}

// Ping says whether the database answers.
func (s *Postgres) Ping(ctx context.Context) error {
	return s.pool.Ping(ctx)
}

// Create stores a new game, with the events it starts from (the moves of
// a game played on from a record), all or nothing.
func (s *Postgres) Create(ctx context.Context, g Game, events ...Event) error {
	if err := s.create(ctx, g, events...); err != nil {
		return fmt.Errorf("game %s: creating: %w", g.ID, err)
	}
	return nil
}

func (s *Postgres) create(ctx context.Context, g Game, events ...Event) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := insertGamePostgres(ctx, tx, g); err != nil {
			return err
		}
		for i, e := range events {
			if e.Seq != i+1 {
				return fmt.Errorf("game %s: event %d has number %d", g.ID, i+1, e.Seq)
			}
		}
		if len(events) == 0 {
			return nil
		}
		args := append([]any{g.ID}, eventColumns(events)...)
		if _, err := tx.Exec(ctx, insertEvents, args...); err != nil {
			return fmt.Errorf("game %s: storing its events: %w", g.ID, err)
		}
		return nil
	})
}

func insertGamePostgres(ctx context.Context, tx pgx.Tx, g Game) error {
	opts, err := json.Marshal(g.Options)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO games
		(id, game, options, white_hash, black_hash, invite_hash, creator, created_at, updated_at, status, computer, level,
		clock_initial_ms, clock_increment_ms, clock_days, given)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
		g.ID, g.Game, string(opts), g.WhiteHash, g.BlackHash, g.InviteHash, g.Creator,
		g.Created.UnixMilli(), g.Updated.UnixMilli(), g.Status, g.Computer, g.Level,
		g.Clock.Initial.Milliseconds(), g.Clock.Increment.Milliseconds(), g.Clock.Days, g.Given)
	return err
}

// insertEvents stores events given column by column (eventColumns), so
// that any number of them take one statement.
const insertEvents = `INSERT INTO events (game_id, seq, kind, seat, move, at)
	SELECT $1, e.seq, e.kind, e.seat, e.move, e.at
	FROM unnest($2::integer[], $3::text[], $4::text[], $5::text[], $6::bigint[]) AS e(seq, kind, seat, move, at)`

func eventColumns(events []Event) []any {
	seq := make([]int32, len(events))
	kind := make([]string, len(events))
	seat := make([]string, len(events))
	move := make([]string, len(events))
	at := make([]int64, len(events))
	for i, e := range events {
		seq[i], kind[i], seat[i], move[i], at[i] = int32(e.Seq), e.Kind, e.Seat, e.Move, e.At.UnixMilli()
	}
	return []any{seq, kind, seat, move, at}
}

// Load returns a game and all its events in order, as of one moment.
func (s *Postgres) Load(ctx context.Context, id string) (Game, []Event, error) {
	g, events, err := s.load(ctx, id)
	if err != nil {
		return Game{}, nil, fmt.Errorf("game %s: loading: %w", id, err)
	}
	return g, events, nil
}

func (s *Postgres) load(ctx context.Context, id string) (Game, []Event, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return Game{}, nil, err
	}
	defer tx.Rollback(context.Background())
	var g Game
	var opts string
	var created, updated, initial, increment int64
	err = tx.QueryRow(ctx, `SELECT id, game, options, white_hash, black_hash, invite_hash, creator,
		created_at, updated_at, status, winner, reason, next_id, computer, level,
		clock_initial_ms, clock_increment_ms, clock_days, join_key, join_sealed, given FROM games WHERE id = $1`, id).
		Scan(&g.ID, &g.Game, &opts, &g.WhiteHash, &g.BlackHash, &g.InviteHash, &g.Creator,
			&created, &updated, &g.Status, &g.Winner, &g.Reason, &g.Next, &g.Computer, &g.Level,
			&initial, &increment, &g.Clock.Days, &g.JoinKey.Hash, &g.JoinKey.Sealed, &g.Given)
	if errors.Is(err, pgx.ErrNoRows) {
		return Game{}, nil, ErrNotFound
	}
	if err != nil {
		return Game{}, nil, err
	}
	g.Created = time.UnixMilli(created)
	g.Clock.Initial, g.Clock.Increment = time.Duration(initial)*time.Millisecond, time.Duration(increment)*time.Millisecond
	if err := json.Unmarshal([]byte(opts), &g.Options); err != nil {
		return Game{}, nil, fmt.Errorf("game %s: options: %w", id, err)
	}
	rows, err := tx.Query(ctx, `SELECT seq, kind, seat, move, at FROM events WHERE game_id = $1 ORDER BY seq`, id)
	if err != nil {
		return Game{}, nil, err
	}
	var events []Event
	var e Event
	var at int64
	_, err = pgx.ForEachRow(rows, []any{&e.Seq, &e.Kind, &e.Seat, &e.Move, &at}, func() error {
		if e.Seq != len(events)+1 {
			return fmt.Errorf("game %s: event %d stored where %d was expected", id, e.Seq, len(events)+1)
		}
		e.At = time.UnixMilli(at)
		updated = max(updated, at)
		events = append(events, e)
		return nil
	})
	if err != nil {
		return Game{}, nil, err
	}
	g.Version, g.Updated = len(events), time.UnixMilli(updated)
	return g, events, nil
}

// Append adds events, numbered from the one after the last, and records
// the ending they bring, if any: all of them or none. A taken number, or
// a game already over, is ErrConflict, so exactly one of two racing
// appends lands, whichever instance sent them. It returns once the
// transaction is committed.
//
// One statement does it all, in one round trip: the events are stored
// only if the game's last event is the one before them. Of two racing
// appends, the second to store an event's number breaks the events' key
// and changes nothing. As in SQLite, a move writes only its event: the
// game's row changes when the game starts or ends.
func (s *Postgres) Append(ctx context.Context, id string, events []Event, end *Ending) error {
	if len(events) == 0 {
		return fmt.Errorf("game %s: nothing to append", id)
	}
	if err := s.appendEvents(ctx, id, events, end); err != nil {
		return fmt.Errorf("game %s: appending event %d: %w", id, events[0].Seq, err)
	}
	return nil
}

func (s *Postgres) appendEvents(ctx context.Context, id string, events []Event, end *Ending) error {
	for i, e := range events[1:] {
		if e.Seq != events[0].Seq+1+i {
			return fmt.Errorf("%w: event %d cannot follow %d", ErrConflict, e.Seq, events[0].Seq+i)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	last := events[len(events)-1]
	status, winner, reason := "", "", ""
	if end != nil {
		status, winner, reason = "over", end.Winner, end.Reason
	}
	// Offers of a new game may follow the end, and leave the result be.
	// The row changes only when the game ends: events before the friend
	// joins (a name) leave it waiting, for only the join starts it.
	afterEnd := end == nil && AfterEnd(events)
	args := append([]any{id, events[0].Seq - 1, status, winner, reason, last.At.UnixMilli()}, eventColumns(events)...)
	args = append(args, afterEnd)
	// Once sent, the statement is seen through whatever happens to ctx:
	// its answer must say whether the events are stored.
	tag, err := s.pool.Exec(context.WithoutCancel(ctx), `WITH game AS (
			SELECT id, status FROM games
			WHERE id = $1 AND (status != 'over' OR $12)
			AND `+lastSeq+` = $2
		), changed AS (
			UPDATE games SET status = $3, winner = $4, reason = $5, updated_at = $6
			FROM game WHERE games.id = game.id AND game.status != 'over' AND $3 = 'over')
		INSERT INTO events (game_id, seq, kind, seat, move, at)
		SELECT game.id, e.seq, e.kind, e.seat, e.move, e.at
		FROM game, unnest($7::integer[], $8::text[], $9::text[], $10::text[], $11::bigint[]) AS e(seq, kind, seat, move, at)`, args...)
	if isUniqueViolation(err) {
		return ErrConflict
	}
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return s.conflictOrNotFound(ctx, id)
	}
	return nil
}

// conflictOrNotFound explains why a change to a game changed nothing.
func (s *Postgres) conflictOrNotFound(ctx context.Context, id string) error {
	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM games WHERE id = $1)`, id).Scan(&exists); err != nil {
		return err
	}
	if !exists {
		return ErrNotFound
	}
	return ErrConflict
}

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

// Join fills the free seat with a secret's hash. A filled seat is
// ErrConflict, as is a game already over.
func (s *Postgres) Join(ctx context.Context, id, seat string, hash []byte, key JoinKey, at time.Time) error {
	if err := s.join(ctx, id, seat, hash, key, at); err != nil {
		return fmt.Errorf("game %s: taking the %s seat: %w", id, seat, err)
	}
	return nil
}

func (s *Postgres) join(ctx context.Context, id, seat string, hash []byte, key JoinKey, at time.Time) error {
	column := map[string]string{"white": "white_hash", "black": "black_hash"}[seat]
	if column == "" {
		return fmt.Errorf("no seat %q", seat)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE games SET `+column+` = $1, updated_at = $2, join_key = $3, join_sealed = $4,
		status = CASE status WHEN 'waiting' THEN 'playing' ELSE status END
		WHERE id = $5 AND `+column+` IS NULL AND status != 'over'`, hash, at.UnixMilli(), key.Hash, key.Sealed, id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return s.conflictOrNotFound(ctx, id)
	}
	return nil
}

// Follow stores next as the game that follows id and links them, unless
// id already has a follower: then it is ErrConflict and nothing is stored.
func (s *Postgres) Follow(ctx context.Context, id string, next Game) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var follower string
		err := tx.QueryRow(ctx, `SELECT next_id FROM games WHERE id = $1 FOR UPDATE`, id).Scan(&follower)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return ErrNotFound
		case err != nil:
			return err
		case follower != "":
			return ErrConflict
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET next_id = $1 WHERE id = $2`, next.ID, id); err != nil {
			return err
		}
		return insertGamePostgres(ctx, tx, next)
	})
	if err != nil {
		return fmt.Errorf("game %s: linking the next game %s: %w", id, next.ID, err)
	}
	return nil
}

// ComputerGames lists the games in play against the computer, for a server
// that starts to give the computer its moves.
func (s *Postgres) ComputerGames(ctx context.Context) ([]string, error) {
	return s.ids(ctx, "games against the computer",
		`SELECT id FROM games g WHERE status = 'playing' AND computer != '' ORDER BY `+lastChangePostgres)
}

// TimedGames lists the games in play with a clock, for a server that
// starts to watch their clocks.
func (s *Postgres) TimedGames(ctx context.Context) ([]string, error) {
	return s.ids(ctx, "games with a clock",
		`SELECT id FROM games g WHERE status = 'playing' AND (clock_initial_ms != 0 OR clock_days != 0) ORDER BY `+lastChangePostgres)
}

func (s *Postgres) ids(ctx context.Context, what, query string) ([]string, error) {
	rows, err := s.pool.Query(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", what, err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", what, err)
	}
	return ids, nil
}

// Say stores a chat line of a game, numbered after the last, and returns
// it with its number.
func (s *Postgres) Say(ctx context.Context, id string, line ChatLine) (ChatLine, error) {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// The game's row is the lock that numbers its lines one at a
		// time, across instances; a share lock would let two take the
		// same number.
		err := tx.QueryRow(ctx, `SELECT id FROM games WHERE id = $1 FOR UPDATE`, id).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO chat (game_id, seq, seat, text, at)
			SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4 FROM chat WHERE game_id = $1
			RETURNING seq`, id, line.Seat, line.Text, line.At.UnixMilli()).Scan(&line.Seq)
	})
	if err != nil {
		return ChatLine{}, fmt.Errorf("game %s: storing a chat line: %w", id, err)
	}
	return line, nil
}

// Chat returns a game's chat lines in order.
func (s *Postgres) Chat(ctx context.Context, id string) ([]ChatLine, error) {
	rows, err := s.pool.Query(ctx, `SELECT seq, seat, text, at FROM chat WHERE game_id = $1 ORDER BY seq`, id)
	if err != nil {
		return nil, fmt.Errorf("game %s: reading the chat: %w", id, err)
	}
	var lines []ChatLine
	var l ChatLine
	var at int64
	_, err = pgx.ForEachRow(rows, []any{&l.Seq, &l.Seat, &l.Text, &at}, func() error {
		l.At = time.UnixMilli(at)
		lines = append(lines, l)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("game %s: reading the chat: %w", id, err)
	}
	return lines, nil
}

// Setting returns the value of a setting of the site, keeping value as it
// when it has none yet: whoever stores one first, every later caller (and
// every other instance) gets the same.
func (s *Postgres) Setting(ctx context.Context, name, value string) (string, error) {
	// An insert that finds the name taken waits for the transaction that
	// took it, so the select that follows sees its value.
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, value); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT value FROM settings WHERE name = $1`, name).Scan(&value)
	})
	if err != nil {
		return "", fmt.Errorf("setting %s: %w", name, err)
	}
	return value, nil
}

// Subscribe keeps a browser's push subscription for a seat of a game.
func (s *Postgres) Subscribe(ctx context.Context, sub Subscription) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, pgParams(subscribeQuery), sub.Game, sub.Seat, sub.Endpoint, sub.P256DH, sub.Auth, sub.Lang); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, pgParams(subscriptionsCapQuery), sub.Game, sub.Seat, SubscriptionsPerSeat)
		return err
	})
	if err != nil {
		return fmt.Errorf("game %s: keeping a push subscription: %w", sub.Game, err)
	}
	return nil
}

// Unsubscribe forgets a push subscription of a game's seat; seat "" forgets
// it for every seat (the push service said it is gone).
func (s *Postgres) Unsubscribe(ctx context.Context, gameID, seat, endpoint string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM push_subscriptions WHERE game_id = $1 AND (seat = $2 OR $2 = '') AND endpoint = $3`,
		gameID, seat, endpoint)
	return err
}

// SubscriptionsOf lists the push subscriptions of several seats at once,
// in no particular order.
func (s *Postgres) SubscriptionsOf(ctx context.Context, seats []SeatOf) ([]Subscription, error) {
	games, seatNames := make([]string, len(seats)), make([]string, len(seats))
	for i, seat := range seats {
		games[i], seatNames[i] = seat.Game, seat.Seat
	}
	rows, err := s.pool.Query(ctx, `SELECT game_id, seat, endpoint, p256dh, auth, lang FROM push_subscriptions
		WHERE (game_id, seat) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, games, seatNames)
	if err != nil {
		return nil, fmt.Errorf("reading push subscriptions: %w", err)
	}
	var out []Subscription
	var sub Subscription
	_, err = pgx.ForEachRow(rows, []any{&sub.Game, &sub.Seat, &sub.Endpoint, &sub.P256DH, &sub.Auth, &sub.Lang}, func() error {
		out = append(out, sub)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading push subscriptions: %w", err)
	}
	return out, nil
}

// SubscribedSeats lists every seat that has a push subscription, once.
func (s *Postgres) SubscribedSeats(ctx context.Context) ([]SeatOf, error) {
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT game_id, seat FROM push_subscriptions`)
	if err != nil {
		return nil, fmt.Errorf("listing subscribed seats: %w", err)
	}
	var out []SeatOf
	var seat SeatOf
	_, err = pgx.ForEachRow(rows, []any{&seat.Game, &seat.Seat}, func() error {
		out = append(out, seat)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing subscribed seats: %w", err)
	}
	return out, nil
}

// Hold keeps a seat against a browser, replacing the seat it held in that
// game before.
func (s *Postgres) Hold(ctx context.Context, browser []byte, h Holding) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO holdings (browser, game_id, sealed, at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (browser, game_id) DO UPDATE SET sealed = excluded.sealed, at = excluded.at`,
		browser, h.Game, h.Sealed, h.At.UnixMilli())
	if err != nil {
		return fmt.Errorf("game %s: keeping a browser's seat: %w", h.Game, err)
	}
	return nil
}

// Holding is the seat a browser holds in a game; ErrNotFound when none.
func (s *Postgres) Holding(ctx context.Context, browser []byte, gameID string) (Holding, error) {
	h := Holding{Game: gameID}
	var at int64
	err := s.pool.QueryRow(ctx, `SELECT sealed, at FROM holdings WHERE browser = $1 AND game_id = $2`, browser, gameID).Scan(&h.Sealed, &at)
	if errors.Is(err, pgx.ErrNoRows) {
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
func (s *Postgres) Holdings(ctx context.Context, browser []byte, limit int) ([]Holding, error) {
	rows, err := s.pool.Query(ctx, `SELECT h.game_id, h.sealed, h.at, g.status, `+lastChangePostgres+`
		FROM holdings h JOIN games g ON g.id = h.game_id WHERE h.browser = $1 ORDER BY h.at DESC LIMIT $2`, browser, limit)
	if err != nil {
		return nil, fmt.Errorf("listing a browser's seats: %w", err)
	}
	var out []Holding
	var h Holding
	var at, updated int64
	_, err = pgx.ForEachRow(rows, []any{&h.Game, &h.Sealed, &at, &h.Status, &updated}, func() error {
		h.At, h.Updated = time.UnixMilli(at), time.UnixMilli(updated)
		out = append(out, h)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing a browser's seats: %w", err)
	}
	return out, nil
}

// pgParams writes a query shared with SQLite, whose parameters are
// numbered as ?1, with PostgreSQL's $1. The shared queries have no other
// question marks.
func pgParams(q string) string { return strings.ReplaceAll(q, "?", "$") }
