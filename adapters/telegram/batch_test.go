package telegram_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
)

// batchSink is a recordSink that also takes whole batches (a
// channels.BatchSink, as the Hub is); with fail set, every AcceptAll fails
// having taken nothing.
type batchSink struct {
	*recordSink
	fail    bool
	mu      sync.Mutex
	batches [][]string
}

func (b *batchSink) AcceptAll(ctx context.Context, ins []channels.Inbound) error {
	var texts []string
	for _, in := range ins {
		texts = append(texts, in.Text)
	}
	b.mu.Lock()
	b.batches = append(b.batches, texts)
	b.mu.Unlock()
	if b.fail {
		return errors.New("inbox is locked")
	}
	for _, in := range ins {
		b.recordSink.mu.Lock()
		b.got = append(b.got, in)
		b.recordSink.mu.Unlock()
		b.ch <- in
	}
	return nil
}

func TestPolledBatchGoesToABatchSinkInOneCallAndOneAtATimeWhenItFails(t *testing.T) {
	for _, fail := range []bool{false, true} {
		name := map[bool]string{false: "taken whole", true: "batch refused"}[fail]
		t.Run(name, func(t *testing.T) {
			srv := telegramtest.NewServer(token)
			t.Cleanup(srv.Close)
			dm := telegramtest.PrivateChat(alice)
			want := []string{"one", "two", "three"}
			for _, text := range want {
				srv.Inject(srv.NewMessage(dm, alice, text))
			}
			offsets := &telegram.MemoryOffsets{}
			h := newHarness(t, srv, func(o *telegram.Options) { o.Offsets = offsets })
			sink := &batchSink{recordSink: h.sink, fail: fail}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- h.a.Run(ctx, sink) }()
			var got []string
			for range want {
				got = append(got, h.sink.next(t).Text)
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("Run: %v", err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("accepted %v, want %v in order", got, want)
			}
			if len(sink.batches) != 1 || !slices.Equal(sink.batches[0], want) {
				t.Errorf("AcceptAll calls = %v, want one with the whole batch", sink.batches)
			}
			h.sink.mu.Lock()
			calls := h.sink.calls
			h.sink.mu.Unlock()
			if fail && calls != len(want) {
				t.Errorf("after the refused batch Accept was called %d times, want once per message (%d)", calls, len(want))
			}
			saved, err := offsets.LoadOffset(context.Background(), "telegram:123456")
			if err != nil || saved == 0 {
				t.Errorf("saved offset = %d, %v; want the batch's last update", saved, err)
			}
		})
	}
}
