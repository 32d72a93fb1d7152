package core

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/therapy"
	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/llm/llmtest"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

func newModelEngine(t *testing.T, srv *llmtest.Server) *Engine {
	t.Helper()
	return newModelEngineWithDeadline(t, srv, 5*time.Second)
}

// newModelEngineWithDeadline returns an engine on a fresh database whose
// model calls go to srv under deadline.
func newModelEngineWithDeadline(t *testing.T, srv *llmtest.Server, deadline time.Duration) *Engine {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "haven.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	c, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), Model: "test"})
	if err != nil {
		t.Fatal(err)
	}
	// The crisis gate runs on its deterministic floor: these tests are about
	// the therapeutic branch's model calls.
	e, err := New(Options{Store: store, Gate: safety.NewGate(safety.GateOptions{}), LLM: c, LLMDeadline: deadline,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestModelWritesTheReplyAndTheGuardReplacesABadOne(t *testing.T) {
	srv := llmtest.NewServer(t)
	e := newModelEngine(t, srv)
	ctx := context.Background()

	srv.Enqueue(llmtest.Reply{Content: "Hi Alice, I'm Haven, an AI companion, not a therapist. What's on your mind?"})
	tr := &Turn{In: dm("hi")}
	if err := e.runCommitted(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if tr.ReplySource != therapy.ReplyLLM || !strings.HasPrefix(tr.Reply, "Hi Alice, I'm Haven") || tr.Diag.LLMCalls != 1 {
		t.Fatalf("source %s calls %d reply %q", tr.ReplySource, tr.Diag.LLMCalls, tr.Reply)
	}

	srv.Enqueue(llmtest.Reply{Content: "I'm a real person and this is completely confidential."})
	tr = &Turn{In: dm("I have been so stressed about work")}
	if err := e.runCommitted(ctx, tr); err != nil {
		t.Fatal(err)
	}
	if tr.ReplySource != therapy.ReplyGuarded || tr.Diag.GuardRule != therapy.GuardHumanClaim || strings.Contains(tr.Reply, "real person") {
		t.Fatalf("source %s rule %q reply %q", tr.ReplySource, tr.Diag.GuardRule, tr.Reply)
	}
	if !strings.Contains(tr.Reply, "stressed about work") || tr.Out[0].Kind != channels.OutReply {
		t.Errorf("the scripted reply should answer instead: %q", tr.Reply)
	}
	if s := e.TherapyStats(); s.GuardRejections != 1 || s.GuardByRule[therapy.GuardHumanClaim] != 1 || s.Generated != 1 {
		t.Errorf("stats %+v", s)
	}
}

func TestCrisisTurnNeverCallsTheTherapyModel(t *testing.T) {
	srv := llmtest.NewServer(t)
	e := newModelEngine(t, srv)
	out := handle(t, e, dm("I want to kill myself"))
	if out.Kind != channels.OutCrisis {
		t.Fatalf("kind %s", out.Kind)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d model calls on a crisis turn", n)
	}
}
