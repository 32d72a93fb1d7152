package channels_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

// writes is a turn's writes as a DeferredHandler returns them.
type writes struct {
	key       string
	committed chan error
}

func (w *writes) Committed(err error) { w.committed <- err }

// deferring echoes like echo but defers one write per turn.
type deferring struct {
	mu     sync.Mutex
	writes []*writes
}

func (d *deferring) Handle(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	panic("the Hub called Handle on a DeferredHandler with a Finisher outbox")
}

func (d *deferring) HandleDeferred(ctx context.Context, in channels.Inbound) ([]channels.Outbound, channels.TurnWrites, error) {
	outs, err := echo.Handle(ctx, in)
	w := &writes{key: in.DeliveryKey, committed: make(chan error, 1)}
	d.mu.Lock()
	d.writes = append(d.writes, w)
	d.mu.Unlock()
	return outs, w, err
}

// finishingOutbox is a MemOutbox that can finish a turn: it records what
// each FinishTurn got, and fails those given writes while failWrites is set.
type finishingOutbox struct {
	*channelstest.MemOutbox
	inbox      *channelstest.MemInbox
	failWrites bool

	mu    sync.Mutex
	calls []finishCall
}

type finishCall struct {
	key    string
	outs   int
	writes channels.TurnWrites
}

func (f *finishingOutbox) FinishTurn(ctx context.Context, key string, outs []channels.Outbound, w channels.TurnWrites) ([]int64, error) {
	f.mu.Lock()
	f.calls = append(f.calls, finishCall{key, len(outs), w})
	f.mu.Unlock()
	if w != nil && f.failWrites {
		return nil, errors.New("no such session")
	}
	ids, err := f.Add(ctx, outs)
	if err != nil {
		return nil, err
	}
	return ids, f.inbox.Done(ctx, key)
}

func TestHubFinishesADeferredTurnInOneCall(t *testing.T) {
	for _, failWrites := range []bool{false, true} {
		name := map[bool]string{false: "writes committed with the replies", true: "failed writes still leave the replies recorded"}[failWrites]
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				inbox := channelstest.NewMemInbox()
				outbox := &finishingOutbox{MemOutbox: channelstest.NewMemOutbox(), inbox: inbox, failWrites: failWrites}
				h := &deferring{}
				a := channelstest.NewAdapter("test", 100)
				hub := channels.NewHub(h, inbox, outbox, fastOpts())
				hub.Register(a)
				a.Push(dm("c1", 1))
				a.End()
				if err := hub.Run(t.Context()); err != nil {
					t.Fatal(err)
				}
				if len(a.Sent()) != 1 {
					t.Fatalf("sent %d messages, want the one reply", len(a.Sent()))
				}
				if len(h.writes) != 1 {
					t.Fatalf("%d deferred turns, want 1", len(h.writes))
				}
				err := <-h.writes[0].committed
				if (err != nil) != failWrites {
					t.Errorf("Committed(%v), want an error only when the writes failed", err)
				}
				want := 1
				if failWrites {
					want = 2 // the retry without the writes
				}
				if len(outbox.calls) != want {
					t.Fatalf("FinishTurn called %d times, want %d", len(outbox.calls), want)
				}
				if c := outbox.calls[0]; c.key != dm("c1", 1).DeliveryKey || c.outs != 1 || c.writes != h.writes[0] {
					t.Errorf("FinishTurn got %+v, want the turn's key, its reply and its writes", c)
				}
				if failWrites && outbox.calls[1].writes != nil {
					t.Errorf("the retry carried the writes that failed")
				}
				if left, _ := inbox.Unfinished(t.Context(), "test"); len(left) != 0 {
					t.Errorf("%d deliveries left unfinished", len(left))
				}
				if recs := outbox.Records(); len(recs) != 1 || recs[0].State != channelstest.OutSent {
					t.Errorf("outbox = %+v, want the reply recorded and sent", recs)
				}
			})
		})
	}
}

// cutShort answers only once its context is cancelled, and then with a
// reply and no error, as core does when its store calls fail but the
// crisis gate still answers; when deferring, it returns writes too.
type cutShort struct {
	writes *writes
}

func (c *cutShort) Handle(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	<-ctx.Done()
	return []channels.Outbound{{Kind: channels.OutCrisis, Text: "answered without the store"}}, nil
}

type cutShortDeferred struct{ cutShort }

func (c *cutShortDeferred) HandleDeferred(ctx context.Context, in channels.Inbound) ([]channels.Outbound, channels.TurnWrites, error) {
	outs, err := c.Handle(ctx, in)
	c.writes = &writes{key: in.DeliveryKey, committed: make(chan error, 1)}
	return outs, c.writes, err
}

// TestHubTurnCutShortByTheEndOfTheDrainRunsAgainAtTheNextStart has the
// drain end while a turn runs: whatever the turn returns with its context
// cancelled is dropped, its delivery stays unfinished, and the next run
// answers it.
func TestHubTurnCutShortByTheEndOfTheDrainRunsAgainAtTheNextStart(t *testing.T) {
	for _, deferred := range []bool{false, true} {
		t.Run(map[bool]string{false: "handler", true: "deferred handler"}[deferred], func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				inbox := channelstest.NewMemInbox()
				outbox := &finishingOutbox{MemOutbox: channelstest.NewMemOutbox(), inbox: inbox}
				var h channels.Handler = &cutShort{}
				if deferred {
					h = &cutShortDeferred{}
				}
				opts := fastOpts()
				opts.DrainTimeout = 5 * time.Second
				a := channelstest.NewAdapter("test", 100)
				hub := channels.NewHub(h, inbox, outbox, opts)
				hub.Register(a)
				a.Push(dm("c1", 1))
				a.End()
				if err := hub.Run(t.Context()); err != nil {
					t.Fatal(err)
				}
				if st := hub.Stats(); st.Turns != 0 || st.Queued != 1 || st.Left != 0 {
					t.Errorf("stats %+v, want no turn run, one queued, no reply left", st)
				}
				if len(outbox.calls) != 0 || len(outbox.Records()) != 0 || len(a.Sent()) != 0 {
					t.Fatalf("the cut turn was recorded (%d finishes, %d outbox rows) or sent (%d)", len(outbox.calls), len(outbox.Records()), len(a.Sent()))
				}
				if d, ok := h.(*cutShortDeferred); ok {
					select {
					case err := <-d.writes.committed:
						t.Errorf("the cut turn's writes were reported committed (%v)", err)
					default:
					}
				}
				a2 := channelstest.NewAdapter("test", 100)
				runHub(t, echo, inbox, outbox.MemOutbox, fastOpts(), a2)
				if got := a2.Sent(); len(got) != 1 || got[0].Text != "re: 1" {
					t.Fatalf("the next run sent %+v, want the turn run again and answered once", got)
				}
			})
		})
	}
}
