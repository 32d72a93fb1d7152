package channels

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v5"
	"golang.org/x/time/rate"
)

// outItem is one outbound message on its way out.
type outItem struct {
	id       int64 // outbox id, when durable
	durable  bool  // false when the outbox could not record it
	out      Outbound
	created  time.Time // when the message was made: its age bounds its retries
	pieces   []piece   // planned lazily at the adapter's limit
	next     int       // index of the next piece to send
	attempts int       // failed attempts so far, earlier runs included
	// bo spaces the attempts after transient failures; nil until the first.
	bo *backoff.ExponentialBackOff
}

// retryWait returns the wait before the next attempt of it after a
// transient failure: exponential from BaseBackoff, doubling up to
// MaxBackoff, each wait randomized by ±50%.
func (it *outItem) retryWait(o HubOptions) time.Duration {
	if it.bo == nil {
		it.bo = &backoff.ExponentialBackOff{
			InitialInterval:     o.BaseBackoff,
			RandomizationFactor: 0.5,
			Multiplier:          2,
			MaxInterval:         o.MaxBackoff,
		}
	}
	return it.bo.NextBackOff()
}

// piece is one send of an outbound message: a Send of text, or a
// FileSender.SendFile of the message's file with text as its caption.
type piece struct {
	text string
	file bool
}

// convState is where an outConv is.
type convState uint8

const (
	convIdle    convState = iota // nothing to send
	convQueued                   // in a lane, ready to be picked
	convWaiting                  // in the waiting heap until its time comes
	convBusy                     // held by a sender
)

// waitReason is why a conversation waits.
type waitReason uint8

const (
	// waitNone: no wait.
	waitNone waitReason = iota
	// waitBackoff follows a transient failure; a crisis message that comes
	// meanwhile ends it, to be tried at once.
	waitBackoff
	// waitLimit is the conversation's rate limit: Haven's own or the
	// platform's Retry-After. Everything in the conversation waits it out.
	waitLimit
)

// outConv holds one conversation's outbound messages in delivery order:
// priority (crisis) messages first, each kind in the order it came.
type outConv struct {
	key   string
	items []*outItem
	state convState
	prio  bool // convQueued: in the priority lane
	gen   int  // lane entries with another gen are stale
	lim   *rate.Limiter
	until time.Time  // convWaiting: when it may be tried again
	why   waitReason // convWaiting: why it waits
	index int        // convWaiting: its index in the waiting heap
}

type laneEntry struct {
	c   *outConv
	gen int
}

// waitHeap orders waiting conversations by the time they may go again.
type waitHeap []*outConv

func (w waitHeap) Len() int           { return len(w) }
func (w waitHeap) Less(i, j int) bool { return w[i].until.Before(w[j].until) }
func (w waitHeap) Swap(i, j int) {
	w[i], w[j] = w[j], w[i]
	w[i].index, w[j].index = i, j
}
func (w *waitHeap) Push(x any) {
	c := x.(*outConv)
	c.index = len(*w)
	*w = append(*w, c)
}
func (w *waitHeap) Pop() any {
	old := *w
	c := old[len(old)-1]
	old[len(old)-1] = nil
	*w = old[:len(old)-1]
	c.index = -1
	return c
}

// platformQueue delivers one platform's outbound messages with a few
// senders. A conversation is held by at most one sender at a time, so its
// messages and their pieces go out in order. Conversations whose next
// message is a crisis wait in the priority lane, which senders always serve
// first; while a crisis message is being sent no ordinary message starts.
//
// A sender never waits while holding a conversation: a conversation that
// must wait (its rate limit, a Retry-After the platform gave for it, the
// backoff after a transient failure) is parked in the waiting heap until
// its time, and the sender serves other conversations meanwhile. A
// Retry-After holds back only its conversation, unless the adapter says it
// is global: then it pauses the whole platform, and after the pause the
// priority lane is served first again.
type platformQueue struct {
	h       *Hub
	adapter Adapter
	limit   Limit
	platLim *rate.Limiter

	mu          sync.Mutex
	convs       map[string]*outConv
	prio, norm  []laneEntry
	waiting     waitHeap
	pausedUntil time.Time // a global Retry-After holds every conversation until then
	prioBusy    int       // senders holding a conversation for a crisis message
	queued      int       // conversations in convQueued
	busy        int       // conversations in convBusy
	// wake carries a token per change for one waiting sender: a sender
	// that takes a conversation and leaves more to take passes a token on,
	// so senders wake one by one as there is work for them, not all at
	// every change.
	wake    chan struct{}
	sweepAt int
}

func newPlatformQueue(h *Hub, a Adapter) *platformQueue {
	return &platformQueue{
		h:       h,
		adapter: a,
		limit:   a.MessageLimit(),
		platLim: rate.NewLimiter(h.opts.PlatformRate, h.opts.PlatformBurst),
		convs:   map[string]*outConv{},
		wake:    make(chan struct{}, h.opts.SendersPerPlatform),
		sweepAt: 1024,
	}
}

// setState moves c to state s, keeping the counts. p.mu must be held.
func (p *platformQueue) setState(c *outConv, s convState) {
	switch c.state {
	case convQueued:
		p.queued--
	case convBusy:
		p.busy--
	}
	switch s {
	case convQueued:
		p.queued++
	case convBusy:
		p.busy++
	}
	c.state = s
}

// enqueue adds it to its conversation; the caller must not hold p.mu.
func (p *platformQueue) enqueue(it *outItem) {
	p.h.pendingOut.Add(1)
	p.mu.Lock()
	defer p.mu.Unlock()
	key := it.out.Conversation.ID
	c, ok := p.convs[key]
	if !ok {
		c = &outConv{key: key, index: -1, lim: rate.NewLimiter(p.h.opts.ConversationRate, p.h.opts.ConversationBurst)}
		p.convs[key] = c
	}
	if it.out.Priority() {
		// After the priority messages already waiting and the ordinary ones
		// not yet tried (they go as soon as it would: the person reads the
		// replies in the order of their messages), before ordinary ones that
		// have failed. A message partly sent stays first.
		i := 0
		for i < len(c.items) && (c.items[i].out.Priority() || c.items[i].next > 0 || c.items[i].attempts == 0) {
			i++
		}
		c.items = append(c.items, nil)
		copy(c.items[i+1:], c.items[i:])
		c.items[i] = it
	} else {
		c.items = append(c.items, it)
	}
	switch c.state {
	case convIdle:
		p.place(c)
	case convQueued:
		if c.items[0].out.Priority() && !c.prio {
			p.place(c) // the head is now a crisis message: to the priority lane
		}
	case convWaiting:
		if it.out.Priority() && c.why == waitBackoff {
			// A backoff spaces retries of a failing message; a crisis
			// message does not wait for it, but is tried at once.
			heap.Remove(&p.waiting, c.index)
			c.until = time.Time{}
			p.place(c)
		}
	}
	p.notifyIfWork()
}

// place puts c at the back of the lane its head message calls for, or
// makes it idle when it has nothing to send. p.mu must be held; c must not
// be busy nor in the waiting heap.
func (p *platformQueue) place(c *outConv) {
	c.gen++
	if len(c.items) == 0 {
		p.setState(c, convIdle)
		return
	}
	p.setState(c, convQueued)
	c.prio = c.items[0].out.Priority()
	e := laneEntry{c: c, gen: c.gen}
	if c.prio {
		p.prio = append(p.prio, e)
	} else {
		p.norm = append(p.norm, e)
	}
}

// park makes c, which has something to send and is neither busy nor
// waiting, wait until until. p.mu must be held.
func (p *platformQueue) park(c *outConv, until time.Time, why waitReason) {
	c.gen++
	p.setState(c, convWaiting)
	c.until, c.why = until, why
	heap.Push(&p.waiting, c)
}

// promote puts the conversations whose wait is over into their lanes, in
// the order their waits end. p.mu must be held.
func (p *platformQueue) promote(now time.Time) {
	for len(p.waiting) > 0 && !p.waiting[0].until.After(now) {
		c := heap.Pop(&p.waiting).(*outConv)
		c.until = time.Time{}
		p.place(c)
	}
}

// notifyIfWork wakes a sender when a conversation is ready to take.
func (p *platformQueue) notifyIfWork() {
	if p.next() != nil {
		p.notify()
	}
}

// notify wakes one waiting sender, or the next one to wait, to look at
// the queue again.
func (p *platformQueue) notify() {
	select {
	case p.wake <- struct{}{}:
	default: // every sender has a token already
	}
}

// head drops the stale entries at the front of lane and reports whether a
// live one is left there.
func head(lane *[]laneEntry) bool {
	for len(*lane) > 0 {
		e := (*lane)[0]
		if e.gen == e.c.gen && e.c.state == convQueued {
			return true
		}
		(*lane)[0] = laneEntry{}
		*lane = (*lane)[1:]
	}
	return false
}

// next returns the lane whose first conversation is to be served next:
// the priority lane, else the ordinary one unless a crisis message is being
// sent; nil when neither has one. p.mu must be held.
func (p *platformQueue) next() *[]laneEntry {
	if head(&p.prio) {
		return &p.prio
	}
	if p.prioBusy == 0 && head(&p.norm) {
		return &p.norm
	}
	return nil
}

// tokenWait is how long lim makes a send wait from now: zero when a token
// is there.
func tokenWait(lim *rate.Limiter, now time.Time) time.Duration {
	if lim.Limit() == rate.Inf {
		return 0
	}
	missing := 1 - lim.TokensAt(now)
	if missing <= 0 {
		return 0
	}
	if lim.Limit() <= 0 {
		return time.Hour // a limit that never refills; not made by withDefaults
	}
	return time.Duration(math.Ceil(missing / float64(lim.Limit()) * float64(time.Second)))
}

// pick blocks until a conversation can be served now, and takes it (with
// a token of its rate limit and of the platform's), or until ctx is done.
func (p *platformQueue) pick(ctx context.Context) (*outConv, bool, error) {
	p.mu.Lock()
	for {
		if err := ctx.Err(); err != nil {
			p.mu.Unlock()
			return nil, false, err
		}
		now := time.Now()
		p.promote(now)
		wait := time.Duration(-1) // none: until something changes
		if now.Before(p.pausedUntil) {
			wait = p.pausedUntil.Sub(now)
		} else if lane := p.next(); lane != nil {
			c := (*lane)[0].c
			if d := tokenWait(c.lim, now); d > 0 {
				// Over its own rate: it waits, the others go on.
				p.park(c, now.Add(d), waitLimit)
				continue
			}
			if d := tokenWait(p.platLim, now); d > 0 {
				wait = d // the next token goes to whatever is first then
			} else {
				(*lane)[0] = laneEntry{}
				*lane = (*lane)[1:]
				c.lim.AllowN(now, 1)
				p.platLim.AllowN(now, 1)
				p.setState(c, convBusy)
				if c.prio {
					p.prioBusy++
				}
				p.notifyIfWork() // more to take: wake another sender
				p.mu.Unlock()
				return c, c.prio, nil
			}
		}
		if len(p.waiting) > 0 {
			if d := p.waiting[0].until.Sub(now); wait < 0 || d < wait {
				wait = d
			}
		}
		p.mu.Unlock()
		var timer *time.Timer
		var fire <-chan time.Time
		if wait >= 0 {
			timer = time.NewTimer(wait)
			fire = timer.C
		}
		select {
		case <-p.wake:
		case <-fire:
		case <-ctx.Done():
		}
		if timer != nil {
			timer.Stop()
		}
		p.mu.Lock()
	}
}

// release gives back c, which a sender held: into its lane if it has more
// to send, parked until until when that is later than now, or idle. A
// backoff is the wait of failed, c's first message: when a crisis message
// came before it meanwhile, c is not parked, so that the crisis message is
// tried at once.
func (p *platformQueue) release(c *outConv, prio bool, failed *outItem, until time.Time, why waitReason) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if prio {
		p.prioBusy--
	}
	p.setState(c, convIdle)
	switch {
	case len(c.items) == 0:
		c.gen++
		if len(p.convs) > p.sweepAt {
			p.sweep()
		}
	case why == waitBackoff && c.items[0] != failed:
		p.place(c)
	case time.Now().Before(until):
		p.park(c, until, why)
		p.h.signal() // the drain may now see that nothing can go before its end
		p.notify()   // a sender waiting for a later time may have to wake sooner
		return
	default:
		p.place(c)
	}
	p.notifyIfWork()
}

// sweep forgets idle conversations whose rate limiter has refilled.
func (p *platformQueue) sweep() {
	now := time.Now()
	for k, c := range p.convs {
		if c.state == convIdle && len(c.items) == 0 && c.lim.TokensAt(now) >= float64(c.lim.Burst()) {
			delete(p.convs, k)
		}
	}
	p.sweepAt = max(1024, 2*len(p.convs))
}

// stuckPast reports whether none of p's messages can be tried before
// deadline: none is being sent, and none is ready or waits for less than
// that. It is true when p has nothing to send.
func (p *platformQueue) stuckPast(deadline time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	var earliest time.Time
	switch {
	case p.busy > 0:
		return false
	case p.queued > 0:
		earliest = time.Now()
	case len(p.waiting) > 0:
		earliest = p.waiting[0].until
	default:
		return true
	}
	if p.pausedUntil.After(earliest) {
		earliest = p.pausedUntil
	}
	return earliest.After(deadline)
}

// left counts the messages still queued: those recorded in the outbox
// (sent at the next start) and those only in memory (lost).
func (p *platformQueue) left() (durable, lost int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.convs {
		for _, it := range c.items {
			if it.durable {
				durable++
			} else {
				lost++
			}
		}
	}
	return durable, lost
}

// sender delivers messages until ctx is done.
func (p *platformQueue) sender(ctx context.Context) {
	for {
		c, prio, err := p.pick(ctx)
		if err != nil {
			return
		}
		p.sendNext(ctx, c, prio)
	}
}

// sendNext sends the next piece of c's first message and releases c.
func (p *platformQueue) sendNext(ctx context.Context, c *outConv, prio bool) {
	h := p.h
	p.mu.Lock()
	it := c.items[0]
	p.mu.Unlock()
	if it.pieces == nil {
		it.pieces = p.plan(it)
		if len(it.pieces) == 0 {
			p.finish(c, it)
			h.abandon(it, "empty text")
			p.release(c, prio, nil, time.Time{}, waitNone)
			return
		}
	}
	pc := it.pieces[it.next]
	msg := it.out
	msg.Text = pc.text
	if it.next < len(it.pieces)-1 {
		msg.Choices = nil // buttons go under the last piece
	}
	var err error
	if pc.file {
		err = p.adapter.(FileSender).SendFile(ctx, msg)
	} else {
		msg.File = nil
		err = p.adapter.Send(ctx, msg)
	}
	switch {
	case err == nil:
		h.stats.pieces.Add(1)
		p.mu.Lock()
		it.next++
		done := it.next == len(it.pieces)
		p.mu.Unlock()
		if done {
			p.finish(c, it)
			h.stats.sent.Add(1)
			if it.durable {
				bctx, cancel := bookkeeping(ctx)
				if err := h.outbox.Sent(bctx, it.id); err != nil {
					h.log.Error("outbox sent failed", slog.Int64("outbox_id", it.id), slog.Any("err", err))
				}
				cancel()
			}
			h.pendingOut.Add(-1)
			h.signal()
		}
		p.release(c, prio, nil, time.Time{}, waitNone)
	case ctx.Err() != nil:
		// Stopped mid-send: not the message's fault; the outbox keeps it.
		p.release(c, prio, nil, time.Time{}, waitNone)
	case IsPermanent(err):
		p.finish(c, it)
		h.abandon(it, "permanent send error: "+err.Error())
		p.release(c, prio, nil, time.Time{}, waitNone)
	default:
		p.failed(ctx, c, prio, it, err)
	}
}

// failed handles a transient failure of it, c's first message: it records
// the attempt, then either gives it up (an ordinary message older than
// MaxAge) or parks c until the retry, for the Retry-After the platform
// asked for or the backoff. A global Retry-After pauses the platform.
func (p *platformQueue) failed(ctx context.Context, c *outConv, prio bool, it *outItem, err error) {
	h := p.h
	it.attempts++
	if !it.out.Priority() && it.next == 0 {
		p.crisisAhead(c, it)
	}
	if it.durable {
		bctx, cancel := bookkeeping(ctx)
		if aerr := h.outbox.Attempted(bctx, it.id, err.Error()); aerr != nil {
			h.log.Error("outbox attempted failed", slog.Int64("outbox_id", it.id), slog.Any("err", aerr))
		}
		cancel()
	}
	ra := RetryAfter(err)
	if ra > 0 {
		h.stats.rateLimited.Add(1)
	}
	now := time.Now()
	if age := now.Sub(it.created); !it.out.Priority() && age >= h.opts.MaxAge {
		p.finish(c, it)
		h.stats.givenUp.Add(1)
		h.abandon(it, "gave up after transient send errors: "+err.Error(),
			slog.Int("attempts", it.attempts), slog.Duration("age", age.Round(time.Second)),
			slog.Duration("max_age", h.opts.MaxAge))
		p.release(c, prio, nil, time.Time{}, waitNone)
		return
	}
	h.stats.retries.Add(1)
	if ra <= 0 {
		wait := it.retryWait(h.opts)
		level := slog.LevelDebug
		if it.attempts == 1 {
			level = slog.LevelInfo // once per message; the retries after it at debug
		}
		h.log.LogAttrs(ctx, level, "send failed; retrying", slog.String("platform", p.adapter.Platform()),
			slog.String("conversation", c.key), slog.Int64("outbox_id", it.id), slog.Int("attempt", it.attempts),
			slog.Duration("wait", wait), slog.Any("err", err))
		p.release(c, prio, it, now.Add(wait), waitBackoff)
		return
	}
	wait := h.retryAfterWait(ra)
	if !IsGlobalRateLimit(err) {
		h.log.Info("platform asked a conversation to slow down", slog.String("platform", p.adapter.Platform()),
			slog.String("conversation", c.key), slog.Duration("retry_after", wait))
		p.release(c, prio, nil, now.Add(wait), waitLimit)
		return
	}
	h.log.Warn("platform asked every conversation to slow down", slog.String("platform", p.adapter.Platform()),
		slog.Duration("retry_after", wait))
	p.mu.Lock()
	if until := now.Add(wait); until.After(p.pausedUntil) {
		p.pausedUntil = until
	}
	p.mu.Unlock()
	p.release(c, prio, nil, time.Time{}, waitNone)
}

// crisisAhead moves c's priority messages that wait behind failing, an
// ordinary message not partly sent, in front of it, in their order: a
// crisis reply never waits for an ordinary one that the platform refuses.
func (p *platformQueue) crisisAhead(c *outConv, failing *outItem) {
	p.mu.Lock()
	defer p.mu.Unlock()
	at := slices.Index(c.items, failing)
	if at < 0 {
		return
	}
	var prio, rest []*outItem
	for _, x := range c.items[at:] {
		if x.out.Priority() {
			prio = append(prio, x)
		} else {
			rest = append(rest, x)
		}
	}
	if len(prio) == 0 {
		return
	}
	c.items = append(append(c.items[:at:at], prio...), rest...)
}

// finish removes it (the head of c) from c.
func (p *platformQueue) finish(c *outConv, it *outItem) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, x := range c.items {
		if x == it {
			copy(c.items[i:], c.items[i+1:])
			c.items[len(c.items)-1] = nil
			c.items = c.items[:len(c.items)-1]
			return
		}
	}
}

// MaxFileTextMessages bounds how many messages a file shown as text (on a
// platform without FileSender) may take; a longer one is replaced by a note,
// rather than flooding the conversation for hours under its rate limit.
const MaxFileTextMessages = 30

// plan cuts it into the sends that deliver it. Text is split to fit the
// adapter's MessageLimit, measured as the platform counts. A file goes with the last piece of text to SendFile
// when the adapter is a FileSender; otherwise its content follows the text
// as FileText messages, or, when it is not text or would take more than
// MaxFileTextMessages, a note saying it could not be attached. A file that fails File.Check is replaced by such a note
// too (runTurn does this before the outbox sees it; this covers replays).
func (p *platformQueue) plan(it *outItem) []piece {
	out := it.out
	if out.File != nil {
		if note := checkFile(&out); note != "" {
			p.h.log.Warn("outbound file not deliverable; sending a note instead", slog.String("platform", out.Platform),
				slog.String("conversation", out.Conversation.ID), slog.Int64("outbox_id", it.id), slog.String("reason", note))
		}
	}
	var pieces []piece
	for _, t := range Split(out.Text, p.limit) {
		pieces = append(pieces, piece{text: t})
	}
	if out.File == nil {
		return pieces
	}
	if _, ok := p.adapter.(FileSender); ok {
		if len(pieces) == 0 {
			return []piece{{file: true}}
		}
		pieces[len(pieces)-1].file = true
		return pieces
	}
	texts, err := FileText(out.File, p.limit)
	if err == nil && len(texts) > MaxFileTextMessages {
		err = fmt.Errorf("show %s as text: %d messages, over the %d allowed", out.File.Name, len(texts), MaxFileTextMessages)
		texts = Split(fileNote(out.File, fmt.Sprintf("this chat can't take files and as text it would take %d messages", len(texts))), p.limit)
		p.h.log.Info("file too long to show as text on this platform; sending a note", slog.String("platform", out.Platform), slog.Int64("outbox_id", it.id), slog.Any("err", err))
	} else if err != nil {
		p.h.log.Info("file cannot be shown as text on this platform; sending a note", slog.String("platform", out.Platform),
			slog.Int64("outbox_id", it.id), slog.Any("err", err))
		why := "this chat can't take files and it isn't text"
		if !errors.Is(err, ErrNotText) {
			why = "this chat can't take files and its messages are too short to hold it"
		}
		texts = Split(fileNote(out.File, why), p.limit)
	}
	for _, t := range texts {
		pieces = append(pieces, piece{text: t})
	}
	return pieces
}

// checkFile replaces a file that fails File.Check with a note at the end of
// out.Text, so the person learns what did not come. It returns the reason,
// or "" when the file is fine.
func checkFile(out *Outbound) string {
	err := out.File.Check()
	if err == nil {
		return ""
	}
	why := "it isn't a valid file"
	switch {
	case errors.Is(err, ErrFileTooLarge):
		why = "it is over the " + FormatSize(MaxFileSize) + " limit"
	case len(out.File.Data) == 0:
		why = "it is empty"
	}
	note := fileNote(out.File, why)
	if strings.TrimSpace(out.Text) != "" {
		note = out.Text + "\n\n" + note
	}
	out.Text, out.File = note, nil
	return err.Error()
}

// fileNote tells the person a file could not be attached, and why.
func fileNote(f *File, why string) string {
	name := "a file"
	if f.Name != "" {
		name = strings.ToValidUTF8(f.Name, "?")
	}
	return fmt.Sprintf("(I couldn't attach %s (%s): %s.)", name, FormatSize(len(f.Data)), why)
}
