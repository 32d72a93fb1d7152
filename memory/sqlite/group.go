package sqlite

import (
	"context"
	"sync"
)

// groupReq is one grouped write waiting for its commit.
type groupReq struct {
	fn   func(ctx context.Context, tx *wtx) error
	err  error
	done bool // set under groupCommit.mu once err is final
}

// groupCommit lets the frequent small writes of many turns (a delivery
// recorded, a turn finished, a reply sent) share transactions: each caller
// queues its write and takes the commit lock; the first to get it commits
// every write queued by then, so the ones after it find theirs done. Each
// write runs under its own savepoint, so one that fails leaves the others
// of its batch committed.
type groupCommit struct {
	commit sync.Mutex // held while a batch commits

	mu      sync.Mutex
	queue   []*groupReq
	batches int64 // transactions committed (GroupStats)
	writes  int64 // grouped writes in them
}

// grouped runs fn in a write transaction that it may share with the
// grouped writes of other goroutines. fn gets a context that no caller's
// cancellation ends (one caller must not undo the others' writes; the
// batch is bounded by the busy timeout), and must use it. fn's error is
// returned (classified); its writes are then rolled back, the batch's
// others kept.
func (s *Store) grouped(ctx context.Context, fn func(ctx context.Context, tx *wtx) error) error {
	req := &groupReq{fn: fn}
	g := &s.group
	g.mu.Lock()
	g.queue = append(g.queue, req)
	g.mu.Unlock()

	// The caller's reads after this write must see it (readscope.go).
	defer s.wrote(ctx)
	g.commit.Lock()
	defer g.commit.Unlock()
	g.mu.Lock()
	var batch []*groupReq
	if !req.done { // else an earlier holder of the lock committed it
		batch, g.queue = g.queue, nil
	}
	g.mu.Unlock()
	if len(batch) > 0 {
		s.commitGroup(context.WithoutCancel(ctx), batch)
	}
	return req.err
}

// commitGroup commits batch in one transaction, each write under its own
// savepoint, and marks every write done.
func (s *Store) commitGroup(ctx context.Context, batch []*groupReq) {
	err := s.write(ctx, func(tx *wtx) error {
		if len(batch) == 1 {
			return batch[0].fn(ctx, tx)
		}
		for _, r := range batch {
			if _, err := tx.ExecContext(ctx, `SAVEPOINT grouped`); err != nil {
				return err
			}
			if r.err = r.fn(ctx, tx); r.err != nil {
				r.err = s.classify(r.err)
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO grouped`); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, `RELEASE grouped`); err != nil {
				return err
			}
		}
		return nil
	})
	g := &s.group
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range batch {
		if err != nil {
			r.err = err
		}
		r.done = true
	}
	if err == nil {
		g.batches++
		g.writes += int64(len(batch))
	}
}

// GroupStats says how well group commit works: Writes grouped writes
// (deliveries recorded, turns finished, replies marked sent) committed in
// Batches transactions.
type GroupStats struct {
	Batches, Writes int64
}

// GroupStats returns the group commit counts since Open.
func (s *Store) GroupStats() GroupStats {
	g := &s.group
	g.mu.Lock()
	defer g.mu.Unlock()
	return GroupStats{Batches: g.batches, Writes: g.writes}
}
