package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/havenbot/haven/memory"
)

// Retainer is what the retention job needs.
type Retainer interface {
	// ApplyRetention deletes what r says is past keeping at now and says
	// how much it deleted.
	ApplyRetention(ctx context.Context, r memory.Retention, now time.Time) (memory.Swept, error)
}

// applyRetention deletes what Options.Retention says is past keeping and
// logs the counts (never what was deleted).
func (r *Runner) applyRetention(ctx context.Context) error {
	sw, err := r.o.Store.ApplyRetention(ctx, r.o.Retention, r.o.Clock())
	if err != nil {
		return err
	}
	if sw != (memory.Swept{}) {
		r.o.Logger.Info("retention applied", slog.Int64("transcript_entries", sw.Transcripts), slog.Int64("delivery_records", sw.Deliveries),
			slog.Int64("inactive_facts", sw.Inactive), slog.Int64("crisis_log_rows", sw.CrisisLog))
	}
	return nil
}
