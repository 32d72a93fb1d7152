package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/memory"
)

func TestSessionLifecycleSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.ResolvePerson(ctx, "console", "console::me", "")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 123456789, time.UTC)
	first, err := s.OpenSession(ctx, p.ID, "console::tty", t0)
	if err != nil {
		t.Fatal(err)
	}
	if !hexID.MatchString(first.ID) || !first.Started.Equal(t0) || !first.Ended.IsZero() || first.Checkpoint.TurnCount != 0 {
		t.Errorf("new session = %+v", first)
	}
	same, err := s.OpenSession(ctx, p.ID, "console::tty", t0.Add(time.Hour))
	if err != nil || same.ID != first.ID {
		t.Errorf("OpenSession again = %v, %v; want the open session %s", same.ID, err, first.ID)
	}
	other, err := s.OpenSession(ctx, p.ID, "console::other", t0)
	if err != nil || other.ID == first.ID {
		t.Errorf("OpenSession in another conversation = %v, %v; want a new session", other.ID, err)
	}
	cp := memory.Checkpoint{TurnCount: 2, Slots: stageSlot("deepening"), SessionMaxRisk: 1, LastReplyKeys: []string{"a", "b"},
		PendingApproval: &memory.Approval{Action: "forget_all", Prompt: "Forget everything?", Expires: t0.Add(time.Minute)}}
	if err := s.CommitTurn(ctx, memory.TurnRecord{SessionID: first.ID, Checkpoint: cp,
		Entries: []memory.Entry{{Role: memory.RoleUser, Text: "hello", At: t0}}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openTest(t, path)
	got, err := s.OpenSession(ctx, p.ID, "console::tty", t0.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != first.ID || got.Checkpoint.TurnCount != 2 || stageOf(got.Checkpoint) != "deepening" ||
		!slices.Equal(got.Checkpoint.LastReplyKeys, cp.LastReplyKeys) || got.Checkpoint.PendingApproval == nil ||
		!got.Checkpoint.PendingApproval.Expires.Equal(cp.PendingApproval.Expires) {
		t.Errorf("after reopen session = %+v, want %s with checkpoint %+v", got, first.ID, cp)
	}

	t1 := t0.Add(3 * time.Hour)
	fresh, err := s.ResetSession(ctx, p.ID, "console::tty", t1)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.ID == first.ID || fresh.Checkpoint.TurnCount != 0 || fresh.Checkpoint.SessionMaxRisk != 0 || !fresh.Started.Equal(t1) {
		t.Errorf("after reset session = %+v, want a new empty one started at %v", fresh, t1)
	}
	var ended sql.NullInt64
	if err := s.r.QueryRow(`SELECT ended_at FROM sessions WHERE id = ?`, first.ID).Scan(&ended); err != nil || !ended.Valid || !fromTS(ended.Int64).Equal(t1) {
		t.Errorf("old session ended_at = %v, %v; want %v", ended, err, t1)
	}
	open, err := s.OpenSession(ctx, p.ID, "console::tty", t1)
	if err != nil || open.ID != fresh.ID {
		t.Errorf("OpenSession after reset = %v, %v; want %s", open.ID, err, fresh.ID)
	}
	// The other conversation's session is untouched.
	if o, err := s.OpenSession(ctx, p.ID, "console::other", t1); err != nil || o.ID != other.ID {
		t.Errorf("other conversation's session = %v, %v; want %s", o.ID, err, other.ID)
	}
	// ResetSession with no open session just starts one.
	q, err := s.ResolvePerson(ctx, "console", "console::new", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ResetSession(ctx, q.ID, "console::tty", t1); err != nil {
		t.Errorf("ResetSession with no open session: %v", err)
	}
}

func TestCommitTurnIsAtomic(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	p, _ := s.ResolvePerson(ctx, "console", "console::me", "")
	ss, err := s.OpenSession(ctx, p.ID, "console::c", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CommitTurn(ctx, turn(ss.ID, 1, "first")); err != nil {
		t.Fatal(err)
	}
	// Make the third insert of the next turn fail inside the transaction,
	// after the checkpoint and two entries were already written. The temp
	// trigger lives on the single writer connection.
	if _, err := s.w.Exec(`CREATE TEMP TRIGGER fail_boom BEFORE INSERT ON transcript
		WHEN NEW.text = 'boom' BEGIN SELECT RAISE(ABORT, 'injected failure'); END`); err != nil {
		t.Fatal(err)
	}
	rec := turn(ss.ID, 2, "second")
	rec.Checkpoint.Slots = stageSlot("deepening")
	rec.Entries = append(rec.Entries, memory.Entry{Role: memory.RoleAssistant, Text: "boom"})
	if err := s.CommitTurn(ctx, rec); err == nil || !strings.Contains(err.Error(), "injected failure") || !strings.Contains(err.Error(), ss.ID) {
		t.Fatalf("CommitTurn = %v, want the injected failure, naming the session", err)
	}
	got, err := s.OpenSession(ctx, p.ID, "console::c", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if got.Checkpoint.TurnCount != 1 || stageOf(got.Checkpoint) != "opening" {
		t.Errorf("checkpoint after failed commit = %+v, want the first turn's", got.Checkpoint)
	}
	entries, err := s.RecentEntries(ctx, ss.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0].Text != "first" {
		t.Errorf("entries after failed commit = %+v, want only the first turn's two", entries)
	}
	var turnCount int
	if err := s.r.QueryRow(`SELECT turn_count FROM sessions WHERE id = ?`, ss.ID).Scan(&turnCount); err != nil || turnCount != 1 {
		t.Errorf("turn_count column = %d, %v; want 1", turnCount, err)
	}
}

func TestCommitTurnValidatesEntries(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	tests := []struct {
		name string
		rec  memory.TurnRecord
		want string
	}{
		{"empty session id", memory.TurnRecord{}, "empty session id"},
		{"bad role", memory.TurnRecord{SessionID: "s", Entries: []memory.Entry{{Role: "system", Text: "x"}}}, `entry 0 has role "system"`},
		{"entry of another session", memory.TurnRecord{SessionID: "s", Entries: []memory.Entry{{SessionID: "t", Role: memory.RoleUser}}}, "entry 0 belongs to session t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.CommitTurn(ctx, tt.rec); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestSessionMaxRiskNeverGoesDown(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	p, _ := s.ResolvePerson(ctx, "console", "console::me", "")
	ss, _ := s.OpenSession(ctx, p.ID, "console::c", time.Now())
	steps := []struct{ commit, want int }{{0, 0}, {2, 2}, {1, 2}, {0, 2}, {3, 3}, {7, 3}, {-1, 3}}
	for i, st := range steps {
		rec := turn(ss.ID, i+1, "t")
		rec.Checkpoint.SessionMaxRisk = st.commit
		if err := s.CommitTurn(ctx, rec); err != nil {
			t.Fatal(err)
		}
		got, err := s.OpenSession(ctx, p.ID, "console::c", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		var col int
		s.r.QueryRow(`SELECT max_risk FROM sessions WHERE id = ?`, ss.ID).Scan(&col)
		if got.Checkpoint.SessionMaxRisk != st.want || col != st.want {
			t.Errorf("step %d: committed %d, stored checkpoint %d and column %d, want %d", i, st.commit, got.Checkpoint.SessionMaxRisk, col, st.want)
		}
	}
}
