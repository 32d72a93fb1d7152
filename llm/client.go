package llm

import (
	"context"
	"encoding/json"
	"time"
)

// Role is the author of a chat message.
type Role string

// The chat roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one chat message.
type Message struct {
	Role    Role
	Content string
}

// Schema asks for JSON output that follows a JSON schema. Servers that do
// not support structured output still get the instruction in the prompt;
// callers always validate the JSON they get back.
type Schema struct {
	// Name is a short identifier ("crisis_assessment").
	Name string
	// JSON is the JSON Schema document.
	JSON json.RawMessage
}

// Request is one chat completion request.
type Request struct {
	Messages []Message
	// Schema, when set, asks for JSON output following it.
	Schema *Schema
	// MaxTokens caps the completion length; zero uses the client default.
	MaxTokens int
	// Temperature; nil uses the client default.
	Temperature *float32
	// Timeout bounds this call; zero uses the client's timeout, and a
	// client may hold it to its own, shorter bound (OpenAI does: the
	// operator's llm.timeout is the longest any call takes). The call also
	// ends when ctx does.
	Timeout time.Duration
}

// Response is a completed chat.
type Response struct {
	Content          string
	Model            string
	PromptTokens     int
	CompletionTokens int
	// Latency is how long the call took.
	Latency time.Duration
}

// Client completes chats. Every call runs under a deadline: the request's
// Timeout or the client's own bound, whichever is shorter, or ctx's own
// if sooner.
// Implementations are safe for concurrent use.
type Client interface {
	Complete(ctx context.Context, req Request) (Response, error)
}
