package channels

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Sink receives inbound messages from an adapter. The Hub is the Sink in
// production. Accept returns once the message is durably recorded and
// queued (the adapter may then ack the platform event); it does not wait for
// the turn to run.
type Sink interface {
	Accept(ctx context.Context, in Inbound) error
}

// BatchSink is a Sink that also takes several inbound messages at once,
// as a platform hands them over (a Telegram getUpdates batch). The Hub is
// one. AcceptAll is Accept for each of ins in order, with their deliveries
// recorded in as few writes as it can (one when there is queue room for
// all). On an error, the messages it took are recorded and queued and the
// others have left no trace: calling Accept for each of ins then retries
// the ones not taken (a taken one is dropped as a redelivery).
type BatchSink interface {
	Sink
	AcceptAll(ctx context.Context, ins []Inbound) error
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(ctx context.Context, in Inbound) error

// Accept calls f.
func (f SinkFunc) Accept(ctx context.Context, in Inbound) error { return f(ctx, in) }

// Adapter connects one platform to Haven.
//
// Run receives platform events, normalizes each into an Inbound and hands it
// to sink, until ctx is done or the input ends (the console at end of input);
// it returns nil in both cases and an error only when it cannot go on (bad
// token, unreachable platform after retries). Reconnects are Run's own job.
//
// MessageLimit says how long one message may be on the platform and how
// the platform counts it (see Measure for what each platform counts). The
// Hub splits every Outbound's Text to fit it, once, before Send; adapters
// do not split again. It must return the same value every time.
//
// Send delivers one piece of an Outbound whose Text already fits
// MessageLimit. It returns a *SendError to say whether and when to retry;
// a Retry-After holds back only out's conversation unless the error says
// it is Global. Send must return soon after ctx is done: the Hub's
// shutdown waits for it. Send never receives a File: files go to
// FileSender.SendFile, or are turned into text by the Hub.
//
// Close releases what the adapter holds; it is called after Run has returned.
type Adapter interface {
	Platform() string
	Run(ctx context.Context, sink Sink) error
	Send(ctx context.Context, out Outbound) error
	MessageLimit() Limit
	Close() error
}

// Typer is an optional Adapter ability: show that Haven is typing in a
// conversation while a turn runs.
type Typer interface {
	Typing(ctx context.Context, conv Conversation) error
}

// Live is an optional Adapter ability, detected by type assertion: say
// how recently the platform was heard from, for status and metrics.
// Liveness must be cheap and safe to call from any goroutine at any time,
// before Run, while it runs and after it has returned.
type Live interface {
	Liveness() Liveness
}

// Liveness is an adapter's connection health at one moment. Times are zero
// until the thing they record has first happened.
type Liveness struct {
	// Connected is true while the adapter holds a working connection to
	// the platform (an open socket or gateway session, a poll loop getting
	// answers, a webhook server listening).
	Connected bool
	// LastEvent is when the last inbound event arrived (a message, a
	// command, an interaction), whether or not it became a turn.
	LastEvent time.Time
	// LastHeartbeat is when the platform last proved it is there: a
	// WebSocket ping or heartbeat ack, a long poll that answered, a
	// webhook delivery.
	LastHeartbeat time.Time
}

// FileSender is an optional Adapter ability, detected by type assertion:
// deliver a file.
//
// SendFile delivers out.File whole (never split; the Hub has checked it
// with File.Check) with out.Text as its caption. out.Text already fits
// MessageLimit and may be empty; when the Text is longer than the
// platform allows for a caption, the adapter sends it as a message first
// and the file after it. Delivery rules are those of Send: Private goes
// only to Recipient, errors are *SendError. A retried SendFile may repeat
// a caption message that was already sent; it must never lose one.
//
// When a message's Text does not fit MessageLimit the Hub sends the
// leading pieces with Send and the last one with SendFile. An adapter
// without FileSender gets the file as text: the caption first, then the
// file's content in a code fence, split without loss (see FileText).
type FileSender interface {
	SendFile(ctx context.Context, out Outbound) error
}

// SendError says why a send failed and whether trying again may help.
type SendError struct {
	// Err is the underlying failure.
	Err error
	// Permanent is true when retrying cannot succeed (bad request, message
	// too long, bot removed from the chat).
	Permanent bool
	// RetryAfter is the wait the platform asked for (HTTP 429 Retry-After),
	// zero when it asked for none.
	RetryAfter time.Duration
	// Global says that RetryAfter holds for every conversation on the
	// platform (a bot-wide limit, such as Discord's global rate limit).
	// When false, the Hub holds back only the conversation of the failed
	// send, and the platform's other conversations go on, crisis replies
	// first. Telegram's 429 is per chat: not Global.
	Global bool
}

func (e *SendError) Error() string {
	switch {
	case e.Permanent:
		return fmt.Sprintf("send failed permanently: %v", e.Err)
	case e.RetryAfter > 0 && e.Global:
		return fmt.Sprintf("send rate limited on the whole platform, retry after %s: %v", e.RetryAfter, e.Err)
	case e.RetryAfter > 0:
		return fmt.Sprintf("send rate limited, retry after %s: %v", e.RetryAfter, e.Err)
	default:
		return fmt.Sprintf("send failed: %v", e.Err)
	}
}

func (e *SendError) Unwrap() error { return e.Err }

// Permanent wraps err as a send error that must not be retried.
func Permanent(err error) error { return &SendError{Err: err, Permanent: true} }

// RateLimited wraps err as a send error to retry after d, in the failed
// send's conversation only.
func RateLimited(err error, d time.Duration) error { return &SendError{Err: err, RetryAfter: d} }

// RateLimitedGlobal wraps err as a send error to retry after d that holds
// back every conversation on the platform.
func RateLimitedGlobal(err error, d time.Duration) error {
	return &SendError{Err: err, RetryAfter: d, Global: true}
}

// IsPermanent reports whether err says a send must not be retried.
// Errors that are not *SendError are treated as transient.
func IsPermanent(err error) bool {
	var se *SendError
	return errors.As(err, &se) && se.Permanent
}

// RetryAfter returns the wait a rate-limited send error asked for, or zero.
func RetryAfter(err error) time.Duration {
	var se *SendError
	if errors.As(err, &se) {
		return se.RetryAfter
	}
	return 0
}

// IsGlobalRateLimit reports whether err is a rate limit that holds for the
// whole platform (see SendError.Global).
func IsGlobalRateLimit(err error) bool {
	var se *SendError
	return errors.As(err, &se) && se.RetryAfter > 0 && se.Global
}
