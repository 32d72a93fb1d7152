package jobs

import (
	"context"
	"time"

	"github.com/havenbot/haven/memory"
)

// SessionStore is what the idle-session job reads and writes.
type SessionStore interface {
	// IdleSessions returns up to n open sessions with no activity since
	// before.
	IdleSessions(ctx context.Context, before time.Time, n int) ([]memory.Session, error)
	// EndSession ends the open session sessionID at now; ended is false when
	// it had already ended.
	EndSession(ctx context.Context, sessionID string, now time.Time) (ended bool, err error)
	// Enqueue adds a job to the durable queue.
	Enqueue(ctx context.Context, j memory.Job) error
}

// idleBatch is how many idle sessions one query of the sweep returns.
const idleBatch = 100

// SweepIdle ends the sessions idle for longer than IdleTimeout and queues
// their episodes (memory.JobSessionEnd). It returns how many it ended.
func (r *Runner) SweepIdle(ctx context.Context) (int, error) {
	now := r.o.Clock()
	n := 0
	for {
		idle, err := r.o.Store.IdleSessions(ctx, now.Add(-r.o.IdleTimeout), idleBatch)
		if err != nil {
			return n, err
		}
		for _, s := range idle {
			ended, err := r.o.Store.EndSession(ctx, s.ID, now)
			if err != nil {
				return n, err
			}
			if !ended {
				continue
			}
			n++
			if err := r.o.Store.Enqueue(ctx, memory.Job{Kind: memory.JobSessionEnd, PersonID: s.PersonID, SessionID: s.ID}); err != nil {
				return n, err
			}
		}
		if len(idle) < idleBatch {
			return n, nil
		}
	}
}
