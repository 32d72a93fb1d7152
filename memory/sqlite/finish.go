package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

// finishReq is one turn to finish.
type finishReq struct {
	key      string
	outs     []channels.Outbound
	payloads []string
	turn     *preparedTurn
}

// FinishTurn ends a turn in one transaction: it commits writes (nil, or a
// memory.Pending from core), adds outs to the outbox and marks the
// delivery deliveryKey done. Turns finishing at the same moment share the
// transaction (group commit, see grouped). It implements channels.Finisher; an unknown
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
	var ids []int64
	err = s.grouped(ctx, func(ctx context.Context, tx *wtx) error {
		var err error
		ids, err = s.finishOne(ctx, tx, req, s.now())
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("finish delivery %s: %w", deliveryKey, err)
	}
	return ids, nil
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

var _ channels.Finisher = (*Store)(nil)
