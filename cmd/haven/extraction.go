package main

import (
	"context"
	"encoding/json"

	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/extract"
)

// The embedding client serves memory's retrieval.
var _ memory.Embedder = (*llm.OpenAIEmbedder)(nil)

// extractionLLM adapts a model client to the extractor's LLM function: one
// system and one user message, JSON following schema, temperature 0.
func extractionLLM(c llm.Client) extract.LLM {
	if c == nil {
		return nil
	}
	return func(ctx context.Context, system, user, schemaName string, schema json.RawMessage) (string, error) {
		zero := float32(0)
		resp, err := c.Complete(ctx, llm.Request{
			Messages:    []llm.Message{{Role: llm.RoleSystem, Content: system}, {Role: llm.RoleUser, Content: user}},
			Schema:      &llm.Schema{Name: schemaName, JSON: schema},
			Temperature: &zero,
			MaxTokens:   800,
		})
		if err != nil {
			return "", err
		}
		return resp.Content, nil
	}
}
