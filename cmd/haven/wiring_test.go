package main

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

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
