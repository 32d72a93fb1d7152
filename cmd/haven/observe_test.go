package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
	"github.com/havenbot/haven/llm/llmtest"
	"github.com/havenbot/haven/memory/sqlite"
)

// get fetches url and returns the status code and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// series sums the samples of the metric name whose labels include every
// pair in labels ("k=v"), in a scrape in the text format; found is false
// when no sample matches.
func series(text, name string, labels ...string) (sum float64, found bool) {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		id, val := line[:i], line[i+1:]
		n, lbl, _ := strings.Cut(id, "{")
		if n != name {
			continue
		}
		ok := true
		for _, l := range labels {
			k, v, _ := strings.Cut(l, "=")
			if !strings.Contains(lbl, k+`="`+v+`"`) {
				ok = false
			}
		}
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(val, 64)
		if err == nil {
			sum, found = sum+f, true
		}
	}
	return sum, found
}

// logAttr returns attribute key of the first JSON log line whose msg is msg.
func logAttr(t *testing.T, logs, msg, key string) string {
	t.Helper()
	for _, l := range strings.Split(logs, "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil && m["msg"] == msg {
			s, _ := m[key].(string)
			return s
		}
	}
	t.Fatalf("no log line %q in:\n%s", msg, logs)
	return ""
}

func TestOperatorEndpointCountsTurnsThroughTheRealWiring(t *testing.T) {
	const token = "123456:test-token-abcdefghijklmnopqrstuvwxyz"
	srv := telegramtest.NewServer(token)
	defer srv.Close()
	model := llmtest.NewServer(t)
	defer model.Close()
	model.SetDefault(llmtest.Reply{Content: "That sounds like a heavy week. What has been hardest?"})
	env := envOf(map[string]string{
		"HAVEN_TELEGRAM_TOKEN":         token,
		"HAVEN_TELEGRAM_API_URL":       srv.APIEndpoint(),
		"HAVEN_DATABASE_PATH":          filepath.Join(t.TempDir(), "h.db"),
		"HAVEN_LLM_BASE_URL":           model.URL(),
		"HAVEN_LLM_MODEL":              "test-model",
		"HAVEN_SAFETY_DEFAULT_COUNTRY": "GB",
		"HAVEN_METRICS_LISTEN":         "127.0.0.1:0",
		"HAVEN_LOG_FORMAT":             "json",
	})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	logs, done := serveConnected(t, ctx, env)
	base := "http://" + logAttr(t, logs.String(), "operator endpoint listening", "addr")

	if code, body := get(t, base+"/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz = %d %q, want 200 ok", code, body)
	}
	if code, body := get(t, base+"/readyz"); code != 200 || body != "ready\n" {
		t.Errorf("/readyz = %d %q, want 200 ready", code, body)
	}

	srv.FailNext("sendMessage", http.StatusTooManyRequests, time.Second)
	person := tgbotapi.User{ID: 42, FirstName: "Sam"}
	texts := []string{"I have been so stressed about work", "I want to kill myself"}
	for _, text := range texts {
		srv.Inject(srv.NewMessage(telegramtest.PrivateChat(person), person, text))
	}
	waitCtx, waitCancel := context.WithTimeout(ctx, time.Minute)
	defer waitCancel()
	if _, err := srv.WaitSent(waitCtx, 2); err != nil {
		t.Fatalf("waiting for replies: %v; logs:\n%s", err, logs)
	}

	code, text := get(t, base+"/metrics")
	if code != 200 {
		t.Fatalf("/metrics = %d", code)
	}
	checks := []struct {
		name   string
		labels []string
		min    float64
		max    float64 // 0: no upper bound
	}{
		{"haven_turns_total", []string{"platform=telegram", "route=therapeutic"}, 1, 1},
		{"haven_turns_total", []string{"platform=telegram", "route=crisis", "mode=none"}, 1, 1},
		{"haven_crisis_assessments_total", []string{"level=0"}, 1, 1},
		{"haven_crisis_assessments_total", []string{"level=2"}, 1, 1},
		{"haven_node_duration_seconds_count", []string{"node=crisis_gate"}, 2, 2},
		{"haven_node_duration_seconds_count", []string{"node=crisis_reply"}, 1, 1},
		{"haven_turn_duration_seconds_count", nil, 2, 2},
		{"haven_therapeutic_replies_total", nil, 1, 1},
		{"haven_model_requests_total", []string{"use=turn", "outcome=ok"}, 1, 0},
		{"haven_model_request_duration_seconds_count", nil, 1, 0},
		{"haven_platform_requests_total", []string{"platform=telegram", "method=getMe", "status=ok"}, 1, 1},
		{"haven_platform_requests_total", []string{"platform=telegram", "method=sendMessage", "status=429"}, 1, 1},
		{"haven_platform_requests_total", []string{"platform=telegram", "method=sendMessage", "status=ok"}, 1, 2},
		{"haven_platform_up", []string{"platform=telegram"}, 1, 1},
		{"haven_platform_last_event_age_seconds", []string{"platform=telegram"}, 0, 3600},
		{"haven_platform_events_skipped_total", []string{"platform=telegram"}, 0, 0},
		{"haven_platform_last_heartbeat_age_seconds", []string{"platform=telegram"}, 0, 3600},
		{"haven_inbound_total", []string{"outcome=accepted"}, 2, 2},
		{"haven_send_retries_total", nil, 1, 1},
		{"haven_outbound_sent_total", nil, 1, 2},
		{"haven_hub_queued_turns", nil, 0, 0},
		{"haven_outbox_pending", nil, 0, 2},
		{"go_goroutines", nil, 1, 0},
	}
	for _, c := range checks {
		v, found := series(text, c.name, c.labels...)
		if !found || v < c.min || (c.max > 0 && v > c.max) || (c.max == 0 && c.min == 0 && v != 0) {
			t.Errorf("%s%v = %v (found %v), want %v..%v", c.name, c.labels, v, found, c.min, c.max)
		}
	}
	for _, w := range []string{"stressed about", "kill myself", "Sam", token} { // rule names hold words such as selfkill
		if strings.Contains(text, w) {
			t.Errorf("/metrics holds %q", w)
		}
		if strings.Contains(logs.String(), w) {
			t.Errorf("the logs hold %q:\n%s", w, logs)
		}
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("serve exited %d; logs:\n%s", code, logs)
	}
}

// slowAdapter is an adapter that says when it has connected.
type slowAdapter struct {
	*channelstest.Adapter
	ready chan struct{}
}

func (a slowAdapter) Ready() <-chan struct{} { return a.ready }

func TestReadyzSaysWhyHavenIsNotReady(t *testing.T) {
	if !unprivileged(t) {
		return
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	log := slog.New(slog.DiscardHandler)
	hubOf := func() *channels.Hub {
		return channels.NewHub(channels.HandlerFunc(func(context.Context, channels.Inbound) ([]channels.Outbound, error) { return nil, nil }),
			channelstest.NewMemInbox(), channelstest.NewMemOutbox(), channels.HubOptions{Logger: log})
	}
	store, err := openStore(ctx, filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	o := newOps(log)
	addr, stop, err := o.start(ctx, "127.0.0.1:0", store, hubOf())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	base := "http://" + addr
	a := slowAdapter{channelstest.NewAdapter("telegram", 4096), make(chan struct{})}
	o.platform("telegram", a)

	readyz := func(wantCode int, want string) {
		t.Helper()
		code, body := get(t, base+"/readyz")
		if code != wantCode || !strings.Contains(body, want) {
			t.Errorf("/readyz = %d %q, want %d with %q", code, body, wantCode, want)
		}
		if code, _ := get(t, base+"/healthz"); code != 200 {
			t.Errorf("/healthz = %d, want 200 whatever readiness says", code)
		}
	}
	readyz(503, "telegram: not connected yet")
	close(a.ready)
	readyz(200, "ready")
	cancel()
	readyz(503, "shutting down")

	// A database this user cannot write.
	path := filepath.Join(t.TempDir(), "ro.db")
	makeReadOnly(t, path)
	ro, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatalf("open a read-only database (SQLite opens it to read): %v", err)
	}
	defer ro.Close()
	o2 := newOps(log)
	addr2, stop2, err := o2.start(context.Background(), "127.0.0.1:0", ro, hubOf())
	if err != nil {
		t.Fatal(err)
	}
	defer stop2()
	base = "http://" + addr2
	readyz(503, "database: check that "+path+" is writable: database is read-only")
}
