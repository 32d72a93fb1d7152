package sqlite

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

// finishReq is one FinishTurn waiting for its group commit.
type finishReq struct {
	key      string
	outs     []channels.Outbound
	payloads []string
	turn     *preparedTurn

	ids  []int64
	err  error
	done bool // set under groupCommit.mu once ids and err are final
}

// groupCommit lets the turns that finish while another commit is under
// way share one transaction: each FinishTurn queues its request and takes the
// commit lock; the first to get it commits every request queued by then,
// so the ones after it find theirs done. Each request gets a savepoint,
// so one that fails leaves the others of its batch committed.
type groupCommit struct {
	commit sync.Mutex // held while a batch commits

	mu      sync.Mutex
	queue   []*finishReq
	batches int64 // transactions committed (Stats)
	turns   int64 // requests in them
}

// FinishTurn ends a turn in one transaction: it commits writes (nil, or a
// memory.Pending from core), adds outs to the outbox and marks the
// delivery deliveryKey done. Turns finishing at the same moment share the
// transaction (group commit). It implements channels.Finisher; an unknown
// delivery key is an error wrapping memory.ErrNotFound, and then nothing
// of that turn is written.
func (s *Store) FinishTurn(ctx context.Context, deliveryKey string, outs []channels.Outbound, writes channels.TurnWrites) ([]int64, error) {
	req := &finishReq{key: deliveryKey, outs: outs}
	var err error
	if req.payloads, err = encodeOutbound(outs); err != nil {
		return nil, fmt.Errorf("finish delivery %s: %w", deliveryKey, err)
	}
	if writes != nil {
		p, ok := writes.(memory.Pending)
		if !ok {
			return nil, fmt.Errorf("finish delivery %s: writes of type %T are not a memory.Pending", deliveryKey, writes)
		}
		c, err := prepareTurn(p.PendingTurn())
		if err != nil {
			return nil, fmt.Errorf("finish delivery %s: %w", deliveryKey, err)
		}
		req.turn = &c
	}
	g := &s.finishing
	g.mu.Lock()
	g.queue = append(g.queue, req)
	g.mu.Unlock()

	g.commit.Lock()
	defer g.commit.Unlock()
	g.mu.Lock()
	done := req.done
	var batch []*finishReq
	if !done {
		// req is still queued: whoever commits a request marks it done
		// before giving up the commit lock. A caller whose request is done
		// leaves the queue alone: the requests queued since are their
		// callers' to commit.
		batch = g.queue
		g.queue = nil
	}
	g.mu.Unlock()
	if !done {
		// Not one caller's cancellation may undo the others' turns: the
		// batch runs to its end, bounded by the busy timeout.
		s.commitBatch(context.WithoutCancel(ctx), batch)
	}
	if req.err != nil {
		return nil, fmt.Errorf("finish delivery %s: %w", deliveryKey, req.err)
	}
	return req.ids, nil
}

// commitBatch commits batch in one transaction, each request under its
// own savepoint, and marks every request done.
func (s *Store) commitBatch(ctx context.Context, batch []*finishReq) {
	err := s.write(ctx, func(tx *wtx) error {
		now := s.now()
		for _, r := range batch {
			if _, err := tx.ExecContext(ctx, `SAVEPOINT finish`); err != nil {
				return err
			}
			r.ids, r.err = s.finishOne(ctx, tx, r, now)
			if r.err != nil {
				r.ids = nil
				if _, err := tx.ExecContext(ctx, `ROLLBACK TO finish`); err != nil {
					return err
				}
			}
			if _, err := tx.ExecContext(ctx, `RELEASE finish`); err != nil {
				return err
			}
		}
		return nil
	})
	g := &s.finishing
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range batch {
		if err != nil {
			r.ids, r.err = nil, err
		}
		r.done = true
	}
	if err == nil {
		g.batches++
		g.turns += int64(len(batch))
	}
}

// finishOne writes one request in tx.
func (s *Store) finishOne(ctx context.Context, tx *wtx, r *finishReq, now time.Time) ([]int64, error) {
	if r.turn != nil {
		if err := s.commitTurn(ctx, tx, *r.turn); err != nil {
			return nil, fmt.Errorf("commit turn for session %s: %w", r.turn.rec.SessionID, err)
		}
	}
	var ids []int64
	if len(r.outs) > 0 {
		var err error
		if ids, err = insertOutbound(ctx, tx, r.outs, r.payloads, now); err != nil {
			return nil, fmt.Errorf("add %d messages to outbox: %w", len(r.outs), err)
		}
	}
	if err := markDone(ctx, tx, r.key, now); err != nil {
		return nil, fmt.Errorf("mark the delivery done: %w", err)
	}
	return ids, nil
}

// FinishStats says how well group commit works: Turns finished in
// Batches transactions.
type FinishStats struct {
	Batches, Turns int64
}

// FinishStats returns the group commit counts since Open.
func (s *Store) FinishStats() FinishStats {
	g := &s.finishing
	g.mu.Lock()
	defer g.mu.Unlock()
	return FinishStats{Batches: g.batches, Turns: g.turns}
}

var _ channels.Finisher = (*Store)(nil)
