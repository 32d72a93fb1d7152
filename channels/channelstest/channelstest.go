package channelstest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/internal/waitcond"
)

// Adapter is a fake channels.Adapter (and channels.Typer; FileAdapter adds
// channels.FileSender). Run hands every
// pushed Inbound to the sink in order; it returns when End was called and
// everything pushed was handed over (like the console at end of input), or
// when ctx is done. Send records each piece; errors queued with FailNext,
// or returned by SendHook, make sends fail.
type Adapter struct {
	platform string
	limit    channels.Limit

	mu         sync.Mutex
	cond       *waitcond.Cond // over mu: wakes waiters at every change
	inbox      []channels.Inbound
	ended      bool
	sent       []channels.Outbound
	attempts   []channels.Outbound
	failures   []error
	acceptErrs []error
	typing     int
	closed     bool

	// SendHook, when set, is called for every send attempt after the
	// FailNext queue is empty; its error is returned by Send. Set it before
	// Run.
	SendHook func(ctx context.Context, out channels.Outbound) error
}

// NewAdapter returns a fake adapter for platform whose messages hold at
// most limit runes.
func NewAdapter(platform string, limit int) *Adapter {
	return NewMeasuredAdapter(platform, channels.Limit{Max: limit})
}

// NewMeasuredAdapter returns a fake adapter for platform whose messages
// fit limit, in the units it counts.
func NewMeasuredAdapter(platform string, limit channels.Limit) *Adapter {
	a := &Adapter{platform: platform, limit: limit}
	a.cond = waitcond.New(&a.mu)
	return a
}

var _ channels.Adapter = (*Adapter)(nil)
var _ channels.Typer = (*Adapter)(nil)

// Platform returns the platform name.
func (a *Adapter) Platform() string { return a.platform }

// MessageLimit returns the limit given to NewAdapter or NewMeasuredAdapter.
func (a *Adapter) MessageLimit() channels.Limit { return a.limit }

// Push queues inbound messages for Run to hand to the sink.
func (a *Adapter) Push(ins ...channels.Inbound) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.inbox = append(a.inbox, ins...)
	a.cond.Broadcast()
}

// End says the input has ended: Run returns once the pushed messages are
// handed over.
func (a *Adapter) End() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ended = true
	a.cond.Broadcast()
}

// Run hands pushed messages to sink until End or ctx is done. An Accept
// error is recorded (see AcceptErrors) and the message skipped.
func (a *Adapter) Run(ctx context.Context, sink channels.Sink) error {
	for {
		a.mu.Lock()
		if len(a.inbox) > 0 {
			in := a.inbox[0]
			a.inbox = a.inbox[1:]
			a.mu.Unlock()
			if err := sink.Accept(ctx, in); err != nil {
				a.mu.Lock()
				a.acceptErrs = append(a.acceptErrs, err)
				a.cond.Broadcast()
				a.mu.Unlock()
			}
			continue
		}
		if a.ended {
			a.mu.Unlock()
			return nil
		}
		ch := a.cond.Changed()
		a.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil
		}
	}
}

// FailNext queues errors for the next send attempts, one each.
func (a *Adapter) FailNext(errs ...error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.failures = append(a.failures, errs...)
}

// Send records out, or fails with the next queued error or SendHook's.
// It also fails when out.Text is longer than the limit, as a platform
// would, and when out carries a File (the contract gives files to
// FileSender only).
func (a *Adapter) Send(ctx context.Context, out channels.Outbound) error {
	if out.File != nil {
		a.mu.Lock()
		a.attempts = append(a.attempts, out)
		a.cond.Broadcast()
		a.mu.Unlock()
		return channels.Permanent(errors.New("Send was given a file"))
	}
	return a.record(ctx, out)
}

// record is a send attempt of out: Send's and SendFile's common part.
func (a *Adapter) record(ctx context.Context, out channels.Outbound) error {
	a.mu.Lock()
	a.attempts = append(a.attempts, out)
	var err error
	if len(a.failures) > 0 {
		err = a.failures[0]
		a.failures = a.failures[1:]
	}
	hook := a.SendHook
	a.mu.Unlock()
	if err == nil && hook != nil {
		err = hook(ctx, out)
	}
	if err == nil && !a.limit.Fits(out.Text) {
		err = channels.Permanent(fmt.Errorf("message of %d %s is over the limit of %s", a.limit.Measure.Len(out.Text), a.limit.Measure, a.limit))
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err == nil {
		a.sent = append(a.sent, out)
	}
	a.cond.Broadcast()
	return err
}

// FileAdapter is an Adapter that is also a channels.FileSender. SendFile
// records the message with its file among the sent pieces (Sent, Files),
// with the same FailNext, SendHook and text-limit rules as Send.
type FileAdapter struct {
	*Adapter
}

// NewFileAdapter returns a fake adapter for platform that takes files;
// its messages hold at most limit runes.
func NewFileAdapter(platform string, limit int) *FileAdapter {
	return &FileAdapter{Adapter: NewAdapter(platform, limit)}
}

var _ channels.FileSender = (*FileAdapter)(nil)

// SendFile records out, which must carry a File that passes File.Check, or
// fails like Send.
func (a *FileAdapter) SendFile(ctx context.Context, out channels.Outbound) error {
	if err := out.File.Check(); err != nil {
		a.mu.Lock()
		a.attempts = append(a.attempts, out)
		a.cond.Broadcast()
		a.mu.Unlock()
		return channels.Permanent(fmt.Errorf("SendFile: %w", err))
	}
	return a.record(ctx, out)
}

// Files returns the delivered messages that carried a file, in order.
func (a *FileAdapter) Files() []channels.Outbound {
	var out []channels.Outbound
	for _, s := range a.Sent() {
		if s.File != nil {
			out = append(out, s)
		}
	}
	return out
}

// Typing counts typing indications.
func (a *Adapter) Typing(ctx context.Context, conv channels.Conversation) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.typing++
	return nil
}

// Close marks the adapter closed.
func (a *Adapter) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	a.cond.Broadcast()
	return nil
}

// Sent returns the pieces delivered so far, in order.
func (a *Adapter) Sent() []channels.Outbound {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.sent)
}

// Attempts returns every send attempt so far, failed ones included.
func (a *Adapter) Attempts() []channels.Outbound {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.attempts)
}

// AcceptErrors returns the errors the sink returned from Accept.
func (a *Adapter) AcceptErrors() []error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.acceptErrs)
}

// TypingCount returns how many typing indications were shown.
func (a *Adapter) TypingCount() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.typing
}

// Closed reports whether Close was called.
func (a *Adapter) Closed() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.closed
}

// WaitSent blocks until at least n pieces were delivered or ctx is done,
// and returns the pieces delivered.
func (a *Adapter) WaitSent(ctx context.Context, n int) ([]channels.Outbound, error) {
	return a.wait(ctx, func() bool { return len(a.sent) >= n }, a.Sent)
}

// WaitAttempts blocks until at least n send attempts were made or ctx is
// done, and returns them.
func (a *Adapter) WaitAttempts(ctx context.Context, n int) ([]channels.Outbound, error) {
	return a.wait(ctx, func() bool { return len(a.attempts) >= n }, a.Attempts)
}

func (a *Adapter) wait(ctx context.Context, done func() bool, get func() []channels.Outbound) ([]channels.Outbound, error) {
	if err := a.cond.Wait(ctx, done); err != nil {
		return get(), fmt.Errorf("wait for sends: %w", err)
	}
	return get(), nil
}

// MemInbox is an in-memory channels.Inbox. It is safe for concurrent use
// and may be shared by several Hubs in turn to model a restart.
type MemInbox struct {
	mu      sync.Mutex
	seq     int
	entries map[string]*inboxEntry
	// Err, when set, is returned by every method (a broken store).
	Err error
}

type inboxEntry struct {
	seq  int
	in   channels.Inbound
	done bool
}

// NewMemInbox returns an empty inbox.
func NewMemInbox() *MemInbox { return &MemInbox{entries: map[string]*inboxEntry{}} }

// Record stores in under its delivery key; fresh is false for a key seen
// before.
func (m *MemInbox) Record(ctx context.Context, in channels.Inbound) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Err != nil {
		return false, m.Err
	}
	if in.DeliveryKey == "" {
		return false, errors.New("record: empty delivery key")
	}
	if _, ok := m.entries[in.DeliveryKey]; ok {
		return false, nil
	}
	m.seq++
	m.entries[in.DeliveryKey] = &inboxEntry{seq: m.seq, in: in}
	return true, nil
}

// Done marks a delivery handled and forgets its text.
func (m *MemInbox) Done(ctx context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Err != nil {
		return m.Err
	}
	e, ok := m.entries[key]
	if !ok {
		return fmt.Errorf("done: unknown delivery key %q", key)
	}
	e.done = true
	e.in.Text = ""
	return nil
}

// Unfinished returns platform's deliveries not yet done, oldest first.
func (m *MemInbox) Unfinished(ctx context.Context, platform string) ([]channels.Inbound, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Err != nil {
		return nil, m.Err
	}
	var es []*inboxEntry
	for _, e := range m.entries {
		if !e.done && e.in.Platform == platform {
			es = append(es, e)
		}
	}
	slices.SortFunc(es, func(a, b *inboxEntry) int { return a.seq - b.seq })
	out := make([]channels.Inbound, len(es))
	for i, e := range es {
		out[i] = e.in
	}
	return out, nil
}

// Len returns how many deliveries were recorded.
func (m *MemInbox) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.entries)
}

// OutState is the state of an outbox message.
type OutState string

// The outbox states.
const (
	OutPending   OutState = "pending"
	OutSent      OutState = "sent"
	OutAbandoned OutState = "abandoned"
)

// OutRecord is one message in a MemOutbox.
type OutRecord struct {
	channels.OutboxItem
	State   OutState
	Reasons []string // failure reasons, in order
}

// MemOutbox is an in-memory channels.Outbox, safe for concurrent use.
type MemOutbox struct {
	mu    sync.Mutex
	next  int64
	items map[int64]*OutRecord
	// Err, when set, is returned by every method (a broken store).
	Err error
}

// NewMemOutbox returns an empty outbox.
func NewMemOutbox() *MemOutbox { return &MemOutbox{items: map[int64]*OutRecord{}} }

// Add stores messages and returns their ids in order.
func (m *MemOutbox) Add(ctx context.Context, outs []channels.Outbound) ([]int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Err != nil {
		return nil, m.Err
	}
	ids := make([]int64, len(outs))
	for i, o := range outs {
		m.next++
		m.items[m.next] = &OutRecord{OutboxItem: channels.OutboxItem{ID: m.next, Out: o, Created: time.Now()}, State: OutPending}
		ids[i] = m.next
	}
	return ids, nil
}

func (m *MemOutbox) get(id int64) (*OutRecord, error) {
	if m.Err != nil {
		return nil, m.Err
	}
	r, ok := m.items[id]
	if !ok {
		return nil, fmt.Errorf("outbox: unknown id %d", id)
	}
	return r, nil
}

// Sent marks a message delivered.
func (m *MemOutbox) Sent(ctx context.Context, id int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.get(id)
	if err != nil {
		return err
	}
	r.State = OutSent
	return nil
}

// Attempted records a failed attempt.
func (m *MemOutbox) Attempted(ctx context.Context, id int64, reason string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.get(id)
	if err != nil {
		return err
	}
	r.Attempts++
	r.Reasons = append(r.Reasons, reason)
	return nil
}

// Abandon marks a message undeliverable.
func (m *MemOutbox) Abandon(ctx context.Context, id int64, reason string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, err := m.get(id)
	if err != nil {
		return err
	}
	r.State = OutAbandoned
	r.Reasons = append(r.Reasons, reason)
	return nil
}

// Unsent returns platform's pending messages, oldest first.
func (m *MemOutbox) Unsent(ctx context.Context, platform string) ([]channels.OutboxItem, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.Err != nil {
		return nil, m.Err
	}
	var out []channels.OutboxItem
	for _, r := range m.items {
		if r.State == OutPending && r.Out.Platform == platform {
			out = append(out, r.OutboxItem)
		}
	}
	slices.SortFunc(out, func(a, b channels.OutboxItem) int { return int(a.ID - b.ID) })
	return out, nil
}

// Records returns every message with its state, by id.
func (m *MemOutbox) Records() []OutRecord {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]OutRecord, 0, len(m.items))
	for _, r := range m.items {
		c := *r
		c.Reasons = slices.Clone(r.Reasons)
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b OutRecord) int { return int(a.ID - b.ID) })
	return out
}
