package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/havenbot/haven/memory"
)

// paused reads the person's memory settings under ctx.
func paused(t *testing.T, s *Store, ctx context.Context, personID string) bool {
	t.Helper()
	st, err := s.Settings(ctx, personID)
	if err != nil {
		t.Fatal(err)
	}
	return st.Paused
}

// pauseAfterReading reads the person's settings under readCtx (a new
// person's memory is not paused), then pauses it with s's write under
// writeCtx: what a later read under readCtx sees is the test's question.
func pauseAfterReading(t *testing.T, s *Store, readCtx, writeCtx context.Context, personID string) {
	t.Helper()
	if paused(t, s, readCtx, personID) {
		t.Fatal("new person's memory is paused")
	}
	if err := s.SetSettings(writeCtx, personID, memory.Settings{Paused: true}); err != nil {
		t.Fatal(err)
	}
}

func TestReadScopeReadsSeeOneSnapshotUntilEnd(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "ana")
	sc, end := s.ReadScope(ctx)
	defer end()
	// Another turn's write, outside the scope.
	pauseAfterReading(t, s, sc, ctx, p.ID)
	if paused(t, s, sc, p.ID) {
		t.Error("a read in the scope saw a write committed after the scope's first read")
	}
	if !paused(t, s, ctx, p.ID) {
		t.Error("a read outside the scope did not see the write")
	}
	end()
	end() // a second end is harmless
	if !paused(t, s, sc, p.ID) {
		t.Error("a read after the scope ended did not see the write")
	}
}

func TestReadScopeReadsSeeTheScopesOwnWrites(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "ana")
	sc, end := s.ReadScope(ctx)
	defer end()

	// A plain write (Store.write).
	pauseAfterReading(t, s, sc, sc, p.ID)
	if !paused(t, s, sc, p.ID) {
		t.Error("a read in the scope did not see the scope's own write")
	}

	// A grouped write (Store.grouped).
	if got, err := s.Unfinished(sc, "console"); err != nil || len(got) != 0 {
		t.Fatalf("Unfinished = %v, %v; want none", got, err)
	}
	if _, err := s.Record(sc, inbound("k1", "console::c")); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Unfinished(sc, "console"); err != nil || len(got) != 1 {
		t.Errorf("Unfinished after the scope's own grouped write = %v, %v; want k1", keys(got), err)
	}
}

func TestReadScopeOfAnotherStoreIsIgnored(t *testing.T) {
	ctx := context.Background()
	a, b := openMem(t), openMem(t)
	p := person(t, b, "ana")
	sc, end := a.ReadScope(ctx)
	defer end()
	pauseAfterReading(t, b, sc, ctx, p.ID)
	if !paused(t, b, sc, p.ID) {
		t.Error("store b's read kept a snapshot for store a's scope")
	}
}

// A scope holds a read connection while its first-time statements run:
// preparing them there must not wait for a connection scopes hold.
func TestReadScopesHoldingEveryReadConnectionDoNotDeadlockOnNewStatements(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "h.db"), WithReadConns(1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p := person(t, s, "ana")
	for range 2 { // uncached, then cached
		sc, end := s.ReadScope(ctx)
		if _, err := s.Settings(sc, p.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ChannelSettings(sc, "console::c"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RecentEntries(sc, "no-such-session", 4); err != nil {
			t.Fatal(err)
		}
		end()
	}
	if s.rd.c.lookup(`SELECT paused, proactive FROM memory_settings WHERE person_id = ?`) == nil {
		t.Error("a statement first run in a scope was not prepared once the scope ended")
	}
}
