package channels

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// outItem is one outbound message on its way out.
type outItem struct {
	id       int64 // outbox id, when durable
	durable  bool  // false when the outbox could not record it
	out      Outbound
	pieces   []piece // planned lazily at the adapter's limit
	next     int     // index of the next piece to send
	attempts int     // failed attempts so far
}

// piece is one send of an outbound message: a Send of text, or a
// FileSender.SendFile of the message's file with text as its caption.
type piece struct {
	text string
	file bool
}

// outConv holds one conversation's outbound messages in delivery order:
// priority (crisis) messages first, each kind in the order it came.
type outConv struct {
	key   string
	items []*outItem
	busy  bool // a sender holds it
	gen   int  // lane entries with another gen are stale
	lim   *rate.Limiter
}

type laneEntry struct {
	c   *outConv
	gen int
}

// platformQueue delivers one platform's outbound messages with a few
// senders. A conversation is held by at most one sender at a time, so its
// messages and their pieces go out in order. Conversations whose next
// message is a crisis wait in the priority lane, which senders always serve
// first; while a crisis message is being sent no ordinary message starts.
// A Retry-After pauses the whole platform; after the pause the priority
// lane is served first again.
type platformQueue struct {
	h       *Hub
	adapter Adapter
	limit   Limit
	platLim *rate.Limiter

	mu          sync.Mutex
	convs       map[string]*outConv
	prio, norm  []laneEntry
	pausedUntil time.Time
	prioBusy    int
	wake        chan struct{} // closed and replaced on every change
	sweepAt     int
}

func newPlatformQueue(h *Hub, a Adapter) *platformQueue {
	return &platformQueue{
		h:       h,
		adapter: a,
		limit:   a.MessageLimit(),
		platLim: rate.NewLimiter(h.opts.PlatformRate, h.opts.PlatformBurst),
		convs:   map[string]*outConv{},
		wake:    make(chan struct{}),
		sweepAt: 1024,
	}
}

// enqueue adds it to its conversation; the caller must not hold p.mu.
func (p *platformQueue) enqueue(it *outItem) {
	p.h.pendingOut.Add(1)
	p.mu.Lock()
	defer p.mu.Unlock()
	key := it.out.Conversation.ID
	c, ok := p.convs[key]
	if !ok {
		c = &outConv{key: key, lim: rate.NewLimiter(p.h.opts.ConversationRate, p.h.opts.ConversationBurst)}
		p.convs[key] = c
	}
	if it.out.Priority() {
		// After the priority messages already waiting, before the rest.
		// A message partly sent by a sender stays first.
		i := 0
		for i < len(c.items) && (c.items[i].out.Priority() || c.items[i].next > 0) {
			i++
		}
		c.items = append(c.items, nil)
		copy(c.items[i+1:], c.items[i:])
		c.items[i] = it
	} else {
		c.items = append(c.items, it)
	}
	if !c.busy {
		p.place(c, false)
	}
	p.notify()
}

// place puts c in the lane its head message calls for, at the back or the
// front. p.mu must be held and c must not be busy.
func (p *platformQueue) place(c *outConv, front bool) {
	c.gen++
	if len(c.items) == 0 {
		return
	}
	e := laneEntry{c: c, gen: c.gen}
	lane := &p.norm
	if c.items[0].out.Priority() {
		lane = &p.prio
	}
	if front {
		*lane = append([]laneEntry{e}, *lane...)
	} else {
		*lane = append(*lane, e)
	}
}

func (p *platformQueue) notify() {
	close(p.wake)
	p.wake = make(chan struct{})
}

// pop takes the first live entry of lane, or nil.
func pop(lane *[]laneEntry) *outConv {
	for len(*lane) > 0 {
		e := (*lane)[0]
		(*lane)[0] = laneEntry{}
		*lane = (*lane)[1:]
		if e.gen == e.c.gen && !e.c.busy && len(e.c.items) > 0 {
			return e.c
		}
	}
	return nil
}

// pick blocks until a conversation can be served and takes it.
func (p *platformQueue) pick(ctx context.Context) (*outConv, bool, error) {
	p.mu.Lock()
	for {
		wait := time.Until(p.pausedUntil)
		if wait <= 0 {
			c := pop(&p.prio)
			if c == nil && p.prioBusy == 0 {
				c = pop(&p.norm)
			}
			if c != nil {
				c.busy = true
				prio := c.items[0].out.Priority()
				if prio {
					p.prioBusy++
				}
				p.mu.Unlock()
				return c, prio, nil
			}
		}
		wake := p.wake
		p.mu.Unlock()
		var timer *time.Timer
		var fire <-chan time.Time
		if wait > 0 {
			timer = time.NewTimer(wait)
			fire = timer.C
		}
		select {
		case <-wake:
		case <-fire:
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return nil, false, ctx.Err()
		}
		if timer != nil {
			timer.Stop()
		}
		p.mu.Lock()
	}
}

// release gives c back: into a lane if it has more to send, or out of the
// map when it is empty and its rate limiter is full again.
func (p *platformQueue) release(c *outConv, prio, front bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c.busy = false
	if prio {
		p.prioBusy--
	}
	if len(c.items) > 0 {
		p.place(c, front)
	} else if len(p.convs) > p.sweepAt {
		p.sweep()
	}
	p.notify()
}

// sweep forgets idle conversations whose rate limiter has refilled.
func (p *platformQueue) sweep() {
	now := time.Now()
	for k, c := range p.convs {
		if !c.busy && len(c.items) == 0 && c.lim.TokensAt(now) >= float64(c.lim.Burst()) {
			delete(p.convs, k)
		}
	}
	p.sweepAt = max(1024, 2*len(p.convs))
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
			p.release(c, prio, false)
			return
		}
	}
	if err := c.lim.Wait(ctx); err != nil {
		p.release(c, prio, true)
		return
	}
	if err := p.platLim.Wait(ctx); err != nil {
		p.release(c, prio, true)
		return
	}
	pc := it.pieces[it.next]
	msg := it.out
	msg.Text = pc.text
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
		p.release(c, prio, false)
	case ctx.Err() != nil:
		// Stopped mid-send: not the message's fault; the outbox keeps it.
		p.release(c, prio, true)
	case IsPermanent(err):
		p.finish(c, it)
		h.abandon(it, "permanent send error: "+err.Error())
		p.release(c, prio, false)
	default:
		it.attempts++
		h.stats.retries.Add(1)
		if it.durable {
			bctx, cancel := bookkeeping(ctx)
			if aerr := h.outbox.Attempted(bctx, it.id, err.Error()); aerr != nil {
				h.log.Error("outbox attempted failed", slog.Int64("outbox_id", it.id), slog.Any("err", aerr))
			}
			cancel()
		}
		if ra := RetryAfter(err); ra > 0 {
			wait := h.retryAfterWait(ra)
			h.log.Info("platform asked to slow down", slog.String("platform", p.adapter.Platform()), slog.Duration("retry_after", wait))
			p.mu.Lock()
			if until := time.Now().Add(wait); until.After(p.pausedUntil) {
				p.pausedUntil = until
			}
			p.mu.Unlock()
			p.release(c, prio, true)
			return
		}
		if !it.out.Priority() && it.attempts >= h.opts.MaxAttempts {
			p.finish(c, it)
			h.abandon(it, "gave up after transient send errors: "+err.Error())
			p.release(c, prio, false)
			return
		}
		h.log.Debug("send failed; retrying", slog.String("platform", p.adapter.Platform()), slog.Int64("outbox_id", it.id), slog.Int("attempt", it.attempts), slog.Any("err", err))
		_ = sleep(ctx, h.backoff(it.attempts))
		p.release(c, prio, true)
	}
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
