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
