package sqlite

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/memory"
)

func TestJournalEntriesAreWrittenListedByRangeAndBelongToTheirPerson(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	alice, bob := person(t, s, "alice"), person(t, s, "bob")
	day := func(d int) time.Time { return time.Date(2026, 1, d, 12, 0, 0, 0, time.UTC) }
	for d := 1; d <= 5; d++ {
		if _, err := s.AddJournalEntry(ctx, alice.ID, "  day "+itoa(d)+"  ", day(d), ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AddJournalEntry(ctx, bob.ID, "bob's day", day(3), ""); err != nil {
		t.Fatal(err)
	}
	texts := func(es []memory.JournalEntry) string {
		var out []string
		for _, e := range es {
			out = append(out, e.Text)
		}
		return strings.Join(out, ",")
	}
	tests := []struct {
		name     string
		from, to time.Time
		limit    int
		want     string
	}{
		{"all, oldest first", time.Time{}, time.Time{}, 0, "day 1,day 2,day 3,day 4,day 5"},
		{"a range, to exclusive", day(2), day(4), 0, "day 2,day 3"},
		{"the newest two", time.Time{}, time.Time{}, 2, "day 4,day 5"},
		{"an empty range", day(9), time.Time{}, 0, ""},
	}
	for _, tt := range tests {
		es, err := s.JournalEntries(ctx, alice.ID, tt.from, tt.to, tt.limit)
		if err != nil || texts(es) != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.name, texts(es), err, tt.want)
		}
	}
}

func TestAJournalEntryMustHaveTextAndAPerson(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "alice")
	for name, tc := range map[string]struct{ pid, text string }{
		"empty text": {p.ID, "   "}, "too long": {p.ID, strings.Repeat("a", memory.MaxJournalRunes+1)},
		"no person": {"", "x"}, "unknown person": {"nobody", "x"},
	} {
		if _, err := s.AddJournalEntry(ctx, tc.pid, tc.text, time.Time{}, ""); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestJournalEntriesAreListedForgottenExportedAndGoWithThePerson(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "alice")
	e, err := s.AddJournalEntry(ctx, p.ID, "a walk in the rain", time.Time{}, "")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := s.Records(ctx, p.ID)
	if err != nil || len(recs) != 1 || recs[0].Journal == nil || recs[0].Ref != (memory.Ref{Kind: memory.KindJournal, ID: e.ID}) {
		t.Fatalf("Records = %+v, %v", recs, err)
	}
	ex, err := s.Export(ctx, p.ID)
	if err != nil || len(ex.Journal) != 1 || ex.Journal[0].Text != "a walk in the rain" {
		t.Fatalf("Export journal = %+v, %v", ex.Journal, err)
	}
	if err := s.Forget(ctx, "someone-else", recs[0].Ref); err != nil {
		t.Fatal(err)
	}
	if es, _ := s.JournalEntries(ctx, p.ID, time.Time{}, time.Time{}, 0); len(es) != 1 {
		t.Fatal("another person's Forget removed the entry")
	}
	if err := s.Forget(ctx, p.ID, recs[0].Ref); err != nil {
		t.Fatal(err)
	}
	if es, _ := s.JournalEntries(ctx, p.ID, time.Time{}, time.Time{}, 0); len(es) != 0 {
		t.Fatal("Forget left the entry")
	}
	if _, err := s.AddJournalEntry(ctx, p.ID, "another", time.Time{}, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.ForgetAll(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.rd.QueryRowContext(ctx, `SELECT count(*) FROM journal`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d journal rows after ForgetAll (%v)", n, err)
	}
}

func TestAJournalEntryFromTheSameSourceIsWrittenOnce(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "alice")
	a, err := s.AddJournalEntry(ctx, p.ID, "once", time.Time{}, "conv|m1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.AddJournalEntry(ctx, p.ID, "once", time.Time{}, "conv|m1")
	if err != nil || b.ID != a.ID {
		t.Fatalf("second write = %+v, %v; want entry %d", b, err, a.ID)
	}
	if _, err := s.AddJournalEntry(ctx, p.ID, "no source", time.Time{}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddJournalEntry(ctx, p.ID, "no source", time.Time{}, ""); err != nil {
		t.Fatal(err)
	}
	if es, _ := s.JournalEntries(ctx, p.ID, time.Time{}, time.Time{}, 0); len(es) != 3 {
		t.Fatalf("%d entries, want 3", len(es))
	}
}
