package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
	"github.com/havenbot/haven/core"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// runOnce wires the real store, engine and Hub around a fake adapter, feeds
// it ins, and returns what it sent once Run has drained.
func runOnce(t *testing.T, path string, ins ...channels.Inbound) []channels.Outbound {
	t.Helper()
	ctx := context.Background()
	store, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	log := slog.New(slog.DiscardHandler)
	engine, err := core.New(core.Options{Store: store, Gate: safety.NewGate(safety.GateOptions{}), Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	hub := channels.NewHub(engine, store, store, channels.HubOptions{NoRateLimit: true, Logger: log})
	a := channelstest.NewAdapter("fake", 4096)
	hub.Register(a)
	a.Push(ins...)
	a.End()
	if err := hub.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return a.Sent()
}

func fakeDM(key, text string) channels.Inbound {
	return channels.Inbound{
		Platform:     "fake",
		Conversation: channels.Conversation{ID: "fake::dm", Kind: channels.KindDM},
		MessageID:    "fake::" + key,
		DeliveryKey:  "fake::" + key,
		Author:       channels.Author{ID: "fake::u1"},
		Text:         text,
		ReceivedAt:   time.Now(),
	}
}

func TestDuplicateDeliveryGetsOneReplyAlsoAcrossARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	sent := runOnce(t, path, fakeDM("1", "hello"), fakeDM("1", "hello"), fakeDM("2", "I have been so stressed"))
	if len(sent) != 2 {
		t.Fatalf("first run sent %d messages, want 2 (one per delivery key): %+v", len(sent), sent)
	}
	sent = runOnce(t, path, fakeDM("2", "I have been so stressed"), fakeDM("3", "/whoami"))
	if len(sent) != 1 {
		t.Fatalf("after a restart, a redelivered key got a reply again: sent %+v", sent)
	}
}

func TestServeAnswersOnTelegramThroughTheFakeBotAPI(t *testing.T) {
	const token = "123456:test-token-abcdefghijklmnopqrstuvwxyz"
	srv := telegramtest.NewServer(token)
	defer srv.Close()
	env := map[string]string{
		"HAVEN_TELEGRAM_TOKEN":   token,
		"HAVEN_TELEGRAM_API_URL": srv.APIEndpoint(),
		"HAVEN_DATABASE_PATH":    filepath.Join(t.TempDir(), "h.db"),
		"HAVEN_LOG_LEVEL":        "error",
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var out, errb bytes.Buffer
	go func() {
		done <- run(ctx, []string{"serve"}, stdio{in: strings.NewReader(""), out: &out, err: &errb}, func(k string) (string, bool) {
			v, ok := env[k]
			return v, ok
		})
	}()
	person := tgbotapi.User{ID: 42, FirstName: "Sam"}
	srv.Inject(srv.NewMessage(telegramtest.PrivateChat(person), person, "I have been so stressed about work"))
	srv.Inject(srv.NewMessage(telegramtest.PrivateChat(person), person, "I want to kill myself"))
	waitCtx, waitCancel := context.WithTimeout(ctx, time.Minute)
	defer waitCancel()
	sent, err := srv.WaitSent(waitCtx, 2)
	if err != nil {
		t.Fatalf("waiting for replies: %v; stderr:\n%s", err, errb.String())
	}
	if !strings.Contains(sent[0].Plain, "work") {
		t.Errorf("first reply %q does not attend to the message", sent[0].Plain)
	}
	if !strings.Contains(sent[1].Plain, "911") && !strings.Contains(sent[1].Plain, "988") && !strings.Contains(strings.ToLower(sent[1].Plain), "emergency") {
		t.Errorf("crisis reply %q names no emergency resource", sent[1].Plain)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("serve exited %d; stderr:\n%s", code, errb.String())
	}
}
