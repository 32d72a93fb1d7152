package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
)

func TestUnknownHavenVariableStopsHavenNamingItAndTheClosestOne(t *testing.T) {
	var out, errb strings.Builder
	std := stdio{in: strings.NewReader("hi\n"), out: &out, err: &errb,
		environ: []string{"PATH=/bin", "HAVEN_LOG_LEVEL=warn", "HAVEN_TELEGRAM_TOKN=123:secret"}}
	code := run(t.Context(), []string{"chat", "--db", filepath.Join(t.TempDir(), "h.db")}, std, noEnv)
	msg := errb.String()
	if code != 2 || !strings.Contains(msg, "HAVEN_TELEGRAM_TOKN is not one Haven reads; did you mean HAVEN_TELEGRAM_TOKEN?") {
		t.Fatalf("exit %d, want 2 and an error naming the variable and the closest one; stderr:\n%s", code, msg)
	}
	if strings.Contains(msg, "secret") || strings.Contains(msg, "HAVEN_LOG_LEVEL") || out.Len() > 0 {
		t.Errorf("stderr quotes a value or a known variable, or the chat ran; stdout %q, stderr:\n%s", out.String(), msg)
	}
}

func TestReadOnlyDatabaseStopsServeBeforeAnyPlatformConnects(t *testing.T) {
	if !unprivileged(t) {
		return
	}
	const token = "123456:test-token-abcdefghijklmnopqrstuvwxyz"
	srv := telegramtest.NewServer(token)
	defer srv.Close()
	db := filepath.Join(t.TempDir(), "data", "h.db")
	makeReadOnly(t, db)
	env := envOf(map[string]string{
		"HAVEN_TELEGRAM_TOKEN":   token,
		"HAVEN_TELEGRAM_API_URL": srv.APIEndpoint(),
		"HAVEN_DATABASE_PATH":    db,
	})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	logs, done := serveInBackground(ctx, env)
	select {
	case <-logs.seen:
		cancel()
		<-done
		t.Fatalf("telegram connected before the read-only database stopped Haven; stderr:\n%s", logs)
	case code := <-done:
		if code != 1 || !strings.Contains(logs.String(), "database is read-only") || !strings.Contains(logs.String(), db) {
			t.Fatalf("exit %d, want 1 and an error saying the database %s is read-only; stderr:\n%s", code, db, logs)
		}
	}
}

// serveInBackground runs `haven serve` with env until ctx is done. Its
// stderr goes to the returned watch, which sees "telegram connected"; done
// receives its exit code.
func serveInBackground(ctx context.Context, env func(string) (string, bool)) (*watch, <-chan int) {
	return serveWatching(ctx, env, "telegram connected")
}

// serveWatching is serveInBackground whose watch sees want.
func serveWatching(ctx context.Context, env func(string) (string, bool), want string) (*watch, <-chan int) {
	logs := newWatch(want)
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve"}, stdio{in: strings.NewReader(""), out: io.Discard, err: logs}, env)
	}()
	return logs, done
}

// serveConnected is serveInBackground that waits until Telegram is
// connected, failing t when serve exits first.
func serveConnected(t *testing.T, ctx context.Context, env func(string) (string, bool)) (*watch, <-chan int) {
	t.Helper()
	return serveConnectedTo(t, ctx, env, "telegram connected")
}

// serveConnectedTo is serveConnected waiting for the log line want
// ("discord connected").
func serveConnectedTo(t *testing.T, ctx context.Context, env func(string) (string, bool), want string) (*watch, <-chan int) {
	t.Helper()
	logs, done := serveWatching(ctx, env, want)
	select {
	case <-logs.seen:
	case code := <-done:
		t.Fatalf("serve exited %d before connecting:\n%s", code, logs)
	}
	return logs, done
}

// watch is a log writer that closes seen once the text written holds want.
type watch struct {
	mu   sync.Mutex
	b    strings.Builder
	want string
	seen chan struct{}
}

func newWatch(want string) *watch { return &watch{want: want, seen: make(chan struct{})} }

func (w *watch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	had := strings.Contains(w.b.String(), w.want)
	w.b.Write(p)
	if !had && strings.Contains(w.b.String(), w.want) {
		close(w.seen)
	}
	return len(p), nil
}

func (w *watch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
