package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// LoadOffset returns the value last saved under key, or 0 and no error when
// nothing was saved. Adapters keep their platform cursors here (Telegram's
// last update_id).
func (s *Store) LoadOffset(ctx context.Context, key string) (int64, error) {
	var v int64
	err := s.rd.QueryRowContext(ctx, `SELECT value FROM offsets WHERE key = ?`, key).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, nil
	case err != nil:
		return 0, fmt.Errorf("load offset %q: %w", key, s.classify(err))
	}
	return v, nil
}

// SaveOffset durably stores v under key, replacing what was there.
func (s *Store) SaveOffset(ctx context.Context, key string, v int64) error {
	if key == "" {
		return errors.New("save offset: empty key")
	}
	err := s.grouped(ctx, func(ctx context.Context, tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO offsets (key, value, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
			key, v, ts(s.now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("save offset %q: %w", key, err)
	}
	return nil
}

// lastBackupKey is the offsets key under which Backup records when it
// last made a good copy of the database.
const lastBackupKey = "haven.backup.last_at"

// LastBackup returns when `haven backup` last made a good copy of this
// database; ok is false when none is recorded.
func (s *Store) LastBackup(ctx context.Context) (at time.Time, ok bool, err error) {
	v, err := s.LoadOffset(ctx, lastBackupKey)
	if err != nil || v == 0 {
		return time.Time{}, false, err
	}
	return fromTS(v), true, nil
}
