package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/llm/llmtest"
)

// private is text a person might say; it must never show up in an error.
const private = "my sister hurt me last night"

func newClient(t *testing.T, srv *llmtest.Server, mod func(*llm.OpenAIConfig)) *llm.OpenAI {
	t.Helper()
	cfg := llm.OpenAIConfig{BaseURL: srv.URL(), Model: "test-model"}
	if mod != nil {
		mod(&cfg)
	}
	c, err := llm.NewOpenAI(cfg)
	if err != nil {
		t.Fatalf("NewOpenAI: %v", err)
	}
	return c
}

func userReq(text string) llm.Request {
	return llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: text}}}
}

func TestNewOpenAIRejectsBadConfigWithAFix(t *testing.T) {
	tests := []struct {
		name string
		cfg  llm.OpenAIConfig
		want string
	}{
		{"empty base URL", llm.OpenAIConfig{Model: "m"}, "base URL is empty"},
		{"base URL without scheme", llm.OpenAIConfig{BaseURL: "localhost:11434/v1", Model: "m"}, "http://host:port/v1"},
		{"ftp base URL", llm.OpenAIConfig{BaseURL: "ftp://example.com/v1", Model: "m"}, "not an http(s) URL"},
		{"base URL without host", llm.OpenAIConfig{BaseURL: "http:///v1", Model: "m"}, "not an http(s) URL"},
		{"empty model", llm.OpenAIConfig{BaseURL: "http://localhost:11434/v1"}, "model is empty"},
		{"negative timeout", llm.OpenAIConfig{BaseURL: "http://localhost:11434/v1", Model: "m", Timeout: -time.Second}, "timeout -1s is negative"},
		{"negative max tokens", llm.OpenAIConfig{BaseURL: "http://localhost:11434/v1", Model: "m", MaxTokens: -1}, "max tokens -1 is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := llm.NewOpenAI(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewOpenAI error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestCompleteReturnsCannedReplyWithTokensAndLatency(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Content: "That sounds hard.", PromptTokens: 11, CompletionTokens: 4, Model: "served-model"})
	c := newClient(t, srv, func(c *llm.OpenAIConfig) { c.APIKey = "sk-test" })

	resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{
		{Role: llm.RoleSystem, Content: "be kind"},
		{Role: llm.RoleUser, Content: "I am tired"},
	}})
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if resp.Content != "That sounds hard." || resp.Model != "served-model" || resp.PromptTokens != 11 || resp.CompletionTokens != 4 {
		t.Errorf("response = %+v", resp)
	}
	if resp.Latency <= 0 {
		t.Errorf("latency = %v, want > 0", resp.Latency)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("server saw %d requests, want 1", len(reqs))
	}
	got := reqs[0]
	if got.Model != "test-model" || got.Authorization != "Bearer sk-test" || got.ResponseFormat != nil {
		t.Errorf("request = model %q auth %q format %+v", got.Model, got.Authorization, got.ResponseFormat)
	}
	want := []llmtest.Message{{Role: "system", Content: "be kind"}, {Role: "user", Content: "I am tired"}}
	if fmt.Sprint(got.Messages) != fmt.Sprint(want) {
		t.Errorf("messages = %v, want %v", got.Messages, want)
	}
}

func TestCompleteWithoutAPIKeySendsNoAuthorization(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newClient(t, srv, nil)
	if _, err := c.Complete(context.Background(), userReq("hi")); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if auth := srv.Requests()[0].Authorization; auth != "" {
		t.Errorf("Authorization = %q, want none", auth)
	}
}

func TestCompleteSendsTokenCapAndTemperature(t *testing.T) {
	zero, warm := float32(0), float32(0.7)
	tests := []struct {
		name      string
		cfgMax    int
		req       llm.Request
		wantMax   int
		wantTemp  bool
		tempBelow float64
		tempAbove float64
	}{
		{"config default cap", 256, userReq("x"), 256, false, 0, 0},
		{"request cap wins", 256, llm.Request{Messages: userReq("x").Messages, MaxTokens: 32}, 32, false, 0, 0},
		{"zero temperature is still sent", 0, llm.Request{Messages: userReq("x").Messages, Temperature: &zero}, 0, true, 1e-6, -1},
		{"temperature sent", 0, llm.Request{Messages: userReq("x").Messages, Temperature: &warm}, 0, true, 0.71, 0.69},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			c := newClient(t, srv, func(c *llm.OpenAIConfig) { c.MaxTokens = tt.cfgMax })
			if _, err := c.Complete(context.Background(), tt.req); err != nil {
				t.Fatalf("Complete: %v", err)
			}
			got := srv.Requests()[0]
			if got.MaxTokens != tt.wantMax {
				t.Errorf("max tokens = %d, want %d", got.MaxTokens, tt.wantMax)
			}
			if (got.Temperature != nil) != tt.wantTemp {
				t.Fatalf("temperature sent = %v, want %v", got.Temperature != nil, tt.wantTemp)
			}
			if got.Temperature != nil && (*got.Temperature >= tt.tempBelow || *got.Temperature <= tt.tempAbove) {
				t.Errorf("temperature = %v, want in (%v, %v)", *got.Temperature, tt.tempAbove, tt.tempBelow)
			}
		})
	}
}

var schema = &llm.Schema{Name: "assessment", JSON: json.RawMessage(`{
	"type": "object",
	"properties": {"level": {"type": "integer"}},
	"required": ["level"],
	"additionalProperties": false
}`)}

func TestCompleteWithSchemaSendsStrictJSONSchemaAndInstruction(t *testing.T) {
	tests := []struct {
		name     string
		messages []llm.Message
		// wantSystem is the number of system messages the server should see.
		wantSystem int
		wantFirst  string
	}{
		{"appends to existing system message", []llm.Message{{Role: llm.RoleSystem, Content: "assess"}, {Role: llm.RoleUser, Content: "hi"}}, 1, "assess\n\nReply with a single JSON object"},
		{"adds a system message when none", []llm.Message{{Role: llm.RoleUser, Content: "hi"}}, 1, "Reply with a single JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Enqueue(llmtest.Reply{Content: `{"level": 2}`})
			c := newClient(t, srv, nil)
			resp, err := c.Complete(context.Background(), llm.Request{Messages: tt.messages, Schema: schema})
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if resp.Content != `{"level": 2}` {
				t.Errorf("content = %q", resp.Content)
			}
			got := srv.Requests()[0]
			rf := got.ResponseFormat
			if rf == nil || rf.Type != "json_schema" || rf.SchemaName != "assessment" || !rf.Strict {
				t.Fatalf("response_format = %+v, want strict json_schema named assessment", rf)
			}
			var sch map[string]any
			if err := json.Unmarshal(rf.Schema, &sch); err != nil || sch["type"] != "object" {
				t.Errorf("schema = %s (%v)", rf.Schema, err)
			}
			if got.Messages[0].Role != "system" || !strings.HasPrefix(got.Messages[0].Content, tt.wantFirst) {
				t.Errorf("first message = %+v, want system starting %q", got.Messages[0], tt.wantFirst)
			}
			if !strings.Contains(got.System(), `"required":["level"]`) {
				t.Errorf("system message does not carry the schema: %q", got.System())
			}
			n := 0
			for _, m := range got.Messages {
				if m.Role == "system" {
					n++
				}
			}
			if n != tt.wantSystem || len(got.Messages) != len(tt.messages)+tt.wantSystem-countSystem(tt.messages) {
				t.Errorf("messages = %+v", got.Messages)
			}
		})
	}
}

func countSystem(ms []llm.Message) int {
	n := 0
	for _, m := range ms {
		if m.Role == llm.RoleSystem {
			n++
		}
	}
	return n
}

func TestCompleteRejectsInvalidSchemaBeforeSending(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newClient(t, srv, nil)
	for _, raw := range []string{`{"type":`, `["not","an","object"]`} {
		req := userReq("hi")
		req.Schema = &llm.Schema{Name: "bad", JSON: json.RawMessage(raw)}
		_, err := c.Complete(context.Background(), req)
		if err == nil || !strings.Contains(err.Error(), `schema "bad"`) {
			t.Errorf("schema %s: error = %v, want it to name the schema", raw, err)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("server saw %d requests, want 0", n)
	}
}

func TestCompleteFallsBackToJSONObjectWhenServerRejectsJSONSchema(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.HandleFunc(func(r llmtest.ChatRequest) (llmtest.Reply, bool) {
		if r.ResponseFormat != nil && r.ResponseFormat.Type == "json_schema" {
			return llmtest.Reply{Status: http.StatusBadRequest, ErrorMessage: "response_format json_schema unsupported"}, true
		}
		return llmtest.Reply{Content: `{"level": 1}`}, true
	})
	c := newClient(t, srv, nil)
	req := userReq(private)
	req.Schema = schema

	resp, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if resp.Content != `{"level": 1}` {
		t.Errorf("content = %q", resp.Content)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].ResponseFormat == nil || reqs[1].ResponseFormat.Type != "json_object" {
		t.Fatalf("requests = %d, second format %+v; want a json_object retry", len(reqs), reqs[len(reqs)-1].ResponseFormat)
	}
	if !strings.Contains(reqs[1].System(), "JSON Schema") {
		t.Errorf("retry lost the schema instruction: %q", reqs[1].System())
	}

	// The client remembers: the next schema request goes straight to json_object.
	if _, err := c.Complete(context.Background(), req); err != nil {
		t.Fatalf("second Complete: %v", err)
	}
	reqs = srv.Requests()
	if len(reqs) != 3 || reqs[2].ResponseFormat.Type != "json_object" {
		t.Errorf("after fallback: %d requests, last format %+v; want one json_object request", len(reqs), reqs[len(reqs)-1].ResponseFormat)
	}
}

func TestCompleteDoesNotRetryA400WithoutSchema(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Status: http.StatusBadRequest}, llmtest.Reply{Content: "second"})
	c := newClient(t, srv, nil)
	_, err := c.Complete(context.Background(), userReq("hi"))
	var se *llm.StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusBadRequest {
		t.Fatalf("error = %v, want a 400 StatusError", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
}

func TestCompleteMapsHTTPFailuresWithoutMessageContent(t *testing.T) {
	tests := []struct {
		name          string
		reply         llmtest.Reply
		wantStatus    int
		wantRetry     time.Duration
		wantTemporary bool
		wantText      string
	}{
		{"500", llmtest.Reply{Status: 500, ErrorMessage: "crashed on: " + private}, 500, 0, true, "HTTP 500 Internal Server Error"},
		{"503", llmtest.Reply{Status: 503}, 503, 0, true, "HTTP 503"},
		{"429 with Retry-After", llmtest.Reply{Status: 429, RetryAfter: 2 * time.Second}, 429, 2 * time.Second, true, "retry after 2s"},
		{"401", llmtest.Reply{Status: 401, ErrorMessage: "bad key"}, 401, 0, false, "type authentication_error"},
		{"404 whose server message echoes the prompt", llmtest.Reply{Status: 404, ErrorType: "not_found_error", ErrorMessage: private}, 404, 0, false, "HTTP 404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Enqueue(tt.reply)
			c := newClient(t, srv, nil)
			_, err := c.Complete(context.Background(), userReq(private))
			var se *llm.StatusError
			if !errors.As(err, &se) {
				t.Fatalf("error = %v (%T), want *llm.StatusError", err, err)
			}
			if se.StatusCode != tt.wantStatus || se.RetryAfter != tt.wantRetry || se.Temporary() != tt.wantTemporary {
				t.Errorf("StatusError = %+v temporary %v", se, se.Temporary())
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("error %q does not contain %q", err, tt.wantText)
			}
			if strings.Contains(err.Error(), "sister") {
				t.Errorf("error leaks message content: %q", err)
			}
		})
	}
}

func TestCompleteHonorsDeadlines(t *testing.T) {
	tests := []struct {
		name      string
		cfgTO     time.Duration
		reqTO     time.Duration
		parentTO  time.Duration
		wantInMsg string
	}{
		{"request timeout", time.Hour, 50 * time.Millisecond, 0, "timeout 50ms"},
		{"client default timeout", 50 * time.Millisecond, 0, 0, "timeout 50ms"},
		{"configured timeout shorter than the request's", 50 * time.Millisecond, time.Hour, 0, "timeout 50ms"},
		{"parent context deadline sooner", time.Hour, time.Hour, 50 * time.Millisecond, "deadline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Enqueue(llmtest.Reply{Hang: true})
			c := newClient(t, srv, func(c *llm.OpenAIConfig) { c.Timeout = tt.cfgTO })
			ctx := context.Background()
			if tt.parentTO > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.parentTO)
				defer cancel()
			}
			req := userReq(private)
			req.Timeout = tt.reqTO
			_, err := c.Complete(ctx, req)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("error = %v, want context.DeadlineExceeded", err)
			}
			if !strings.Contains(err.Error(), tt.wantInMsg) || strings.Contains(err.Error(), "sister") {
				t.Errorf("error = %q, want %q and no content", err, tt.wantInMsg)
			}
		})
	}
}

func TestCompleteReturnsCanceledWhenCallerCancels(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Hang: true})
	arrived := srv.Arrivals(1)
	c := newClient(t, srv, nil)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Complete(ctx, userReq("hi"))
		errc <- err
	}()
	<-arrived
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
}

func TestCompleteRejectsUnusableReplies(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
		check func(error) bool
		want  string
	}{
		{"malformed JSON", llmtest.Reply{Malformed: true}, func(err error) bool { return err != nil }, "not valid JSON"},
		{"empty choices", llmtest.Reply{EmptyChoices: true}, func(err error) bool { return errors.Is(err, llm.ErrEmptyReply) }, "no choices"},
		{"empty content", llmtest.Reply{Content: "  ", FinishReason: "length"}, func(err error) bool { return errors.Is(err, llm.ErrEmptyReply) }, `finish reason "length"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Enqueue(tt.reply)
			c := newClient(t, srv, nil)
			_, err := c.Complete(context.Background(), userReq(private))
			if !tt.check(err) || !strings.Contains(fmt.Sprint(err), tt.want) {
				t.Fatalf("error = %v, want one containing %q", err, tt.want)
			}
			if errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "sister") {
				t.Errorf("error = %q", err)
			}
		})
	}
}

func TestCompleteRejectsBadRequests(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newClient(t, srv, nil)
	if _, err := c.Complete(context.Background(), llm.Request{}); err == nil || !strings.Contains(err.Error(), "no messages") {
		t.Errorf("empty request: error = %v", err)
	}
	_, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: "tool", Content: "x"}}})
	if err == nil || !strings.Contains(err.Error(), `unknown role "tool"`) {
		t.Errorf("bad role: error = %v", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("server saw %d requests, want 0", n)
	}
}

func TestCompleteIsSafeForConcurrentUse(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.HandleFunc(func(r llmtest.ChatRequest) (llmtest.Reply, bool) {
		return llmtest.Reply{Content: "echo " + r.LastUser()}, true
	})
	c := newClient(t, srv, nil)
	const n = 32
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			msg := fmt.Sprintf("message %d", i)
			req := userReq(msg)
			if i%2 == 0 {
				req.Schema = schema
			}
			resp, err := c.Complete(context.Background(), req)
			if err != nil {
				errs <- err
				return
			}
			if resp.Content != "echo "+msg {
				errs <- fmt.Errorf("got %q for %q", resp.Content, msg)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := len(srv.Requests()); got != n {
		t.Errorf("server saw %d requests, want %d", got, n)
	}
}

func TestFuncAdapterImplementsClient(t *testing.T) {
	var c llm.Client = llm.Func(func(_ context.Context, req llm.Request) (llm.Response, error) {
		return llm.Response{Content: "got " + req.Messages[0].Content}, nil
	})
	resp, err := c.Complete(context.Background(), userReq("x"))
	if err != nil || resp.Content != "got x" {
		t.Fatalf("Complete = %+v, %v", resp, err)
	}
}

func BenchmarkCompleteAgainstFake(b *testing.B) {
	srv := llmtest.NewServer(b)
	srv.SetDefault(llmtest.Reply{Content: `{"level": 0}`})
	c, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), Model: "m"})
	if err != nil {
		b.Fatal(err)
	}
	req := userReq("hello there")
	req.Schema = schema
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Complete(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}
