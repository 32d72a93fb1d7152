package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

func TestRetentionDeletesOnlyWhatIsPastItsTime(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "rt")
	old := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	now := old.Add(100 * 24 * time.Hour)
	ss, _ := s.OpenSession(ctx, p.ID, "test::c", old)
	s.CommitTurn(ctx, memory.TurnRecord{SessionID: ss.ID, Entries: []memory.Entry{{Role: memory.RoleUser, Text: "old", At: old}, {Role: memory.RoleUser, Text: "new", At: now}}})
	f := fact(p.ID, memory.Self, memory.PredLivesIn, "York", "York")
	f.Created = old
	s.AddFact(ctx, f)
	f2 := fact(p.ID, memory.Self, memory.PredLivesIn, "Leeds", "Leeds")
	f2.Created = old.Add(time.Hour)
	s.AddFact(ctx, f2)
	s.LogCrisis(ctx, memory.CrisisEvent{PersonID: p.ID, Level: 2, At: old})
	s.LogCrisis(ctx, memory.CrisisEvent{PersonID: p.ID, Level: 2, At: now})
	sw, err := s.ApplyRetention(ctx, memory.Retention{Transcripts: 30 * 24 * time.Hour, Inactive: 30 * 24 * time.Hour, CrisisLog: 60 * 24 * time.Hour}, now)
	if err != nil {
		t.Fatal(err)
	}
	if sw != (memory.Swept{Transcripts: 1, Inactive: 1, CrisisLog: 1}) {
		t.Errorf("swept = %+v", sw)
	}
	facts, _ := s.Facts(ctx, p.ID, true)
	if len(facts) != 1 || facts[0].Object != "Leeds" {
		t.Errorf("facts after retention = %+v", facts)
	}
	if sw, _ := s.ApplyRetention(ctx, memory.Retention{}, now.Add(1000*time.Hour)); sw != (memory.Swept{}) {
		t.Errorf("zero retention deleted %+v", sw)
	}
}

func TestRetentionDeletesHandledDeliveriesAndKeepsPendingOnes(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), WithClock(func() time.Time { return clock }))
	in := func(key string) channels.Inbound {
		return channels.Inbound{Platform: "test", DeliveryKey: key, MessageID: "test::" + key, Author: channels.Author{ID: "test::u"}}
	}
	out := channels.Outbound{Platform: "test", Conversation: channels.Conversation{ID: "test::c", Kind: channels.KindDM}, Kind: channels.OutReply, Text: "hi"}
	for _, k := range []string{"done", "pending"} {
		if _, err := s.Record(ctx, in(k)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Done(ctx, "done"); err != nil {
		t.Fatal(err)
	}
	ids, err := s.Add(ctx, []channels.Outbound{out, out})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Sent(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(8 * 24 * time.Hour)
	sw, err := s.ApplyRetention(ctx, memory.Retention{Deliveries: 7 * 24 * time.Hour}, clock)
	if err != nil {
		t.Fatal(err)
	}
	if sw.Deliveries != 2 {
		t.Errorf("swept %d delivery records, want 2 (the handled inbox row and the sent reply)", sw.Deliveries)
	}
	if pending, _ := s.Unfinished(ctx, "test"); len(pending) != 1 || pending[0].DeliveryKey != "pending" {
		t.Errorf("unfinished after retention = %+v, want the pending one", pending)
	}
	if unsent, _ := s.Unsent(ctx, "test"); len(unsent) != 1 || unsent[0].ID != ids[1] {
		t.Errorf("unsent after retention = %+v, want the unsent reply", unsent)
	}
}
