package llmtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"

	openai "github.com/sashabaranov/go-openai"

	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/llm/llmtest"
)

func client(t *testing.T, srv *llmtest.Server) *llm.OpenAI {
	t.Helper()
	c, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func ask(t *testing.T, c llm.Client, text string) string {
	t.Helper()
	resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: text}}})
	if err != nil {
		t.Fatalf("Complete(%q): %v", text, err)
	}
	return resp.Content
}

func TestURLEndsInV1(t *testing.T) {
	srv := llmtest.NewServer(t)
	if !strings.HasPrefix(srv.URL(), "http://127.0.0.1:") || !strings.HasSuffix(srv.URL(), "/v1") {
		t.Errorf("URL = %q", srv.URL())
	}
}

func TestRepliesComeFromQueueThenRulesThenDefault(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := client(t, srv)
	srv.Enqueue(llmtest.Reply{Content: "queued 1"}, llmtest.Reply{Content: "queued 2"})
	srv.On("sad", llmtest.Reply{Content: "rule: sad"})
	srv.HandleFunc(func(r llmtest.ChatRequest) (llmtest.Reply, bool) {
		return llmtest.Reply{Content: "func: " + r.LastUser()}, strings.HasPrefix(r.LastUser(), "fn")
	})
	srv.SetDefault(llmtest.Reply{Content: "default"})

	steps := []struct{ in, want string }{
		{"sad", "queued 1"},
		{"anything", "queued 2"},
		{"I feel sad", "rule: sad"},
		{"fn call", "func: fn call"},
		{"other", "default"},
		{"other again", "default"},
	}
	for _, s := range steps {
		if got := ask(t, c, s.in); got != s.want {
			t.Errorf("ask(%q) = %q, want %q", s.in, got, s.want)
		}
	}
	if n := len(srv.Requests()); n != len(steps) {
		t.Errorf("recorded %d requests, want %d", n, len(steps))
	}
}

func TestUnscriptedServerAnswersOK(t *testing.T) {
	srv := llmtest.NewServer(t)
	if got := ask(t, client(t, srv), "hi"); got != "ok" {
		t.Errorf("default reply = %q, want ok", got)
	}
}

func TestRequestsRecordWhatThePromptCarried(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := client(t, srv)
	temp := float32(0.5)
	_, err := c.Complete(context.Background(), llm.Request{
		Messages: []llm.Message{
			{Role: llm.RoleSystem, Content: "sys"},
			{Role: llm.RoleUser, Content: "first"},
			{Role: llm.RoleAssistant, Content: "reply"},
			{Role: llm.RoleUser, Content: "second"},
		},
		MaxTokens:   9,
		Temperature: &temp,
		Schema:      &llm.Schema{Name: "s", JSON: json.RawMessage(`{"type":"object"}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if r.Model != "m" || r.LastUser() != "second" || !strings.HasPrefix(r.System(), "sys") || r.MaxTokens != 9 ||
		r.Temperature == nil || *r.Temperature != 0.5 || r.ResponseFormat.Type != "json_schema" || string(r.ResponseFormat.Schema) != `{"type":"object"}` {
		t.Errorf("recorded request = %+v", r)
	}
	if !json.Valid(r.Body) {
		t.Errorf("raw body is not JSON: %s", r.Body)
	}
}

func post(t *testing.T, url, body string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

func TestScriptedFailuresOnTheWire(t *testing.T) {
	const chat = `{"model":"m","messages":[{"role":"user","content":"x"}]}`
	tests := []struct {
		name       string
		reply      llmtest.Reply
		wantStatus int
		wantHeader string
		check      func(body []byte) bool
	}{
		{"429 with Retry-After rounded up", llmtest.Reply{Status: 429, RetryAfter: 1500e6}, 429, "2",
			func(b []byte) bool { return strings.Contains(string(b), `"type":"rate_limit_exceeded"`) }},
		{"500 error body", llmtest.Reply{Status: 500}, 500, "",
			func(b []byte) bool { return strings.Contains(string(b), `"type":"server_error"`) }},
		{"503 custom message", llmtest.Reply{Status: 503, ErrorMessage: "overloaded"}, 503, "",
			func(b []byte) bool { return strings.Contains(string(b), `"message":"overloaded"`) }},
		{"malformed body", llmtest.Reply{Malformed: true}, 200, "", func(b []byte) bool { return !json.Valid(b) }},
		{"empty choices", llmtest.Reply{EmptyChoices: true}, 200, "",
			func(b []byte) bool { return strings.Contains(string(b), `"choices":[]`) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Enqueue(tt.reply)
			resp, body := post(t, srv.URL()+"/chat/completions", chat)
			if resp.StatusCode != tt.wantStatus || resp.Header.Get("Retry-After") != tt.wantHeader || !tt.check(body) {
				t.Errorf("status %d, Retry-After %q, body %s", resp.StatusCode, resp.Header.Get("Retry-After"), body)
			}
		})
	}
}

func TestBadRequestsGet400AndAreNotRecorded(t *testing.T) {
	srv := llmtest.NewServer(t)
	for _, body := range []string{
		`not json`,
		`{"model":"m","messages":[]}`,
		`{"model":"m","stream":true,"messages":[{"role":"user","content":"x"}]}`,
		`{"model":"m","messages":[{"role":"user","content":42}]}`,
	} {
		resp, b := post(t, srv.URL()+"/chat/completions", body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "llmtest:") {
			t.Errorf("body %s: status %d %s", body, resp.StatusCode, b)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("recorded %d requests, want 0", n)
	}
	resp, _ := post(t, srv.URL()+"/completions", `{}`)
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown route: status %d, want 404", resp.StatusCode)
	}
}

func TestContentPartsAreJoined(t *testing.T) {
	srv := llmtest.NewServer(t)
	post(t, srv.URL()+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"image_url"},{"type":"text","text":"b"}]}]}`)
	if got := srv.Requests()[0].LastUser(); got != "ab" {
		t.Errorf("LastUser = %q, want ab", got)
	}
}

func TestWaitHoldsTheReplyUntilReleased(t *testing.T) {
	srv := llmtest.NewServer(t)
	release := make(chan struct{})
	srv.Enqueue(llmtest.Reply{Content: "late", Wait: release})
	arrived := srv.Arrivals(1)
	c := client(t, srv)
	done := make(chan string, 1)
	go func() {
		resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "q"}}})
		if err != nil {
			done <- "error: " + err.Error()
			return
		}
		done <- resp.Content
	}()
	<-arrived
	if n := srv.InFlight(); n != 1 {
		t.Errorf("InFlight = %d while waiting, want 1", n)
	}
	select {
	case got := <-done:
		t.Fatalf("reply %q arrived before release", got)
	default:
	}
	close(release)
	if got := <-done; got != "late" {
		t.Errorf("reply = %q, want late", got)
	}
}

func TestCloseEndsHangingRequests(t *testing.T) {
	srv := llmtest.NewServer(nil)
	srv.Enqueue(llmtest.Reply{Hang: true})
	arrived := srv.Arrivals(1)
	c := client(t, srv)
	errc := make(chan error, 1)
	go func() {
		_, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: "q"}}})
		errc <- err
	}()
	<-arrived
	srv.Close()
	if err := <-errc; err == nil {
		t.Fatal("hanging request succeeded after Close, want an error")
	}
	srv.Close() // idempotent
}

func TestModelsListsConfiguredNames(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetModels("a", "b")
	oc := openai.DefaultConfig("")
	oc.BaseURL = srv.URL()
	list, err := openai.NewClientWithConfig(oc).ListModels(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Models) != 2 || list.Models[0].ID != "a" || list.Models[1].ID != "b" {
		t.Errorf("models = %+v", list.Models)
	}
}

func cosine(a, b []float32) float64 {
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot
}

func TestEmbeddingsAreDeterministicUnitVectors(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetEmbeddingDim(32)
	oc := openai.DefaultConfig("")
	oc.BaseURL = srv.URL()
	oa := openai.NewClientWithConfig(oc)
	inputs := []string{"I walked my dog in the park", "my dog loves the park", "quarterly tax filing", ""}
	resp, err := oa.CreateEmbeddings(context.Background(), openai.EmbeddingRequest{Model: "e", Input: inputs})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Data) != len(inputs) {
		t.Fatalf("got %d embeddings, want %d", len(resp.Data), len(inputs))
	}
	for i, d := range resp.Data {
		if len(d.Embedding) != 32 {
			t.Errorf("embedding %d has dim %d, want 32", i, len(d.Embedding))
		}
		if n := cosine(d.Embedding, d.Embedding); math.Abs(n-1) > 1e-5 {
			t.Errorf("embedding %d has squared norm %v, want 1", i, n)
		}
		want := llmtest.Embed(inputs[i], 32)
		if cosine(d.Embedding, want) < 1-1e-5 {
			t.Errorf("embedding %d differs from Embed", i)
		}
	}
	if near, far := cosine(resp.Data[0].Embedding, resp.Data[1].Embedding), cosine(resp.Data[0].Embedding, resp.Data[2].Embedding); near <= far {
		t.Errorf("similar texts cosine %v <= unrelated %v", near, far)
	}

	one, err := oa.CreateEmbeddings(context.Background(), openai.EmbeddingRequest{Model: "e", Input: "solo", Dimensions: 8})
	if err != nil || len(one.Data) != 1 || len(one.Data[0].Embedding) != 8 {
		t.Fatalf("single input with dimensions 8: %+v, %v", one, err)
	}
	if reqs := srv.EmbeddingRequests(); len(reqs) != 2 || reqs[1].Dimensions != 8 || reqs[1].Input[0] != "solo" {
		t.Errorf("recorded embedding requests = %+v", reqs)
	}
}

func TestEmbeddingsCanFail(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.EnqueueEmbeddings(llmtest.Reply{Status: 503})
	oc := openai.DefaultConfig("")
	oc.BaseURL = srv.URL()
	_, err := openai.NewClientWithConfig(oc).CreateEmbeddings(context.Background(), openai.EmbeddingRequest{Model: "e", Input: "x"})
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) || apiErr.HTTPStatusCode != 503 {
		t.Fatalf("error = %v, want 503", err)
	}
}

func TestServerHandlesConcurrentRequests(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.HandleFunc(func(r llmtest.ChatRequest) (llmtest.Reply, bool) {
		return llmtest.Reply{Content: strings.ToUpper(r.LastUser())}, true
	})
	srv.Enqueue(llmtest.Reply{Status: 500}, llmtest.Reply{Status: 500})
	c := client(t, srv)
	var wg sync.WaitGroup
	var mu sync.Mutex
	failures, successes := 0, 0
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text := strings.Repeat("a", i+1)
			resp, err := c.Complete(context.Background(), llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Content: text}}})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				failures++
			case resp.Content == strings.ToUpper(text):
				successes++
			default:
				t.Errorf("reply %q for %q", resp.Content, text)
			}
		}()
	}
	wg.Wait()
	if failures != 2 || successes != 38 {
		t.Errorf("failures %d successes %d, want 2 and 38 (each queued reply used once)", failures, successes)
	}
}

func TestEmbedDistinguishesTexts(t *testing.T) {
	a, b := llmtest.Embed("hello world", 16), llmtest.Embed("hello world", 16)
	if cosine(a, b) < 1-1e-6 {
		t.Error("same text, different vectors")
	}
	if cosine(llmtest.Embed("alpha", 256), llmtest.Embed("omega", 256)) > 0.99 {
		t.Error("different words map to the same vector at dim 256")
	}
}
