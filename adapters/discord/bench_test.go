package discord_test

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

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/adapters/discord/discordtest"
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

// benchWorld is a fake Discord with benchPeople people, each with a DM
// channel.
type benchWorld struct {
	srv    *discordtest.Server
	people []discordgo.User
	dms    []string
}

func newBenchWorld() *benchWorld {
	w := &benchWorld{srv: discordtest.NewServer(token)}
	for i := range benchPeople {
		u := w.srv.AddUser(fmt.Sprintf("P%d", i))
		w.people = append(w.people, u)
		w.dms = append(w.dms, w.srv.DMChannel(u.ID))
	}
	return w
}

// injectDMs posts n direct messages from the benchPeople people.
func (w *benchWorld) injectDMs(n int) {
	for i := range n {
		p := i % benchPeople
		w.srv.Post(w.srv.NewMessage(w.dms[p], w.people[p].ID, benchTexts[i%len(benchTexts)]))
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

// BenchmarkDiscordThroughput measures messages per second through
// fake gateway -> discordgo -> adapter -> Hub -> core -> adapter -> fake
// REST, and, in the same run, through a bare discordgo echo bot against
// the same fake. Each iteration is one message answered.
func BenchmarkDiscordThroughput(b *testing.B) {
	b.Run("echo-bot", benchEcho)
	b.Run("haven", func(b *testing.B) { benchHaven(b, true) })
	b.Run("adapter+hub", func(b *testing.B) { benchHaven(b, false) })
}

// echoHandler answers every message with its text, in place of the core.
var echoHandler = channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	return []channels.Outbound{{Conversation: in.Conversation, ReplyTo: in.MessageID, Kind: channels.OutReply, Text: in.Text}}, nil
})

func benchEcho(b *testing.B) {
	w := newBenchWorld()
	defer w.srv.Close()
	stop, err := w.srv.EchoBot(token)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	w.injectDMs(b.N)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if _, err := w.srv.WaitPosts(ctx, b.N); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	stop()
}

// benchHaven runs the Haven pipeline; withCore false replaces the core and
// its SQLite store by echoHandler and an in-memory inbox and outbox, to
// show what the adapter and the Hub cost.
func benchHaven(b *testing.B, withCore bool) {
	w := newBenchWorld()
	defer w.srv.Close()
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
	// Discord's rate limits would be all this measured: they are off, to
	// measure Haven's own pipeline.
	hub := channels.NewHub(handler, inbox, outbox, channels.HubOptions{NoRateLimit: true, Logger: quiet})
	a, err := discord.New(discord.Options{Token: token, APIURL: w.srv.APIURL(), Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	hub.Register(a)
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- hub.Run(rctx) }()
	<-a.Ready()

	b.ResetTimer()
	w.injectDMs(b.N)
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Minute)
	defer wcancel()
	select {
	case <-handler.done:
	case <-wctx.Done():
		b.Fatalf("only %d of %d turns ran", handler.turns.Load(), b.N)
	}
	if _, err := w.srv.WaitPosts(wctx, int(handler.outs.Load())); err != nil {
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
