package telegram

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v5"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/channels"
)

// offsetKey is the OffsetStore key for a bot: one per bot, so two bots
// sharing a store do not mix their offsets.
func offsetKey(botID int64) string { return "telegram:" + strconv.FormatInt(botID, 10) }

// pollMargin is added to PollTimeout for a getUpdates call's deadline, so a
// connection that silently died is noticed.
const pollMargin = 15 * time.Second

// maxAcceptAttempts bounds how often one update is offered to a refusing
// sink before Run gives up (the update is fetched again on the next start).
const maxAcceptAttempts = 8

// poll is the long-polling loop.
func (a *Adapter) poll(ctx context.Context, sink channels.Sink, me *tgbotapi.User) error {
	key := offsetKey(me.ID)
	last, err := a.offsets.LoadOffset(ctx, key)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("telegram: load the last update id (%s): %w", key, err)
	}
	var offset int
	if last > 0 {
		offset = int(last) + 1
	}
	a.log.Info("telegram polling", slog.Int("offset", offset), slog.Duration("timeout", a.opts.PollTimeout))

	saver := a.startOffsetSaver(ctx, key)
	defer saver.stop()
	bo := a.newBackoff()
	failures := 0
	for ctx.Err() == nil {
		updates, err := a.getUpdates(ctx, offset)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			failures++
			a.live.SetConnected(false)
			wait, fatal := a.pollFailure(ctx, err, bo, failures)
			if fatal != nil {
				return fatal
			}
			if a.sleep(ctx, wait) != nil {
				return nil
			}
			continue
		}
		if failures > 0 {
			a.log.Info("telegram polling recovered", slog.Int("failures", failures))
			failures = 0
		}
		bo.Reset()
		a.live.SetConnected(true)
		a.live.Heartbeat(a.now())
		// The offset is saved once per batch, after its last update the
		// sink took (and on every way out of the batch), not once per
		// update: one write instead of one per message. A crash in the
		// middle of a batch has Telegram send its accepted updates again
		// after the restart, and the Hub's durable dedupe drops them.
		accepted := -1
		ns, taken := a.acceptBatch(ctx, sink, updates, offset, me)
		for i, p := range updates {
			u := p.u
			a.live.Event(a.now())
			if u.UpdateID < offset {
				continue // already handled; Telegram sent it again
			}
			if p.bad != nil {
				// A poison update: retrying cannot fix it, and keeping the
				// offset would stall polling for good. Confirm it and go on.
				a.skipped.Add(1)
				a.log.Warn("telegram: skipped an update that does not decode", slog.Int("update_id", u.UpdateID), slog.String("problem", describeJSONError(p.bad)))
				accepted, offset = u.UpdateID, u.UpdateID+1
				continue
			}
			if err := a.act(ctx, sink, u.UpdateID, ns[i], taken); err != nil {
				if accepted >= 0 {
					saver.save(accepted)
				}
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
			accepted, offset = u.UpdateID, u.UpdateID+1
		}
		if accepted >= 0 {
			saver.save(accepted)
		}
	}
	return nil
}

// offsetSaveEvery is the least time between two saves of the offset
// while updates keep coming: one write per batch would be one write
// transaction per message or two when people write now and then.
const offsetSaveEvery = 200 * time.Millisecond

// offsetSaver saves the accepted update ids in the background, so that
// the poll loop asks for the next batch without waiting for the write,
// and at most every offsetSaveEvery. The updates are already in the
// sink's durable inbox, and Telegram forgets them once the next
// getUpdates confirms them, whatever id is saved: an id saved a moment
// late costs at most a redelivery after a crash, which the Hub's dedupe
// drops. Only the latest id waiting is saved; stop saves the last one
// before it returns, without waiting for the pause.
type offsetSaver struct {
	next chan int      // the latest accepted id not yet taken (capacity 1)
	quit chan struct{} // closed by stop: no more pauses
	done chan struct{}
}

// startOffsetSaver starts the saver of key's offset; the caller must call
// stop.
func (a *Adapter) startOffsetSaver(ctx context.Context, key string) *offsetSaver {
	s := &offsetSaver{next: make(chan int, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		pause := time.NewTimer(0)
		<-pause.C
		defer pause.Stop()
		for id := range s.next {
			a.saveOffset(ctx, key, id)
			pause.Reset(offsetSaveEvery)
			select {
			case <-pause.C:
			case <-s.quit:
			}
		}
	}()
	return s
}

// save hands id, the latest accepted update, to the saver, replacing an
// earlier one it has not taken yet. It never blocks: only the poll loop
// sends.
func (s *offsetSaver) save(id int) {
	select {
	case <-s.next:
	default:
	}
	s.next <- id
}

// stop waits until the last id handed over is saved and the saver has
// ended.
func (s *offsetSaver) stop() {
	close(s.quit)
	close(s.next)
	<-s.done
}

// saveOffset records that the sink accepted update id. It runs even when
// ctx was cancelled just after the sink accepted, so that a shutdown does
// not lose the record.
func (a *Adapter) saveOffset(ctx context.Context, key string, id int) {
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := a.offsets.SaveOffset(sctx, key, int64(id)); err != nil {
		// The update is accepted; if Telegram sends it again after a
		// restart, the Hub's dedupe drops it.
		a.log.Error("telegram: cannot save the last update id", slog.Int("update_id", id), slog.Any("err", err))
	}
}

// polled is one update of a getUpdates batch. bad is why it did not
// decode; then u holds only its UpdateID.
type polled struct {
	u   tgbotapi.Update
	bad error
}

// getUpdates makes one long-poll call. It decodes the batch one update at
// a time (the library's GetUpdates fails the whole batch on one update it
// cannot decode), so that a malformed update is returned marked bad, with
// its id, among the good ones.
func (a *Adapter) getUpdates(ctx context.Context, offset int) ([]polled, error) {
	timeout := int(a.opts.PollTimeout / time.Second)
	cctx, cancel := context.WithTimeout(ctx, time.Duration(timeout)*time.Second+pollMargin)
	defer cancel()
	resp, err := a.api(cctx).Request(tgbotapi.UpdateConfig{
		Offset:         offset,
		Timeout:        timeout,
		AllowedUpdates: allowedUpdates,
	})
	if err != nil {
		return nil, a.redact(err)
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(resp.Result, &raws); err != nil {
		return nil, fmt.Errorf("telegram getUpdates: the result is not a list of updates (%s)", describeJSONError(err))
	}
	return decodeUpdates(raws, offset), nil
}

// decodeUpdates decodes a batch of updates. An update that does not decode
// is marked bad with its update_id; when even that is unreadable, its id is
// inferred from its place (the previous update's id + 1, the first one's
// from the requested offset or the next update's id), since Telegram's ids
// increase by one. One whose id cannot be told is left out: the next
// batch, whose offset moved past its neighbours, tells it.
func decodeUpdates(raws []json.RawMessage, offset int) []polled {
	out := make([]polled, 0, len(raws))
	prev := offset - 1 // the id before the first update, when offset > 0
	for i, raw := range raws {
		var u tgbotapi.Update
		err := json.Unmarshal(raw, &u)
		if err == nil {
			out = append(out, polled{u: u})
			prev = u.UpdateID
			continue
		}
		id, ok := updateID(raw)
		switch {
		case ok:
		case prev > 0:
			id = prev + 1
		default:
			for j := i + 1; j < len(raws) && !ok; j++ {
				if next, found := updateID(raws[j]); found {
					id, ok = next-(j-i), true
				}
			}
			if !ok || id <= 0 {
				continue
			}
		}
		out = append(out, polled{u: tgbotapi.Update{UpdateID: id}, bad: err})
		prev = id
	}
	return out
}

// updateID reads an update's update_id alone, whatever its other fields.
func updateID(raw json.RawMessage) (int, bool) {
	var v struct {
		UpdateID *int `json:"update_id"`
	}
	if json.Unmarshal(raw, &v) != nil || v.UpdateID == nil || *v.UpdateID <= 0 {
		return 0, false
	}
	return *v.UpdateID, true
}

// pollFailure decides how long to wait after a failed getUpdates, or
// returns an error when polling cannot go on.
func (a *Adapter) pollFailure(ctx context.Context, err error, bo backoff.BackOff, failures int) (time.Duration, error) {
	te := apiError(err)
	if te == nil {
		// Network failure or a response that is not the Bot API's (a
		// proxy's error page): drop pooled connections and reconnect.
		a.client.CloseIdleConnections()
		wait := bo.NextBackOff()
		a.log.Warn("telegram getUpdates failed; reconnecting", slog.Int("failures", failures), slog.Duration("wait", wait), slog.Any("err", err))
		return wait, nil
	}
	switch {
	case te.Code == http.StatusTooManyRequests && te.RetryAfter > 0:
		wait := time.Duration(te.RetryAfter) * time.Second
		a.log.Warn("telegram getUpdates rate limited", slog.Duration("retry_after", wait))
		return wait, nil
	case te.Code == http.StatusConflict:
		wait := bo.NextBackOff()
		a.log.Error("telegram: "+a.conflictReason(ctx, te.Message)+"; retrying",
			slog.Int("failures", failures), slog.Duration("wait", wait), slog.Any("err", fmt.Errorf("%w: %s", ErrConflict, te.Message)))
		return wait, nil
	case te.Code == http.StatusUnauthorized || te.Code == http.StatusNotFound:
		return 0, fmt.Errorf("%w (getUpdates: %d %s)", ErrUnauthorized, te.Code, te.Message)
	default:
		wait := bo.NextBackOff()
		a.log.Warn("telegram getUpdates failed; retrying", slog.Int("code", te.Code), slog.Int("failures", failures), slog.Duration("wait", wait), slog.Any("err", err))
		return wait, nil
	}
}

// conflictReason explains a 409 from getUpdates: a webhook is set, or
// another process polls the same token. Telegram's description says which;
// when it does not, getWebhookInfo does.
func (a *Adapter) conflictReason(ctx context.Context, desc string) string {
	const (
		webhook = "a webhook is set for this bot, so polling gets no updates: delete the webhook or run in webhook mode"
		other   = "another instance is polling the same bot token (only one may run at a time)"
	)
	d := strings.ToLower(desc)
	switch {
	case strings.Contains(d, "webhook"):
		return webhook
	case strings.Contains(d, "getupdates request"):
		return other
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if info, err := a.api(cctx).GetWebhookInfo(); err == nil && info.IsSet() {
		return webhook
	}
	return other
}

// allowedUpdates are the update types Haven asks Telegram for: messages,
// their edits, and presses of its buttons.
var allowedUpdates = []string{"message", "edited_message", "callback_query"}

// acceptBatch normalizes the updates of a batch that are to be handled
// (those from offset on that decode) and, when sink is a
// channels.BatchSink, hands the messages among them to it in one
// AcceptAll. It returns each update's normalized form (by index; zero for
// those left out) and whether the sink took every message of the batch.
// When it did not, act offers each to the sink again, one at a time,
// with retries.
func (a *Adapter) acceptBatch(ctx context.Context, sink channels.Sink, updates []polled, offset int, me *tgbotapi.User) ([]normalized, bool) {
	ns := make([]normalized, len(updates))
	var ins []channels.Inbound
	for i, p := range updates {
		if p.u.UpdateID < offset || p.bad != nil {
			continue
		}
		ns[i] = a.normalize(ctx, p.u, me)
		a.answerPress(ctx, ns[i])
		if ns[i].outcome == deliver {
			ins = append(ins, ns[i].in)
		}
	}
	bs, ok := sink.(channels.BatchSink)
	if !ok || len(ins) < 2 {
		return ns, false
	}
	if err := bs.AcceptAll(ctx, ins); err != nil {
		if ctx.Err() == nil {
			a.log.Warn("telegram: the hub did not accept a batch of updates; offering them one at a time", slog.Int("messages", len(ins)), slog.Any("err", err))
		}
		return ns, false
	}
	return ns, true
}

// act acts on one normalized update: hands it to the sink, with
// retries, unless taken says the sink has it already, or answers media
// with the text-only note. A pressed message's buttons are removed once
// the sink has the press.
func (a *Adapter) act(ctx context.Context, sink channels.Sink, updateID int, n normalized, taken bool) error {
	switch n.outcome {
	case ignore:
		a.log.Debug("telegram update ignored", slog.Int("update_id", updateID), slog.String("reason", n.reason))
		return nil
	case skip:
		a.skipped.Add(1)
		a.log.Debug("telegram update skipped", slog.Int("update_id", updateID), slog.String("reason", n.reason))
		return nil
	case media:
		a.noteMedia(ctx, n)
		return nil
	}
	if taken {
		a.log.Debug("telegram update accepted", slog.Int("update_id", updateID), slog.String("kind", string(n.in.Conversation.Kind)))
		a.clearButtons(ctx, n)
		return nil
	}
	bo := a.newBackoff()
	for attempt := 1; ; attempt++ {
		err := sink.Accept(ctx, n.in)
		if err == nil {
			a.log.Debug("telegram update accepted", slog.Int("update_id", updateID), slog.String("kind", string(n.in.Conversation.Kind)))
			a.clearButtons(ctx, n)
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if attempt >= maxAcceptAttempts {
			return fmt.Errorf("telegram: the hub did not accept update %d after %d attempts: %w", updateID, attempt, err)
		}
		wait := bo.NextBackOff()
		a.log.Warn("telegram: the hub did not accept an update; retrying", slog.Int("update_id", updateID), slog.Int("attempt", attempt), slog.Duration("wait", wait), slog.Any("err", err))
		if err := a.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// noteMedia tells the person, in the background, that Haven reads text
// only. Run waits for it before returning.
func (a *Adapter) noteMedia(ctx context.Context, n normalized) {
	a.background(func() {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		cfg := tgbotapi.NewMessage(n.msg.Chat.ID, mediaNote(n.kind))
		cfg.ReplyToMessageID = n.msg.MessageID
		cfg.AllowSendingWithoutReply = true
		if _, err := a.api(cctx).Send(cfg); err != nil && !errors.Is(err, context.Canceled) {
			a.log.Warn("telegram: cannot send the text-only note", slog.String("media", n.kind), slog.Any("err", a.redact(err)))
		}
	})
}

// mediaNote is the kind reply to a message Haven cannot read.
func mediaNote(kind string) string {
	return "Thank you for sending this. I can only read text, so I can't see or hear your " + kind +
		". If you'd like to, tell me in words and I'll be right here."
}
