package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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

func TestResolvePerson(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))

	a, err := s.ResolvePerson(ctx, "slack", "slack:T1:U1", "Ana")
	if err != nil {
		t.Fatal(err)
	}
	if !hexID.MatchString(a.ID) || a.Display != "Ana" || a.Created.IsZero() {
		t.Errorf("new person = %+v, want a 32-hex opaque id, the display name and a creation time", a)
	}
	tests := []struct {
		name                  string
		platform, id, display string
		wantSame              bool
		wantDisplay           string
	}{
		{"same identity, no display", "slack", "slack:T1:U1", "", true, "Ana"},
		{"same identity, same display", "slack", "slack:T1:U1", "Ana", true, "Ana"},
		{"same identity, new display", "slack", "slack:T1:U1", "Ana B", true, "Ana B"},
		{"same local id in another workspace", "slack", "slack:T2:U1", "Ana", false, "Ana"},
		{"same local id on another platform", "discord", "discord:T1:U1", "Ana", false, "Ana"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := s.ResolvePerson(ctx, tt.platform, tt.id, tt.display)
			if err != nil {
				t.Fatal(err)
			}
			if (p.ID == a.ID) != tt.wantSame {
				t.Errorf("person id %s, first person %s: same = %v, want %v", p.ID, a.ID, p.ID == a.ID, tt.wantSame)
			}
			if p.Display != tt.wantDisplay {
				t.Errorf("display = %q, want %q", p.Display, tt.wantDisplay)
			}
		})
	}
	again, err := s.ResolvePerson(ctx, "slack", "slack:T1:U1", "")
	if err != nil || again.Display != "Ana B" || !again.Created.Equal(a.Created) {
		t.Errorf("reloaded person = %+v, %v; want the updated display and the first creation time", again, err)
	}
	for _, bad := range [][2]string{{"", "slack:T1:U1"}, {"slack", ""}} {
		if _, err := s.ResolvePerson(ctx, bad[0], bad[1], ""); err == nil || !strings.Contains(err.Error(), "required") {
			t.Errorf("ResolvePerson(%q, %q) error = %v, want one saying what is required", bad[0], bad[1], err)
		}
	}
}

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

func TestUnknownRecordsGiveNotFound(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"OpenSession of unknown person", func() error {
			_, err := s.OpenSession(ctx, "nobody", "console::c", time.Now())
			return err
		}, "person nobody"},
		{"ResetSession of unknown person", func() error {
			_, err := s.ResetSession(ctx, "nobody", "console::c", time.Now())
			return err
		}, "person nobody"},
		{"CommitTurn of unknown session", func() error { return s.CommitTurn(ctx, turn("nosession", 1, "hi")) }, "session nosession"},
		{"Done of unknown delivery", func() error { return s.Done(ctx, "nokey") }, "delivery nokey"},
		{"Sent of unknown message", func() error { return s.Sent(ctx, 404) }, "message 404"},
		{"Attempted of unknown message", func() error { return s.Attempted(ctx, 404, "timeout") }, "message 404"},
		{"Abandon of unknown message", func() error { return s.Abandon(ctx, 404, "gone") }, "message 404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, memory.ErrNotFound) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want memory.ErrNotFound naming %q", err, tt.want)
			}
		})
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

func TestCrisisLogHasNoColumnThatCouldHoldMessageText(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	rows, err := s.r.Query(`SELECT name, type FROM pragma_table_info('crisis_log') ORDER BY cid`)
	if err != nil {
		t.Fatal(err)
	}
	var cols []string
	for rows.Next() {
		var name, typ string
		rows.Scan(&name, &typ)
		cols = append(cols, name+" "+typ)
	}
	rows.Close()
	// The exact allowlist: a new column must be added here on purpose.
	want := []string{"id INTEGER", "person_id TEXT", "session_id TEXT", "conversation_id TEXT", "platform TEXT",
		"level INTEGER", "confidence REAL", "reason TEXT", "path TEXT", "flags TEXT", "at INTEGER"}
	if !slices.Equal(cols, want) {
		t.Errorf("crisis_log columns = %v, want exactly %v", cols, want)
	}

	long := strings.Repeat("I want to end it all tonight. ", 20)
	// The schema itself refuses a long text in any free-text column, even
	// from code that bypasses the Store.
	for _, col := range []string{"reason", "path", "flags"} {
		_, err := s.w.Exec(`INSERT INTO crisis_log (level, confidence, `+col+`, at) VALUES (2, 0.9, ?, 1)`, long)
		if err == nil || !strings.Contains(err.Error(), "CHECK") {
			t.Errorf("raw insert of a long %s: %v, want a CHECK constraint failure", col, err)
		}
	}
	// The Store never refuses a crisis row: it bounds what it is given.
	ev := memory.CrisisEvent{PersonID: "p", SessionID: "s", ConversationID: "console::c", Platform: "console",
		Level: 9, Confidence: 1.5, Reason: long, Path: "gateway>crisis_gate>crisis_reply",
		Flags: []string{"self_injury", "not a flag: " + long, "third_party"}}
	if err := s.LogCrisis(ctx, ev); err != nil {
		t.Fatal(err)
	}
	var level int
	var conf float64
	var reason, path, flags string
	if err := s.r.QueryRow(`SELECT level, confidence, reason, path, flags FROM crisis_log`).Scan(&level, &conf, &reason, &path, &flags); err != nil {
		t.Fatal(err)
	}
	if level != 3 || conf != 1 || len(reason) > maxCrisisField || path != ev.Path || flags != "self_injury,third_party" {
		t.Errorf("stored row = level %d, confidence %v, reason %d bytes, path %q, flags %q", level, conf, len(reason), path, flags)
	}
}

func TestClipKeepsRunesWhole(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 3, "abc"},
		{"héllo", 2, "h"},
		{"héllo", 3, "hé"},
		{"日本", 4, "日"},
		{"日本", 0, ""},
	}
	for _, tt := range tests {
		if got := clip(tt.in, tt.n); got != tt.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestAuditAdminStoresTheEvent(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	if err := s.AuditAdmin(ctx, memory.AdminEvent{ActorID: "slack:T:U", ConversationID: "slack:T:C", Command: "/pause", Allowed: false, Detail: "not an admin", At: at}); err != nil {
		t.Fatal(err)
	}
	var actor, cmd, detail string
	var allowed bool
	var gotAt int64
	if err := s.r.QueryRow(`SELECT actor_id, command, allowed, detail, at FROM admin_audit`).Scan(&actor, &cmd, &allowed, &detail, &gotAt); err != nil {
		t.Fatal(err)
	}
	if actor != "slack:T:U" || cmd != "/pause" || allowed || detail != "not an admin" || !fromTS(gotAt).Equal(at) {
		t.Errorf("audit row = %s %s %v %s %v", actor, cmd, allowed, detail, fromTS(gotAt))
	}
	if err := s.AuditAdmin(ctx, memory.AdminEvent{Command: "/pause"}); err == nil || !strings.Contains(err.Error(), "required") {
		t.Errorf("audit without actor: %v, want an error", err)
	}
}

// TestConcurrentWritersNeverSeeBusy runs many goroutines that write through
// every write path at once. The single writer connection serializes them, so
// none may fail with SQLITE_BUSY, and every write must be stored.
func TestConcurrentWritersNeverSeeBusy(t *testing.T) {
	ctx := context.Background()
	// A second store on the same file would compete for the lock; one store
	// must never compete with itself, even with a minimal busy timeout.
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), WithBusyTimeout(time.Millisecond), WithReadConns(4))
	const workers, turns = 24, 15
	var wg sync.WaitGroup
	errs := make(chan error, workers*turns*6)
	for w := range workers {
		wg.Go(func() {
			uid := fmt.Sprintf("console::u%d", w%8) // several workers share a person
			conv := fmt.Sprintf("console::c%d", w)
			for i := range turns {
				p, err := s.ResolvePerson(ctx, "console", uid, fmt.Sprint("name", i))
				if err != nil {
					errs <- err
					return
				}
				ss, err := s.OpenSession(ctx, p.ID, conv, time.Now())
				if err != nil {
					errs <- err
					return
				}
				if err := s.CommitTurn(ctx, turn(ss.ID, i+1, "x")); err != nil {
					errs <- err
				}
				key := fmt.Sprintf("k-%d-%d", w, i)
				if _, err := s.Record(ctx, inbound(key, conv)); err != nil {
					errs <- err
				}
				if err := s.Done(ctx, key); err != nil {
					errs <- err
				}
				if _, err := s.RecentEntries(ctx, ss.ID, 4); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	counts := map[string]int{
		"SELECT count(*) FROM people":                          8,
		"SELECT count(*) FROM sessions":                        workers,
		"SELECT count(*) FROM transcript":                      workers * turns * 2,
		"SELECT count(*) FROM inbox WHERE done_at IS NOT NULL": workers * turns,
	}
	for q, want := range counts {
		var n int
		if err := s.r.QueryRow(q).Scan(&n); err != nil || n != want {
			t.Errorf("%s = %d (%v), want %d", q, n, err, want)
		}
	}
}
