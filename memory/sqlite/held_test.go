package sqlite

import (
	"context"
	"testing"

	"github.com/havenbot/haven/memory"
)

func TestHeldFactsCountDistinctTurnsAndAreTakenWhenDue(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "he")
	f := fact(p.ID, memory.Self, memory.PredSelfBelief, "I'm a failure", "I'm a failure")
	for i, want := range []int{1, 1, 2} {
		f.Turn = []int{1, 1, 2}[i]
		if n, err := s.Hold(ctx, f, memory.AfterRepetition, "k"); err != nil || n != want {
			t.Fatalf("hold %d = %d, %v; want %d", i, n, err, want)
		}
	}
	pref := fact(p.ID, memory.Self, memory.PredLikes, "tea", "I like tea")
	pref.SessionID = "s2"
	if _, err := s.Hold(ctx, pref, memory.AtSessionEnd, "tea"); err != nil {
		t.Fatal(err)
	}
	due, err := s.TakeHeld(ctx, p.ID, "")
	if err != nil || len(due) != 1 || due[0].Object != "I'm a failure" {
		t.Fatalf("due without a session end = %+v, %v", due, err)
	}
	due, _ = s.TakeHeld(ctx, p.ID, "s2")
	if len(due) != 1 || due[0].Object != "tea" {
		t.Fatalf("due at the end of s2 = %+v", due)
	}
}
