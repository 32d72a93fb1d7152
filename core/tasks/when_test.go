package tasks

import (
	"strings"
	"testing"
	"time"
)

func dublin(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Dublin")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestParseWhenReadsTimesAndRecurrences(t *testing.T) {
	loc := dublin(t)
	// Tuesday 24 November 2026, 14:30 in Dublin.
	now := time.Date(2026, 11, 24, 14, 30, 0, 0, loc)
	at := func(d, h, m int) time.Time { return time.Date(2026, 11, d, h, m, 0, 0, loc) }
	tests := []struct {
		text     string
		want     time.Time
		exact    bool
		relative bool
		rule     string
	}{
		{"remind me in 2 hours to stretch", at(24, 16, 30), true, true, ""},
		{"in 2 minutes", at(24, 14, 32), true, true, ""},
		{"remind me to take a walk at 6", at(24, 18, 0), true, false, ""},
		{"at 9", at(24, 21, 0), true, false, ""},
		{"at 11", at(24, 23, 0), true, false, ""},
		{"at 23:00", at(24, 23, 0), true, false, ""},
		{"at 7:30", at(24, 19, 30), true, false, ""},
		{"at 6am", at(25, 6, 0), true, false, ""},
		{"tomorrow evening", at(25, 18, 0), false, false, ""},
		{"check in on me tomorrow evening", at(25, 18, 0), false, false, ""},
		{"tomorrow at 6", at(25, 18, 0), true, false, ""},
		{"at 9 tomorrow", at(25, 9, 0), true, false, ""},
		{"tomorrow", at(25, 9, 0), false, false, ""},
		{"tonight", at(24, 20, 0), false, false, ""},
		{"on friday at 5pm", at(27, 17, 0), true, false, ""},
		{"every weekday at 9", at(25, 9, 0), true, false, "weekdays 09:00"},
		{"every day at 8pm", at(24, 20, 0), true, false, "daily 20:00"},
		{"daily at 8", at(25, 8, 0), true, false, "daily 08:00"},
		{"every monday and thursday at 10", at(26, 10, 0), true, false, "mon,thu 10:00"},
		{"every evening", at(24, 18, 0), false, false, "daily 18:00"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			w, ok := ParseWhen(tt.text, now)
			if !ok {
				t.Fatal("no time read")
			}
			if !w.At.Equal(tt.want) || w.Exact != tt.exact || w.Relative != tt.relative {
				t.Errorf("At %s exact %v relative %v; want %s %v %v", w.At.In(loc), w.Exact, w.Relative, tt.want, tt.exact, tt.relative)
			}
			got := ""
			if w.Rule != nil {
				got = w.Rule.String()
			}
			if got != tt.rule {
				t.Errorf("rule %q, want %q", got, tt.rule)
			}
		})
	}
}

func TestParseWhenFindsNoTimeWhereNoneIsNamed(t *testing.T) {
	now := time.Date(2026, 11, 24, 14, 30, 0, 0, time.UTC)
	for _, text := range []string{"remind me to call mum", "cancel the walk reminder", "I have 2 cats", "right now"} {
		if w, ok := ParseWhen(text, now); ok {
			t.Errorf("ParseWhen(%q) = %s, want no time", text, w.At)
		}
	}
}

func TestParseMoveReadsABareHourInTheReminderHalfOfTheDay(t *testing.T) {
	loc := dublin(t)
	at := func(d, h, m int) time.Time { return time.Date(2026, 11, d, h, m, 0, 0, loc) }
	tests := []struct {
		name     string
		text     string
		old, now time.Time
		want     time.Time
	}{
		{"evening reminder, early morning", "move that to 7", at(24, 18, 0), at(24, 6, 0), at(24, 19, 0)},
		{"morning reminder, early morning", "move that to 7", at(24, 8, 0), at(24, 6, 0), at(24, 7, 0)},
		{"morning reminder, past 7am", "move that to 7", at(24, 8, 0), at(24, 7, 30), at(24, 19, 0)},
		{"tomorrow's evening reminder", "move it to 7", at(25, 18, 0), at(24, 14, 0), at(25, 19, 0)},
		{"past both", "move that to 7", at(24, 18, 0), at(24, 20, 0), at(25, 7, 0)},
		{"with pm", "move it to 8pm", at(24, 18, 0), at(24, 14, 0), at(24, 20, 0)},
		{"with a day", "move it to tomorrow at 7", at(24, 18, 0), at(24, 14, 0), at(25, 7, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, ok := ParseMove(tt.text, tt.old, tt.now)
			if !ok || !w.At.Equal(tt.want) {
				t.Fatalf("ParseMove = %s, %v; want %s", w.At, ok, tt.want)
			}
		})
	}
}

func TestRuleNextAndItsStoredForm(t *testing.T) {
	loc := dublin(t)
	fri := time.Date(2026, 11, 27, 9, 0, 0, 0, loc)
	wd, err := ParseRule("weekdays 09:00")
	if err != nil {
		t.Fatal(err)
	}
	if got := wd.Next(fri); !got.Equal(time.Date(2026, 11, 30, 9, 0, 0, 0, loc)) {
		t.Errorf("next weekday after Friday 09:00 = %s, want Monday 09:00", got)
	}
	// Across the spring daylight-saving change the wall-clock time holds.
	daily := Rule{Hour: 8}
	if got := daily.Next(time.Date(2027, 3, 27, 9, 0, 0, 0, loc)); got.Hour() != 8 || got.Day() != 28 {
		t.Errorf("daily 08:00 across DST = %s", got)
	}
	for _, s := range []string{"daily 08:00", "weekdays 09:30", "sun,sat 23:59", "mon,thu 10:00"} {
		r, err := ParseRule(s)
		if err != nil || r.String() != s {
			t.Errorf("ParseRule(%q) = %v, %v; want it back", s, r, err)
		}
	}
	for _, s := range []string{"", "daily", "daily 8:00", "daily 24:00", "thu,mon 10:00", "funday 10:00", "mon,mon 10:00"} {
		if _, err := ParseRule(s); err == nil {
			t.Errorf("ParseRule(%q) took a bad rule", s)
		}
	}
	if got := (Rule{Days: []time.Weekday{time.Monday, time.Thursday}, Hour: 10}).Describe(); got != "every Monday and Thursday at 10:00" {
		t.Errorf("Describe = %q", got)
	}
}

func TestQuietHoursHoldWhatWasNotAskedForThen(t *testing.T) {
	loc := dublin(t)
	q, err := ParseQuietHours(DefaultQuietHours)
	if err != nil {
		t.Fatal(err)
	}
	at := func(d, h, m int) time.Time { return time.Date(2026, 11, d, h, m, 0, 0, loc) }
	tests := []struct {
		name      string
		due, now  time.Time
		exact     bool
		wantUntil time.Time
	}{
		{"daytime", at(24, 14, 0), at(24, 14, 0), false, time.Time{}},
		{"asked for 23:00", at(24, 23, 0), at(24, 23, 0), true, time.Time{}},
		{"a check-in at night", at(24, 23, 0), at(24, 23, 0), false, at(25, 8, 0)},
		{"after midnight", at(25, 3, 0), at(25, 3, 0), false, at(25, 8, 0)},
		{"asked for 21:00, late after downtime", at(24, 21, 0), at(24, 23, 30), true, at(25, 8, 0)},
		{"asked for 23:00, an hour late", at(24, 23, 0), at(25, 0, 1), true, at(25, 8, 0)},
		{"end is not quiet", at(25, 8, 0), at(25, 8, 0), false, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := q.Hold(tt.due, tt.now, tt.exact); !got.Equal(tt.wantUntil) {
				t.Fatalf("Hold = %s, want %s", got, tt.wantUntil)
			}
		})
	}
}

func TestParseQuietHoursIsStrict(t *testing.T) {
	for _, s := range []string{"22:00-08:00", "off", "08:30-12:00"} {
		q, err := ParseQuietHours(s)
		if err != nil || q.String() != s {
			t.Errorf("ParseQuietHours(%q) = %v, %v", s, q, err)
		}
	}
	for _, s := range []string{"", "22-08", "22:00", "22:00-22:00", "25:00-08:00", "22:00-8:00", "10pm-8am", "22:00 - 08:00"} {
		if _, err := ParseQuietHours(s); err == nil {
			t.Errorf("ParseQuietHours(%q) took it", s)
		}
	}
}

// BenchmarkParseWhen reads a reminder's time, as Execute does once per
// reminder set.
func BenchmarkParseWhen(b *testing.B) {
	now := time.Date(2026, 11, 24, 14, 30, 0, 0, time.UTC)
	for _, text := range []string{"to take my meds every weekday at 9", "to call mum tomorrow evening", "in 2 hours to stretch"} {
		b.Run(strings.Fields(text)[len(strings.Fields(text))-1], func(b *testing.B) {
			for b.Loop() {
				if _, ok := ParseWhen(text, now); !ok {
					b.Fatal("no time")
				}
			}
		})
	}
}

// BenchmarkReminderRulesOnTalk is the reminder capabilities' share of
// dispatch on an ordinary message: every Match is tried on it.
func BenchmarkReminderRulesOnTalk(b *testing.B) {
	caps := ReminderCapabilities(nil) // Match never touches the store
	req := &Request{Text: "I keep going over the argument with my sister and I can't sleep, it has been like this for weeks now",
		Now: time.Date(2026, 11, 24, 14, 30, 0, 0, time.UTC), Context: Context{}}
	for b.Loop() {
		for _, c := range caps {
			if c.Match != nil {
				if _, ok := c.Match(req); ok {
					b.Fatalf("%s took ordinary talk", c.Name)
				}
			}
		}
	}
}
