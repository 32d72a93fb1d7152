package tasks

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DefaultQuietHours is when Haven sends nothing it was not asked to send
// at that time, in the person's zone.
const DefaultQuietHours = "22:00-08:00"

// LateGrace is how late a reminder asked for inside quiet hours may still
// fire there: one that was due longer ago (Haven was down) waits for the
// end of quiet hours like anything else.
const LateGrace = 15 * time.Minute

// QuietHours is a daily span of wall-clock time, possibly across
// midnight, in which proactive messages wait. The zero value is off.
type QuietHours struct {
	// Start and End are minutes after midnight; Start == End means off.
	Start, End int
}

// ParseQuietHours reads "HH:MM-HH:MM" (24-hour clock, start then end,
// across midnight when the end is earlier) or "off". It returns an error
// naming what is wrong.
func ParseQuietHours(s string) (QuietHours, error) {
	s = strings.TrimSpace(s)
	if s == "off" {
		return QuietHours{}, nil
	}
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return QuietHours{}, fmt.Errorf("quiet hours %q: want HH:MM-HH:MM (\"22:00-08:00\") or off", s)
	}
	start, err := clockMinutes(a)
	if err != nil {
		return QuietHours{}, fmt.Errorf("quiet hours %q: start: %w", s, err)
	}
	end, err := clockMinutes(b)
	if err != nil {
		return QuietHours{}, fmt.Errorf("quiet hours %q: end: %w", s, err)
	}
	if start == end {
		return QuietHours{}, fmt.Errorf("quiet hours %q: start and end are the same time (say off for none)", s)
	}
	return QuietHours{Start: start, End: end}, nil
}

// clockMinutes reads a strict "HH:MM".
func clockMinutes(s string) (int, error) {
	hh, mm, ok := strings.Cut(s, ":")
	h, err1 := strconv.Atoi(hh)
	m, err2 := strconv.Atoi(mm)
	if !ok || len(hh) != 2 || len(mm) != 2 || err1 != nil || err2 != nil || h > 23 || m > 59 || h < 0 || m < 0 {
		return 0, fmt.Errorf("%q is not a 24-hour HH:MM time", s)
	}
	return h*60 + m, nil
}

// String is the form ParseQuietHours reads.
func (q QuietHours) String() string {
	if q.Off() {
		return "off"
	}
	return fmt.Sprintf("%02d:%02d-%02d:%02d", q.Start/60, q.Start%60, q.End/60, q.End%60)
}

// Off reports whether there are no quiet hours.
func (q QuietHours) Off() bool { return q.Start == q.End }

// Contains reports whether t, in its own location, falls in quiet hours
// (the start included, the end not).
func (q QuietHours) Contains(t time.Time) bool {
	if q.Off() {
		return false
	}
	m := t.Hour()*60 + t.Minute()
	if q.Start < q.End {
		return m >= q.Start && m < q.End
	}
	return m >= q.Start || m < q.End
}

// EndAfter returns when the quiet period holding t ends, in t's location;
// t itself when t is not in quiet hours.
func (q QuietHours) EndAfter(t time.Time) time.Time {
	if !q.Contains(t) {
		return t
	}
	y, mo, d := t.Date()
	end := time.Date(y, mo, d, q.End/60, q.End%60, 0, 0, t.Location())
	if !end.After(t) {
		end = time.Date(y, mo, d+1, q.End/60, q.End%60, 0, 0, t.Location())
	}
	return end
}

// Hold says whether a proactive message due at due may go out at now, both
// in the person's zone: it returns the zero time when it may, else the
// time to wait for (the end of quiet hours). One the person asked for at
// that time (exact) whose due time is itself in quiet hours goes out then,
// unless it is more than LateGrace late.
func (q QuietHours) Hold(due, now time.Time, exact bool) time.Time {
	if !q.Contains(now) {
		return time.Time{}
	}
	if exact && q.Contains(due) && now.Sub(due) <= LateGrace {
		return time.Time{}
	}
	return q.EndAfter(now)
}
