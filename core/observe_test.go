package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/havenbot/haven/llm"
)

// observed runs texts through an engine whose model always fails (so that
// dispatch and the therapeutic branch log warnings) with a JSON logger at
// debug, and returns the log lines and the turn reports.
func observed(t *testing.T, texts ...string) ([]map[string]any, []TurnReport) {
	t.Helper()
	var buf bytes.Buffer
	var mu sync.Mutex
	var reports []TurnReport
	failing := llm.Func(func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{}, errors.New("model down")
	})
	e, _, _ := newEngine(t, func(o *Options) {
		o.Logger = slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
		o.LLM = failing
		o.Observe = func(r TurnReport) {
			mu.Lock()
			defer mu.Unlock()
			reports = append(reports, r)
		}
	})
	for _, text := range texts {
		if _, err := e.Handle(context.Background(), dm(text)); err != nil {
			t.Fatalf("Handle: %v", err)
		}
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line is not JSON: %v: %s", err, l)
		}
		lines = append(lines, m)
	}
	return lines, reports
}

func TestEveryLogLineOfATurnCarriesItsIDAndNoMessageText(t *testing.T) {
	texts := []string{"I have been so stressed about work lately", "I want to kill myself tonight", "/help", "my sister keeps ignoring me"}
	lines, reports := observed(t, texts...)
	if len(reports) != len(texts) {
		t.Fatalf("got %d reports for %d turns", len(reports), len(texts))
	}
	ids := map[string]int{}
	for _, r := range reports {
		if len(r.ID) != 16 {
			t.Errorf("turn id %q is not 16 hex digits", r.ID)
		}
		ids[r.ID] = 0
	}
	if len(ids) != len(reports) {
		t.Errorf("turn ids repeat: %v", ids)
	}
	var therapyWarned bool
	for _, l := range lines {
		id, _ := l["turn"].(string)
		if _, ok := ids[id]; !ok {
			t.Errorf("log line without the id of one of the turns: %v", l)
			continue
		}
		ids[id]++
		if msg, _ := l["msg"].(string); strings.HasPrefix(msg, "therapy: model reply failed") {
			therapyWarned = true
		}
	}
	for id, n := range ids {
		if n == 0 {
			t.Errorf("turn %s wrote no log line (want at least its debug summary)", id)
		}
	}
	if !therapyWarned {
		t.Error("the therapeutic branch did not warn of the failing model (the test's premise: core/therapy's lines carry the id too)")
	}
	all, _ := json.Marshal(lines)
	for _, text := range texts {
		for _, w := range strings.Fields(text) {
			if len(w) > 4 && strings.Contains(string(all), w) {
				t.Errorf("the logs hold %q, from a message", w)
			}
		}
	}
}

func TestTurnReportsSayTheRouteModeAndCrisisLevel(t *testing.T) {
	_, reports := observed(t, "I have been so stressed about work lately", "I want to kill myself tonight", "/help")
	want := []struct {
		route    Route
		level    int
		hasMode  bool
		lastNode Node
	}{
		{RouteTherapeutic, 0, true, NodeFinalize},
		{RouteCrisis, 3, false, NodeFinalize},
		{RouteCommand, -1, false, NodeCommand},
	}
	for i, w := range want {
		r := reports[i]
		if r.Route != w.route || r.Level < w.level || (w.level < 0) != (r.Level < 0) || (r.Mode != "") != w.hasMode {
			t.Errorf("turn %d: route %s, level %d, mode %q; want route %s, level >= %d, a mode: %v", i, r.Route, r.Level, r.Mode, w.route, w.level, w.hasMode)
		}
		if len(r.Nodes) == 0 || r.Nodes[len(r.Nodes)-1].Node != w.lastNode || r.Duration <= 0 || r.Failed {
			t.Errorf("turn %d: nodes %v, duration %v, failed %v; want the nodes up to %s", i, r.Nodes, r.Duration, r.Failed, w.lastNode)
		}
		if r.Platform != "test" {
			t.Errorf("turn %d: platform %q", i, r.Platform)
		}
	}
	if r := reports[0]; r.ReplySource != "fallback" {
		t.Errorf("therapeutic turn with a failing model: reply source %q, want fallback", r.ReplySource)
	}
}

// The report carries what the conversation suite asserts on: the exercise
// running after the turn and its step, what happened to it, and whether
// the reply asked the safety question.
func TestTheReportSaysTheExerciseStateAndTheSafetyQuestion(t *testing.T) {
	var reports []TurnReport
	e, _, _ := newEngine(t, func(o *Options) { o.Observe = func(r TurnReport) { reports = append(reports, r) } })
	for _, text := range []string{"can we do box breathing?", "ready", "stop", "I feel like such a burden to everyone"} {
		if _, err := e.Handle(context.Background(), dm(text)); err != nil {
			t.Fatal(err)
		}
	}
	type obs struct {
		exercise string
		step     int
		event    string
		safetyQ  bool
	}
	want := []obs{{"box_breathing", 1, "started", false}, {"box_breathing", 2, "advanced", false}, {"", 0, "stopped", false}, {"", 0, "", true}}
	for i, r := range reports {
		if got := (obs{r.Exercise, r.ExerciseStep, r.ExerciseEvent, r.AskedSafetyQuestion}); got != want[i] {
			t.Errorf("turn %d: report %+v, want %+v", i+1, got, want[i])
		}
	}
}
