// Package memory defines what Haven keeps about the people it talks to, and
// finds what a turn should remember.
//
// The records: people, sessions and their checkpoints, transcripts, the
// crisis and admin logs (store.go); semantic facts, episodes, procedural
// rules and the policies that decide when an extracted memory is written
// (fact.go, episode.go, rule.go, policy.go); the background jobs that
// extract them (job.go); the person's controls, export and retention
// (settings.go, record.go, export.go, retention.go).
//
// Interfaces are small and defined where they are used: Store is what core
// needs to run a turn, Searcher what a Retriever reads, Embedder what turns
// text into vectors; the background jobs (memory/jobs) and core's memory
// commands define their own. Implementations (memory/sqlite, later a
// PostgreSQL store) keep every SQL detail behind them.
//
// Retrieval (retrieve.go) fuses full-text, vector and recency rankings by
// reciprocal rank fusion into a turn's working memory, cut to a token
// budget.
//
// memory never imports core, adapters or safety.
package memory
