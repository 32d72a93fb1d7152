package sqlite

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/havenbot/haven/memory"
)

func itoa(n int) string { return strconv.Itoa(n) }

// turn builds a TurnRecord with a user and an assistant entry.
func turn(sessionID string, count int, userText string) memory.TurnRecord {
	return memory.TurnRecord{
		SessionID:  sessionID,
		Checkpoint: memory.Checkpoint{TurnCount: count, Slots: stageSlot("opening")},
		Entries: []memory.Entry{
			{Role: memory.RoleUser, Text: userText},
			{Role: memory.RoleAssistant, Text: "reply to " + userText},
		},
	}
}

var hexID = regexp.MustCompile(`^[0-9a-f]{32}$`)

func openMem(t testing.TB) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "m.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func person(t testing.TB, s *Store, id string) memory.Person {
	t.Helper()
	p, err := s.ResolvePerson(context.Background(), "test", "test::"+id, id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func fact(pid, subj, pred, obj, ev string) memory.Fact {
	return memory.Fact{PersonID: pid, Subject: subj, Predicate: pred, Object: obj, Evidence: ev, Confidence: 0.9, SessionID: "s", Turn: 1}
}
