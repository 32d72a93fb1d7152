package channels_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"

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
