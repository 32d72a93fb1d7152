package memory

import (
	"context"
)

// Embedder turns texts into vectors with an embedding model.
// llm.OpenAIEmbedder implements it.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Model names the embedding model; vectors of different models are
	// never compared.
	Model() string
}
