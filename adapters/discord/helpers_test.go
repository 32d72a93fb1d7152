package discord_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/adapters/discord/discordtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// world is a fake Discord with one guild, its #general channel, a thread
// in it, a forum with a post, and three people: Ana and Ben are plain
// members, Mod has a role with Manage Server.
type world struct {
	srv                 *discordtest.Server
	guild, general      string
	thread, forum, post string
	ana, ben, mod       discordgo.User
	modRole             string
	bot                 discordgo.User
}

func newWorld(t testing.TB, opts ...discordtest.Option) *world {
	srv := discordtest.NewServer(token, opts...)
	t.Cleanup(srv.Close)
	w := &world{srv: srv, bot: srv.Bot()}
	w.guild = srv.AddGuild("Haven test guild")
	w.general = srv.AddChannel(w.guild, "general", discordgo.ChannelTypeGuildText)
	w.thread = srv.AddThread(w.general, "a thread", true)
	w.forum = srv.AddChannel(w.guild, "help-forum", discordgo.ChannelTypeGuildForum)
	w.post = srv.AddThread(w.forum, "a forum post", true)
	w.modRole = srv.AddRole(w.guild, "Moderators", discordtest.PermEveryone|discordtest.PermManageGuild)
	w.ana, w.ben, w.mod = srv.AddUser("Ana"), srv.AddUser("Ben"), srv.AddUser("Mod")
	srv.AddMember(w.guild, w.ana.ID)
	srv.AddMember(w.guild, w.ben.ID)
	srv.AddMember(w.guild, w.mod.ID, w.modRole)
	return w
}

// mention is content that @mentions the bot.
func (w *world) mention(text string) string { return discordtest.Mention(w.bot.ID) + " " + text }

// say posts a message and returns it.
func (w *world) say(channel string, who discordgo.User, text string) *discordgo.Message {
	m := w.srv.NewMessage(channel, who.ID, text)
	w.srv.Post(m)
	return m
}

// dm posts a DM from who.
func (w *world) dm(who discordgo.User, text string) *discordgo.Message {
	return w.say(w.srv.DMChannel(who.ID), who, text)
}

// recSink is a sink that records what it accepts.
type recSink struct {
	ch chan channels.Inbound
}

func (s *recSink) Accept(ctx context.Context, in channels.Inbound) error {
	select {
	case s.ch <- in:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// next returns the next accepted Inbound.
func (s *recSink) next(t testing.TB) channels.Inbound {
	t.Helper()
	select {
	case in := <-s.ch:
		return in
	case <-time.After(20 * time.Second):
		t.Fatal("nothing was accepted")
		return channels.Inbound{}
	}
}

// running is an adapter running against a world.
type running struct {
	*world
	a    *discord.Adapter
	logs *channelstest.LogBuffer
	sink *recSink
	stop func() error // cancels Run and returns its error
}

// run starts an adapter with opts on w, handing what it receives to a
// recording sink, and waits until it is ready.
func run(t testing.TB, w *world, opts discord.Options) *running {
	t.Helper()
	logs := &channelstest.LogBuffer{}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	a := newAdapter(t, w.srv, opts)
	r := &running{world: w, a: a, logs: logs, sink: &recSink{ch: make(chan channels.Inbound, 100)}}
	r.stop = start(t, a, r.sink)
	return r
}

// start runs a with sink until the test ends or stop is called, and
// waits until it is ready.
func start(t testing.TB, a *discord.Adapter, sink channels.Sink) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, sink) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			err = <-done
		})
		return err
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	select {
	case <-a.Ready():
	case err := <-done:
		done <- err
		t.Fatalf("Run ended before it was ready: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("the adapter did not get ready")
	}
	return stop
}

// hubbed is an adapter run by a real Hub with the scenario core.
type hubbed struct {
	*world
	a    *discord.Adapter
	core *channelstest.ScenarioCore
	logs *channelstest.LogBuffer
}

// runHub runs an adapter on w under a Hub whose handler is the scenario
// core behind wrap (nil: the core itself).
func runHub(t testing.TB, w *world, opts discord.Options, wrap func(channels.Handler) channels.Handler) *hubbed {
	t.Helper()
	logs := &channelstest.LogBuffer{}
	opts.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	a := newAdapter(t, w.srv, opts)
	core := &channelstest.ScenarioCore{Limit: a.MessageLimit()}
	var h channels.Handler = core
	if wrap != nil {
		h = wrap(core)
	}
	hub := channels.NewHub(h, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), channels.HubOptions{
		NoRateLimit: true, BaseBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond,
		DrainTimeout: 5 * time.Second, Logger: slog.New(slog.DiscardHandler),
	})
	hub.Register(a)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- hub.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("hub: %v", err)
		}
	})
	select {
	case <-a.Ready():
	case <-time.After(20 * time.Second):
		t.Fatal("the adapter did not get ready")
	}
	return &hubbed{world: w, a: a, core: core, logs: logs}
}

// posts waits for n posts.
func (w *world) posts(t testing.TB, n int) []discordtest.Post {
	t.Helper()
	p, err := w.srv.WaitPosts(ctxT(t), n)
	if err != nil {
		t.Fatalf("%v; posted so far: %+v", err, p)
	}
	return p
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}
