package jobs_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/jobs"
	"github.com/havenbot/haven/memory/sqlite"
)

// The SQLite store keeps everything the Runner needs.
var _ jobs.Store = (*sqlite.Store)(nil)

// clock is a fake clock shared by the store and the runner.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func open(t *testing.T, c *clock) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"), sqlite.WithClock(c.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// session returns a new person's open session whose transcript holds said.
func session(t *testing.T, s *sqlite.Store, said ...string) memory.Session {
	t.Helper()
	ctx := context.Background()
	p, err := s.ResolvePerson(ctx, "test", "test::"+t.Name(), "")
	if err != nil {
		t.Fatal(err)
	}
	ss, err := s.OpenSession(ctx, p.ID, "test::dm", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	rec := memory.TurnRecord{SessionID: ss.ID, Checkpoint: memory.Checkpoint{TurnCount: len(said)}}
	for _, text := range said {
		rec.Entries = append(rec.Entries, memory.Entry{Role: memory.RoleUser, Text: text}, memory.Entry{Role: memory.RoleAssistant, Text: "I hear you."})
	}
	if err := s.CommitTurn(ctx, rec); err != nil {
		t.Fatal(err)
	}
	return ss
}

// failingRules is the real store with AddRule failing, as a full disk would.
type failingRules struct{ *sqlite.Store }

func (failingRules) AddRule(context.Context, memory.Rule) (memory.Rule, error) {
	return memory.Rule{}, errors.New("disk full")
}

func TestAFailingJobIsRetriedAfterItsBackoffAndDroppedAfterMaxAttempts(t *testing.T) {
	ctx := context.Background()
	c := &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	s := open(t, c)
	ss := session(t, s, "please call me Sam")
	var logs bytes.Buffer
	r, err := jobs.New(jobs.Options{Store: failingRules{s}, MaxAttempts: 2, Clock: c.Now, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Enqueue(ctx, memory.Job{Kind: memory.JobTurn, PersonID: ss.PersonID, SessionID: ss.ID, Turn: 1, Text: "please call me Sam"}); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		advance time.Duration
		did     bool
	}{
		{0, true},           // attempt 1 fails: due again in 1s
		{0, false},          // not due yet
		{time.Second, true}, // attempt 2 fails: dropped
		{time.Hour, false},  // nothing left
	}
	for i, st := range steps {
		c.now = c.now.Add(st.advance)
		did, err := r.RunOnce(ctx)
		if err != nil || did != st.did {
			t.Fatalf("step %d: RunOnce = %v, %v; want %v, nil", i, did, err, st.did)
		}
	}
	if !strings.Contains(logs.String(), "dropped after retries") || strings.Contains(logs.String(), "Sam") {
		t.Errorf("the drop is not logged, or the message text is: %s", logs.String())
	}
}

func TestExtractionWritesFactsNowSkipsUnsafeRulesAndHoldsPreferencesForTheSessionEnd(t *testing.T) {
	ctx := context.Background()
	c := &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	s := open(t, c)
	said := "my sister Anna is visiting and I love hiking. just listen, no advice and no more hotlines"
	ss := session(t, s, said)
	r, err := jobs.New(jobs.Options{Store: s, Clock: c.Now, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Enqueue(ctx, memory.Job{Kind: memory.JobTurn, PersonID: ss.PersonID, SessionID: ss.ID, Turn: 1, Text: said}); err != nil {
		t.Fatal(err)
	}
	if err := r.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	sentences := func() string {
		facts, err := s.Facts(ctx, ss.PersonID, false)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range facts {
			out = append(out, f.Words(memory.AboutThem))
		}
		return strings.Join(out, "; ")
	}
	if got := sentences(); got != "Anna is their sister" {
		t.Errorf("facts after the turn = %q, want only the relationship (the preference waits)", got)
	}
	if rules, _ := s.Rules(ctx, ss.PersonID); len(rules) != 0 {
		t.Errorf("an unsafe rule was written: %+v", rules)
	}
	if _, err := s.EndSession(ctx, ss.ID, c.now); err != nil {
		t.Fatal(err)
	}
	if err := s.Enqueue(ctx, memory.Job{Kind: memory.JobSessionEnd, PersonID: ss.PersonID, SessionID: ss.ID}); err != nil {
		t.Fatal(err)
	}
	if err := r.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if got := sentences(); got != "Anna is their sister; likes hiking" {
		t.Errorf("facts after the session end = %q, want the held preference added", got)
	}
	if eps, _ := s.Episodes(ctx, ss.PersonID, 5); len(eps) != 1 {
		t.Errorf("episodes after the session end = %+v, want one", eps)
	}
}

// signalRetention passes ApplyRetention through to the real store and
// tells applied when it has returned.
type signalRetention struct {
	*sqlite.Store
	applied chan memory.Swept
}

func (s signalRetention) ApplyRetention(ctx context.Context, r memory.Retention, now time.Time) (memory.Swept, error) {
	sw, err := s.Store.ApplyRetention(ctx, r, now)
	s.applied <- sw
	return sw, err
}

func TestRunAppliesRetentionAtStartAndStopsWhenItsContextEnds(t *testing.T) {
	c := &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	s := open(t, c)
	ss := session(t, s, "an old message")
	c.now = c.now.Add(48 * time.Hour)
	store := signalRetention{Store: s, applied: make(chan memory.Swept, 1)}
	r, err := jobs.New(jobs.Options{Store: store, Clock: c.Now, Logger: slog.New(slog.DiscardHandler),
		Retention: memory.Retention{Transcripts: 24 * time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	if sw := <-store.applied; sw.Transcripts != 2 {
		t.Errorf("retention at start swept %d transcript entries, want 2", sw.Transcripts)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run after cancel = %v, want nil", err)
	}
	if entries, _ := s.SessionEntries(context.Background(), ss.ID); len(entries) != 0 {
		t.Errorf("entries past retention are still there: %+v", entries)
	}
}

// cancelOnFact is the real store; its first AddFact calls cancel.
type cancelOnFact struct {
	*sqlite.Store
	cancel context.CancelFunc
}

func (s cancelOnFact) AddFact(ctx context.Context, f memory.Fact) (memory.Fact, error) {
	s.cancel()
	return s.Store.AddFact(ctx, f)
}

func TestDrainClaimsAndFinishesJobsInBatches(t *testing.T) {
	ctx := context.Background()
	c := &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	s := open(t, c)
	ss := session(t, s, "my sister Anna is visiting")
	for turn := 1; turn <= 3; turn++ {
		if err := s.Enqueue(ctx, memory.Job{Kind: memory.JobTurn, PersonID: ss.PersonID, SessionID: ss.ID, Turn: turn, Text: "my sister Anna is visiting"}); err != nil {
			t.Fatal(err)
		}
	}
	r, err := jobs.New(jobs.Options{Store: s, Clock: c.Now, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	before := s.GroupStats()
	if err := r.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	// One claim of the three, one finish of the three, one claim that
	// finds the queue empty.
	if got := s.GroupStats().Batches - before.Batches; got != 3 {
		t.Errorf("draining 3 jobs took %d queue transactions, want 3", got)
	}
	if left, err := s.ClaimBatch(ctx, time.Minute, 10); err != nil || len(left) != 0 {
		t.Errorf("jobs left after Drain: %+v, %v", left, err)
	}
}

func TestAStopInTheMiddleOfABatchReleasesItsUnstartedJobsInTheirPlace(t *testing.T) {
	c := &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	s := open(t, c)
	ss := session(t, s, "my sister Anna is visiting")
	bg := context.Background()
	for turn := 1; turn <= 3; turn++ {
		if err := s.Enqueue(bg, memory.Job{Kind: memory.JobTurn, PersonID: ss.PersonID, SessionID: ss.ID, Turn: turn, Text: "my sister Anna is visiting"}); err != nil {
			t.Fatal(err)
		}
		c.now = c.now.Add(time.Second)
	}
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	r, err := jobs.New(jobs.Options{Store: cancelOnFact{Store: s, cancel: cancel}, Clock: c.Now, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Drain(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Drain stopped in its first job = %v, want context.Canceled", err)
	}
	// The first job ran and is gone; the other two are due again at once,
	// oldest first, their claim not counted as an attempt.
	left, err := s.ClaimBatch(bg, time.Minute, 10)
	if err != nil {
		t.Fatal(err)
	}
	var turns, attempts []int
	for _, j := range left {
		turns, attempts = append(turns, j.Turn), append(attempts, j.Attempts)
	}
	if !slices.Equal(turns, []int{2, 3}) || !slices.Equal(attempts, []int{1, 1}) {
		t.Errorf("after the stop the queue held turns %v with attempts %v, want turns [2 3] each on its first attempt", turns, attempts)
	}
}

func TestRunGathersTheJobsQueuedSoonAfterANotifyIntoOneBatch(t *testing.T) {
	for _, c := range []struct {
		name   string
		gather time.Duration
		want   int64 // queue transactions by the time both jobs are done
	}{
		// Both jobs in one claim, one finish, one claim that finds none.
		{"gathering 25ms", 25 * time.Millisecond, 3},
		// Each job its own claim, finish and empty claim.
		{"not gathering", -1, 6},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk := &clock{now: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
			s := open(t, clk)
			ss := session(t, s, "my sister Anna is visiting")
			enqueue := func(turn int) {
				t.Helper()
				if err := s.Enqueue(context.Background(), memory.Job{Kind: memory.JobTurn, PersonID: ss.PersonID, SessionID: ss.ID, Turn: turn, Text: "my sister Anna is visiting"}); err != nil {
					t.Fatal(err)
				}
			}
			synctest.Test(t, func(t *testing.T) {
				r, err := jobs.New(jobs.Options{Store: s, Clock: clk.Now, Logger: slog.New(slog.DiscardHandler),
					Gather: c.gather, Poll: time.Hour, SweepEvery: time.Hour})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan error, 1)
				go func() { done <- r.Run(ctx) }()
				synctest.Wait() // the start's retention is done; Run waits
				before := s.GroupStats()
				enqueue(1)
				r.Notify()
				time.Sleep(10 * time.Millisecond)
				enqueue(2)
				r.Notify()
				time.Sleep(30 * time.Millisecond)
				synctest.Wait()
				if got := s.GroupStats().Batches - before.Batches; got != c.want {
					t.Errorf("two jobs notified 10ms apart took %d queue transactions, want %d", got, c.want)
				}
				cancel()
				if err := <-done; err != nil {
					t.Errorf("Run after cancel = %v, want nil", err)
				}
			})
			if left, err := s.ClaimBatch(context.Background(), time.Minute, 10); err != nil || len(left) != 0 {
				t.Errorf("jobs left after the run: %+v, %v", left, err)
			}
		})
	}
}
