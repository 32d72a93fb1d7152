package memory

import (
	"errors"
	"time"
)

// The kinds of a Reminder.
const (
	// KindReminder is a reminder the person asked for ("remind me to take a walk at 6").
	KindReminder = "reminder"
	// KindCheckIn is a check-in the person asked for ("check in on me tomorrow evening").
	KindCheckIn = "checkin"
)

// ErrReminderChanged is returned (wrapped) when a reminder's fire was
// claimed for a due time it no longer has: it was fired, moved or
// cancelled meanwhile, or its person paused. Nothing was written.
var ErrReminderChanged = errors.New("reminder changed")

// Reminder is a message Haven will send a person later: once or on a
// recurrence, in the conversation it was asked for in.
type Reminder struct {
	ID       int64  `json:"id"`
	PersonID string `json:"-"`
	// Kind is KindReminder or KindCheckIn.
	Kind string `json:"kind"`
	// What is what to remind of, in the person's words. Never logged.
	What string `json:"what"`
	// Due is when it is next due.
	Due time.Time `json:"due"`
	// Rule is the recurrence in core/tasks' stored form ("weekdays 09:00");
	// empty for once.
	Rule string `json:"recurrence,omitempty"`
	// Exact is true when the person asked for that very time, which may
	// then fall in quiet hours.
	Exact bool `json:"exact_time"`
	// Zone is the IANA time zone the rule and quiet hours are read in
	// ("" is UTC).
	Zone string `json:"time_zone"`
	// Where it goes: the conversation it was asked in, for Recipient (a
	// namespaced platform user id).
	Platform         string    `json:"platform"`
	ConversationID   string    `json:"conversation_id"`
	ConversationKind string    `json:"conversation_kind"`
	ThreadID         string    `json:"thread_id,omitempty"`
	Recipient        string    `json:"recipient"`
	Created          time.Time `json:"created"`
	// Source is the message it was set from (a turn run again sets it
	// once); "" for none.
	Source string `json:"-"`
}

// ProactiveSettings are a person's controls over what Haven sends
// unasked.
type ProactiveSettings struct {
	// TimeZone is the IANA zone the person said or the platform gave; ""
	// when none is known.
	TimeZone string `json:"time_zone"`
	// ZoneAsked is true once Haven has asked for the zone (it asks once).
	ZoneAsked bool `json:"time_zone_asked"`
	// Paused is set by the person's /pause and cleared by /resume.
	Paused bool `json:"paused"`
	// Suspended is set when a proactive message could not be delivered
	// for good (the person blocked Haven); /resume clears it.
	Suspended bool `json:"suspended"`
}

// ReminderFire is a due reminder handed to the Hub, committed with its
// outbox row: it is claimed only if it is still due at Due, and is then
// done (Next zero) or due again at Next (a recurrence or a wait for the
// end of quiet hours). It is a channels.TurnWrites.
type ReminderFire struct {
	ID  int64
	Due time.Time
	// Next is when it is due again; zero when it is done.
	Next time.Time
	// NextExact is Exact for Next.
	NextExact bool
}

// Committed implements channels.TurnWrites; a ReminderFire needs no news
// of its commit.
func (ReminderFire) Committed(error) {}
