package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/memory"
)

// ScheduleStore is what the scheduler reads; memory/sqlite's Store
// implements it. Claiming a due reminder happens in the Hub's
// ProactiveFinisher, in the transaction that records its message.
type ScheduleStore interface {
	// DueReminders returns up to limit reminders due at or before now
	// whose person is neither paused nor suspended.
	DueReminders(ctx context.Context, now time.Time, limit int) ([]memory.Reminder, error)
	// NextReminderDue returns when the next such reminder is due.
	NextReminderDue(ctx context.Context) (time.Time, bool, error)
}

// ProactiveSender records and delivers messages Haven starts;
// channels.Hub implements it.
type ProactiveSender interface {
	Proactive(ctx context.Context, outs []channels.Outbound, writes channels.TurnWrites) error
}

// SchedulerOptions configure a Scheduler. Store and Sender are required.
type SchedulerOptions struct {
	Store  ScheduleStore
	Sender ProactiveSender
	// QuietHours hold anything not asked for at that time (zero: none).
	QuietHours tasks.QuietHours
	// Clock returns the current time; nil means time.Now. The loop's
	// waits are time package timers, so tests run it in testing/synctest.
	Clock func() time.Time
	// Poll bounds how long the loop sleeps without looking at the store,
	// for reminders set, moved or resumed meanwhile without a Wake (zero:
	// one minute).
	Poll time.Duration
	// Retry is the pause after a pass that could not send (the Hub not
	// running yet, the store failing); zero means 10 seconds.
	Retry time.Duration
	// Logger receives the scheduler's logs (ids and counts, never what a
	// reminder says); nil means slog.Default().
	Logger *slog.Logger
}

// Scheduler sends due reminders and check-ins: one loop (Run) claims each
// due row and hands its message to the Hub for the conversation it was
// set from; the claim, the row's next due time and the outbox row commit
// together, so a restart neither loses nor repeats one.
type Scheduler struct {
	opts SchedulerOptions
	wake chan struct{}
}

// batch is how many due reminders one query takes.
const batch = 100

// NewScheduler returns a Scheduler, or an error naming a missing option.
func NewScheduler(opts SchedulerOptions) (*Scheduler, error) {
	if opts.Store == nil || opts.Sender == nil {
		return nil, errors.New("core: scheduler needs a Store and a Sender")
	}
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Poll <= 0 {
		opts.Poll = time.Minute
	}
	if opts.Retry <= 0 {
		opts.Retry = 10 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Scheduler{opts: opts, wake: make(chan struct{}, 1)}, nil
}

// Wake makes the loop look at the store now (a reminder was set or moved).
// It never blocks.
func (s *Scheduler) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Run sends what is due until ctx is done, then returns nil. It sleeps
// until the next reminder is due (at most Poll), or until Wake.
func (s *Scheduler) Run(ctx context.Context) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
		case <-s.wake:
		}
		wait := s.opts.Poll
		if err := s.Tick(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			level := slog.LevelWarn
			if errors.Is(err, channels.ErrHubNotRunning) {
				level = slog.LevelDebug // starting up: the Hub replays its outbox first
			}
			s.opts.Logger.Log(ctx, level, "reminder pass failed; trying again shortly", slog.Any("err", err))
			wait = s.opts.Retry
		} else if next, ok, err := s.opts.Store.NextReminderDue(ctx); err != nil {
			s.opts.Logger.Warn("reading the next reminder failed", slog.Any("err", err))
			wait = s.opts.Retry
		} else if ok {
			wait = min(wait, max(next.Sub(s.opts.Clock()), 0))
		}
		timer.Reset(wait)
	}
}

// Tick sends (or holds for quiet hours) everything due now. It stops at
// the first error that says the Hub cannot take messages, and returns
// it; a reminder changed meanwhile is skipped.
func (s *Scheduler) Tick(ctx context.Context) error {
	for {
		now := s.opts.Clock()
		due, err := s.opts.Store.DueReminders(ctx, now, batch)
		if err != nil {
			return fmt.Errorf("list due reminders: %w", err)
		}
		var failed error
		for _, r := range due {
			if err := s.fire(ctx, r, now); err != nil {
				if errors.Is(err, channels.ErrHubClosed) || errors.Is(err, channels.ErrHubNotRunning) || ctx.Err() != nil {
					return err
				}
				s.opts.Logger.Warn("reminder not sent", slog.Int64("reminder", r.ID), slog.Any("err", err))
				failed = err
			}
		}
		if failed != nil {
			return failed
		}
		if len(due) < batch {
			return nil
		}
	}
}

// zone is the reminder's location; UTC when it has none or it does not load.
func zone(r memory.Reminder) *time.Location {
	if r.Zone != "" {
		if loc, err := time.LoadLocation(r.Zone); err == nil {
			return loc
		}
	}
	return time.UTC
}

// fire sends r, due by now, or holds it for the end of quiet hours.
func (s *Scheduler) fire(ctx context.Context, r memory.Reminder, now time.Time) error {
	loc := zone(r)
	fire := memory.ReminderFire{ID: r.ID, Due: r.Due, NextExact: r.Exact}
	if until := s.opts.QuietHours.Hold(r.Due.In(loc), now.In(loc), r.Exact); !until.IsZero() {
		fire.Next = until
		if err := s.opts.Sender.Proactive(ctx, nil, fire); err != nil {
			return ignoreChanged(fmt.Errorf("hold reminder %d for quiet hours: %w", r.ID, err))
		}
		s.opts.Logger.Debug("reminder held for quiet hours", slog.Int64("reminder", r.ID), slog.Time("until", until))
		return nil
	}
	if r.Rule != "" {
		rule, err := tasks.ParseRule(r.Rule)
		if err != nil {
			return fmt.Errorf("reminder %d: %w", r.ID, err)
		}
		// After now, not after the due time: occurrences missed while
		// Haven was down are not sent one after another.
		fire.Next = rule.Next(now.In(loc))
	}
	out := channels.Outbound{
		Platform:     r.Platform,
		Conversation: channels.Conversation{ID: r.ConversationID, Kind: channels.Kind(r.ConversationKind), ThreadID: r.ThreadID},
		Kind:         channels.OutProactive,
		Text:         proactiveText(r),
	}
	if out.Conversation.Kind != channels.KindDM {
		out.Private, out.Recipient = true, r.Recipient
	}
	if err := s.opts.Sender.Proactive(ctx, []channels.Outbound{out}, fire); err != nil {
		return ignoreChanged(fmt.Errorf("send reminder %d: %w", r.ID, err))
	}
	s.opts.Logger.Info("reminder sent", slog.Int64("reminder", r.ID), slog.String("kind", r.Kind), slog.Bool("recurring", r.Rule != ""))
	return nil
}

// ignoreChanged drops the error of a reminder another pass claimed,
// moved or cancelled meanwhile: there is nothing to do.
func ignoreChanged(err error) error {
	if errors.Is(err, memory.ErrReminderChanged) {
		return nil
	}
	return err
}

// proactiveText is what Haven says when r comes due.
func proactiveText(r memory.Reminder) string {
	if r.Kind == memory.KindCheckIn {
		return "Checking in, as you asked. How are you doing right now?"
	}
	return "A reminder you asked for: " + r.What + "\n\n(/reminders lists them; /pause stops them for now.)"
}
