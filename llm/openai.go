package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// DefaultTimeout bounds a call when neither the Request nor the
// OpenAIConfig sets a timeout.
const DefaultTimeout = 20 * time.Second

// ErrEmptyReply is returned (wrapped) when the server answers without any
// choice or with an empty message.
var ErrEmptyReply = errors.New("server returned no reply text")

// OpenAIConfig configures NewOpenAI.
type OpenAIConfig struct {
	// BaseURL is the server's OpenAI-compatible API root, including the
	// version path: "http://localhost:11434/v1" (Ollama),
	// "http://localhost:8080/v1" (llama.cpp, vLLM), "https://api.openai.com/v1".
	BaseURL string
	// Model is the model name the server knows ("llama3.1:8b", "gpt-4o-mini").
	Model string
	// APIKey is sent as a bearer token; empty sends no Authorization header
	// (most local servers need none).
	APIKey string
	// Timeout bounds every call (the operator's llm.timeout): a Request's
	// Timeout may shorten it, never lengthen it; zero means DefaultTimeout.
	Timeout time.Duration
	// MaxTokens caps completions whose Request has no MaxTokens; zero leaves
	// the cap to the server.
	MaxTokens int
	// HTTPClient sends the requests; nil uses a new client without its own
	// timeout (every call already runs under a deadline).
	HTTPClient *http.Client
}

// OpenAI is a Client for any server that speaks the OpenAI chat completions
// API. It is safe for concurrent use.
type OpenAI struct {
	client    *openai.Client
	model     string
	timeout   time.Duration
	maxTokens int
	// noJSONSchema is set once the server rejected response_format
	// json_schema and accepted json_object instead; later schema requests
	// go straight to json_object.
	noJSONSchema atomic.Bool
}

var _ Client = (*OpenAI)(nil)

// NewOpenAI validates cfg and returns a client for it. It does not contact
// the server.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	base := strings.TrimSpace(cfg.BaseURL)
	if base == "" {
		return nil, errors.New("llm: base URL is empty: set it to the server's OpenAI-compatible API root, e.g. http://localhost:11434/v1")
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("llm: base URL %q is not an http(s) URL: use the form http://host:port/v1", base)
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("llm: model is empty: set the name of a model the server serves (e.g. llama3.1:8b)")
	}
	if cfg.Timeout < 0 {
		return nil, fmt.Errorf("llm: timeout %s is negative: use a positive duration such as 20s, or zero for the default", cfg.Timeout)
	}
	if cfg.MaxTokens < 0 {
		return nil, fmt.Errorf("llm: max tokens %d is negative: use a positive number, or zero for the server's default", cfg.MaxTokens)
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(base, "/")
	if cfg.HTTPClient != nil {
		oc.HTTPClient = cfg.HTTPClient
	} else {
		oc.HTTPClient = &http.Client{}
	}
	c := &OpenAI{
		client:    openai.NewClientWithConfig(oc),
		model:     strings.TrimSpace(cfg.Model),
		timeout:   cfg.Timeout,
		maxTokens: cfg.MaxTokens,
	}
	if c.timeout == 0 {
		c.timeout = DefaultTimeout
	}
	return c, nil
}

// Model returns the configured model name.
func (c *OpenAI) Model() string { return c.model }

// Complete sends one chat completion and waits for the whole reply, under
// the shorter of req.Timeout and the client's timeout, and ctx. With a Schema it
// asks for strict json_schema output and also states the schema in the
// system message; a server that rejects json_schema with HTTP 400 is asked
// once more with json_object. Errors never contain message content: a
// deadline wraps context.DeadlineExceeded, an HTTP failure is a *StatusError.
func (c *OpenAI) Complete(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	if len(req.Messages) == 0 {
		return Response{}, errors.New("llm: complete: request has no messages")
	}
	timeout := c.timeout
	if req.Timeout > 0 && req.Timeout < timeout {
		timeout = req.Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	creq, err := c.build(req)
	if err != nil {
		return Response{}, err
	}
	if req.Schema != nil && c.noJSONSchema.Load() {
		creq.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	resp, err := c.client.CreateChatCompletion(ctx, creq)
	if err != nil && req.Schema != nil && creq.ResponseFormat.Type == openai.ChatCompletionResponseFormatTypeJSONSchema && statusOf(err) == http.StatusBadRequest {
		creq.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
		resp, err = c.client.CreateChatCompletion(ctx, creq)
		if err == nil {
			c.noJSONSchema.Store(true)
		}
	}
	latency := time.Since(start)
	if err != nil {
		return Response{Latency: latency}, c.mapError(ctx, timeout, err, resp.Header())
	}
	if len(resp.Choices) == 0 {
		return Response{Latency: latency}, fmt.Errorf("llm: complete with model %s: %w (no choices)", c.model, ErrEmptyReply)
	}
	content := resp.Choices[0].Message.Content
	if strings.TrimSpace(content) == "" {
		return Response{Latency: latency}, fmt.Errorf("llm: complete with model %s: %w (finish reason %q)", c.model, ErrEmptyReply, resp.Choices[0].FinishReason)
	}
	model := resp.Model
	if model == "" {
		model = c.model
	}
	return Response{
		Content:          content,
		Model:            model,
		PromptTokens:     resp.Usage.PromptTokens,
		CompletionTokens: resp.Usage.CompletionTokens,
		Latency:          latency,
	}, nil
}

// build turns req into the wire request.
func (c *OpenAI) build(req Request) (openai.ChatCompletionRequest, error) {
	msgs := make([]openai.ChatCompletionMessage, 0, len(req.Messages)+1)
	for i, m := range req.Messages {
		switch m.Role {
		case RoleSystem, RoleUser, RoleAssistant:
		default:
			return openai.ChatCompletionRequest{}, fmt.Errorf("llm: complete: message %d has unknown role %q: use system, user or assistant", i, m.Role)
		}
		msgs = append(msgs, openai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content})
	}
	creq := openai.ChatCompletionRequest{Model: c.model}
	if req.Schema != nil {
		rf, instruction, err := schemaFormat(req.Schema)
		if err != nil {
			return openai.ChatCompletionRequest{}, err
		}
		creq.ResponseFormat = rf
		if len(msgs) > 0 && msgs[0].Role == string(RoleSystem) {
			msgs[0].Content = strings.TrimRight(msgs[0].Content, "\n") + "\n\n" + instruction
		} else {
			msgs = append([]openai.ChatCompletionMessage{{Role: string(RoleSystem), Content: instruction}}, msgs...)
		}
	}
	creq.Messages = msgs

	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = c.maxTokens
	}
	reasoning := isReasoningModel(c.model)
	if reasoning {
		creq.MaxCompletionTokens = maxTokens
	} else {
		// Deprecated by OpenAI, but many OpenAI-compatible servers (llama.cpp,
		// Ollama and vLLM before they took max_completion_tokens as an alias,
		// and forks of them) read only max_tokens. go-openai sends just the
		// field that is set, and refuses max_tokens for reasoning models.
		creq.MaxTokens = maxTokens //nolint:staticcheck // SA1019: kept on purpose, see above
	}
	if req.Temperature != nil && !reasoning {
		t := *req.Temperature
		if t == 0 {
			// go-openai omits a zero temperature (omitempty), which servers
			// read as their default (often 0.8-1.0). The smallest positive
			// float is sent instead: effectively greedy decoding.
			t = math.SmallestNonzeroFloat32
		}
		creq.Temperature = t
	}
	return creq, nil
}

// schemaFormat returns the strict json_schema response format for s and the
// instruction for the system message.
func schemaFormat(s *Schema) (*openai.ChatCompletionResponseFormat, string, error) {
	name := s.Name
	if name == "" {
		name = "response"
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, s.JSON); err != nil {
		return nil, "", fmt.Errorf("llm: schema %q is not valid JSON: %w", name, err)
	}
	if b := compact.Bytes(); len(b) == 0 || b[0] != '{' {
		return nil, "", fmt.Errorf("llm: schema %q is not a JSON object: a JSON Schema document starts with {", name)
	}
	rf := &openai.ChatCompletionResponseFormat{
		Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
		JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
			Name:   name,
			Schema: json.RawMessage(compact.Bytes()),
			Strict: true,
		},
	}
	instruction := "Reply with a single JSON object and nothing else: no prose, no code fences. " +
		"The object must follow this JSON Schema: " + compact.String()
	return rf, instruction, nil
}

// isReasoningModel reports whether model belongs to the OpenAI reasoning
// families that take max_completion_tokens and a fixed temperature.
func isReasoningModel(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// StatusError is an HTTP failure answered by the server. It never carries
// the server's message text, which may echo the prompt.
type StatusError struct {
	// StatusCode is the HTTP status (429, 500, ...).
	StatusCode int
	// Type and Code are the OpenAI error type and code, when the server sent
	// them ("invalid_request_error", "rate_limit_exceeded").
	Type, Code string
	// RetryAfter is the server's Retry-After, zero when absent.
	RetryAfter time.Duration
	// Model is the model that was asked.
	Model string
}

func (e *StatusError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "llm: complete with model %s: server answered HTTP %d %s", e.Model, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Type != "" || e.Code != "" {
		fmt.Fprintf(&b, " (")
		sep := ""
		if e.Type != "" {
			fmt.Fprintf(&b, "type %s", e.Type)
			sep = ", "
		}
		if e.Code != "" {
			fmt.Fprintf(&b, "%scode %s", sep, e.Code)
		}
		b.WriteString(")")
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, ", retry after %s", e.RetryAfter)
	}
	return b.String()
}

// Temporary reports whether the same request may succeed later (429, 5xx).
func (e *StatusError) Temporary() bool {
	return e.StatusCode == http.StatusTooManyRequests || e.StatusCode >= 500
}

// statusOf returns the HTTP status of a go-openai error, or 0.
func statusOf(err error) int {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode
	}
	return 0
}

// mapError turns a go-openai error into one of ours, with no message
// content in it.
func (c *OpenAI) mapError(ctx context.Context, timeout time.Duration, err error, header http.Header) error {
	if status := statusOf(err); status != 0 {
		se := &StatusError{StatusCode: status, Model: c.model, RetryAfter: retryAfter(header)}
		var apiErr *openai.APIError
		if errors.As(err, &apiErr) {
			se.Type = apiErr.Type
			if apiErr.Code != nil {
				se.Code = fmt.Sprint(apiErr.Code)
			}
		}
		return se
	}
	var netErr net.Error
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded),
		errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &netErr) && netErr.Timeout():
		return fmt.Errorf("llm: complete with model %s: no reply within the deadline (timeout %s): %w", c.model, timeout, context.DeadlineExceeded)
	case errors.Is(ctx.Err(), context.Canceled), errors.Is(err, context.Canceled):
		return fmt.Errorf("llm: complete with model %s: %w", c.model, context.Canceled)
	}
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &syntaxErr) || errors.As(err, &typeErr) || errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("llm: complete with model %s: server reply is not valid JSON: %w", c.model, err)
	}
	return fmt.Errorf("llm: complete with model %s: %w", c.model, err)
}

// retryAfter parses a Retry-After header in seconds or as an HTTP date.
func retryAfter(h http.Header) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(v); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}
