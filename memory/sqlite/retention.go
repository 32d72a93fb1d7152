package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/havenbot/haven/memory"
)

// ApplyRetention deletes transcript entries, superseded facts, stale held
// facts and crisis log rows past their retention at now.
func (s *Store) ApplyRetention(ctx context.Context, r memory.Retention, now time.Time) (memory.Swept, error) {
	var sw memory.Swept
	err := s.write(ctx, func(tx *wtx) error {
		exec := func(n *int64, q string, d time.Duration) error {
			if d <= 0 {
				return nil
			}
			res, err := tx.ExecContext(ctx, q, ts(now.Add(-d)))
			if err != nil {
				return err
			}
			*n, err = res.RowsAffected()
			return err
		}
		if err := exec(&sw.Transcripts, `DELETE FROM transcript WHERE at < ?`, r.Transcripts); err != nil {
			return fmt.Errorf("transcripts: %w", err)
		}
		if err := exec(&sw.Inactive, `DELETE FROM facts WHERE active = 0 AND superseded_at < ?`, r.Inactive); err != nil {
			return fmt.Errorf("inactive facts: %w", err)
		}
		var held int64
		if err := exec(&held, `DELETE FROM held_facts WHERE created_at < ?`, r.Inactive); err != nil {
			return fmt.Errorf("held facts: %w", err)
		}
		if err := exec(&sw.CrisisLog, `DELETE FROM crisis_log WHERE at < ?`, r.CrisisLog); err != nil {
			return fmt.Errorf("crisis log: %w", err)
		}
		var inbox, outbox int64
		if err := exec(&inbox, `DELETE FROM inbox WHERE done_at < ?`, r.Deliveries); err != nil {
			return fmt.Errorf("handled inbox rows: %w", err)
		}
		if err := exec(&outbox, `DELETE FROM outbox WHERE coalesce(sent_at, abandoned_at) < ?`, r.Deliveries); err != nil {
			return fmt.Errorf("delivered outbox rows: %w", err)
		}
		sw.Deliveries = inbox + outbox
		return nil
	})
	if err != nil {
		return memory.Swept{}, fmt.Errorf("apply retention: %w", err)
	}
	return sw, nil
}
