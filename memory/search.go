package memory

// SearchQuery asks for a person's candidate memories for a turn.
type SearchQuery struct {
	PersonID string
	// Text is matched with full-text search (BM25).
	Text string
	// Vector, when set, is matched by cosine similarity against memories
	// embedded with the same Model.
	Vector []float32
	Model  string
	// Limit bounds each ranked list; zero means 20.
	Limit int
	// Recent adds the most recent active records as a ranked list.
	Recent bool
}

// SearchResult holds ranked lists of active records (best first) and the
// records they name. Inactive facts never appear.
type SearchResult struct {
	Text   []Ref
	Vector []Ref
	Recent []Ref
	// Pinned are records loaded on every turn whatever the message says: the
	// person's name and pronouns.
	Pinned  []Ref
	Records map[Ref]Record
}
