package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// DefaultModel is the model the server lists and answers with when the
// request names none.
const DefaultModel = "llmtest"

// DefaultEmbeddingDim is the embedding dimension when the request does not
// ask for one and SetEmbeddingDim was not called.
const DefaultEmbeddingDim = 64

// Reply scripts one answer. The zero Reply is a 200 with empty content.
type Reply struct {
	// Content is the assistant message text.
	Content string
	// Status, when not 0 or 200, answers with that HTTP status and an
	// OpenAI-style error body instead of a completion.
	Status int
	// ErrorType and ErrorMessage fill the error body; defaults are derived
	// from Status.
	ErrorType, ErrorMessage string
	// RetryAfter sets the Retry-After header (whole seconds, rounded up).
	RetryAfter time.Duration
	// Malformed answers 200 with a body that is not valid JSON.
	Malformed bool
	// EmptyChoices answers 200 with an empty choices list.
	EmptyChoices bool
	// Hang never answers: the handler returns only when the client
	// disconnects (its deadline) or the server closes.
	Hang bool
	// Wait, when set, delays the answer until it is closed (or the client
	// disconnects, or the server closes): test-controlled latency.
	Wait <-chan struct{}
	// Latency delays the answer by real time (benchmarks, manual runs).
	// Tests use Wait or Hang instead.
	Latency time.Duration
	// FinishReason defaults to "stop".
	FinishReason string
	// Model overrides the model named in the answer; default is the
	// request's model.
	Model string
	// PromptTokens and CompletionTokens override the usage counts; zero
	// counts whitespace-separated words.
	PromptTokens, CompletionTokens int
}

// Message is one chat message as received.
type Message struct {
	Role    string
	Content string
}

// ResponseFormat is the request's response_format.
type ResponseFormat struct {
	// Type is "text", "json_object" or "json_schema".
	Type string
	// SchemaName, Schema and Strict come from json_schema.
	SchemaName string
	Schema     json.RawMessage
	Strict     bool
}

// ChatRequest is a chat completion request as the server received it.
type ChatRequest struct {
	Model    string
	Messages []Message
	// ResponseFormat is nil when the request had none.
	ResponseFormat *ResponseFormat
	// MaxTokens is max_tokens, or max_completion_tokens when that was sent.
	MaxTokens int
	// Temperature is nil when the request had none.
	Temperature *float64
	// Authorization is the Authorization header.
	Authorization string
	// Body is the raw request body.
	Body json.RawMessage
}

// LastUser returns the content of the last user message, or "".
func (r ChatRequest) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// System returns the system messages joined by blank lines.
func (r ChatRequest) System() string {
	var parts []string
	for _, m := range r.Messages {
		if m.Role == "system" {
			parts = append(parts, m.Content)
		}
	}
	return strings.Join(parts, "\n\n")
}

// EmbeddingRequest is an embeddings request as the server received it.
type EmbeddingRequest struct {
	Model      string
	Input      []string
	Dimensions int
}

type rule struct {
	fn func(ChatRequest) (Reply, bool)
}

// Server is a running fake. Its methods are safe for concurrent use.
type Server struct {
	hs     *httptest.Server
	closed chan struct{}
	once   sync.Once

	mu         sync.Mutex
	queue      []Reply
	rules      []rule
	def        Reply
	requests   []ChatRequest
	embedQueue []Reply
	embedReqs  []EmbeddingRequest
	embedDim   int
	models     []string
	inFlight   int
	arrivals   chan ChatRequest
}

// NewServer starts a fake on 127.0.0.1. When tb is not nil the server is
// closed in tb.Cleanup; otherwise the caller must call Close.
func NewServer(tb testing.TB) *Server {
	s := &Server{
		closed:   make(chan struct{}),
		def:      Reply{Content: "ok"},
		embedDim: DefaultEmbeddingDim,
		models:   []string{DefaultModel},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("POST /v1/embeddings", s.embeddings)
	mux.HandleFunc("GET /v1/models", s.listModels)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("llmtest: no route for %s %s", r.Method, r.URL.Path))
	})
	s.hs = httptest.NewServer(mux)
	if tb != nil {
		tb.Cleanup(s.Close)
	}
	return s
}

// URL returns the API base URL, ending in /v1 (what OpenAIConfig.BaseURL
// takes).
func (s *Server) URL() string { return s.hs.URL + "/v1" }

// Close releases every waiting or hanging request, then shuts the server
// down and waits for its handlers to return. It may be called more than
// once.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closed)
		s.hs.Close()
	})
}

// Enqueue appends replies to the queue. Each chat request takes the next
// queued reply first; rules and the default answer when the queue is empty.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// HandleFunc adds a rule, consulted in the order added when the queue is
// empty: the first rule returning ok answers. fn runs on the handler
// goroutine and must be safe for concurrent use.
func (s *Server) HandleFunc(fn func(ChatRequest) (reply Reply, ok bool)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, rule{fn: fn})
}

// On adds a rule answering r when the last user message contains substr.
func (s *Server) On(substr string, r Reply) {
	s.HandleFunc(func(req ChatRequest) (Reply, bool) {
		return r, strings.Contains(req.LastUser(), substr)
	})
}

// SetDefault sets the reply used when neither the queue nor a rule answers.
// The initial default is Reply{Content: "ok"}.
func (s *Server) SetDefault(r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.def = r
}

// Requests returns a copy of every chat request received, in arrival order.
// Requests the server rejected as unparsable (400) are not recorded.
func (s *Server) Requests() []ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ChatRequest(nil), s.requests...)
}

// Arrivals returns a channel that receives every chat request as it
// arrives, before it is answered: a test can wait on it to know a request
// is in flight. The channel is buffered with capacity n; when the buffer is
// full, further arrivals are not sent (they are still recorded). Only the
// first call's n counts.
func (s *Server) Arrivals(n int) <-chan ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.arrivals == nil {
		s.arrivals = make(chan ChatRequest, n)
	}
	return s.arrivals
}

// InFlight returns how many chat requests are being handled right now.
func (s *Server) InFlight() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inFlight
}

// SetModels sets the names GET /v1/models lists.
func (s *Server) SetModels(names ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string(nil), names...)
}

// SetEmbeddingDim sets the embedding dimension used when a request does
// not ask for one. It panics if dim < 1.
func (s *Server) SetEmbeddingDim(dim int) {
	if dim < 1 {
		panic("llmtest: SetEmbeddingDim: dim must be at least 1")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.embedDim = dim
}

// EnqueueEmbeddings queues replies for embedding requests. Only Status,
// ErrorType, ErrorMessage, RetryAfter, Malformed, Hang, Wait and Latency
// apply; an empty queue answers with Embed vectors.
func (s *Server) EnqueueEmbeddings(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.embedQueue = append(s.embedQueue, replies...)
}

// EmbeddingRequests returns a copy of every embedding request received.
func (s *Server) EmbeddingRequests() []EmbeddingRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]EmbeddingRequest(nil), s.embedReqs...)
}

// pick chooses the reply for req: queue, then rules, then default.
func (s *Server) pick(req ChatRequest) Reply {
	s.mu.Lock()
	if len(s.queue) > 0 {
		r := s.queue[0]
		s.queue = s.queue[1:]
		s.mu.Unlock()
		return r
	}
	rules := append([]rule(nil), s.rules...)
	def := s.def
	s.mu.Unlock()
	for _, rl := range rules {
		if r, ok := rl.fn(req); ok {
			return r
		}
	}
	return def
}

// wire types

type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type wireChatRequest struct {
	Model               string          `json:"model"`
	Messages            []wireMessage   `json:"messages"`
	ResponseFormat      json.RawMessage `json:"response_format"`
	MaxTokens           int             `json:"max_tokens"`
	MaxCompletionTokens int             `json:"max_completion_tokens"`
	Temperature         *float64        `json:"temperature"`
	Stream              bool            `json:"stream"`
}

type wireResponseFormat struct {
	Type       string `json:"type"`
	JSONSchema *struct {
		Name   string          `json:"name"`
		Schema json.RawMessage `json:"schema"`
		Strict bool            `json:"strict"`
	} `json:"json_schema"`
}

// content decodes a message content that is a string or a list of parts.
func content(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("content is neither a string nor a list of parts")
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}

func parseChat(r *http.Request) (ChatRequest, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return ChatRequest{}, fmt.Errorf("read body: %w", err)
	}
	var w wireChatRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return ChatRequest{}, fmt.Errorf("body is not a chat completion request: %w", err)
	}
	if w.Stream {
		return ChatRequest{}, fmt.Errorf("stream is not supported by llmtest")
	}
	if len(w.Messages) == 0 {
		return ChatRequest{}, fmt.Errorf("messages is empty")
	}
	req := ChatRequest{
		Model:         w.Model,
		MaxTokens:     w.MaxTokens,
		Temperature:   w.Temperature,
		Authorization: r.Header.Get("Authorization"),
		Body:          body,
	}
	if w.MaxCompletionTokens > 0 {
		req.MaxTokens = w.MaxCompletionTokens
	}
	for i, m := range w.Messages {
		c, err := content(m.Content)
		if err != nil {
			return ChatRequest{}, fmt.Errorf("messages[%d]: %w", i, err)
		}
		req.Messages = append(req.Messages, Message{Role: m.Role, Content: c})
	}
	if len(w.ResponseFormat) > 0 && string(w.ResponseFormat) != "null" {
		var rf wireResponseFormat
		if err := json.Unmarshal(w.ResponseFormat, &rf); err != nil {
			return ChatRequest{}, fmt.Errorf("response_format: %w", err)
		}
		out := &ResponseFormat{Type: rf.Type}
		if rf.JSONSchema != nil {
			out.SchemaName = rf.JSONSchema.Name
			out.Schema = rf.JSONSchema.Schema
			out.Strict = rf.JSONSchema.Strict
		}
		req.ResponseFormat = out
	}
	return req, nil
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	req, err := parseChat(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: "+err.Error())
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.inFlight++
	if s.arrivals != nil {
		select {
		case s.arrivals <- req:
		default:
		}
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inFlight--
		s.mu.Unlock()
	}()

	reply := s.pick(req)
	if !s.delay(r, reply) {
		return
	}
	if s.writeFailure(w, reply) {
		return
	}
	model := reply.Model
	if model == "" {
		model = req.Model
	}
	if model == "" {
		model = DefaultModel
	}
	choices := []map[string]any{}
	if !reply.EmptyChoices {
		finish := reply.FinishReason
		if finish == "" {
			finish = "stop"
		}
		choices = append(choices, map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": reply.Content},
			"finish_reason": finish,
		})
	}
	prompt := reply.PromptTokens
	if prompt == 0 {
		for _, m := range req.Messages {
			prompt += len(strings.Fields(m.Content))
		}
	}
	completion := reply.CompletionTokens
	if completion == 0 {
		completion = len(strings.Fields(reply.Content))
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"id":      "chatcmpl-llmtest",
		"object":  "chat.completion",
		"created": 0,
		"model":   model,
		"choices": choices,
		"usage": map[string]any{
			"prompt_tokens":     prompt,
			"completion_tokens": completion,
			"total_tokens":      prompt + completion,
		},
	})
}

// delay applies Hang, Wait and Latency. It reports false when the request
// ended (client gone or server closing) and must not be answered.
func (s *Server) delay(r *http.Request, reply Reply) bool {
	ctx := r.Context()
	if reply.Hang {
		select {
		case <-ctx.Done():
		case <-s.closed:
		}
		return false
	}
	if reply.Wait != nil {
		select {
		case <-reply.Wait:
		case <-ctx.Done():
			return false
		case <-s.closed:
			return false
		}
	}
	if reply.Latency > 0 {
		t := time.NewTimer(reply.Latency)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return false
		case <-s.closed:
			return false
		}
	}
	return true
}

// writeFailure writes Status and Malformed replies; it reports whether it
// wrote anything.
func (s *Server) writeFailure(w http.ResponseWriter, reply Reply) bool {
	if reply.RetryAfter > 0 {
		secs := int(math.Ceil(reply.RetryAfter.Seconds()))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
	}
	if reply.Status != 0 && reply.Status != http.StatusOK {
		typ := reply.ErrorType
		if typ == "" {
			typ = defaultErrorType(reply.Status)
		}
		msg := reply.ErrorMessage
		if msg == "" {
			msg = "llmtest: scripted " + strconv.Itoa(reply.Status) + " " + http.StatusText(reply.Status)
		}
		writeError(w, reply.Status, typ, msg)
		return true
	}
	if reply.Malformed {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, `{"id":"chatcmpl-llmtest","choices":[{"message":{"content":"trunc`)
		return true
	}
	return false
}

func defaultErrorType(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	case status == http.StatusUnauthorized:
		return "authentication_error"
	case status >= 500:
		return "server_error"
	default:
		return "invalid_request_error"
	}
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{
		"error": map[string]any{"message": msg, "type": typ, "code": typ},
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) listModels(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	names := append([]string(nil), s.models...)
	s.mu.Unlock()
	data := make([]map[string]any, 0, len(names))
	for _, n := range names {
		data = append(data, map[string]any{"id": n, "object": "model", "created": 0, "owned_by": "llmtest"})
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

func (s *Server) embeddings(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Model          string          `json:"model"`
		Input          json.RawMessage `json:"input"`
		Dimensions     int             `json:"dimensions"`
		EncodingFormat string          `json:"encoding_format"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: body is not an embeddings request: "+err.Error())
		return
	}
	if body.EncodingFormat != "" && body.EncodingFormat != "float" {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: only encoding_format float is supported")
		return
	}
	var inputs []string
	var one string
	if err := json.Unmarshal(body.Input, &one); err == nil {
		inputs = []string{one}
	} else if err := json.Unmarshal(body.Input, &inputs); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: input must be a string or a list of strings")
		return
	}
	if len(inputs) == 0 {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "llmtest: input is empty")
		return
	}
	s.mu.Lock()
	dim := s.embedDim
	s.embedReqs = append(s.embedReqs, EmbeddingRequest{Model: body.Model, Input: inputs, Dimensions: body.Dimensions})
	var reply Reply
	if len(s.embedQueue) > 0 {
		reply = s.embedQueue[0]
		s.embedQueue = s.embedQueue[1:]
	}
	s.mu.Unlock()
	if body.Dimensions > 0 {
		dim = body.Dimensions
	}
	if !s.delay(r, reply) || s.writeFailure(w, reply) {
		return
	}
	data := make([]map[string]any, 0, len(inputs))
	tokens := 0
	for i, in := range inputs {
		data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": Embed(in, dim)})
		tokens += len(strings.Fields(in))
	}
	model := body.Model
	if model == "" {
		model = DefaultModel
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"object": "list",
		"data":   data,
		"model":  model,
		"usage":  map[string]any{"prompt_tokens": tokens, "total_tokens": tokens},
	})
}
