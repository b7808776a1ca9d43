package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"bretter/internal/clock"
)

// The site keeps when it was last seen up, as the setting seen_up (in
// milliseconds), and the outages: the times nobody was, each with the
// grace after it that the clocks leave out too (see SeenUp).
// Every instance says it is up about once a second; one that finds that
// nobody did for a while (it starts, or wakes) records the outage, once
// for all instances, so that the clocks of every instance, of a restart
// and of a replay leave out the same time.
//
// seen_up only ever moves forward: the instances' system clocks differ a
// little, and one a few seconds ahead of another would otherwise find
// the other's note too old at every note of its own, and record an outage
// each time.
const (
	seenUpQuery = `INSERT INTO settings (name, value) VALUES ('seen_up', ?1)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value
		WHERE CAST(excluded.value AS BIGINT) > CAST(settings.value AS BIGINT)`
	outageQuery  = `INSERT INTO outages (began, ended, grace_ms) VALUES (?1, ?2, ?3)`
	outagesQuery = `SELECT began, ended, grace_ms FROM outages ORDER BY began`
)

// outageSince is the outage that an instance noting at now, with the
// site last seen up at seen (ms, "" if never), finds: none if the site
// was seen up within gap (or later: another instance's clock is ahead),
// or never (a new site was not down). It gives the players grace.
func outageSince(seen string, now time.Time, gap, grace time.Duration) (clock.Outage, bool, error) {
	if seen == "" {
		return clock.Outage{}, false, nil
	}
	ms, err := strconv.ParseInt(seen, 10, 64)
	if err != nil {
		return clock.Outage{}, false, fmt.Errorf("when the site was last seen up: %q", seen)
	}
	o := clock.Outage{From: time.UnixMilli(ms), To: time.UnixMilli(now.UnixMilli()), Grace: grace.Truncate(time.Millisecond)}
	return o, o.To.Sub(o.From) > gap, nil
}

// storedOutage is an outage as the store keeps it, in milliseconds.
func storedOutage(began, ended, grace int64) clock.Outage {
	return clock.Outage{From: time.UnixMilli(began), To: time.UnixMilli(ended), Grace: time.Duration(grace) * time.Millisecond}
}

// SeenUp notes that the site is up at now, and returns every outage,
// oldest first: one that another instance recorded meanwhile reaches this
// one within a note. Should the site not have been seen up for longer
// than gap, it first records the outage from then to now, with grace
// after it: the caller is an instance that starts, or one that was
// frozen, or whose store stalled, meanwhile.
func (s *SQLite) SeenUp(ctx context.Context, now time.Time, gap, grace time.Duration) ([]clock.Outage, error) {
	var outages []clock.Outage
	err := s.tx(ctx, func(tx *sql.Tx) error {
		// One writer at a time: an instance noting with this one finds
		// the site up, and records nothing again.
		var seen string
		err := tx.QueryRowContext(ctx, `SELECT value FROM settings WHERE name = 'seen_up'`).Scan(&seen)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		o, down, err := outageSince(seen, now, gap, grace)
		if err != nil {
			return err
		}
		if down {
			if _, err := tx.ExecContext(ctx, outageQuery, o.From.UnixMilli(), o.To.UnixMilli(), o.Grace.Milliseconds()); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, seenUpQuery, strconv.FormatInt(now.UnixMilli(), 10)); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, outagesQuery)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var began, ended, grace int64
			if err := rows.Scan(&began, &ended, &grace); err != nil {
				return err
			}
			outages = append(outages, storedOutage(began, ended, grace))
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("noting the site up: %w", err)
	}
	return outages, nil
}

// SeenUp is SQLite's SeenUp.
func (s *Postgres) SeenUp(ctx context.Context, now time.Time, gap, grace time.Duration) ([]clock.Outage, error) {
	var outages []clock.Outage
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// Instances noting together take turns on the row: the next
		// finds the site up, and records nothing again.
		var seen string
		err := tx.QueryRow(ctx, `SELECT value FROM settings WHERE name = 'seen_up' FOR UPDATE`).Scan(&seen)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		o, down, err := outageSince(seen, now, gap, grace)
		if err != nil {
			return err
		}
		if down {
			if _, err := tx.Exec(ctx, pgParams(outageQuery), o.From.UnixMilli(), o.To.UnixMilli(), o.Grace.Milliseconds()); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, pgParams(seenUpQuery), strconv.FormatInt(now.UnixMilli(), 10)); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, outagesQuery)
		if err != nil {
			return err
		}
		var began, ended, grace int64
		_, err = pgx.ForEachRow(rows, []any{&began, &ended, &grace}, func() error {
			outages = append(outages, storedOutage(began, ended, grace))
			return nil
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("noting the site up: %w", err)
	}
	return outages, nil
}
