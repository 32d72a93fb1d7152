package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/memory"
)

// ReminderBackend keeps reminders and proactive settings; memory/sqlite's
// Store implements it. Its errors wrap memory.ErrNotFound for a reminder
// that is not the person's active one.
type ReminderBackend interface {
	AddReminder(ctx context.Context, r memory.Reminder) (int64, error)
	Reminders(ctx context.Context, personID string) ([]memory.Reminder, error)
	MoveReminder(ctx context.Context, personID string, id int64, due time.Time, rule string, exact bool) error
	CancelReminder(ctx context.Context, personID string, id int64) error
	ProactiveSettings(ctx context.Context, personID string) (memory.ProactiveSettings, error)
	SetTimeZone(ctx context.Context, personID, zone string) error
	MarkZoneAsked(ctx context.Context, personID string) error
	SetProactivePaused(ctx context.Context, personID string, paused bool) error
}

// ReminderStore adapts a ReminderBackend to the task branch's
// tasks.ReminderStore (its own types, string ids). wake, when not nil, is
// called after a reminder was set or moved or a person resumed, so that
// the scheduler looks at once (Scheduler.Wake); without it the
// scheduler's poll finds them.
func ReminderStore(b ReminderBackend, wake func()) tasks.ReminderStore {
	if wake == nil {
		wake = func() {}
	}
	return reminderStore{b, wake}
}

// ReminderCapabilities are the reminder capabilities over b, for the
// task registry (see ReminderStore for wake).
func ReminderCapabilities(b ReminderBackend, wake func()) []tasks.Capability {
	return tasks.ReminderCapabilities(ReminderStore(b, wake))
}

type reminderStore struct {
	b    ReminderBackend
	wake func()
}

// parseReminderID reads a reminder id; a malformed one is no reminder.
func parseReminderID(id string) (int64, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("reminder id %q: %w", id, tasks.ErrNoReminder)
	}
	return n, nil
}

// notFound maps the store's not-found to the task branch's.
func notFound(err error) error {
	if errors.Is(err, memory.ErrNotFound) {
		return fmt.Errorf("%w: %w", tasks.ErrNoReminder, err)
	}
	return err
}

func ruleString(r *tasks.Rule) string {
	if r == nil {
		return ""
	}
	return r.String()
}

func (s reminderStore) AddReminder(ctx context.Context, personID, source string, to tasks.Target, r tasks.Reminder) (string, error) {
	id, err := s.b.AddReminder(ctx, memory.Reminder{
		PersonID: personID, Source: source, Kind: r.Kind, What: r.What, Due: r.Due, Rule: ruleString(r.Rule), Exact: r.Exact, Zone: r.Zone,
		Platform: to.Platform, ConversationID: to.ConversationID, ConversationKind: to.Kind, ThreadID: to.ThreadID,
	})
	if err != nil {
		return "", err
	}
	s.wake()
	return strconv.FormatInt(id, 10), nil
}

func (s reminderStore) Reminders(ctx context.Context, personID string) ([]tasks.Reminder, error) {
	rs, err := s.b.Reminders(ctx, personID)
	if err != nil {
		return nil, err
	}
	out := make([]tasks.Reminder, 0, len(rs))
	for _, r := range rs {
		t := tasks.Reminder{ID: strconv.FormatInt(r.ID, 10), Kind: r.Kind, What: r.What, Due: r.Due, Exact: r.Exact, Zone: r.Zone}
		if r.Rule != "" {
			rule, err := tasks.ParseRule(r.Rule)
			if err != nil {
				return nil, fmt.Errorf("reminder %d: %w", r.ID, err)
			}
			t.Rule = &rule
		}
		out = append(out, t)
	}
	return out, nil
}

func (s reminderStore) MoveReminder(ctx context.Context, personID string, r tasks.Reminder) error {
	id, err := parseReminderID(r.ID)
	if err != nil {
		return err
	}
	if err := s.b.MoveReminder(ctx, personID, id, r.Due, ruleString(r.Rule), r.Exact); err != nil {
		return notFound(err)
	}
	s.wake()
	return nil
}

func (s reminderStore) CancelReminder(ctx context.Context, personID, id string) error {
	n, err := parseReminderID(id)
	if err != nil {
		return err
	}
	return notFound(s.b.CancelReminder(ctx, personID, n))
}

func (s reminderStore) ZoneAsked(ctx context.Context, personID string) (bool, error) {
	st, err := s.b.ProactiveSettings(ctx, personID)
	return st.ZoneAsked, err
}

func (s reminderStore) MarkZoneAsked(ctx context.Context, personID string) error {
	return s.b.MarkZoneAsked(ctx, personID)
}

func (s reminderStore) SetTimeZone(ctx context.Context, personID, zone string) error {
	return s.b.SetTimeZone(ctx, personID, zone)
}

func (s reminderStore) SetProactivePaused(ctx context.Context, personID string, paused bool) error {
	if err := s.b.SetProactivePaused(ctx, personID, paused); err != nil {
		return err
	}
	if !paused {
		s.wake()
	}
	return nil
}

// PersonLocation is the person's time zone for a turn: the one they told
// Haven, else the platform's (channels.Inbound.TimeZone), else nil
// (unknown). A zone that does not load counts as unknown.
func PersonLocation(ctx context.Context, b ReminderBackend, personID string, in channels.Inbound) (*time.Location, error) {
	st, err := b.ProactiveSettings(ctx, personID)
	if err != nil {
		return nil, fmt.Errorf("load time zone of person %s: %w", personID, err)
	}
	for _, z := range []string{st.TimeZone, in.TimeZone} {
		if z == "" {
			continue
		}
		if loc, err := time.LoadLocation(z); err == nil {
			return loc, nil
		}
	}
	return nil, nil
}

// personLocation is the turn's person's zone for the task branch (see
// PersonLocation); nil when unknown or when it cannot be read (logged:
// the capability then reads times as UTC and says so).
func (e *Engine) personLocation(ctx context.Context, t *Turn) *time.Location {
	if e.reminders == nil {
		if t.In.TimeZone != "" {
			if loc, err := time.LoadLocation(t.In.TimeZone); err == nil {
				return loc
			}
		}
		return nil
	}
	loc, err := PersonLocation(ctx, e.reminders, t.Person.ID, t.In)
	if err != nil {
		e.logger(t).Warn("time zone unavailable for the task branch", slog.String("person", t.Person.ID), slog.Any("err", err))
		return nil
	}
	return loc
}
