package sqlite

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/havenbot/haven/memory"
)

func TestCrisisLogHasNoColumnThatCouldHoldMessageText(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	cols, err := list(ctx, s.r, func(row scanner) (string, error) {
		var name, typ string
		err := row.Scan(&name, &typ)
		return name + " " + typ, err
	}, `SELECT name, type FROM pragma_table_info('crisis_log') ORDER BY cid`)
	if err != nil {
		t.Fatal(err)
	}
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
