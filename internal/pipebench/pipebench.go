// Package pipebench is the throughput benchmark the platform adapters
// share: messages per second from a fake platform through the adapter,
// the Hub and the core (or an echo handler) back to the fake, and the same
// load on a bare bot built on the platform's library. It is imported by
// the adapters' tests only.
package pipebench

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
	"github.com/havenbot/haven/core"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// People is how many people write at once in the benchmark.
const People = 64

// Texts are the messages the simulated people send, in turn: everyday
// worries, none a crisis.
var Texts = []string{
	"I had a long day at work and I feel really tired",
	"my sister and I argued again and I keep thinking about it",
	"can you help me plan my week, it feels like too much",
	"I've been sleeping badly and I'm worried about my exam",
}

// Load is one platform's fake under the benchmark.
type Load struct {
	// Inject queues n direct messages from a few people at the fake.
	Inject func(n int)
	// WaitSent waits until the fake has received n replies.
	WaitSent func(ctx context.Context, n int) error
}

// Pipeline is a Load with the adapter under test connected to its fake.
type Pipeline struct {
	Load
	Adapter channels.Adapter
	// Ready is closed once Adapter has connected.
	Ready <-chan struct{}
}

// EchoHandler answers every message with its text, in place of the core.
var EchoHandler = channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	return []channels.Outbound{{Conversation: in.Conversation, ReplyTo: in.MessageID, Kind: channels.OutReply, Text: in.Text}}, nil
})

// countingHandler counts turns and the messages they return.
type countingHandler struct {
	h           channels.Handler
	turns, outs atomic.Int64
	done        chan struct{} // closed when turns reaches want
	want        int64
}

func (c *countingHandler) Handle(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	outs, err := c.h.Handle(ctx, in)
	c.outs.Add(int64(len(outs)))
	if c.turns.Add(1) == c.want {
		close(c.done)
	}
	return outs, err
}

// Haven runs b.N messages through the pipeline newPipeline builds (its
// adapter may keep state in store) and reports msgs/s and replies/msg.
// With withCore the Hub runs the real core on SQLite; without, EchoHandler
// and an in-memory inbox and outbox, to show what the adapter and the Hub
// cost alone. The platform's rate limits are off: they would be all this
// measured.
func Haven(b *testing.B, withCore bool, newPipeline func(store *sqlite.Store) Pipeline) {
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "haven.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	quiet := slog.New(slog.DiscardHandler)
	var (
		h      channels.Handler = EchoHandler
		inbox  channels.Inbox   = channelstest.NewMemInbox()
		outbox channels.Outbox  = channelstest.NewMemOutbox()
	)
	if withCore {
		engine, err := core.New(core.Options{Store: store, Gate: safety.NewGate(safety.GateOptions{}), Logger: quiet})
		if err != nil {
			b.Fatal(err)
		}
		h, inbox, outbox = engine, store, store
	}
	handler := &countingHandler{h: h, done: make(chan struct{}), want: int64(b.N)}
	hub := channels.NewHub(handler, inbox, outbox, channels.HubOptions{NoRateLimit: true, Logger: quiet})
	p := newPipeline(store)
	hub.Register(p.Adapter)
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- hub.Run(rctx) }()
	<-p.Ready

	b.ResetTimer()
	p.Inject(b.N)
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Minute)
	defer wcancel()
	select {
	case <-handler.done:
	case <-wctx.Done():
		b.Fatalf("only %d of %d turns ran", handler.turns.Load(), b.N)
	}
	if err := p.WaitSent(wctx, int(handler.outs.Load())); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(handler.outs.Load())/float64(b.N), "replies/msg")
	cancel()
	if err := <-done; err != nil {
		b.Fatal(fmt.Errorf("hub: %w", err))
	}
}

// Echo runs b.N messages through a bare echo bot already serving l's
// fake, and reports msgs/s.
func Echo(b *testing.B, l Load) {
	b.ResetTimer()
	l.Inject(b.N)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := l.WaitSent(ctx, b.N); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}
