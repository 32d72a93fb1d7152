package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/havenbot/haven/memory"
)

// Settings returns the person's memory controls.
func (s *Store) Settings(ctx context.Context, personID string) (memory.Settings, error) {
	st := memory.DefaultSettings()
	err := s.rd.QueryRowContext(ctx, `SELECT paused, proactive FROM memory_settings WHERE person_id = ?`, personID).Scan(&st.Paused, &st.Proactive)
	if errors.Is(err, sql.ErrNoRows) {
		return memory.DefaultSettings(), nil
	}
	if err != nil {
		return memory.Settings{}, fmt.Errorf("load memory settings of person %s: %w", personID, s.classify(err))
	}
	return st, nil
}

// SetSettings saves the person's memory controls.
func (s *Store) SetSettings(ctx context.Context, personID string, st memory.Settings) error {
	err := s.write(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO memory_settings (person_id, paused, proactive, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (person_id) DO UPDATE SET paused = excluded.paused, proactive = excluded.proactive, updated_at = excluded.updated_at`,
			personID, st.Paused, st.Proactive, ts(s.now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("save memory settings of person %s: %w", personID, err)
	}
	return nil
}
