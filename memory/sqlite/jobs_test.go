package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/havenbot/haven/memory"
)

func TestAClaimedJobIsClaimedAgainAfterItsLease(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := Open(ctx, filepath.Join(t.TempDir(), "j.db"), WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p := person(t, s, "jo")
	if err := s.Enqueue(ctx, memory.Job{Kind: memory.JobTurn, PersonID: p.ID, SessionID: "s", Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	j, ok, err := s.Claim(ctx, time.Minute)
	if !ok || err != nil || j.Text != "hi" || j.Attempts != 1 {
		t.Fatalf("claim = %+v %v %v", j, ok, err)
	}
	if _, ok, _ := s.Claim(ctx, time.Minute); ok {
		t.Fatal("a leased job was claimed twice")
	}
	now = now.Add(2 * time.Minute)
	j2, ok, _ := s.Claim(ctx, time.Minute)
	if !ok || j2.ID != j.ID || j2.Attempts != 2 {
		t.Fatalf("after the lease: %+v %v", j2, ok)
	}
	if err := s.Finish(ctx, j.ID); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Hour)
	if _, ok, _ := s.Claim(ctx, time.Minute); ok {
		t.Fatal("a finished job came back")
	}
	if err := s.Enqueue(ctx, memory.Job{Kind: "bogus", PersonID: p.ID, SessionID: "s"}); err == nil {
		t.Error("a job of unknown kind was queued")
	}
}
