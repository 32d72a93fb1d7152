package channels

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// ErrHubClosed is returned by Accept once the Hub has stopped taking
// messages (it is draining or has stopped). The adapter should not ack the
// event, so that the platform delivers it again later.
var ErrHubClosed = errors.New("hub closed")

// ErrorNotice is the text sent to a conversation when its turn failed, so
// that nobody is left without an answer.
const ErrorNotice = "Sorry — something went wrong on my side and I couldn't answer that. Please try again in a moment."

// HubOptions tune a Hub. The zero value gives the defaults noted per field.
// Time-dependent behaviour (backoff, Retry-After, rate limits, drain) uses
// the time package, so tests run it under testing/synctest.
type HubOptions struct {
	// Workers is how many turns run at once across conversations (default 8).
	Workers int
	// MaxQueued bounds the accepted turns not yet finished; when it is
	// reached Accept blocks until there is room or its ctx is done
	// (default 1024).
	MaxQueued int
	// SendersPerPlatform is how many sends run at once per platform
	// (default 4).
	SendersPerPlatform int
	// TurnTimeout bounds one Handler call (default 2 minutes).
	TurnTimeout time.Duration
	// DrainTimeout bounds the graceful drain after the adapters stop
	// (default 15 seconds); the drain ends sooner when nothing left can be
	// tried before it ends. What is left stays in the inbox and outbox and
	// is replayed by the next Run.
	DrainTimeout time.Duration
	// BaseBackoff and MaxBackoff shape the backoff between attempts after a
	// transient send error: the wait doubles from BaseBackoff up to
	// MaxBackoff, each randomized by ±50% (defaults 500ms, 30s). A
	// conversation waiting for its retry holds no sender.
	BaseBackoff, MaxBackoff time.Duration
	// MaxRetryAfter caps a platform's Retry-After (default 60s).
	MaxRetryAfter time.Duration
	// MaxAge bounds the retries of an ordinary message in time: a transient
	// failure of a message made longer ago than this abandons it, with a
	// warning in the log, counted in Stats.GivenUp (default 6 hours).
	// Crisis messages are never abandoned for transient failures: they are
	// retried until they go out or the Hub stops, and then stay in the
	// outbox.
	MaxAge time.Duration
	// ConversationRate and ConversationBurst limit sends per conversation
	// (defaults 1/s, burst 3). rate.Inf disables the limit.
	ConversationRate  rate.Limit
	ConversationBurst int
	// PlatformRate and PlatformBurst limit sends per platform (defaults
	// 25/s, burst 25). rate.Inf disables the limit.
	PlatformRate  rate.Limit
	PlatformBurst int
	// NoRateLimit disables both rate limits.
	NoRateLimit bool
	// Logger receives the Hub's logs (default slog.Default()). The Hub
	// never logs message text.
	Logger *slog.Logger
	// Policies, when set, gives each conversation's policy: a message in a
	// shared conversation whose policy is PolicyAll is admitted though it
	// does not address Haven. nil (or a failed read) keeps the default,
	// PolicyMentions.
	Policies ChannelPolicies
}

func (o HubOptions) withDefaults() HubOptions {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defD := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.Workers, 8)
	def(&o.MaxQueued, 1024)
	def(&o.SendersPerPlatform, 4)
	def(&o.ConversationBurst, 3)
	def(&o.PlatformBurst, 25)
	defD(&o.TurnTimeout, 2*time.Minute)
	defD(&o.DrainTimeout, 15*time.Second)
	defD(&o.BaseBackoff, 500*time.Millisecond)
	defD(&o.MaxBackoff, 30*time.Second)
	defD(&o.MaxRetryAfter, time.Minute)
	defD(&o.MaxAge, 6*time.Hour)
	if o.ConversationRate <= 0 {
		o.ConversationRate = 1
	}
	if o.PlatformRate <= 0 {
		o.PlatformRate = 25
	}
	if o.NoRateLimit {
		o.ConversationRate, o.PlatformRate = rate.Inf, rate.Inf
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Stats are the Hub's counters since it was made. After Run has returned,
// Queued is the number of turns left in the inbox and Left the number of
// replies left in the outbox, both for the next start.
type Stats struct {
	Accepted    int64 // inbound messages queued for a turn
	Duplicates  int64 // redeliveries dropped by the inbox
	Ignored     int64 // inbound messages the channel policy dropped
	Replayed    int64 // unfinished turns replayed from the inbox at start
	Turns       int64 // turns run
	TurnErrors  int64 // turns whose Handler failed (answered with ErrorNotice)
	Sent        int64 // outbound messages fully delivered
	Pieces      int64 // pieces sent (an outbound split in three counts three)
	Retries     int64 // failed send attempts that will be retried
	RateLimited int64 // send attempts the platform refused with a Retry-After
	Abandoned   int64 // outbound messages given up on, for any reason
	GivenUp     int64 // outbound messages abandoned after MaxAge of transient failures (also in Abandoned)
	Queued      int64 // turns accepted and not yet finished (a gauge)
	Pending     int64 // outbound messages not yet delivered nor abandoned (a gauge)
	Left        int64 // set when Run returns: replies left unsent in the outbox, sent by the next Run
	Lost        int64 // set when Run returns: replies left unsent that the outbox could not record
}

type counters struct {
	accepted, duplicates, ignored, replayed, turns, turnErrors atomic.Int64
	sent, pieces, retries, rateLimited, abandoned, givenUp     atomic.Int64
	left, lost                                                 atomic.Int64
}

// Hub runs adapters: it takes their inbound messages (it is their Sink),
// drops what the channel policy or the dedupe inbox rejects, runs one turn
// per message through the Handler with one ordered queue per conversation
// and a bounded pool of workers, and delivers the replies through the
// originating adapter, split at its limit, rate limited, retried and
// recorded in the outbox.
//
// Ordering key: a conversation's queue is keyed by Conversation.ID alone, so
// messages in different threads of one conversation are also kept in order
// (a conversation is one session; its turns never overlap).
type Hub struct {
	handler Handler
	inbox   Inbox
	outbox  Outbox
	// finisher is the outbox when it can end a turn in one transaction.
	finisher Finisher
	opts     HubOptions
	log      *slog.Logger

	adapters  []Adapter
	platforms map[string]*platformQueue

	slots  chan struct{}   // one per queued turn, capacity MaxQueued
	ready  chan *convQueue // conversations with a turn to run
	closed chan struct{}   // closed when Accept must stop
	change chan struct{}   // signalled when pending work shrinks
	mu     sync.Mutex      // guards convs, keys, started, closing
	convs  map[string]*convQueue
	keys   map[string]bool // delivery keys queued or running in this process
	// started and closing guard Run and Accept; replayed is set once Run
	// has queued what the outbox held (Proactive waits for it, so that a
	// row it adds is not also replayed).
	started, closing, replayed bool

	pendingTurns atomic.Int64
	pendingOut   atomic.Int64
	stats        counters
}

type convQueue struct {
	key   string
	items []Inbound
}

func finisherOf(o Outbox) Finisher {
	f, _ := o.(Finisher)
	return f
}

// NewHub returns a Hub that runs turns with h and keeps its dedupe and
// delivery state in inbox and outbox. When outbox is a Finisher and h a
// DeferredHandler, each turn ends in one transaction: the turn's own
// writes, its replies and its inbox mark together.
func NewHub(h Handler, inbox Inbox, outbox Outbox, opts HubOptions) *Hub {
	opts = opts.withDefaults()
	return &Hub{
		handler:   h,
		inbox:     inbox,
		outbox:    outbox,
		finisher:  finisherOf(outbox),
		opts:      opts,
		log:       opts.Logger,
		platforms: map[string]*platformQueue{},
		slots:     make(chan struct{}, opts.MaxQueued),
		ready:     make(chan *convQueue, opts.MaxQueued),
		closed:    make(chan struct{}),
		change:    make(chan struct{}, 1),
		convs:     map[string]*convQueue{},
		keys:      map[string]bool{},
	}
}

// Register adds an adapter. It must be called before Run, once per
// platform; it panics otherwise, as that is a wiring mistake.
func (h *Hub) Register(a Adapter) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.started {
		panic("channels: Hub.Register called after Run")
	}
	p := a.Platform()
	if _, dup := h.platforms[p]; dup {
		panic(fmt.Sprintf("channels: adapter for platform %q registered twice", p))
	}
	h.adapters = append(h.adapters, a)
	h.platforms[p] = newPlatformQueue(h, a)
}

// Stats returns a snapshot of the Hub's counters.
func (h *Hub) Stats() Stats {
	c := &h.stats
	return Stats{
		Accepted: c.accepted.Load(), Duplicates: c.duplicates.Load(), Ignored: c.ignored.Load(),
		Replayed: c.replayed.Load(), Turns: c.turns.Load(), TurnErrors: c.turnErrors.Load(),
		Sent: c.sent.Load(), Pieces: c.pieces.Load(), Retries: c.retries.Load(), RateLimited: c.rateLimited.Load(),
		Abandoned: c.abandoned.Load(), GivenUp: c.givenUp.Load(),
		Queued: h.pendingTurns.Load(), Pending: h.pendingOut.Load(), Left: c.left.Load(), Lost: c.lost.Load(),
	}
}

// Admit applies the channel policy to an inbound message: DMs are always
// answered; in groups and channels only messages that mention Haven or
// reply to it; edits are never run as new turns; messages from bots
// (Haven included) are dropped. It returns the reason when it drops one.
func Admit(in Inbound) (ok bool, reason string) {
	switch {
	case in.Author.IsBot:
		return false, "author is a bot"
	case in.Edited:
		return false, "edit of an earlier message"
	case in.Conversation.Kind == KindDM:
		return true, ""
	case in.MentionsBot:
		return true, ""
	default:
		return false, reasonNotAddressed
	}
}

// reasonNotAddressed is Admit's reason for a message in a shared
// conversation that does not address Haven.
const reasonNotAddressed = "not addressed to the bot in a shared conversation"

// admitAll reports whether a message Admit dropped for not addressing
// Haven is admitted all the same: its conversation's policy is PolicyAll.
func (h *Hub) admitAll(ctx context.Context, in Inbound, reason string) bool {
	if reason != reasonNotAddressed || h.opts.Policies == nil {
		return false
	}
	st, err := h.opts.Policies.ChannelSettings(ctx, in.Conversation.ID)
	if err != nil {
		h.log.Warn("channel policy unavailable; answering mentions only", slog.String("conversation", in.Conversation.ID), slog.Any("err", err))
		return false
	}
	return st.Policy == PolicyAll
}

// Accept implements Sink. It checks the channel policy, records the delivery
// in the inbox (a redelivered key is dropped silently) and queues the turn
// on its conversation. It blocks while MaxQueued turns are waiting, until
// there is room or ctx is done. It returns nil for dropped messages, an
// error naming the problem for malformed ones, and ErrHubClosed once the
// Hub is draining.
func (h *Hub) Accept(ctx context.Context, in Inbound) error {
	if ok, err := h.admit(ctx, in); !ok || err != nil {
		return err
	}
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("accept delivery %s: waiting for queue room: %w", in.DeliveryKey, ctx.Err())
	case <-h.closed:
		return ErrHubClosed
	}
	fresh, err := h.inbox.Record(ctx, in)
	if err != nil {
		<-h.slots
		return fmt.Errorf("record delivery %s: %w", in.DeliveryKey, err)
	}
	h.queueRecorded(in, fresh)
	return nil
}

// admit applies the channel policy to in and checks it is well formed:
// ok is false for a message the policy drops (counted as ignored), err
// names what is missing from a malformed one, and is ErrHubClosed once the
// Hub is draining.
func (h *Hub) admit(ctx context.Context, in Inbound) (ok bool, err error) {
	if ok, reason := Admit(in); !ok && !h.admitAll(ctx, in, reason) {
		h.stats.ignored.Add(1)
		h.log.Debug("inbound ignored by policy", slog.String("platform", in.Platform), slog.String("conversation", in.Conversation.ID), slog.String("reason", reason))
		return false, nil
	}
	switch {
	case in.DeliveryKey == "":
		return false, fmt.Errorf("accept message %s: inbound has no delivery key", in.MessageID)
	case in.Platform == "":
		return false, fmt.Errorf("accept delivery %s: inbound has no platform", in.DeliveryKey)
	case in.Conversation.ID == "":
		return false, fmt.Errorf("accept delivery %s: inbound has no conversation id", in.DeliveryKey)
	}
	select {
	case <-h.closed:
		return false, ErrHubClosed
	default:
	}
	return true, nil
}

// queueRecorded queues in, recorded in the inbox and holding a slot, when
// fresh and not already queued in this process; otherwise it drops it as
// a redelivery and frees its slot.
func (h *Hub) queueRecorded(in Inbound, fresh bool) {
	if !fresh || !h.enqueue(in) {
		<-h.slots
		h.stats.duplicates.Add(1)
		h.log.Debug("duplicate delivery dropped", slog.String("platform", in.Platform), slog.String("delivery_key", in.DeliveryKey))
		return
	}
	h.stats.accepted.Add(1)
}

// AcceptAll implements BatchSink: Accept for each of ins in order, with
// the deliveries that have queue room recorded in one write when the
// inbox is a BatchInbox. It waits for queue room only while it holds none,
// so that two adapters batching at once never wait on each other's slots.
// Every message is checked before any is recorded: a malformed one fails
// the call with nothing of it taken.
func (h *Hub) AcceptAll(ctx context.Context, ins []Inbound) error {
	batch, ok := h.inbox.(BatchInbox)
	if !ok || len(ins) < 2 {
		for _, in := range ins {
			if err := h.Accept(ctx, in); err != nil {
				return err
			}
		}
		return nil
	}
	take := make([]Inbound, 0, len(ins))
	for _, in := range ins {
		ok, err := h.admit(ctx, in)
		if err != nil {
			return err
		}
		if ok {
			take = append(take, in)
		}
	}
	for len(take) > 0 {
		// One slot, waiting if need be; then as many more as are free.
		select {
		case h.slots <- struct{}{}:
		case <-ctx.Done():
			return fmt.Errorf("accept delivery %s: waiting for queue room: %w", take[0].DeliveryKey, ctx.Err())
		case <-h.closed:
			return ErrHubClosed
		}
		n := 1
	more:
		for n < len(take) {
			select {
			case h.slots <- struct{}{}:
				n++
			default:
				break more
			}
		}
		chunk := take[:n]
		fresh, err := batch.RecordAll(ctx, chunk)
		if err == nil && len(fresh) != len(chunk) {
			err = fmt.Errorf("the inbox answered for %d deliveries, not %d", len(fresh), len(chunk))
		}
		if err != nil {
			for range n {
				<-h.slots
			}
			return fmt.Errorf("record deliveries %s to %s: %w", chunk[0].DeliveryKey, chunk[n-1].DeliveryKey, err)
		}
		for i, in := range chunk {
			h.queueRecorded(in, fresh[i])
		}
		take = take[n:]
	}
	return nil
}

var _ BatchSink = (*Hub)(nil)

// enqueue appends in to its conversation's queue, holding a slot. It
// returns false when the delivery key is already queued in this process.
func (h *Hub) enqueue(in Inbound) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.keys[in.DeliveryKey] {
		return false
	}
	h.keys[in.DeliveryKey] = true
	h.pendingTurns.Add(1)
	q, ok := h.convs[in.Conversation.ID]
	if !ok {
		q = &convQueue{key: in.Conversation.ID}
		h.convs[q.key] = q
	}
	q.items = append(q.items, in)
	if len(q.items) == 1 {
		// Not scheduled: the queue was empty and no worker holds it
		// (a worker removes an emptied queue from convs). Cannot block:
		// ready holds at most one entry per queued turn.
		h.ready <- q
	}
	return true
}

// Run serves every registered adapter until ctx is done or every adapter's
// Run has returned, then drains: queued turns are run and queued messages
// delivered, for at most DrainTimeout. When the drain ends, every turn and
// send still running is cancelled and every goroutine of the Hub ends; what
// is left stays in the inbox and outbox, and Run logs how much (Stats.Queued
// and Stats.Left say it too). Before the adapters start it replays what an
// earlier run left unfinished (outbox first, then inbox). It closes the
// adapters before returning, and returns the adapters' errors joined. Run
// may be called once.
func (h *Hub) Run(ctx context.Context) error {
	h.mu.Lock()
	if h.started {
		h.mu.Unlock()
		return errors.New("hub run: already started")
	}
	h.started = true
	h.mu.Unlock()
	if len(h.adapters) == 0 {
		return errors.New("hub run: no adapters registered")
	}

	workCtx, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWork()
	var workers sync.WaitGroup
	for range h.opts.Workers {
		workers.Go(func() { h.worker(workCtx) })
	}
	for _, p := range h.platforms {
		for range h.opts.SendersPerPlatform {
			workers.Go(func() { p.sender(workCtx) })
		}
	}

	err := h.replay(ctx)
	h.mu.Lock()
	h.replayed = err == nil
	h.mu.Unlock()
	var adapterErrs []error
	if err == nil {
		var mu sync.Mutex
		var running sync.WaitGroup
		for _, a := range h.adapters {
			running.Go(func() {
				if err := a.Run(ctx, h); err != nil {
					h.log.Error("adapter stopped", slog.String("platform", a.Platform()), slog.Any("err", err))
					mu.Lock()
					adapterErrs = append(adapterErrs, fmt.Errorf("run %s adapter: %w", a.Platform(), err))
					mu.Unlock()
				}
			})
		}
		running.Wait()
	}

	h.mu.Lock()
	h.closing = true
	close(h.closed)
	h.mu.Unlock()
	h.drain()
	stopWork()
	workers.Wait()
	h.reportLeft()
	for _, a := range h.adapters {
		if cerr := a.Close(); cerr != nil {
			adapterErrs = append(adapterErrs, fmt.Errorf("close %s adapter: %w", a.Platform(), cerr))
		}
	}
	if err != nil {
		return err
	}
	return errors.Join(adapterErrs...)
}

// replay queues what an earlier run left: unsent outbound messages, then
// turns that were accepted but not finished.
func (h *Hub) replay(ctx context.Context) error {
	for _, a := range h.adapters {
		p := h.platforms[a.Platform()]
		items, err := h.outbox.Unsent(ctx, a.Platform())
		if err != nil {
			return fmt.Errorf("hub run: replay outbox of %s: %w", a.Platform(), err)
		}
		now := time.Now()
		for _, it := range items {
			created := it.Created
			if created.IsZero() {
				created = now // an outbox that keeps no time: its age counts from now
			}
			p.enqueue(&outItem{id: it.ID, durable: true, out: it.Out, attempts: it.Attempts, created: created})
		}
	}
	for _, a := range h.adapters {
		ins, err := h.inbox.Unfinished(ctx, a.Platform())
		if err != nil {
			return fmt.Errorf("hub run: replay inbox of %s: %w", a.Platform(), err)
		}
		for _, in := range ins {
			select {
			case h.slots <- struct{}{}:
			case <-ctx.Done():
				return nil
			}
			if h.enqueue(in) {
				h.stats.replayed.Add(1)
			} else {
				<-h.slots
			}
		}
	}
	return nil
}

// drain waits until no turn and no outbound message is pending,
// DrainTimeout has passed, or no turn is left and no pending message can be
// tried before DrainTimeout passes (they wait for a Retry-After or a
// backoff that ends later).
func (h *Hub) drain() {
	deadline := time.Now().Add(h.opts.DrainTimeout)
	timer := time.NewTimer(h.opts.DrainTimeout)
	defer timer.Stop()
	for h.pendingTurns.Load() > 0 || h.pendingOut.Load() > 0 {
		if h.pendingTurns.Load() == 0 && h.stuckPast(deadline) {
			return
		}
		select {
		case <-h.change:
		case <-timer.C:
			return
		}
	}
}

// stuckPast reports whether no platform can try a pending message before
// deadline.
func (h *Hub) stuckPast(deadline time.Time) bool {
	for _, p := range h.platforms {
		if !p.stuckPast(deadline) {
			return false
		}
	}
	return true
}

// reportLeft counts and logs what Run leaves for the next start. The
// Hub's goroutines must have stopped.
func (h *Hub) reportLeft() {
	var left, lost int64
	for _, p := range h.platforms {
		d, l := p.left()
		left += d
		lost += l
	}
	h.stats.left.Store(left)
	h.stats.lost.Store(lost)
	turns := h.pendingTurns.Load()
	switch {
	case lost > 0:
		h.log.Error("hub stopped; replies the outbox could not record are lost",
			slog.Int64("replies_lost", lost), slog.Int64("replies_left_in_outbox", left), slog.Int64("turns_left_in_inbox", turns))
	case left > 0 || turns > 0:
		h.log.Warn("hub stopped before everything was delivered; the rest is kept for the next start",
			slog.Int64("replies_left_in_outbox", left), slog.Int64("turns_left_in_inbox", turns))
	default:
		h.log.Info("hub stopped; everything was delivered")
	}
}

func (h *Hub) signal() {
	select {
	case h.change <- struct{}{}:
	default:
	}
}

// worker runs turns: it takes a conversation, runs its next turn and puts
// the conversation back at the end of the line if it has more, so that one
// busy conversation cannot hold a worker while others wait.
//
// When ctx is done it stops; a turn it did not finish stays in the inbox
// and counts in pendingTurns.
func (h *Hub) worker(ctx context.Context) {
	for {
		var q *convQueue
		select {
		case q = <-h.ready:
		case <-ctx.Done():
			return
		}
		if ctx.Err() != nil {
			return
		}
		h.mu.Lock()
		in := q.items[0]
		h.mu.Unlock()

		finished := h.runTurn(ctx, in)

		h.mu.Lock()
		q.items[0] = Inbound{}
		q.items = q.items[1:]
		delete(h.keys, in.DeliveryKey)
		if len(q.items) == 0 {
			delete(h.convs, q.key)
		} else {
			h.ready <- q
		}
		h.mu.Unlock()
		<-h.slots
		if finished {
			h.pendingTurns.Add(-1)
		}
		h.signal()
	}
}

// bookkeeping returns a context for store writes that must happen even
// when ctx was just cancelled by the end of the drain.
func bookkeeping(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
}

// runTurn runs one turn and hands its outbound messages to delivery. It
// reports false when ctx ended (the drain is over) before or while the
// turn ran: the turn stays in the inbox, to be run by the next start.
func (h *Hub) runTurn(ctx context.Context, in Inbound) bool {
	if ctx.Err() != nil {
		return false
	}
	log := func() *slog.Logger { // built only when something is logged
		return h.log.With(slog.String("platform", in.Platform), slog.String("conversation", in.Conversation.ID), slog.String("delivery_key", in.DeliveryKey))
	}
	tctx, cancel := context.WithTimeout(ctx, h.opts.TurnTimeout)
	defer cancel()
	p := h.platforms[in.Platform]
	if p != nil {
		if t, ok := p.adapter.(Typer); ok {
			if err := t.Typing(tctx, in.Conversation); err != nil {
				log().Debug("typing indicator failed", slog.Any("err", err))
			}
		}
	}
	outs, writes, err := h.handle(tctx, in)
	if ctx.Err() != nil {
		// Stopped by the end of the drain, not failed. Whatever the turn
		// returned was made with a cancelled context: a store call that
		// failed may have made it skip its own writes and answer as it does
		// when the store is down (core still answers a crisis then). So
		// nothing of it is kept: no apology, no reply, its writes dropped,
		// and the inbox runs it again at the next start, whose senders are
		// the first that could send its reply anyway.
		log().Debug("turn stopped by shutdown; it is replayed at the next start", slog.Any("err", err))
		return false
	}
	h.stats.turns.Add(1)
	if err != nil {
		h.stats.turnErrors.Add(1)
		log().Warn("turn failed; sending an apology", slog.Any("err", err))
		outs = []Outbound{{
			Platform: in.Platform, Conversation: in.Conversation, ReplyTo: in.MessageID,
			Kind: OutNotice, Text: ErrorNotice,
		}}
	}
	for i := range outs {
		if outs[i].Platform == "" {
			outs[i].Platform = in.Platform
		}
		if outs[i].Conversation.ID == "" {
			outs[i].Conversation = in.Conversation
		}
		if len(outs[i].Choices) > 0 && !ChoicesFit(outs[i].Choices) {
			log().Warn("outbound choices do not fit every platform; sending the message without buttons", slog.Int("choices", len(outs[i].Choices)))
			outs[i].Choices = nil
		}
		if outs[i].File != nil {
			if reason := checkFile(&outs[i]); reason != "" {
				log().Warn("outbound file not deliverable; sending a note instead", slog.String("reason", reason))
			}
		}
	}
	bctx, bcancel := bookkeeping(ctx)
	defer bcancel()
	ids := h.finish(bctx, in, outs, writes, log)
	now := time.Now()
	for i, out := range outs {
		it := &outItem{out: out, created: now}
		if ids != nil {
			it.id, it.durable = ids[i], true
		}
		h.deliver(it)
	}
	return true
}

// handle calls the Handler, turning a panic into an error. When the
// outbox can finish a turn in one transaction and the Handler can defer
// its writes, the turn's writes come back uncommitted, for finish.
func (h *Hub) handle(ctx context.Context, in Inbound) (outs []Outbound, writes TurnWrites, err error) {
	defer func() {
		if r := recover(); r != nil {
			h.log.Debug("handler panic value", slog.Any("value", r))
			outs, writes, err = nil, nil, errors.New("handler panicked")
		}
	}()
	if d, ok := h.handler.(DeferredHandler); ok && h.finisher != nil {
		return d.HandleDeferred(ctx, in)
	}
	outs, err = h.handler.Handle(ctx, in)
	return outs, nil, err
}

// finish records the end of a turn: its own writes, its replies in the
// outbox and its delivery done; in one transaction when the outbox is a
// Finisher. It returns the replies' outbox ids, or nil when they could
// not be recorded: they are delivered from memory then, so the person
// still gets the answer.
func (h *Hub) finish(ctx context.Context, in Inbound, outs []Outbound, writes TurnWrites, log func() *slog.Logger) []int64 {
	if h.finisher != nil {
		ids, err := h.finisher.FinishTurn(ctx, in.DeliveryKey, outs, writes)
		if writes != nil {
			writes.Committed(err)
			if err != nil {
				// The turn's own writes may be what failed (its session
				// was forgotten meanwhile): record the replies without them.
				log().Error("committing the turn's writes failed; recording its replies without them", slog.Any("err", err))
				ids, err = h.finisher.FinishTurn(ctx, in.DeliveryKey, outs, nil)
			}
		}
		if err == nil && len(ids) == len(outs) {
			return ids
		}
		log().Error("finishing the turn failed; delivering its replies without a durable record", slog.Any("err", err), slog.Int("ids", len(ids)))
		// Nothing was written: at least keep the turn from running again.
		if err := h.inbox.Done(ctx, in.DeliveryKey); err != nil {
			log().Error("inbox done failed", slog.Any("err", err))
		}
		return nil
	}
	var ids []int64
	if len(outs) > 0 {
		var err error
		ids, err = h.outbox.Add(ctx, outs)
		if err != nil || len(ids) != len(outs) {
			// Deliver anyway, from memory, so the person gets the answer.
			log().Error("outbox add failed; delivering without a durable record", slog.Any("err", err), slog.Int("ids", len(ids)))
			ids = nil
		}
	}
	if err := h.inbox.Done(ctx, in.DeliveryKey); err != nil {
		log().Error("inbox done failed", slog.Any("err", err))
	}
	return ids
}

// deliver queues it on its platform, or abandons it when no adapter serves
// the platform.
func (h *Hub) deliver(it *outItem) {
	p := h.platforms[it.out.Platform]
	if p == nil {
		h.pendingOut.Add(1)
		h.abandon(it, fmt.Sprintf("no adapter for platform %q", it.out.Platform))
		return
	}
	p.enqueue(it)
}

// abandon gives it up: it is logged (never its text) with reason and
// attrs, counted, and marked in the outbox.
func (h *Hub) abandon(it *outItem, reason string, attrs ...slog.Attr) {
	h.stats.abandoned.Add(1)
	level := slog.LevelWarn
	if it.out.Priority() {
		level = slog.LevelError
	}
	attrs = append([]slog.Attr{slog.String("platform", it.out.Platform), slog.String("conversation", it.out.Conversation.ID),
		slog.String("kind", string(it.out.Kind)), slog.Int64("outbox_id", it.id), slog.String("reason", reason)}, attrs...)
	h.log.LogAttrs(context.Background(), level, "outbound abandoned", attrs...)
	if it.durable {
		ctx, cancel := bookkeeping(context.Background())
		defer cancel()
		if err := h.outbox.Abandon(ctx, it.id, reason); err != nil {
			h.log.Error("outbox abandon failed", slog.Int64("outbox_id", it.id), slog.Any("err", err))
		}
	}
	h.pendingOut.Add(-1)
	h.signal()
}

// retryAfterWait is the pause a Retry-After asks for, capped, plus up to
// 10% jitter (never less than asked, unless capped).
func (h *Hub) retryAfterWait(d time.Duration) time.Duration {
	d = min(d, h.opts.MaxRetryAfter)
	return d + time.Duration(rand.Int64N(int64(d)/10+1))
}
