package telegram_test

// The end-to-end benchmark runs the whole of Haven (real core, crisis gate
// and SQLite store) behind the adapter, so this test file, and only it,
// imports core, memory and safety: the adapter package itself does not.

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
	"github.com/havenbot/haven/core"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// The SQLite store keeps the adapter's offsets in production.
var _ telegram.OffsetStore = (*sqlite.Store)(nil)

// benchPeople is how many people write at once in the benchmark.
const benchPeople = 64

var benchTexts = []string{
	"I had a long day at work and I feel really tired",
	"my sister and I argued again and I keep thinking about it",
	"can you help me plan my week, it feels like too much",
	"I've been sleeping badly and I'm worried about my exam",
}

// injectDMs queues n direct messages from benchPeople people.
func injectDMs(srv *telegramtest.Server, n int) {
	for i := range n {
		u := tgbotapi.User{ID: int64(1000 + i%benchPeople), FirstName: "P", LanguageCode: "en"}
		srv.Inject(srv.NewMessage(telegramtest.PrivateChat(u), u, benchTexts[i%len(benchTexts)]))
	}
}

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

// BenchmarkTelegramThroughput measures messages per second through
// fake Bot API -> library -> adapter -> Hub -> core -> adapter -> fake,
// and, in the same run, through a bare echo bot written with the same
// library against the same fake. Each iteration is one message answered.
func BenchmarkTelegramThroughput(b *testing.B) {
	b.Run("echo-bot", benchEcho)
	b.Run("haven", func(b *testing.B) { benchHaven(b, true) })
	b.Run("adapter+hub", func(b *testing.B) { benchHaven(b, false) })
}

// echoHandler answers every message with its text, in place of the core.
var echoHandler = channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	return []channels.Outbound{{Conversation: in.Conversation, ReplyTo: in.MessageID, Kind: channels.OutReply, Text: in.Text}}, nil
})

func benchEcho(b *testing.B) {
	srv := telegramtest.NewServer(token)
	defer srv.Close()
	stopEcho, err := srv.EchoBot(token, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	injectDMs(srv, b.N)
	wctx, wcancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer wcancel()
	if _, err := srv.WaitSent(wctx, b.N); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	stopEcho()
}

// benchHaven runs the Haven pipeline; withCore false replaces the core and
// its SQLite store by echoHandler and in-memory inbox and outbox, to show
// what the adapter and the Hub cost.
func benchHaven(b *testing.B, withCore bool) {
	srv := telegramtest.NewServer(token)
	defer srv.Close()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "haven.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	quiet := slog.New(slog.DiscardHandler)
	var (
		h      channels.Handler = echoHandler
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
	// The platform's rate limits (Telegram's ~30 messages/s) would be all
	// this measured: they are off, to measure Haven's own pipeline.
	hub := channels.NewHub(handler, inbox, outbox, channels.HubOptions{NoRateLimit: true, Logger: quiet})
	a, err := telegram.New(telegram.Options{
		Token: token, APIEndpoint: srv.APIEndpoint(), PollTimeout: time.Second,
		Offsets: store, Logger: quiet,
	})
	if err != nil {
		b.Fatal(err)
	}
	hub.Register(a)
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- hub.Run(rctx) }()
	<-a.Ready()

	b.ResetTimer()
	injectDMs(srv, b.N)
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Minute)
	defer wcancel()
	select {
	case <-handler.done:
	case <-wctx.Done():
		b.Fatalf("only %d of %d turns ran", handler.turns.Load(), b.N)
	}
	if _, err := srv.WaitSent(wctx, int(handler.outs.Load())); err != nil {
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
