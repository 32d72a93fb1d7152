package metrics

import (
	"context"
	"errors"
	"time"

	"github.com/havenbot/haven/llm"
)

// Model returns c with each call counted and timed under use ("crisis",
// "turn", "memory"): haven_model_requests_total by outcome,
// haven_model_request_duration_seconds and haven_model_tokens_total. It
// returns nil for a nil c, so that "no model" stays no model.
func (m *Metrics) Model(c llm.Client, use string) llm.Client {
	if c == nil {
		return nil
	}
	ok := m.modelCalls.WithLabelValues(use, "ok")
	failed := m.modelCalls.WithLabelValues(use, "error")
	timeout := m.modelCalls.WithLabelValues(use, "timeout")
	canceled := m.modelCalls.WithLabelValues(use, "canceled")
	seconds := m.modelSeconds.WithLabelValues(use)
	prompt, completion := m.modelTokens.WithLabelValues(use, "prompt"), m.modelTokens.WithLabelValues(use, "completion")
	return llm.Func(func(ctx context.Context, req llm.Request) (llm.Response, error) {
		start := time.Now()
		resp, err := c.Complete(ctx, req)
		seconds.Observe(time.Since(start).Seconds())
		switch {
		case err == nil:
			ok.Inc()
			prompt.Add(float64(resp.PromptTokens))
			completion.Add(float64(resp.CompletionTokens))
		case errors.Is(err, context.DeadlineExceeded):
			timeout.Inc()
		case errors.Is(err, context.Canceled):
			canceled.Inc()
		default:
			failed.Inc()
		}
		return resp, err
	})
}
