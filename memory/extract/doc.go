// Package extract finds what is worth remembering in what a person said:
// deterministic extractors (patterns for names, pronouns, relationships,
// places, work, pets, preferences, explicit "remember that ...", style
// rules) that need no model, a structured LLM extraction validated in Go
// that falls back to them on any failure, and episode summaries. The
// memory/jobs Runner runs it as its extraction job.
//
// extract imports memory, never core: the LLM is reached through the LLM
// function type, which cmd/haven adapts from its llm.Client.
package extract
