package channels

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrNoProactiveFinisher is returned by Proactive when the Hub's outbox
// cannot record a proactive message with its writes in one transaction.
var ErrNoProactiveFinisher = errors.New("outbox cannot finish proactive messages")

// ErrHubNotRunning is returned by Proactive before Run has replayed the
// outbox.
var ErrHubNotRunning = errors.New("hub not running yet")

// Proactive sends messages Haven starts (reminders, check-ins): it
// commits writes and outs through the outbox's ProactiveFinisher in one
// transaction (no inbox key: no person's message asked for them) and
// queues outs for delivery like any reply. Each out must name its
// platform and conversation.
//
// It returns nil once the transaction is committed; delivery then goes
// on as for replies (retries, the outbox replayed at the next start). It
// returns an error, with nothing written, when the Hub is not running or
// is draining (ErrHubNotRunning, ErrHubClosed), when writes cannot be committed (the
// finisher says why), or when an out is malformed. writes.Committed is
// called with the outcome whenever the finisher was called.
func (h *Hub) Proactive(ctx context.Context, outs []Outbound, writes TurnWrites) error {
	pf, ok := h.outbox.(ProactiveFinisher)
	if !ok {
		return ErrNoProactiveFinisher
	}
	for i, o := range outs {
		if o.Platform == "" || o.Conversation.ID == "" {
			return fmt.Errorf("proactive message %d: no platform or conversation", i)
		}
	}
	h.mu.Lock()
	ready, closing := h.replayed, h.closing
	h.mu.Unlock()
	switch {
	case closing:
		return ErrHubClosed
	case !ready:
		return ErrHubNotRunning
	}
	ids, err := pf.FinishProactive(ctx, outs, writes)
	if writes != nil {
		writes.Committed(err)
	}
	if err != nil {
		return fmt.Errorf("record %d proactive messages: %w", len(outs), err)
	}
	now := time.Now()
	for i, out := range outs {
		h.deliver(&outItem{id: ids[i], durable: true, out: out, created: now})
	}
	return nil
}
