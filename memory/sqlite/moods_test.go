package sqlite

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/memory"
)

func TestMoodsRoundTripInTimeOrderWithinTheWindow(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "ann")
	other := person(t, s, "bob")
	base := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	for i, m := range []memory.Mood{
		{PersonID: p.ID, Score: 6, Note: "  tired but ok ", At: base.Add(48 * time.Hour)},
		{PersonID: p.ID, Score: 0, At: base},
		{PersonID: p.ID, Score: 10, Note: "great day", At: base.Add(24 * time.Hour)},
		{PersonID: other.ID, Score: 3, At: base.Add(24 * time.Hour)},
	} {
		got, err := s.AddMood(ctx, m)
		if err != nil {
			t.Fatalf("AddMood #%d: %v", i, err)
		}
		if got.ID == 0 || !got.At.Equal(m.At) {
			t.Fatalf("AddMood #%d = %+v, want an id and the time kept", i, got)
		}
	}
	all, err := s.Moods(ctx, p.ID, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var scores []int
	for _, m := range all {
		scores = append(scores, m.Score)
		if m.PersonID != p.ID {
			t.Fatalf("Moods returned another person's entry: %+v", m)
		}
	}
	if want := []int{0, 10, 6}; !equalInts(scores, want) {
		t.Fatalf("scores oldest first = %v, want %v", scores, want)
	}
	if all[2].Note != "tired but ok" {
		t.Fatalf("note = %q, want it trimmed", all[2].Note)
	}
	// The window is [from, to).
	win, err := s.Moods(ctx, p.ID, base.Add(24*time.Hour), base.Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(win) != 1 || win[0].Score != 10 {
		t.Fatalf("Moods in [day 2, day 3) = %+v, want only the 10", win)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestAddMoodRefusesWhatIsNotOnTheScaleAndStoresNothing(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "ann")
	tests := []struct {
		name string
		m    memory.Mood
		want string
	}{
		{"no person", memory.Mood{Score: 5}, "empty person id"},
		{"unknown person", memory.Mood{PersonID: "nobody", Score: 5}, "not found"},
		{"above the scale", memory.Mood{PersonID: p.ID, Score: 11}, "score 11 is outside 0-10"},
		{"below the scale", memory.Mood{PersonID: p.ID, Score: -1}, "score -1 is outside 0-10"},
		{"note too long", memory.Mood{PersonID: p.ID, Score: 5, Note: strings.Repeat("é", memory.MaxMoodNote+1)}, "at most 500 characters"},
		{"note not text", memory.Mood{PersonID: p.ID, Score: 5, Note: "\xff"}, "valid text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.AddMood(ctx, tt.m)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("AddMood = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	if got, err := s.Moods(ctx, p.ID, time.Time{}, time.Time{}); err != nil || len(got) != 0 {
		t.Fatalf("Moods after refusals = %v, %v; want none", got, err)
	}
}

func TestMoodEntriesAreListedForgottenAndExported(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "ann")
	other := person(t, s, "bob")
	keep, err := s.AddMood(ctx, memory.Mood{PersonID: p.ID, Score: 4, Note: "rainy"})
	if err != nil {
		t.Fatal(err)
	}
	gone, err := s.AddMood(ctx, memory.Mood{PersonID: p.ID, Score: 7, Note: "saw a friend"})
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := s.AddMood(ctx, memory.Mood{PersonID: other.ID, Score: 2})
	if err != nil {
		t.Fatal(err)
	}

	recs, err := s.Records(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[0].Mood == nil || recs[0].Ref != (memory.Ref{Kind: memory.KindMood, ID: keep.ID}) {
		t.Fatalf("Records = %+v, want the two mood entries, oldest first", recs)
	}
	if w := recs[1].Words(memory.ToThem); !strings.Contains(w, "mood 7/10") || !strings.Contains(w, "saw a friend") {
		t.Fatalf("record words = %q, want the score and the note", w)
	}

	// Another person's ref is left alone; the person's own goes.
	if err := s.Forget(ctx, p.ID, memory.Ref{Kind: memory.KindMood, ID: gone.ID}, memory.Ref{Kind: memory.KindMood, ID: theirs.ID}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Moods(ctx, other.ID, time.Time{}, time.Time{}); len(got) != 1 {
		t.Fatalf("forgetting with another person's ref removed their entry: %v", got)
	}
	ex, err := s.Export(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Moods) != 1 || ex.Moods[0].ID != keep.ID || ex.Moods[0].Note != "rainy" {
		t.Fatalf("export moods = %+v, want only the kept entry", ex.Moods)
	}

	// Forgetting everything takes the mood log with it.
	if err := s.ForgetAll(ctx, p.ID); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.rd.QueryRowContext(ctx, `SELECT count(*) FROM moods WHERE person_id = ?`, p.ID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d mood rows left after ForgetAll", n)
	}
}
