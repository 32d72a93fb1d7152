package memory

import (
	"time"
)

// JobKind is the kind of a background memory job.
type JobKind string

// The job kinds.
const (
	// JobTurn extracts memories from one user message.
	JobTurn JobKind = "turn"
	// JobSessionEnd writes the episode of an ended session and commits the
	// memories held for its end.
	JobSessionEnd JobKind = "session_end"
)

// Job is one durable unit of background memory work.
type Job struct {
	ID        int64
	Kind      JobKind
	PersonID  string
	SessionID string
	// Turn is the turn number (checkpoint turn count) of a JobTurn.
	Turn int
	// Text is the person's message of a JobTurn; it is deleted with the job.
	Text     string
	Attempts int
	Created  time.Time
	// Due is when the job was due before a batch claim leased it (set by
	// the stores' ClaimBatch): a claimed job released unstarted is due then
	// again, so that it keeps its place in the queue.
	Due time.Time
}
