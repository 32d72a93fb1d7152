package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

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

func TestSupersededFactIsKeptInactiveAndLeavesSearch(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "ann")
	york, err := s.AddFact(ctx, fact(p.ID, memory.Self, memory.PredLivesIn, "York", "I live in York"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.AddFact(ctx, fact(p.ID, memory.Self, memory.PredLivesIn, "york", "I live in York, still"))
	if err != nil || again.ID != york.ID {
		t.Fatalf("repeating a fact stored it again: %+v, %v", again, err)
	}
	leeds, err := s.AddFact(ctx, fact(p.ID, memory.Self, memory.PredLivesIn, "Leeds", "I moved to Leeds"))
	if err != nil {
		t.Fatal(err)
	}
	all, _ := s.Facts(ctx, p.ID, true)
	if len(all) != 2 || all[0].Active || all[0].SupersededBy != leeds.ID || !all[1].Active {
		t.Fatalf("facts after supersession = %+v", all)
	}
	res, err := s.Search(ctx, memory.SearchQuery{PersonID: p.ID, Text: "where do I live? York or Leeds", Recent: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, list := range [][]memory.Ref{res.Text, res.Recent} {
		for _, r := range list {
			if r.ID == york.ID && r.Kind == memory.KindFact {
				t.Errorf("inactive fact retrieved: %+v", res)
			}
		}
	}
	if len(res.Text) != 1 || res.Text[0].ID != leeds.ID {
		t.Errorf("text search = %+v, want Leeds", res.Text)
	}
	ex, err := s.Export(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(ex)
	if !strings.Contains(string(b), "York") {
		t.Errorf("export lost the inactive fact: %s", b)
	}
}

func TestRulesAreCappedAndTheNewestWinsOnConflict(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "ru")
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(key, text string) {
		at = at.Add(time.Minute)
		if _, err := s.AddRule(ctx, memory.Rule{PersonID: p.ID, Key: key, Text: text, Created: at}); err != nil {
			t.Fatal(err)
		}
	}
	add("advice", "just listen, no advice")
	add("advice", "offer advice when it helps")
	for i := range 25 {
		add(fmt.Sprintf("custom:r%d", i), fmt.Sprintf("rule %d", i))
	}
	rules, err := s.Rules(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != memory.MaxRules || rules[len(rules)-1].Text != "rule 24" {
		t.Fatalf("got %d rules, want the %d newest: %+v", len(rules), memory.MaxRules, rules)
	}
	for _, r := range rules {
		if r.Key == "advice" {
			t.Errorf("the oldest rule survived the cap: %+v", r)
		}
	}
	add("advice", "just listen")
	rules, _ = s.Rules(ctx, p.ID)
	n := 0
	for _, r := range rules {
		if r.Key == "advice" {
			n++
			if r.Text != "just listen" {
				t.Errorf("advice rule = %q, want the newest", r.Text)
			}
		}
	}
	if n != 1 || len(rules) != memory.MaxRules {
		t.Errorf("%d advice rules among %d", n, len(rules))
	}
}

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
