package tasks

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/olebedev/when"
	"github.com/olebedev/when/rules/common"
	"github.com/olebedev/when/rules/en"
)

// When is a time a person asked for, read from their words.
type When struct {
	// At is the first time it is due, in now's location.
	At time.Time
	// Rule is the recurrence; nil for once.
	Rule *Rule
	// Exact is true when the person named the time (a clock time or an
	// offset from now): it fires then even inside quiet hours. A part of
	// the day ("tomorrow evening") or a default time is not exact.
	Exact bool
	// Relative is true for an offset from now ("in 2 hours"): it needs no
	// time zone.
	Relative bool
	// Span is the words the time was read from ("tomorrow at 6"); ParseWhen
	// reads it again as the same time.
	Span string
	// spans are the pieces of the text Span was read from, in the text's
	// own order and case, to take out of the rest.
	spans []string
}

// Rest returns text without the words the time was read from.
func (w When) Rest(text string) string {
	for _, s := range w.spans {
		text = strings.Replace(text, s, " ", 1)
	}
	return strings.Join(strings.Fields(text), " ")
}

// parser reads dates and times with github.com/olebedev/when's English
// and common rules; bare hours ("at 6") and recurrences are ours.
var parser = func() *when.Parser {
	w := when.New(nil)
	w.Add(en.All...)
	w.Add(common.All...)
	return w
}()

var (
	// clockRE is a clock time named outright: "at 6", "to 7", "6pm",
	// "18:30", "at 7.30 pm".
	clockRE = regexp.MustCompile(`(?i)(?:\b(?:at|to|for|by|@)\s+(\d{1,2})(?:[:.](\d{2}))?(?:\s*([ap])\.?m\.?)?\b|\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?m\.?\b|\b(\d{1,2}):(\d{2})\b)`)
	// everyRE is a recurrence: "every day", "every weekday", "daily",
	// "every monday and thursday", "every morning".
	everyRE = regexp.MustCompile(`(?i)\b(?:(daily|weekdays|each day|every\s*day)|every\s+(weekday|morning|evening|night|(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days?(?:\s*(?:,|and|&)\s*)?)+))\b`)
	dayRE   = regexp.MustCompile(`(?i)(mon|tues|wednes|thurs|fri|satur|sun)day`)
	partRE  = regexp.MustCompile(`(?i)\b(morning|afternoon|evening|tonight|night|noon|midnight)\b`)
)

// dayPrefix maps the stem of a day's name to the weekday.
var dayPrefix = map[string]time.Weekday{
	"sun": time.Sunday, "mon": time.Monday, "tues": time.Tuesday, "wednes": time.Wednesday,
	"thurs": time.Thursday, "fri": time.Friday, "satur": time.Saturday,
}

// clock is a time of day read from words.
type clock struct {
	hour, minute int
	// meridiem is 'a' or 'p' when am or pm was said, 0 when not.
	meridiem byte
	span     string
}

// findClock returns the first clock time named in text.
func findClock(text string) (clock, bool) {
	m := clockRE.FindStringSubmatch(text)
	if m == nil {
		return clock{}, false
	}
	var h, mi, mer string
	switch {
	case m[1] != "":
		h, mi, mer = m[1], m[2], m[3]
	case m[4] != "":
		h, mi, mer = m[4], m[5], m[6]
	default:
		h, mi = m[7], m[8]
	}
	c := clock{span: m[0]}
	c.hour, _ = strconv.Atoi(h)
	if mi != "" {
		c.minute, _ = strconv.Atoi(mi)
	}
	if mer != "" {
		c.meridiem = strings.ToLower(mer)[0]
	}
	if c.hour > 23 || c.minute > 59 || (c.meridiem != 0 && (c.hour == 0 || c.hour > 12)) {
		return clock{}, false
	}
	if c.meridiem == 'p' && c.hour < 12 {
		c.hour += 12
	}
	if c.meridiem == 'a' && c.hour == 12 {
		c.hour = 0
	}
	return c, true
}

// ambiguous reports whether the hour could be am or pm ("at 7").
func (c clock) ambiguous() bool { return c.meridiem == 0 && c.hour >= 1 && c.hour <= 12 }

// on returns the clock's time on t's date. An ambiguous hour is read as
// the afternoon or evening when pm is true.
func (c clock) on(t time.Time, pm bool) time.Time {
	h := c.hour
	if c.ambiguous() {
		h %= 12
		if pm {
			h += 12
		}
	}
	y, m, d := t.Date()
	return time.Date(y, m, d, h, c.minute, 0, 0, t.Location())
}

// likelyPM is the common-sense reading of a bare hour with nothing else
// to go on: 1 to 6 is afternoon or evening, 7 to 11 morning, 12 noon.
func (c clock) likelyPM() bool { return c.hour >= 1 && c.hour <= 6 }

// next returns the next time after now that the clock names: an
// ambiguous hour is its likely reading when that is still ahead today,
// else its other reading, else tomorrow's likely one.
func (c clock) next(now time.Time) time.Time {
	if !c.ambiguous() {
		t := c.on(now, false)
		if !t.After(now) {
			t = c.on(now.AddDate(0, 0, 1), false)
		}
		return t
	}
	for _, t := range []time.Time{c.on(now, c.likelyPM()), c.on(now, !c.likelyPM())} {
		if t.After(now) {
			return t
		}
	}
	return c.on(now.AddDate(0, 0, 1), c.likelyPM())
}

// partHour is the hour a part of the day stands for (not exact).
var partHour = map[string]int{"morning": 9, "afternoon": 15, "evening": 18, "tonight": 20, "night": 21, "noon": 12, "midnight": 0}

// ParseWhen reads the time or recurrence in text, relative to now (whose
// location is the person's zone, or UTC when it is not known). ok is
// false when text names no time.
func ParseWhen(text string, now time.Time) (When, bool) {
	if w, ok := parseEvery(text, now); ok {
		return w, true
	}
	c, hasClock := findClock(text)
	r, err := parser.Parse(text, now)
	if err != nil || r == nil || strings.EqualFold(r.Text, "now") {
		r = nil
	}
	switch {
	case r != nil && isOffset(r.Text):
		if r.Time.Before(now) || r.Time.After(now.AddDate(maxYearsAhead, 0, 0)) {
			// "in 300000000000 years" overflows the clock: no time.
			return When{}, false
		}
		return When{At: r.Time, Exact: true, Relative: true, Span: r.Text, spans: []string{r.Text}}, true
	case r != nil:
		return notPast(fromWhen(text, r.Text, r.Time, c, hasClock, now), now)
	case hasClock:
		return When{At: c.next(now), Exact: true, Span: c.span, spans: []string{c.span}}, true
	}
	return When{}, false
}

// maxYearsAhead bounds how far ahead a reminder may be set.
const maxYearsAhead = 10

// notPast keeps a one-off time that is still ahead. A time of day that
// has passed today ("2A" read as this morning) moves to tomorrow; a day
// that has gone ("last friday", "yesterday") names no time to be reminded
// at, and ok is false.
func notPast(w When, now time.Time) (When, bool) {
	if w.At.After(now.AddDate(maxYearsAhead, 0, 0)) {
		return When{}, false
	}
	if w.Rule != nil || w.At.After(now) {
		return w, true
	}
	if w.At.After(now.Add(-24*time.Hour)) && strings.ContainsAny(w.Span, "0123456789") {
		w.At = w.At.AddDate(0, 0, 1)
		return w, true
	}
	return When{}, false
}

// isOffset reports whether when's match is an offset from now.
func isOffset(s string) bool {
	s = strings.ToLower(s)
	return strings.HasPrefix(s, "in ") || strings.HasPrefix(s, "within ")
}

// fromWhen completes a match of the when library: a day without a time
// takes the clock named beside it (or 09:00), a part of the day is not
// exact ("tonight" is 20:00), and a clock time already past today moves
// to its next occurrence.
func fromWhen(text, span string, t time.Time, c clock, hasClock bool, now time.Time) When {
	digits := strings.ContainsAny(span, "0123456789")
	part := strings.ToLower(partRE.FindString(span))
	if part == "" && !digits {
		part = strings.ToLower(partRE.FindString(text))
	}
	w := When{Span: span, spans: []string{span}}
	switch {
	case digits:
		w.At, w.Exact = t, true
		if !w.At.After(now) && hasClock {
			// "7:30" read by the library as this morning though it is past.
			w.At = c.next(now)
		}
	case hasClock:
		// A day ("tomorrow", "friday") or a part of the day ("evening")
		// with a bare clock beside it: "tomorrow at 6", "at 6 in the evening".
		pm := c.likelyPM()
		switch part {
		case "morning":
			pm = false
		case "afternoon", "evening", "tonight", "night":
			pm = true
		}
		w.At, w.Exact, w.Span = c.on(t, pm), true, span+" "+c.span
		w.spans = append(w.spans, c.span)
		if !w.At.After(now) {
			w.At = c.next(now)
		}
	case part != "":
		w.At = time.Date(t.Year(), t.Month(), t.Day(), partHour[part], 0, 0, 0, t.Location())
	default:
		w.At = time.Date(t.Year(), t.Month(), t.Day(), 9, 0, 0, 0, t.Location())
	}
	if !w.At.After(now) && !w.Exact {
		w.At = w.At.AddDate(0, 0, 1)
	}
	return w
}

// parseEvery reads a recurrence: its days from everyRE, its time from a
// clock named in text or a part of the day (default 09:00, not exact).
func parseEvery(text string, now time.Time) (When, bool) {
	m := everyRE.FindStringSubmatch(text)
	if m == nil {
		return When{}, false
	}
	var rule Rule
	part := ""
	switch word := strings.ToLower(m[2]); {
	case m[1] != "":
		if strings.EqualFold(m[1], "weekdays") {
			rule.Days = slices.Clone(weekdays)
		}
	case word == "weekday":
		rule.Days = slices.Clone(weekdays)
	case word == "morning", word == "evening", word == "night":
		part = word
	default:
		for _, d := range dayRE.FindAllStringSubmatch(word, -1) {
			wd := dayPrefix[strings.ToLower(d[1])]
			if !slices.Contains(rule.Days, wd) {
				rule.Days = append(rule.Days, wd)
			}
		}
		slices.Sort(rule.Days)
	}
	if part == "" {
		part = strings.ToLower(partRE.FindString(text))
	}
	w := When{Rule: &rule, Span: m[0], spans: []string{m[0]}}
	if c, ok := findClock(text); ok {
		pm := c.likelyPM()
		switch part {
		case "evening", "night", "afternoon":
			pm = true
		case "morning":
			pm = false
		}
		t := c.on(now, pm)
		rule.Hour, rule.Minute, w.Exact = t.Hour(), t.Minute(), true
		w.Span += " " + c.span
		w.spans = append(w.spans, c.span)
	} else if h, ok := partHour[part]; ok {
		rule.Hour = h
	} else {
		rule.Hour = 9
	}
	w.At = rule.Next(now)
	return w, true
}

// ParseMove reads the new time in "move that to 7" for something due at
// old, relative to now (both in the person's zone). A bare hour keeps
// old's day and its half of the day (7 is 19:00 for an evening reminder)
// while that is still ahead, else the next 7 o'clock that is; anything
// else is read as ParseWhen reads it.
func ParseMove(text string, old, now time.Time) (When, bool) {
	c, hasClock := findClock(text)
	r, err := parser.Parse(text, now)
	dayNamed := err == nil && r != nil && !strings.ContainsAny(r.Text, "0123456789") && !strings.EqualFold(r.Text, "now")
	if !hasClock || !c.ambiguous() || dayNamed || everyRE.MatchString(text) {
		return ParseWhen(text, now)
	}
	pm := old.Hour() >= 12
	for _, t := range []time.Time{c.on(old, pm), c.on(old, !pm)} {
		if t.After(now) {
			return When{At: t, Exact: true, Span: c.span, spans: []string{c.span}}, true
		}
	}
	return When{At: c.next(now), Exact: true, Span: c.span, spans: []string{c.span}}, true
}
