package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// EmbedderConfig configures NewOpenAIEmbedder.
type EmbedderConfig struct {
	// BaseURL is the OpenAI-compatible API root including /v1.
	BaseURL string
	// Model is the embedding model ("nomic-embed-text", "text-embedding-3-small").
	Model string
	// APIKey is sent as a bearer token; empty sends none.
	APIKey string
	// Timeout bounds each call; zero means 10s.
	Timeout time.Duration
	// HTTPClient sends the requests; nil uses a new client.
	HTTPClient *http.Client
}

// OpenAIEmbedder calls an OpenAI-compatible POST /v1/embeddings. It is safe
// for concurrent use.
type OpenAIEmbedder struct {
	client  *openai.Client
	model   string
	timeout time.Duration
}

// NewOpenAIEmbedder validates cfg and returns an embedder. It does not
// contact the server.
func NewOpenAIEmbedder(cfg EmbedderConfig) (*OpenAIEmbedder, error) {
	base := strings.TrimSpace(cfg.BaseURL)
	u, err := url.Parse(base)
	if base == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("llm: embeddings base URL %q is not an http(s) URL: use the form http://host:port/v1", base)
	}
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, errors.New("llm: embeddings model is empty: set the name of an embedding model the server serves")
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(base, "/")
	if cfg.HTTPClient != nil {
		oc.HTTPClient = cfg.HTTPClient
	} else {
		oc.HTTPClient = &http.Client{}
	}
	e := &OpenAIEmbedder{client: openai.NewClientWithConfig(oc), model: strings.TrimSpace(cfg.Model), timeout: cfg.Timeout}
	if e.timeout <= 0 {
		e.timeout = 10 * time.Second
	}
	return e, nil
}

// Model returns the embedding model name.
func (e *OpenAIEmbedder) Model() string { return e.model }

// Embed returns one vector per text, in order, under the embedder's timeout
// and ctx. Errors never contain the texts.
func (e *OpenAIEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	resp, err := e.client.CreateEmbeddings(ctx, openai.EmbeddingRequest{Input: texts, Model: openai.EmbeddingModel(e.model)})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("llm: embed %d texts with %s: %w", len(texts), e.model, ctx.Err())
		}
		if code := statusOf(err); code != 0 {
			return nil, fmt.Errorf("llm: embed %d texts with %s: %w", len(texts), e.model, &StatusError{StatusCode: code})
		}
		return nil, fmt.Errorf("llm: embed %d texts with %s: request failed", len(texts), e.model)
	}
	if len(resp.Data) != len(texts) {
		return nil, fmt.Errorf("llm: embed %d texts with %s: got %d vectors", len(texts), e.model, len(resp.Data))
	}
	out := make([][]float32, len(texts))
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(texts) || out[d.Index] != nil || len(d.Embedding) == 0 {
			return nil, fmt.Errorf("llm: embed %d texts with %s: the answer's vectors are misnumbered or empty", len(texts), e.model)
		}
		out[d.Index] = d.Embedding
	}
	return out, nil
}
