package slack_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/slack/slacktest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

const secret = "8f742231b10e8888abcd99yyyzzz85a5"

// The people of the fake workspace.
var (
	ana = slacktest.User{ID: "U0ANA", Name: "ana", RealName: "Ana Lima", DisplayName: "Ana", TZ: "America/Chicago", Locale: "en-US"}
	ben = slacktest.User{ID: "U0BEN", Name: "ben", RealName: "Ben Okoro", TZ: "Europe/London", Locale: "en-US"}
	cy  = slacktest.User{ID: "U0CY", Name: "cy", RealName: "Cy"}
)

// The conversations of the fake workspace.
var (
	general = slacktest.Channel{ID: "C0GENERAL", Name: "general", Type: slacktest.TypeChannel}
	// A private channel: Slack gives new ones C ids (G ids are older
	// private channels, and group DMs).
	private = slacktest.Channel{ID: "C0PRIVATE", Name: "secret-club", Type: slacktest.TypeGroup}
	mpim    = slacktest.Channel{ID: "G0MPIM", Name: "mpdm-ana--ben--cy-1", Type: slacktest.TypeMPIM}
)

func ns(local string) string { return "slack:" + slacktest.DefaultTeam + ":" + local }

// newFake starts a fake Slack with the people and conversations above.
func newFake(t testing.TB, opts ...slacktest.Option) *slacktest.Server {
	t.Helper()
	srv := slacktest.NewServer(opts...)
	t.Cleanup(srv.Close)
	for _, u := range []slacktest.User{ana, ben, cy} {
		srv.AddUser(u)
	}
	for _, c := range []slacktest.Channel{general, private, mpim} {
		srv.AddChannel(c)
	}
	return srv
}

// recordSink records what the adapter accepted. The first failFirst calls
// of Accept fail; while block is not nil, Accept waits for it to close.
type recordSink struct {
	mu        sync.Mutex
	got       []channels.Inbound
	ch        chan channels.Inbound
	failFirst int
	calls     int
	block     chan struct{}
}

func newSink() *recordSink { return &recordSink{ch: make(chan channels.Inbound, 1000)} }

func (s *recordSink) Accept(ctx context.Context, in channels.Inbound) error {
	s.mu.Lock()
	s.calls++
	block := s.block
	if s.calls <= s.failFirst {
		s.mu.Unlock()
		return errors.New("inbox is locked")
	}
	s.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	s.mu.Lock()
	s.got = append(s.got, in)
	s.mu.Unlock()
	s.ch <- in
	return nil
}

// next returns the next accepted Inbound.
func (s *recordSink) next(t *testing.T) channels.Inbound {
	t.Helper()
	select {
	case in := <-s.ch:
		return in
	case <-time.After(10 * time.Second):
		t.Fatal("no inbound message accepted within 10s")
		return channels.Inbound{}
	}
}

// harness is a fake Slack and an adapter talking to it.
type harness struct {
	srv    *slacktest.Server
	a      *slack.Adapter
	sink   *recordSink
	logs   *channelstest.LogBuffer
	hook   *httptest.Server // http mode: serves the adapter's Handler
	cancel context.CancelFunc
	done   chan error
}

// newHarness builds an adapter for srv (a fresh fake when nil) in mode;
// edit changes the options before New. In http mode the adapter's Handler
// is served and the fake delivers to it.
func newHarness(t *testing.T, srv *slacktest.Server, mode string, edit func(*slack.Options)) *harness {
	t.Helper()
	if srv == nil {
		srv = newFake(t)
	}
	h := &harness{srv: srv, sink: newSink(), logs: &channelstest.LogBuffer{}}
	opts := slack.Options{
		BotToken: srv.BotToken(), AppToken: srv.AppToken(), SigningSecret: secret, Mode: mode,
		APIURL: srv.APIURL(),
		Logger: slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
	if edit != nil {
		edit(&opts)
	}
	a, err := slack.New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	slack.SetSleep(a, func(ctx context.Context, d time.Duration) error { return ctx.Err() })
	h.a = a
	if mode == slack.ModeHTTP {
		h.hook = httptest.NewServer(a.Handler())
		t.Cleanup(h.hook.Close)
		srv.SetEventsURL(h.hook.URL+"/slack/events", secret)
	}
	return h
}

// start runs the adapter until the test ends, and waits until it is ready.
func (h *harness) start(t *testing.T) *harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	h.done = make(chan error, 1)
	go func() { h.done <- h.a.Run(ctx, h.sink) }()
	t.Cleanup(func() { h.stop(t) })
	select {
	case <-h.a.Ready():
	case err := <-h.done:
		t.Fatalf("Run returned before it was ready: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the adapter was not ready within 10s")
	}
	return h
}

// stop ends Run and returns its error.
func (h *harness) stop(t *testing.T) error {
	t.Helper()
	if h.cancel == nil {
		return nil
	}
	h.cancel()
	h.cancel = nil
	select {
	case err := <-h.done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return within 10s of cancel")
		return nil
	}
}

// marker makes Cy send a DM that ends a test case: the adapter hands
// events over in order, so once the marker is accepted everything before
// it was handled.
func (h *harness) marker(t *testing.T) {
	t.Helper()
	h.srv.Message(slacktest.Message{Channel: h.srv.DM(cy.ID), User: cy.ID, Text: "marker"})
}

func (h *harness) expectMarker(t *testing.T) {
	t.Helper()
	if in := h.sink.next(t); in.Text != "marker" {
		t.Fatalf("accepted %+v, want the marker (the event before it should have been dropped)", in)
	}
}

// mention is text addressed to the bot the Slack way.
func mention(text string) string { return "<@" + slacktest.DefaultBotUser + "> " + text }

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// echoCore answers every message with "echo: TEXT" in a reply to it.
type echoCore struct {
	mu   sync.Mutex
	seen []string
}

func (c *echoCore) Handle(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	c.mu.Lock()
	c.seen = append(c.seen, in.Text)
	c.mu.Unlock()
	return []channels.Outbound{{Platform: in.Platform, Conversation: in.Conversation, ReplyTo: in.MessageID,
		Kind: channels.OutReply, Text: "echo: " + in.Text}}, nil
}

// count returns how many turns ran for text.
func (c *echoCore) count(text string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, s := range c.seen {
		if s == text {
			n++
		}
	}
	return n
}

// hubRun is a Hub running h's adapter.
type hubRun struct {
	hub  *channels.Hub
	stop func() error
}

// runHub runs a Hub with handler and h's adapter until the test ends
// (or stop); inbox nil means a fresh in-memory one.
func runHub(t *testing.T, h *harness, handler channels.Handler, inbox channels.Inbox, outbox channels.Outbox) *hubRun {
	t.Helper()
	if inbox == nil {
		inbox = channelstest.NewMemInbox()
	}
	if outbox == nil {
		outbox = channelstest.NewMemOutbox()
	}
	hub := channels.NewHub(handler, inbox, outbox, channels.HubOptions{
		NoRateLimit: true, BaseBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond,
		DrainTimeout: 5 * time.Second, Logger: slog.New(slog.DiscardHandler),
	})
	hub.Register(h.a)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- hub.Run(ctx) }()
	var once sync.Once
	var err error
	stop := func() error {
		once.Do(func() {
			cancel()
			err = <-done
		})
		return err
	}
	t.Cleanup(func() {
		if err := stop(); err != nil {
			t.Errorf("hub run: %v", err)
		}
	})
	select {
	case <-h.a.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("the adapter was not ready within 10s")
	}
	return &hubRun{hub: hub, stop: stop}
}
