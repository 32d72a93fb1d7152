package core

import (
	"context"
	"time"

	"github.com/havenbot/haven/memory"
)

// MemoryStore is what the engine needs of long-term memory (Options.Memories):
// working memory for each turn, the person's memory commands, and the
// background jobs a turn queues. memory/sqlite's Store implements it. Every
// method that takes a person id is scoped to that person and never returns
// another person's records.
type MemoryStore interface {
	// Search and Rules serve each turn's working memory through
	// memory.Retriever.
	memory.Searcher
	MemoryControls
	// Enqueue adds a background job to the durable queue: extraction after
	// a turn, the episode of an ended session.
	Enqueue(ctx context.Context, j memory.Job) error
	// EndSession ends the open session sessionID at now (a goodbye); ended
	// is false when it had already ended.
	EndSession(ctx context.Context, sessionID string, now time.Time) (ended bool, err error)
}

// MemoryControls are what the memory commands (/memory, /forget, /export)
// need: a person's view of and control over what Haven keeps about them.
type MemoryControls interface {
	// Settings returns the person's memory controls (memory.DefaultSettings
	// when never set).
	Settings(ctx context.Context, personID string) (memory.Settings, error)
	// SetSettings saves the person's memory controls.
	SetSettings(ctx context.Context, personID string, s memory.Settings) error
	// Records returns every fact (active or not), rule and episode of the
	// person, oldest first: the numbered list the person sees.
	Records(ctx context.Context, personID string) ([]memory.Record, error)
	// Forget deletes the person's records refs (and a transcript entry for
	// a memory.KindTranscript ref) from storage, search and export.
	Forget(ctx context.Context, personID string, refs ...memory.Ref) error
	// MatchTranscript returns the ids of the person's transcript entries
	// whose text match reports true for.
	MatchTranscript(ctx context.Context, personID string, match func(string) bool) ([]int64, error)
	// LastMessage returns the ids of the transcript entries of the
	// person's latest message in session sessionID and of the replies to
	// it, with that message's text; no ids when there is none.
	LastMessage(ctx context.Context, personID, sessionID string) (ids []int64, text string, err error)
	// ForgetAll deletes the person and everything about them; the crisis
	// log keeps its rows with every id removed (de-identified).
	ForgetAll(ctx context.Context, personID string) error
	// Export returns everything Haven holds about the person.
	Export(ctx context.Context, personID string) (memory.Export, error)
}
