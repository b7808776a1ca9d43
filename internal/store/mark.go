package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Mark is what changes whenever a game does: two equal marks of a game
// mean that nothing changed in between, so an instance compares the mark
// of its copy with the store's before it trusts the copy.
type Mark struct {
	Version int    // number of events
	Status  string // "waiting", "playing" or "over"
	Seated  [2]bool
	Next    string
	Chat    int // the number of the last chat line
}

// Mark returns what tells whether a copy of game id is current.
func (s *SQLite) Mark(ctx context.Context, id string) (Mark, error) {
	var m Mark
	err := s.read.QueryRowContext(ctx, `SELECT
		`+lastSeq+`,
		status, white_hash IS NOT NULL, black_hash IS NOT NULL, next_id,
		(SELECT COALESCE(MAX(seq), 0) FROM chat WHERE game_id = games.id) FROM games WHERE id = ?`, id).
		Scan(&m.Version, &m.Status, &m.Seated[0], &m.Seated[1], &m.Next, &m.Chat)
	if errors.Is(err, sql.ErrNoRows) {
		return Mark{}, ErrNotFound
	}
	if err != nil {
		return Mark{}, fmt.Errorf("game %s: reading its mark: %w", id, err)
	}
	return m, nil
}

// Mark returns what tells whether a copy of game id is current.
func (s *Postgres) Mark(ctx context.Context, id string) (Mark, error) {
	var m Mark
	err := s.pool.QueryRow(ctx, `SELECT
		`+lastSeq+`,
		status, white_hash IS NOT NULL, black_hash IS NOT NULL, next_id,
		(SELECT COALESCE(MAX(seq), 0) FROM chat WHERE game_id = games.id) FROM games WHERE id = $1`, id).
		Scan(&m.Version, &m.Status, &m.Seated[0], &m.Seated[1], &m.Next, &m.Chat)
	if errors.Is(err, pgx.ErrNoRows) {
		return Mark{}, ErrNotFound
	}
	if err != nil {
		return Mark{}, fmt.Errorf("game %s: reading its mark: %w", id, err)
	}
	return m, nil
}
