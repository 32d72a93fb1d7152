package metrics_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core"
	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/metrics"
)

// scrape returns the metrics m serves, in the text format.
func scrape(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("scrape: %d %s", rec.Code, rec.Body)
	}
	return rec.Body.String()
}

// expect fails for each series line (name{labels} value) not in the scrape.
func expect(t *testing.T, text string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(text, "\n"+l+"\n") {
			t.Errorf("scrape lacks %q", l)
		}
	}
}

func TestTurnReportsBecomeTurnCrisisNodeReplyAndGuardSeries(t *testing.T) {
	m := metrics.New()
	m.ObserveTurn(core.TurnReport{Platform: "telegram", Route: core.RouteTherapeutic, Mode: "supportive", Level: 0,
		ReplySource: "guarded", GuardRule: "diagnosis", Duration: 3 * time.Millisecond,
		Nodes: []core.NodeTiming{{Node: core.NodeGateway, Duration: time.Millisecond}, {Node: core.NodeTherapeutic, Duration: 2 * time.Millisecond}}})
	m.ObserveTurn(core.TurnReport{Platform: "telegram", Route: core.RouteCrisis, Level: 3, Duration: time.Millisecond})
	m.ObserveTurn(core.TurnReport{Platform: "console", Route: core.RouteCommand, Level: -1})
	text := scrape(t, m)
	expect(t, text,
		`haven_turns_total{mode="supportive",platform="telegram",route="therapeutic"} 1`,
		`haven_turns_total{mode="none",platform="telegram",route="crisis"} 1`,
		`haven_turns_total{mode="none",platform="console",route="command"} 1`,
		`haven_crisis_assessments_total{level="0"} 1`,
		`haven_crisis_assessments_total{level="3"} 1`,
		`haven_node_duration_seconds_count{node="gateway"} 1`,
		`haven_node_duration_seconds_count{node="therapeutic"} 1`,
		`haven_turn_duration_seconds_count{route="crisis"} 1`,
		`haven_therapeutic_replies_total{source="guarded"} 1`,
		`haven_guard_replacements_total{rule="diagnosis"} 1`,
	)
	if strings.Contains(text, `level="-1"`) {
		t.Error("a turn the gate did not assess was counted as a level")
	}
}

type stats channels.Stats

func (s *stats) Stats() channels.Stats { return channels.Stats(*s) }

func TestHubStatsAreReadAtEachScrape(t *testing.T) {
	m := metrics.New()
	s := &stats{Queued: 3, Pending: 7, Accepted: 10, Duplicates: 2, Retries: 4, Abandoned: 1, Sent: 9}
	m.WatchHub(s)
	expect(t, scrape(t, m), `haven_hub_queued_turns 3`, `haven_outbox_pending 7`, `haven_inbound_total{outcome="accepted"} 10`,
		`haven_inbound_total{outcome="duplicate"} 2`, `haven_send_retries_total 4`, `haven_outbound_abandoned_total 1`, `haven_outbound_sent_total 9`)
	s.Queued, s.Pending, s.Sent = 0, 0, 16
	expect(t, scrape(t, m), `haven_hub_queued_turns 0`, `haven_outbox_pending 0`, `haven_outbound_sent_total 16`)
}

func TestModelCallsAreCountedByUseAndOutcome(t *testing.T) {
	m := metrics.New()
	if m.Model(nil, "turn") != nil {
		t.Fatal("no model became a model")
	}
	results := []error{nil, errors.New("500 from the server"), fmt.Errorf("call: %w", context.DeadlineExceeded), nil}
	i := 0
	c := m.Model(llm.Func(func(context.Context, llm.Request) (llm.Response, error) {
		err := results[i]
		i++
		return llm.Response{PromptTokens: 10, CompletionTokens: 5}, err
	}), "turn")
	for range results {
		c.Complete(context.Background(), llm.Request{})
	}
	expect(t, scrape(t, m),
		`haven_model_requests_total{outcome="ok",use="turn"} 2`,
		`haven_model_requests_total{outcome="error",use="turn"} 1`,
		`haven_model_requests_total{outcome="timeout",use="turn"} 1`,
		`haven_model_request_duration_seconds_count{use="turn"} 4`,
		`haven_model_tokens_total{kind="prompt",use="turn"} 20`,
		`haven_model_tokens_total{kind="completion",use="turn"} 10`,
	)
}

func TestPlatformCallsAreCountedByMethodAndStatusAndTheLatestOutcomeSaysIfItAnswers(t *testing.T) {
	const token = "123456:SECRET-token"
	status := 200
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
	}))
	m := metrics.New()
	client := &http.Client{Transport: m.Transport("telegram", nil)}
	call := func(method string, code int) {
		t.Helper()
		status = code
		resp, err := client.Get(srv.URL + "/bot" + token + "/" + method)
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	steps := []struct {
		method  string
		code    int
		problem string // "" for none
	}{
		{"getMe", 200, ""},
		{"sendMessage", 429, ""},
		{"sendMessage", 403, ""},
		{"getUpdates", 502, "its API answered HTTP 502"},
		{"getUpdates", 200, ""},
		{"getUpdates", 401, "its API refused the token"},
		{"getUpdates", 409, "409 Conflict"},
	}
	for _, s := range steps {
		call(s.method, s.code)
		err := m.PlatformProblem("telegram")
		if (err == nil) != (s.problem == "") || (err != nil && !strings.Contains(err.Error(), s.problem)) {
			t.Errorf("after %s answered %d: PlatformProblem = %v, want %q", s.method, s.code, err, s.problem)
		}
	}
	srv.Close()
	call("getUpdates", 0)
	if err := m.PlatformProblem("telegram"); err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Errorf("with the API gone: PlatformProblem = %v, want it to say the API did not answer", err)
	}
	m.WatchPlatform("telegram", func() error { return m.PlatformProblem("telegram") })
	text := scrape(t, m)
	expect(t, text,
		`haven_platform_requests_total{method="getMe",platform="telegram",status="ok"} 1`,
		`haven_platform_requests_total{method="sendMessage",platform="telegram",status="429"} 1`,
		`haven_platform_requests_total{method="sendMessage",platform="telegram",status="4xx"} 1`,
		`haven_platform_requests_total{method="getUpdates",platform="telegram",status="5xx"} 1`,
		`haven_platform_requests_total{method="getUpdates",platform="telegram",status="error"} 1`,
		`haven_platform_up{platform="telegram"} 0`,
	)
	if strings.Contains(text, "SECRET") || strings.Contains(text, "/bot") {
		t.Error("the scrape holds the token or the URL")
	}
	if err := m.PlatformProblem("telegram"); strings.Contains(err.Error(), "SECRET") {
		t.Errorf("PlatformProblem quotes the token: %v", err)
	}
}

func TestLivenessAgesAreExportedOnceHeard(t *testing.T) {
	m := metrics.New()
	var l channels.Liveness
	m.WatchLiveness("slack", func() channels.Liveness { return l })
	if text := scrape(t, m); strings.Contains(text, "haven_platform_last_") {
		t.Fatalf("nothing heard yet, but the scrape has an age:\n%s", text)
	}
	l.LastHeartbeat = time.Now().Add(-90 * time.Second)
	text := scrape(t, m)
	if strings.Contains(text, "haven_platform_last_event_age_seconds{") {
		t.Errorf("no event yet, but the scrape has its age")
	}
	var age float64
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(line, `haven_platform_last_heartbeat_age_seconds{platform="slack"} `); ok {
			if _, err := fmt.Sscan(v, &age); err != nil {
				t.Fatalf("parse %q: %v", line, err)
			}
		}
	}
	if age < 90 || age > 3600 {
		t.Errorf("heartbeat age = %v, want about 90 seconds", age)
	}
}

func TestANotFoundIsATokenProblemOnlyWhereTheTokenIsInThePath(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
	}))
	defer srv.Close()
	m := metrics.New()
	for _, tt := range []struct {
		platform string
		problem  bool
	}{{"telegram", true}, {"discord", false}, {"slack", false}} {
		client := &http.Client{Transport: m.Transport(tt.platform, nil)}
		resp, err := client.Get(srv.URL + "/api/v10/channels/1/messages")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if err := m.PlatformProblem(tt.platform); (err != nil) != tt.problem {
			t.Errorf("%s after a 404: PlatformProblem = %v, want a problem: %v", tt.platform, err, tt.problem)
		}
	}
}
