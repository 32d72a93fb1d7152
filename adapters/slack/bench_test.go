package slack_test

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/slack/slacktest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
	"github.com/havenbot/haven/core"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// benchPeople is how many people write at once in the benchmark.
const benchPeople = 64

var benchTexts = []string{
	"I had a long day at work and I feel really tired",
	"my sister and I argued again and I keep thinking about it",
	"can you help me plan my week, it feels like too much",
	"I've been sleeping badly and I'm worried about my exam",
}

// benchFake is a fake Slack with benchPeople people, each with a DM.
func benchFake() (*slacktest.Server, []string) {
	srv := slacktest.NewServer()
	dms := make([]string, benchPeople)
	for i := range benchPeople {
		id := fmt.Sprintf("U%04d", i)
		srv.AddUser(slacktest.User{ID: id, Name: "p", TZ: "America/Chicago", Locale: "en-US"})
		dms[i] = srv.DM(id)
	}
	return srv, dms
}

// injectDMs makes the people send n direct messages.
func injectDMs(srv *slacktest.Server, dms []string, n int) {
	for i := range n {
		p := i % benchPeople
		srv.Message(slacktest.Message{Channel: dms[p], User: fmt.Sprintf("U%04d", p), Text: benchTexts[i%len(benchTexts)]})
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

// BenchmarkSlackThroughput measures messages per second through
// fake Slack -> Socket Mode -> adapter -> Hub -> core -> adapter ->
// chat.postMessage -> fake, and, in the same run, through a bare echo bot
// written with slack-go's Socket Mode client against the same fake. Each
// iteration is one message answered.
func BenchmarkSlackThroughput(b *testing.B) {
	b.Run("echo-bot", benchEcho)
	b.Run("haven", func(b *testing.B) { benchHaven(b, true) })
	b.Run("adapter+hub", func(b *testing.B) { benchHaven(b, false) })
}

func benchEcho(b *testing.B) {
	srv, dms := benchFake()
	defer srv.Close()
	stop := srv.EchoBot()
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if err := srv.WaitConnected(ctx, 1); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	injectDMs(srv, dms, b.N)
	if _, err := srv.WaitPosts(ctx, b.N); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// benchHaven runs the Haven pipeline; withCore false replaces the core and
// its SQLite store by an echo and in-memory inbox and outbox, to show what
// the adapter and the Hub cost.
func benchHaven(b *testing.B, withCore bool) {
	srv, dms := benchFake()
	defer srv.Close()
	ctx := context.Background()
	quiet := slog.New(slog.DiscardHandler)
	var (
		h      channels.Handler = &echoCore{}
		inbox  channels.Inbox   = channelstest.NewMemInbox()
		outbox channels.Outbox  = channelstest.NewMemOutbox()
	)
	if withCore {
		store, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "haven.db"))
		if err != nil {
			b.Fatal(err)
		}
		defer store.Close()
		engine, err := core.New(core.Options{Store: store, Gate: safety.NewGate(safety.GateOptions{}), Logger: quiet})
		if err != nil {
			b.Fatal(err)
		}
		h, inbox, outbox = engine, store, store
	}
	handler := &countingHandler{h: h, done: make(chan struct{}), want: int64(b.N)}
	// Slack's posting limits would be all this measured: they are off, to
	// measure Haven's own pipeline.
	hub := channels.NewHub(handler, inbox, outbox, channels.HubOptions{NoRateLimit: true, Logger: quiet})
	a, err := slack.New(slack.Options{BotToken: srv.BotToken(), AppToken: srv.AppToken(), APIURL: srv.APIURL(), Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	hub.Register(a)
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- hub.Run(rctx) }()
	<-a.Ready()

	b.ResetTimer()
	injectDMs(srv, dms, b.N)
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Minute)
	defer wcancel()
	select {
	case <-handler.done:
	case <-wctx.Done():
		b.Fatalf("only %d of %d turns ran", handler.turns.Load(), b.N)
	}
	if _, err := srv.WaitPosts(wctx, int(handler.outs.Load())); err != nil {
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
