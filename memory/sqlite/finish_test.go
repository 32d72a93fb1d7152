package sqlite

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

// pending is a memory.Pending as core hands it to the Hub.
type pending struct{ rec memory.TurnRecord }

func (p pending) PendingTurn() memory.TurnRecord { return p.rec }
func (p pending) Committed(error)                {}

// finishFixture is a store with one person, one open session, and a
// recorded delivery per key.
func finishFixture(t *testing.T, keys ...string) (*Store, memory.Session) {
	t.Helper()
	ctx := context.Background()
	s := openMem(t)
	p := person(t, s, "ana")
	sess, err := s.OpenSession(ctx, p.ID, "console::me", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if _, err := s.Record(ctx, inbound(k, "console::me")); err != nil {
			t.Fatal(err)
		}
	}
	return s, sess
}

func reply(text string) channels.Outbound {
	return channels.Outbound{Platform: "console", Conversation: channels.Conversation{ID: "console::me", Kind: channels.KindDM}, Kind: channels.OutReply, Text: text}
}

func countRows(t *testing.T, s *Store, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.rd.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestFinishTurnCommitsTheTurnItsRepliesAndTheInboxMarkTogether(t *testing.T) {
	ctx := context.Background()
	s, sess := finishFixture(t, "k1")
	rec := turn(sess.ID, 1, "hello")
	rec.Jobs = []memory.Job{{Kind: memory.JobTurn, PersonID: sess.PersonID, SessionID: sess.ID, Turn: 1, Text: "hello"}}
	rec.EndSession, rec.Episode = true, true
	ids, err := s.FinishTurn(ctx, "k1", []channels.Outbound{reply("one"), reply("two")}, pending{rec})
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 2 || ids[0] >= ids[1] {
		t.Fatalf("ids = %v, want two, in order", ids)
	}
	unsent, err := s.Unsent(ctx, "console")
	if err != nil || len(unsent) != 2 || unsent[0].Out.Text != "one" {
		t.Fatalf("Unsent = %+v, %v; want the two replies", unsent, err)
	}
	if left, err := s.Unfinished(ctx, "console"); err != nil || len(left) != 0 {
		t.Fatalf("Unfinished = %v, %v; want the delivery done", keys(left), err)
	}
	if n := countRows(t, s, `SELECT count(*) FROM transcript WHERE session_id = ?`, sess.ID); n != 2 {
		t.Errorf("transcript has %d entries, want 2", n)
	}
	if n := countRows(t, s, `SELECT count(*) FROM memory_jobs WHERE session_id = ?`, sess.ID); n != 2 {
		t.Errorf("%d memory jobs, want the extraction and the episode", n)
	}
	if n := countRows(t, s, `SELECT count(*) FROM sessions WHERE id = ? AND ended_at IS NOT NULL`, sess.ID); n != 1 {
		t.Errorf("the session is not ended")
	}
}

func TestFinishTurnOfAnUnknownDeliveryWritesNothing(t *testing.T) {
	ctx := context.Background()
	s, sess := finishFixture(t)
	_, err := s.FinishTurn(ctx, "never-recorded", []channels.Outbound{reply("one")}, pending{turn(sess.ID, 1, "hello")})
	if !errors.Is(err, memory.ErrNotFound) {
		t.Fatalf("FinishTurn = %v, want ErrNotFound", err)
	}
	if n := countRows(t, s, `SELECT count(*) FROM outbox`); n != 0 {
		t.Errorf("%d outbox rows, want none", n)
	}
	if n := countRows(t, s, `SELECT count(*) FROM transcript`); n != 0 {
		t.Errorf("%d transcript rows, want none", n)
	}
}

func TestFinishTurnWithABadRecordIsRefusedBeforeWriting(t *testing.T) {
	ctx := context.Background()
	s, _ := finishFixture(t, "k1")
	_, err := s.FinishTurn(ctx, "k1", []channels.Outbound{reply("one")}, pending{memory.TurnRecord{}})
	if err == nil {
		t.Fatal("FinishTurn took a record without a session")
	}
	if left, _ := s.Unfinished(ctx, "console"); len(left) != 1 {
		t.Errorf("the delivery was marked done by a refused finish")
	}
}

func TestABatchCommitsEachTurnOrNoneOfItAndKeepsTheOthers(t *testing.T) {
	ctx := context.Background()
	s, sess := finishFixture(t, "k1", "k3")
	var reqs []*groupReq
	ids := make([][]int64, 3)
	for i, key := range []string{"k1", "k2", "k3"} { // k2 was never recorded
		c, err := prepareTurn(turn(sess.ID, i+1, fmt.Sprint("message ", i)))
		if err != nil {
			t.Fatal(err)
		}
		outs := []channels.Outbound{reply(fmt.Sprint("reply ", i))}
		payloads, err := encodeOutbound(outs)
		if err != nil {
			t.Fatal(err)
		}
		r := &finishReq{key: key, outs: outs, payloads: payloads, turn: &c}
		reqs = append(reqs, &groupReq{fn: func(ctx context.Context, tx *wtx) error {
			var err error
			ids[i], err = s.finishOne(ctx, tx, r, time.Now())
			return err
		}})
	}
	before := s.GroupStats()
	s.commitGroup(ctx, reqs)
	for i, r := range reqs {
		if !r.done {
			t.Errorf("request %d not marked done", i)
		}
	}
	if reqs[0].err != nil || reqs[2].err != nil || !errors.Is(reqs[1].err, memory.ErrNotFound) {
		t.Fatalf("errors = %v, %v, %v; want only the unknown delivery to fail", reqs[0].err, reqs[1].err, reqs[2].err)
	}
	if n := countRows(t, s, `SELECT count(*) FROM outbox`); n != 2 {
		t.Errorf("%d outbox rows, want the two of the turns that finished", n)
	}
	if n := countRows(t, s, `SELECT count(*) FROM transcript`); n != 4 {
		t.Errorf("%d transcript rows, want 4", n)
	}
	if left, _ := s.Unfinished(ctx, "console"); len(left) != 0 {
		t.Errorf("deliveries %v left unfinished, want both known ones done", keys(left))
	}
	if st := s.GroupStats(); st.Batches-before.Batches != 1 || st.Writes-before.Writes != 3 {
		t.Errorf("GroupStats went from %+v to %+v, want 3 writes in 1 transaction", before, st)
	}
}

func TestConcurrentFinishesAllCommitAndShareTransactions(t *testing.T) {
	ctx := context.Background()
	const n = 200
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprint("k", i)
	}
	s, _ := finishFixture(t, keys...)
	before := s.GroupStats()
	var wg sync.WaitGroup
	errs := make([]error, n)
	ids := make([][]int64, n)
	for i, k := range keys {
		wg.Go(func() {
			ids[i], errs[i] = s.FinishTurn(ctx, k, []channels.Outbound{reply(k)}, nil)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil || len(ids[i]) != 1 {
			t.Errorf("finish %d = ids %v, %v; want one id", i, ids[i], err)
		}
	}
	if got := countRows(t, s, `SELECT count(*) FROM outbox`); got != n {
		t.Errorf("%d outbox rows, want %d", got, n)
	}
	if left, _ := s.Unfinished(ctx, "console"); len(left) != 0 {
		t.Errorf("%d deliveries left unfinished", len(left))
	}
	st := s.GroupStats()
	writes, batches := st.Writes-before.Writes, st.Batches-before.Batches
	if writes != n || batches < 1 || batches > n {
		t.Errorf("%d finishes in %d transactions, want %d in 1..%d", writes, batches, n, n)
	}
	t.Logf("%d turns finished in %d transactions", writes, batches)
}

// TestFinishesQueuedWhileABatchCommitsAreCommittedToo has turns finish in
// waves from many goroutines, so that turns queue while a batch commits
// and callers whose turn that batch committed take the commit lock after
// them: every turn must still be committed and get its ids.
func TestFinishesQueuedWhileABatchCommitsAreCommittedToo(t *testing.T) {
	ctx := context.Background()
	const workers, each = 16, 25
	keys := make([]string, workers*each)
	for i := range keys {
		keys[i] = fmt.Sprint("k", i)
	}
	s, _ := finishFixture(t, keys...)
	before := s.GroupStats()
	var wg sync.WaitGroup
	errs := make([]error, len(keys))
	for w := range workers {
		wg.Go(func() {
			for i := w * each; i < (w+1)*each; i++ {
				ids, err := s.FinishTurn(ctx, keys[i], []channels.Outbound{reply(keys[i])}, nil)
				if err == nil && len(ids) != 1 {
					err = fmt.Errorf("%d ids for one reply, and no error", len(ids))
				}
				errs[i] = err
			}
		})
	}
	wg.Wait()
	failed := 0
	for i, err := range errs {
		if err != nil {
			failed++
			if failed <= 5 {
				t.Errorf("finish %d: %v", i, err)
			}
		}
	}
	if got := countRows(t, s, `SELECT count(*) FROM outbox`); got != len(keys) {
		t.Errorf("%d outbox rows, want %d (%d finishes failed)", got, len(keys), failed)
	}
	if left, _ := s.Unfinished(ctx, "console"); len(left) != 0 {
		t.Errorf("%d deliveries left unfinished", len(left))
	}
	if st := s.GroupStats(); st.Writes-before.Writes != int64(len(keys)) {
		t.Errorf("%d grouped writes, want the %d finishes", st.Writes-before.Writes, len(keys))
	}
}
