package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/havenbot/haven/memory"
)

// Enqueue adds a job to the durable queue, due now.
func (s *Store) Enqueue(ctx context.Context, j memory.Job) error {
	if err := checkJob(j); err != nil {
		return fmt.Errorf("enqueue memory job: %w", err)
	}
	err := s.write(ctx, func(tx *wtx) error { return insertJob(ctx, tx, j, s.now()) })
	if err != nil {
		return fmt.Errorf("enqueue %s job for session %s: %w", j.Kind, j.SessionID, err)
	}
	return nil
}

// checkJob reports what is wrong with a job to queue, or nil.
func checkJob(j memory.Job) error {
	if j.Kind != memory.JobTurn && j.Kind != memory.JobSessionEnd {
		return fmt.Errorf("unknown kind %q", j.Kind)
	}
	if j.PersonID == "" || j.SessionID == "" {
		return fmt.Errorf("%s job: person id and session id are required", j.Kind)
	}
	return nil
}

// insertJob queues j in tx, due at now.
func insertJob(ctx context.Context, tx *wtx, j memory.Job, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO memory_jobs (kind, person_id, session_id, turn, text, due_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		string(j.Kind), j.PersonID, j.SessionID, j.Turn, j.Text, ts(now), ts(now))
	return err
}

// Claim leases the oldest due job for lease, or returns ok false when none
// is due. A leased job not finished before its lease ends is claimed again
// (a crash or restart loses no job).
func (s *Store) Claim(ctx context.Context, lease time.Duration) (memory.Job, bool, error) {
	var j memory.Job
	var ok bool
	now := s.now()
	err := s.grouped(ctx, func(ctx context.Context, tx *wtx) error {
		var kind string
		var created int64
		err := tx.QueryRowContext(ctx, `UPDATE memory_jobs SET due_at = ?, attempts = attempts + 1
			WHERE id = (SELECT id FROM memory_jobs WHERE due_at <= ? ORDER BY due_at, id LIMIT 1)
			RETURNING id, kind, person_id, session_id, turn, text, attempts, created_at`, ts(now.Add(lease)), ts(now)).
			Scan(&j.ID, &kind, &j.PersonID, &j.SessionID, &j.Turn, &j.Text, &j.Attempts, &created)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		j.Kind, j.Created, ok = memory.JobKind(kind), fromTS(created), true
		return nil
	})
	if err != nil {
		return memory.Job{}, false, fmt.Errorf("claim memory job: %w", err)
	}
	return j, ok, nil
}

// ClaimBatch leases up to n of the oldest due jobs for lease, in one
// transaction, and returns them oldest first (each with the Due it had);
// none is due when the list is empty. It implements jobs.BatchQueue.
func (s *Store) ClaimBatch(ctx context.Context, lease time.Duration, n int) ([]memory.Job, error) {
	if n < 1 {
		return nil, fmt.Errorf("claim memory jobs: batch size %d, want at least 1", n)
	}
	var out []memory.Job
	now := s.now()
	err := s.grouped(ctx, func(ctx context.Context, tx *wtx) error {
		out = out[:0]
		type due struct{ id, at int64 }
		var ids []due
		err := forEach(ctx, tx, func(rows *sql.Rows) error {
			var d due
			if err := rows.Scan(&d.id, &d.at); err != nil {
				return err
			}
			ids = append(ids, d)
			return nil
		}, `SELECT id, due_at FROM memory_jobs WHERE due_at <= ? ORDER BY due_at, id LIMIT ?`, ts(now), n)
		if err != nil {
			return err
		}
		for _, d := range ids {
			var j memory.Job
			var kind string
			var created int64
			err := tx.QueryRowContext(ctx, `UPDATE memory_jobs SET due_at = ?, attempts = attempts + 1 WHERE id = ?
				RETURNING id, kind, person_id, session_id, turn, text, attempts, created_at`, ts(now.Add(lease)), d.id).
				Scan(&j.ID, &kind, &j.PersonID, &j.SessionID, &j.Turn, &j.Text, &j.Attempts, &created)
			if err != nil {
				return fmt.Errorf("lease job %d: %w", d.id, err)
			}
			j.Kind, j.Created, j.Due = memory.JobKind(kind), fromTS(created), fromTS(d.at)
			out = append(out, j)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("claim memory jobs: %w", err)
	}
	return out, nil
}

// FinishAll deletes the done jobs ids in one transaction. It implements
// jobs.BatchQueue.
func (s *Store) FinishAll(ctx context.Context, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	err := s.grouped(ctx, func(ctx context.Context, tx *wtx) error {
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `DELETE FROM memory_jobs WHERE id = ?`, id); err != nil {
				return fmt.Errorf("job %d: %w", id, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("finish %d memory jobs: %w", len(ids), err)
	}
	return nil
}

// Release returns claimed jobs that were not started to the queue as they
// were before their claim: due at their Due again, the claim's attempt not
// counted. It implements jobs.BatchQueue.
func (s *Store) Release(ctx context.Context, js []memory.Job) error {
	if len(js) == 0 {
		return nil
	}
	err := s.grouped(ctx, func(ctx context.Context, tx *wtx) error {
		for _, j := range js {
			if _, err := tx.ExecContext(ctx, `UPDATE memory_jobs SET due_at = ?, attempts = max(attempts - 1, 0) WHERE id = ?`, ts(j.Due), j.ID); err != nil {
				return fmt.Errorf("job %d: %w", j.ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("release %d memory jobs: %w", len(js), err)
	}
	return nil
}

// Finish deletes a done job.
func (s *Store) Finish(ctx context.Context, id int64) error {
	err := s.grouped(ctx, func(ctx context.Context, tx *wtx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM memory_jobs WHERE id = ?`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("finish memory job %d: %w", id, err)
	}
	return nil
}

// Retry makes a failed job due again after delay.
func (s *Store) Retry(ctx context.Context, id int64, delay time.Duration) error {
	err := s.write(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `UPDATE memory_jobs SET due_at = ? WHERE id = ?`, ts(s.now().Add(delay)), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("retry memory job %d: %w", id, err)
	}
	return nil
}
