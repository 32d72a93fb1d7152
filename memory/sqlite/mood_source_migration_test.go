package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/havenbot/haven/memory"
)

// Migration 14 adds moods.source to a database with moods in it: every
// entry is kept with no source, and a keyed entry is then stored once.
func TestMoodSourceMigrationKeepsTheMoodsAndKeysNewOnes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "haven.db")
	db := migratedTo(t, path, 13)
	if _, err := db.ExecContext(ctx, `INSERT INTO people (id, created_at) VALUES ('p1', 0)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO moods (person_id, score, note, at) VALUES ('p1', 3, 'rainy', 1), ('p1', 7, '', 2)`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := openTest(t, path)
	old, err := s.Moods(ctx, "p1", time.Time{}, time.Time{})
	if err != nil || len(old) != 2 || old[0].Note != "rainy" || old[1].Score != 7 {
		t.Fatalf("moods after the migration = %+v, %v; want both kept", old, err)
	}
	first, err := s.AddMood(ctx, memory.Mood{PersonID: "p1", Score: 5, Note: "ok", Source: "telegram:9"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.AddMood(ctx, memory.Mood{PersonID: "p1", Score: 5, Note: "ok", Source: "telegram:9"})
	if err != nil || again.ID != first.ID {
		t.Fatalf("the same source again = %+v, %v; want the first entry (%d)", again, err, first.ID)
	}
	if all, err := s.Moods(ctx, "p1", time.Time{}, time.Time{}); err != nil || len(all) != 3 {
		t.Fatalf("moods = %+v, %v; want the two old ones and one keyed", all, err)
	}
}
