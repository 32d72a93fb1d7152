package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

// maxReminderText bounds what a reminder keeps of the person's words.
const maxReminderText = 1000

const reminderCols = `id, person_id, kind, what, due_at, rule, exact, zone, platform, conversation_id,
	conversation_kind, thread_id, recipient, created_at`

// scanReminder reads one row of reminderCols.
func scanReminder(sc interface{ Scan(...any) error }) (memory.Reminder, error) {
	var r memory.Reminder
	var due, created int64
	err := sc.Scan(&r.ID, &r.PersonID, &r.Kind, &r.What, &due, &r.Rule, &r.Exact, &r.Zone, &r.Platform,
		&r.ConversationID, &r.ConversationKind, &r.ThreadID, &r.Recipient, &created)
	r.Due, r.Created = fromTS(due), fromTS(created)
	return r, err
}

// AddReminder stores r as active and returns its id. It must have a
// person, a kind, a due time and a conversation to go to; an empty
// Recipient is the person's identity on r.Platform. A second call with
// the same non-empty Source returns the reminder already set (a turn run
// again) and changes nothing.
func (s *Store) AddReminder(ctx context.Context, r memory.Reminder) (int64, error) {
	switch {
	case r.PersonID == "":
		return 0, errors.New("add reminder: no person")
	case r.Kind != memory.KindReminder && r.Kind != memory.KindCheckIn:
		return 0, fmt.Errorf("add reminder: kind %q is not reminder or checkin", r.Kind)
	case r.Due.IsZero():
		return 0, errors.New("add reminder: no due time")
	case r.Platform == "" || r.ConversationID == "":
		return 0, errors.New("add reminder: no platform or conversation")
	}
	var id int64
	err := s.write(ctx, func(tx *wtx) error {
		if r.Source != "" {
			err := tx.QueryRowContext(ctx, `SELECT id FROM reminders WHERE person_id = ? AND source = ?`, r.PersonID, r.Source).Scan(&id)
			if err == nil {
				return nil // set by this message already: a turn run again
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("find reminder of source: %w", err)
			}
		}
		if r.Recipient == "" {
			err := tx.QueryRowContext(ctx, `SELECT platform_user_id FROM identities WHERE person_id = ? AND platform = ?
				ORDER BY platform_user_id LIMIT 1`, r.PersonID, r.Platform).Scan(&r.Recipient)
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("person has no identity on %s to send it to: %w", r.Platform, memory.ErrNotFound)
			}
			if err != nil {
				return fmt.Errorf("find the recipient: %w", err)
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO reminders (person_id, kind, what, due_at, rule, exact, zone,
			platform, conversation_id, conversation_kind, thread_id, recipient, source, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.PersonID, r.Kind, clip(r.What, maxReminderText), ts(r.Due), r.Rule, r.Exact, r.Zone,
			r.Platform, r.ConversationID, r.ConversationKind, r.ThreadID, r.Recipient, r.Source, ts(s.now()))
		if err != nil {
			return err
		}
		id, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("add reminder for person %s: %w", r.PersonID, err)
	}
	return id, nil
}

// Reminders returns the person's active reminders and check-ins, soonest
// first.
func (s *Store) Reminders(ctx context.Context, personID string) ([]memory.Reminder, error) {
	rs, err := s.queryReminders(ctx, `SELECT `+reminderCols+` FROM reminders
		WHERE person_id = ? AND status = 'active' ORDER BY due_at, id`, personID)
	if err != nil {
		return nil, fmt.Errorf("list reminders of person %s: %w", personID, err)
	}
	return rs, nil
}

func (s *Store) queryReminders(ctx context.Context, q string, args ...any) ([]memory.Reminder, error) {
	rows, err := s.rd.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, s.classify(err)
	}
	defer rows.Close()
	var out []memory.Reminder
	for rows.Next() {
		r, err := scanReminder(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, s.classify(rows.Err())
}

// MoveReminder sets the person's active reminder id due at due, with its
// recurrence rule and exactness. A reminder that is not theirs or not
// active is an error wrapping memory.ErrNotFound.
func (s *Store) MoveReminder(ctx context.Context, personID string, id int64, due time.Time, rule string, exact bool) error {
	err := s.updateOne(ctx, "no such active reminder", `UPDATE reminders SET due_at = ?, rule = ?, exact = ?
		WHERE id = ? AND person_id = ? AND status = 'active'`, ts(due), rule, exact, id, personID)
	if err != nil {
		return fmt.Errorf("move reminder %d: %w", id, err)
	}
	return nil
}

// CancelReminder cancels the person's active reminder id. A reminder that
// is not theirs or not active is an error wrapping memory.ErrNotFound.
func (s *Store) CancelReminder(ctx context.Context, personID string, id int64) error {
	err := s.updateOne(ctx, "no such active reminder", `UPDATE reminders SET status = 'cancelled'
		WHERE id = ? AND person_id = ? AND status = 'active'`, id, personID)
	if err != nil {
		return fmt.Errorf("cancel reminder %d: %w", id, err)
	}
	return nil
}

// schedulable is the filter of reminders that may fire: active, and their
// person neither paused nor suspended.
const schedulable = `r.status = 'active' AND NOT EXISTS (SELECT 1 FROM proactive_settings p
	WHERE p.person_id = r.person_id AND (p.paused = 1 OR p.suspended_at IS NOT NULL))`

// DueReminders returns up to limit reminders due at or before now whose
// person is neither paused nor suspended, the most overdue first.
func (s *Store) DueReminders(ctx context.Context, now time.Time, limit int) ([]memory.Reminder, error) {
	rs, err := s.queryReminders(ctx, `SELECT `+reminderCols+` FROM reminders r
		WHERE r.due_at <= ? AND `+schedulable+` ORDER BY r.due_at, r.id LIMIT ?`, ts(now), limit)
	if err != nil {
		return nil, fmt.Errorf("list due reminders: %w", err)
	}
	return rs, nil
}

// NextReminderDue returns when the next reminder that may fire is due; ok
// is false when there is none.
func (s *Store) NextReminderDue(ctx context.Context) (due time.Time, ok bool, err error) {
	var n sql.NullInt64
	err = s.rd.QueryRowContext(ctx, `SELECT min(r.due_at) FROM reminders r WHERE `+schedulable).Scan(&n)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("find the next due reminder: %w", s.classify(err))
	}
	return fromTS(n.Int64), n.Valid, nil
}

// FinishProactive commits fire (a memory.ReminderFire) and adds outs to
// the outbox, each row carrying the reminder's id, in one transaction,
// and returns the rows' ids. The reminder is claimed only while it is
// active, still due at fire.Due and its person neither paused nor
// suspended; otherwise the error wraps memory.ErrReminderChanged and
// nothing is written. It implements channels.ProactiveFinisher.
func (s *Store) FinishProactive(ctx context.Context, outs []channels.Outbound, writes channels.TurnWrites) ([]int64, error) {
	fire, ok := writes.(memory.ReminderFire)
	if !ok {
		return nil, fmt.Errorf("finish proactive message: writes of type %T are not a memory.ReminderFire", writes)
	}
	payloads, err := encodeOutbound(outs)
	if err != nil {
		return nil, fmt.Errorf("finish reminder %d: %w", fire.ID, err)
	}
	var ids []int64
	err = s.write(ctx, func(tx *wtx) error {
		now := s.now()
		status := "active"
		if fire.Next.IsZero() {
			status = "done"
		}
		err := execOne(ctx, tx, "reminder is not due", `UPDATE reminders AS r SET status = ?, due_at = ?, exact = ?, fired_at = ?
			WHERE r.id = ? AND r.due_at = ? AND `+schedulable,
			status, ts(fire.Next), fire.NextExact, ts(now), fire.ID, ts(fire.Due))
		if errors.Is(err, memory.ErrNotFound) {
			return fmt.Errorf("claim: %w", memory.ErrReminderChanged)
		}
		if err != nil {
			return fmt.Errorf("claim: %w", err)
		}
		if ids, err = insertOutbound(ctx, tx, outs, payloads, now); err != nil {
			return fmt.Errorf("add %d messages to outbox: %w", len(outs), err)
		}
		for _, id := range ids {
			if _, err := tx.ExecContext(ctx, `UPDATE outbox SET reminder_id = ? WHERE id = ?`, fire.ID, id); err != nil {
				return fmt.Errorf("link outbox message %d: %w", id, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("finish reminder %d: %w", fire.ID, err)
	}
	return ids, nil
}

var _ channels.ProactiveFinisher = (*Store)(nil)

// ProactiveSettings returns the person's proactive controls (the zero
// value for a person who never set any).
func (s *Store) ProactiveSettings(ctx context.Context, personID string) (memory.ProactiveSettings, error) {
	var st memory.ProactiveSettings
	var suspended sql.NullInt64
	err := s.rd.QueryRowContext(ctx, `SELECT time_zone, zone_asked, paused, suspended_at FROM proactive_settings WHERE person_id = ?`,
		personID).Scan(&st.TimeZone, &st.ZoneAsked, &st.Paused, &suspended)
	if errors.Is(err, sql.ErrNoRows) {
		return memory.ProactiveSettings{}, nil
	}
	if err != nil {
		return memory.ProactiveSettings{}, fmt.Errorf("load proactive settings of person %s: %w", personID, s.classify(err))
	}
	st.Suspended = suspended.Valid
	return st, nil
}

// upsertProactive sets one column of the person's proactive settings.
func (s *Store) upsertProactive(ctx context.Context, tx *wtx, personID, set string, args ...any) error {
	q := `INSERT INTO proactive_settings (person_id, updated_at) VALUES (?, ?)
		ON CONFLICT (person_id) DO UPDATE SET updated_at = excluded.updated_at`
	if _, err := tx.ExecContext(ctx, q, personID, ts(s.now())); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `UPDATE proactive_settings SET `+set+` WHERE person_id = ?`, append(args, personID)...)
	return err
}

// SetTimeZone saves the person's IANA time zone (checked by the caller)
// and reads their active reminders' recurrences in it from now on.
func (s *Store) SetTimeZone(ctx context.Context, personID, zone string) error {
	err := s.write(ctx, func(tx *wtx) error {
		if err := s.upsertProactive(ctx, tx, personID, `time_zone = ?`, zone); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE reminders SET zone = ? WHERE person_id = ? AND status = 'active'`, zone, personID)
		return err
	})
	if err != nil {
		return fmt.Errorf("save time zone of person %s: %w", personID, err)
	}
	return nil
}

// MarkZoneAsked records that Haven has asked the person for their zone.
func (s *Store) MarkZoneAsked(ctx context.Context, personID string) error {
	err := s.write(ctx, func(tx *wtx) error { return s.upsertProactive(ctx, tx, personID, `zone_asked = 1`) })
	if err != nil {
		return fmt.Errorf("mark time zone asked of person %s: %w", personID, err)
	}
	return nil
}

// SetProactivePaused pauses (the person's /pause) or resumes (/resume)
// every proactive message for the person. Resuming also lifts a
// suspension after a permanent send error.
func (s *Store) SetProactivePaused(ctx context.Context, personID string, paused bool) error {
	set := `paused = 1`
	if !paused {
		set = `paused = 0, suspended_at = NULL`
	}
	err := s.write(ctx, func(tx *wtx) error { return s.upsertProactive(ctx, tx, personID, set) })
	if err != nil {
		return fmt.Errorf("set proactive paused=%v for person %s: %w", paused, personID, err)
	}
	return nil
}

// suspendFor suspends the schedule of the person whose reminder outbox
// row id delivers, if it delivers one, in tx.
func (s *Store) suspendFor(ctx context.Context, tx *wtx, id int64, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO proactive_settings (person_id, suspended_at, updated_at)
		SELECT r.person_id, ?1, ?1 FROM outbox o JOIN reminders r ON r.id = o.reminder_id WHERE o.id = ?2
		ON CONFLICT (person_id) DO UPDATE SET suspended_at = coalesce(suspended_at, excluded.suspended_at), updated_at = excluded.updated_at`,
		ts(now), id)
	return err
}
