package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/havenbot/haven/memory"
)

func TestRecentEntriesReturnsTheLatestOldestFirst(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	p, _ := s.ResolvePerson(ctx, "console", "console::me", "")
	ss, _ := s.OpenSession(ctx, p.ID, "console::c", time.Now())
	other, _ := s.ResetSession(ctx, p.ID, "console::d", time.Now())
	at := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	for i := range 5 {
		rec := memory.TurnRecord{SessionID: ss.ID, Checkpoint: memory.Checkpoint{TurnCount: i + 1},
			Entries: []memory.Entry{{Role: memory.RoleUser, Text: fmt.Sprint("u", i), At: at}, {Role: memory.RoleAssistant, Text: fmt.Sprint("a", i), Crisis: i == 4}}}
		if err := s.CommitTurn(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CommitTurn(ctx, turn(other.ID, 1, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		n    int
		want []string
	}{
		{0, nil},
		{-1, nil},
		{1, []string{"a4"}},
		{3, []string{"a3", "u4", "a4"}},
		{100, []string{"u0", "a0", "u1", "a1", "u2", "a2", "u3", "a3", "u4", "a4"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			es, err := s.RecentEntries(ctx, ss.ID, tt.n)
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, e := range es {
				texts = append(texts, e.Text)
				if e.SessionID != ss.ID {
					t.Errorf("entry %q has session %q", e.Text, e.SessionID)
				}
			}
			if !slices.Equal(texts, tt.want) {
				t.Errorf("RecentEntries(%d) = %v, want %v", tt.n, texts, tt.want)
			}
		})
	}
	es, _ := s.RecentEntries(ctx, ss.ID, 2)
	if !es[0].At.Equal(at) || es[0].Role != memory.RoleUser || es[0].Crisis || !es[1].Crisis || es[1].At.IsZero() {
		t.Errorf("entries = %+v, want the given time, roles and crisis flags kept and a missing time filled", es)
	}
}

func TestLastMessageReturnsThePersonsLatestMessageAndTheRepliesToIt(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	p, _ := s.ResolvePerson(ctx, "console", "console::me", "")
	q, _ := s.ResolvePerson(ctx, "console", "console::you", "")
	ss, _ := s.OpenSession(ctx, p.ID, "console::c", time.Now())
	for i, text := range []string{"first", "second"} {
		rec := memory.TurnRecord{SessionID: ss.ID, Checkpoint: memory.Checkpoint{TurnCount: i + 1},
			Entries: []memory.Entry{{Role: memory.RoleUser, Text: text}, {Role: memory.RoleAssistant, Text: "reply to " + text}}}
		if err := s.CommitTurn(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	ids, text, err := s.LastMessage(ctx, p.ID, ss.ID)
	if err != nil {
		t.Fatal(err)
	}
	if text != "second" || len(ids) != 2 {
		t.Fatalf("LastMessage = %v %q, want the ids of the second message and its reply", ids, text)
	}
	if err := s.Forget(ctx, p.ID, memory.Ref{Kind: memory.KindTranscript, ID: ids[0]}, memory.Ref{Kind: memory.KindTranscript, ID: ids[1]}); err != nil {
		t.Fatal(err)
	}
	es, _ := s.RecentEntries(ctx, ss.ID, 10)
	if len(es) != 2 || es[0].Text != "first" || es[1].Text != "reply to first" {
		t.Errorf("after forgetting the last message, transcript = %+v", es)
	}
	// Another person's session is not theirs to read.
	if ids, _, err := s.LastMessage(ctx, q.ID, ss.ID); err != nil || len(ids) != 0 {
		t.Errorf("LastMessage of someone else's session = %v, %v; want none", ids, err)
	}
}
