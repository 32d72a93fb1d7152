package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// migratedTo creates a database file at path migrated to version only, as
// an older Haven left it; the caller writes its rows and closes it before
// opening the Store on path.
func migratedTo(t *testing.T, path string, version int64) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := migrations(db)
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	if _, err := p.UpTo(context.Background(), version); err != nil {
		db.Close()
		t.Fatalf("migrate to version %d: %v", version, err)
	}
	return db
}

// Migration 13 drops sessions_idle from a database with sessions in it:
// every session is kept and the idle sweep finds the same sessions, in
// the same order, through sessions_open.
func TestDroppingSessionsIdleKeepsSessionsAndTheIdleSweep(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "haven.db")
	db := migratedTo(t, path, 12)
	if _, err := db.ExecContext(ctx, `INSERT INTO people (id, created_at) VALUES ('p1', 0), ('p2', 0)`); err != nil {
		t.Fatal(err)
	}
	// id, person, conversation, updated_at (s), ended_at (s, 0: open)
	sessions := []struct {
		id, person, conv string
		updated, ended   int64
	}{
		{"open-30", "p1", "c1", 30, 0},
		{"open-10", "p2", "c1", 10, 0},
		{"open-20", "p1", "c2", 20, 0},
		{"open-90", "p2", "c2", 90, 0},
		{"ended-5", "p1", "c3", 5, 6},
	}
	for _, s := range sessions {
		ended := sql.NullInt64{Int64: s.ended * 1e9, Valid: s.ended != 0}
		if _, err := db.ExecContext(ctx, `INSERT INTO sessions (id, person_id, conversation_id, started_at, ended_at, checkpoint, updated_at)
			VALUES (?, ?, ?, 0, ?, '{}', ?)`, s.id, s.person, s.conv, ended, s.updated*1e9); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s := openTest(t, path)
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'sessions_idle'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Error("sessions_idle is still there after the migration")
	}
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sessions`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != len(sessions) {
		t.Errorf("%d sessions after the migration, want %d", n, len(sessions))
	}
	idle, err := s.IdleSessions(ctx, time.Unix(60, 0), 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ss := range idle {
		got = append(got, ss.ID)
	}
	if want := "open-10 open-20 open-30"; strings.Join(got, " ") != want {
		t.Errorf("IdleSessions before 60s = %v, want %s (open ones only, least recently active first)", got, want)
	}
	if idle, err := s.IdleSessions(ctx, time.Unix(60, 0), 2); err != nil || len(idle) != 2 || idle[1].ID != "open-20" {
		t.Errorf("IdleSessions with n = 2 = %v, %v; want open-10, open-20", idle, err)
	}

	rows, err := s.r.QueryContext(ctx, `EXPLAIN QUERY PLAN `+idleSessionsSQL, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, notUsed int
		var detail string
		if err := rows.Scan(&id, &parent, &notUsed, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if p := strings.Join(plan, "; "); !strings.Contains(p, "sessions_open") {
		t.Errorf("the idle sweep's plan is %q, want it to read the open sessions through sessions_open", p)
	}
}
