package channels

import (
	"context"
	"time"
)

// Handler runs one turn for an inbound message and returns what to send.
// core.Engine is the Handler in production.
type Handler interface {
	Handle(ctx context.Context, in Inbound) ([]Outbound, error)
}

// HandlerFunc adapts a function to Handler.
type HandlerFunc func(ctx context.Context, in Inbound) ([]Outbound, error)

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, in Inbound) ([]Outbound, error) { return f(ctx, in) }

// Inbox durably records inbound deliveries so that a redelivered event is
// answered once, also across restarts, and an accepted message is not lost
// if Haven stops before its turn has run.
type Inbox interface {
	// Record stores in under in.DeliveryKey. fresh is false when the key was
	// recorded before (a redelivery); nothing is changed then.
	Record(ctx context.Context, in Inbound) (fresh bool, err error)
	// Done marks the delivery handled. The message text is not kept after it.
	Done(ctx context.Context, deliveryKey string) error
	// Unfinished returns the recorded deliveries of platform not yet Done,
	// in the order they were recorded.
	Unfinished(ctx context.Context, platform string) ([]Inbound, error)
}

// BatchInbox is an Inbox that records several deliveries in one write.
// The Hub uses it, when its Inbox is one, for AcceptAll.
type BatchInbox interface {
	Inbox
	// RecordAll records each of ins as Record does, in one transaction,
	// and returns whether each was fresh, in the order of ins. On an error
	// none of them is recorded.
	RecordAll(ctx context.Context, ins []Inbound) (fresh []bool, err error)
}

// OutboxItem is an outbound message waiting in the outbox.
type OutboxItem struct {
	ID       int64
	Out      Outbound
	Attempts int
	Created  time.Time
}

// Outbox durably holds outbound messages until the platform has taken them.
type Outbox interface {
	// Add stores messages in order and returns their ids in the same order.
	Add(ctx context.Context, outs []Outbound) ([]int64, error)
	// Sent marks a message delivered.
	Sent(ctx context.Context, id int64) error
	// Attempted records a failed attempt; reason names the failure (never the text).
	Attempted(ctx context.Context, id int64, reason string) error
	// Abandon marks a message as not deliverable (a permanent failure); it is
	// kept for operators but no longer returned by Unsent.
	Abandon(ctx context.Context, id int64, reason string) error
	// Unsent returns platform's messages not yet sent nor abandoned, oldest first.
	Unsent(ctx context.Context, platform string) ([]OutboxItem, error)
}

// TurnWrites are a turn's own writes (its transcript, its state, its
// background jobs), run by a DeferredHandler and left uncommitted so that
// a Finisher commits them in the same transaction as the turn's outbox
// rows and its inbox mark. The Hub does not look inside; the Finisher
// knows the concrete type (memory.Pending for core and the SQLite store).
type TurnWrites interface {
	// Committed is called once, after the Finisher has committed the
	// writes (err nil) or failed to (err says why; nothing was written).
	// It is not called for a turn that the end of a drain cut short: its
	// writes are dropped and the turn runs again at the next start.
	Committed(err error)
}

// DeferredHandler is an optional Handler ability, detected by type
// assertion: HandleDeferred runs a turn as Handle does, but returns its
// writes instead of committing them. writes is nil when the turn wrote
// nothing of its own (or committed it already, as commands do).
type DeferredHandler interface {
	HandleDeferred(ctx context.Context, in Inbound) (outs []Outbound, writes TurnWrites, err error)
}

// Finisher is an optional ability of the Hub's Outbox, detected by type
// assertion: end a turn with one transaction.
//
// FinishTurn commits writes (may be nil), adds outs to the outbox (in order,
// returning their ids in the same order) and marks the delivery
// deliveryKey done, all or nothing: after a crash the turn is either
// wholly recorded (its replies go out from the outbox, it is not run
// again) or not at all (the inbox runs it again). FinishTurn does not call
// writes.Committed; the Hub does.
type Finisher interface {
	FinishTurn(ctx context.Context, deliveryKey string, outs []Outbound, writes TurnWrites) ([]int64, error)
}

// ProactiveFinisher is an optional ability of the Hub's Outbox, detected
// by type assertion: record a message Haven starts (a reminder, a
// check-in) with the writes that decided it, in one transaction.
//
// FinishProactive commits writes (the Finisher knows their concrete
// type: memory.ReminderFire for the SQLite store) and adds outs to the
// outbox, all or nothing, returning the rows' ids in order. When writes
// cannot be committed (what they claim was taken meanwhile) nothing is
// written and the error says why. It does not call writes.Committed; the
// Hub does.
type ProactiveFinisher interface {
	FinishProactive(ctx context.Context, outs []Outbound, writes TurnWrites) ([]int64, error)
}
