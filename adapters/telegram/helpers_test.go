package telegram_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

const token = "123456:test-token-abcdefghijklmnopqrstuvwxyz"

var (
	alice = tgbotapi.User{ID: 42, FirstName: "Alice", LastName: "Liddell", UserName: "alice_l", LanguageCode: "en-GB"}
	bob   = tgbotapi.User{ID: 43, FirstName: "Bob", LanguageCode: "de"}
	group = telegramtest.SupergroupChat(-1001234, "Friends")
)

// recordSink records what the adapter accepted. The first failFirst calls
// of Accept fail.
type recordSink struct {
	mu        sync.Mutex
	got       []channels.Inbound
	ch        chan channels.Inbound
	failFirst int
	calls     int
	// before, if set, runs first in every Accept (set it before Run).
	before func(channels.Inbound)
}

func newSink() *recordSink { return &recordSink{ch: make(chan channels.Inbound, 100)} }

func (s *recordSink) Accept(ctx context.Context, in channels.Inbound) error {
	if s.before != nil {
		s.before(in)
	}
	s.mu.Lock()
	s.calls++
	if s.calls <= s.failFirst {
		s.mu.Unlock()
		return errors.New("inbox is locked")
	}
	s.got = append(s.got, in)
	s.mu.Unlock()
	s.ch <- in
	return nil
}

// next returns the next accepted Inbound.
func (s *recordSink) next(t *testing.T) channels.Inbound {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	select {
	case in := <-s.ch:
		return in
	case <-ctx.Done():
		t.Fatal("no inbound message accepted within 10s")
		return channels.Inbound{}
	}
}

// sleeps records the waits the adapter asked for, without waiting.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

func (s *sleeps) waits() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.d...)
}

// harness is a fake Bot API and an adapter talking to it.
type harness struct {
	srv    *telegramtest.Server
	a      *telegram.Adapter
	sink   *recordSink
	sleeps *sleeps
	logs   *channelstest.LogBuffer
	cancel context.CancelFunc
	done   chan error
}

// newHarness starts a fake and builds an adapter for it; edit changes the
// options before New.
func newHarness(t *testing.T, srv *telegramtest.Server, edit func(*telegram.Options)) *harness {
	t.Helper()
	if srv == nil {
		srv = telegramtest.NewServer(token)
		t.Cleanup(srv.Close)
	}
	h := &harness{srv: srv, sink: newSink(), sleeps: &sleeps{}, logs: &channelstest.LogBuffer{}}
	opts := telegram.Options{
		Token:       token,
		APIEndpoint: srv.APIEndpoint(),
		PollTimeout: 10 * time.Second,
		Logger:      slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelInfo})),
	}
	if edit != nil {
		edit(&opts)
	}
	a, err := telegram.New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	telegram.SetSleep(a, h.sleeps.sleep)
	h.a = a
	return h
}

// start runs the adapter until the test ends.
func (h *harness) start(t *testing.T) *harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	h.done = make(chan error, 1)
	go func() { h.done <- h.a.Run(ctx, h.sink) }()
	t.Cleanup(func() { h.stop(t) })
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

// marker injects a DM that ends a test case: the adapter handles updates in
// order, so once the marker is accepted everything before it was handled.
func (h *harness) marker(t *testing.T) {
	t.Helper()
	h.srv.Inject(h.srv.NewMessage(telegramtest.PrivateChat(bob), bob, "marker"))
}

func (h *harness) expectMarker(t *testing.T) {
	t.Helper()
	if in := h.sink.next(t); in.Text != "marker" {
		t.Fatalf("accepted %+v, want the marker (the update before it should have been dropped)", in)
	}
}

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
