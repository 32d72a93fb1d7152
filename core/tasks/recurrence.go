package tasks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Rule is a recurrence: at Hour:Minute, wall-clock time in the person's
// zone, on Days (every day when Days is empty).
type Rule struct {
	// Days are the weekdays it recurs on, sorted Sunday first, without
	// repeats; empty means every day.
	Days   []time.Weekday
	Hour   int
	Minute int
}

// weekdays are Monday to Friday.
var weekdays = []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}

// dayNames are the three-letter names used in a rule's encoding, by weekday.
var dayNames = [...]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// on reports whether the rule recurs on d.
func (r Rule) on(d time.Weekday) bool { return len(r.Days) == 0 || slices.Contains(r.Days, d) }

// Next returns the first occurrence strictly after t, in t's location. A
// wall-clock time that a daylight-saving change skips is moved as
// time.Date moves it (forward by the gap).
func (r Rule) Next(t time.Time) time.Time {
	y, m, d := t.Date()
	for i := 0; i <= 8; i++ {
		c := time.Date(y, m, d+i, r.Hour, r.Minute, 0, 0, t.Location())
		if c.After(t) && r.on(c.Weekday()) {
			return c
		}
	}
	// Unreachable for a valid rule: every week holds one of its days.
	return time.Date(y, m, d+1, r.Hour, r.Minute, 0, 0, t.Location())
}

// Valid reports what is wrong with r, nil when nothing is.
func (r Rule) Valid() error {
	if r.Hour < 0 || r.Hour > 23 || r.Minute < 0 || r.Minute > 59 {
		return fmt.Errorf("recurrence time %02d:%02d is not a time of day", r.Hour, r.Minute)
	}
	for i, d := range r.Days {
		if d < time.Sunday || d > time.Saturday {
			return fmt.Errorf("recurrence day %d is not a weekday", d)
		}
		if i > 0 && r.Days[i-1] >= d {
			return fmt.Errorf("recurrence days %v are not sorted and unique", r.Days)
		}
	}
	return nil
}

// String is the rule's stored form, read back by ParseRule: "daily 08:00",
// "weekdays 09:00", "mon,thu 10:30".
func (r Rule) String() string {
	clock := fmt.Sprintf("%02d:%02d", r.Hour, r.Minute)
	switch {
	case len(r.Days) == 0:
		return "daily " + clock
	case slices.Equal(r.Days, weekdays):
		return "weekdays " + clock
	}
	names := make([]string, len(r.Days))
	for i, d := range r.Days {
		names[i] = dayNames[d]
	}
	return strings.Join(names, ",") + " " + clock
}

// Describe says the rule for a person: "every day at 08:00", "every
// weekday at 09:00", "every Monday and Thursday at 10:30".
func (r Rule) Describe() string {
	clock := fmt.Sprintf("%02d:%02d", r.Hour, r.Minute)
	switch {
	case len(r.Days) == 0:
		return "every day at " + clock
	case slices.Equal(r.Days, weekdays):
		return "every weekday at " + clock
	}
	names := make([]string, len(r.Days))
	for i, d := range r.Days {
		names[i] = d.String()
	}
	list := names[0]
	if n := len(names); n > 1 {
		list = strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	return "every " + list + " at " + clock
}

// ParseRule reads a rule's stored form (Rule.String). It returns an error
// naming what is wrong.
func ParseRule(s string) (Rule, error) {
	days, clock, ok := strings.Cut(strings.TrimSpace(s), " ")
	if !ok {
		return Rule{}, fmt.Errorf("recurrence %q: want days and a time (\"daily 08:00\")", s)
	}
	hh, mm, ok := strings.Cut(clock, ":")
	h, err1 := strconv.Atoi(hh)
	m, err2 := strconv.Atoi(mm)
	if !ok || len(hh) != 2 || len(mm) != 2 || err1 != nil || err2 != nil {
		return Rule{}, fmt.Errorf("recurrence %q: time %q is not HH:MM", s, clock)
	}
	r := Rule{Hour: h, Minute: m}
	switch days {
	case "daily":
	case "weekdays":
		r.Days = slices.Clone(weekdays)
	default:
		for _, name := range strings.Split(days, ",") {
			i := slices.Index(dayNames[:], name)
			if i < 0 {
				return Rule{}, fmt.Errorf("recurrence %q: %q is not a day (sun, mon, ... sat)", s, name)
			}
			r.Days = append(r.Days, time.Weekday(i))
		}
	}
	if err := r.Valid(); err != nil {
		return Rule{}, fmt.Errorf("recurrence %q: %w", s, err)
	}
	return r, nil
}
