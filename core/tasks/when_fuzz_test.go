package tasks

import (
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzParseWhen feeds reminder times from anywhere (any bytes, any
// length) to the time and move readers: they never panic, and a time they
// read is never before now unless it recurs, and its Span is read again
// as a time.
func FuzzParseWhen(f *testing.F) {
	for _, s := range []string{"in 2 hours", "at 6", "tomorrow evening", "every weekday at 9", "move that to 7",
		"every day at 8pm", "friday at 5pm", "in 0 minutes", "at 25:99", "every  at", "in 99999999999999 years", "\xff at 6"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 24, 14, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 2000 {
			return
		}
		w, ok := ParseWhen(text, now)
		if ok && w.Rule == nil && w.At.Before(now.Add(-time.Minute)) {
			t.Fatalf("ParseWhen(%q) = %v, before now", text, w.At)
		}
		if ok && !utf8.ValidString(w.Span) && utf8.ValidString(text) {
			t.Fatalf("ParseWhen(%q) span %q is not UTF-8", text, w.Span)
		}
		ParseMove(text, now.Add(3*time.Hour), now)
		parseMood(text)
		_, _ = ParseRule(text)
		_, _ = ParseQuietHours(text)
	})
}
