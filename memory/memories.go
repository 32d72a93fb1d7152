package memory

import (
	"context"
	"time"
)

// Memories keeps what Haven remembers about people beyond the transcript:
// facts, episodes, rules, the extraction queue and memory controls. It sits
// next to Store; memory/sqlite implements both. Every method is scoped to
// one person where it takes a person id and never returns another person's
// records.
type Memories interface {
	// AddFact stores f (validated with ValidFact). A fact that says what an
	// active one already says is not stored again: the existing one is
	// returned. Active facts f supersedes become inactive, pointing at f.
	AddFact(ctx context.Context, f Fact) (Fact, error)
	// Facts returns the person's facts, oldest first; inactive ones too when
	// inactive is true.
	Facts(ctx context.Context, personID string, inactive bool) ([]Fact, error)
	// AddEpisode stores the episode of a session; a session has at most one
	// episode, and a second call for it is a no-op returning the first.
	AddEpisode(ctx context.Context, ep Episode) (Episode, error)
	// Episodes returns the person's n latest episodes, newest first.
	Episodes(ctx context.Context, personID string, n int) ([]Episode, error)
	// AddRule stores r; a rule with the same key is replaced (newest wins),
	// and past MaxRules the oldest rule is dropped.
	AddRule(ctx context.Context, r Rule) (Rule, error)
	// Rules returns the person's rules, oldest first.
	Rules(ctx context.Context, personID string) ([]Rule, error)
	// Hold keeps f until its policy lets it be written: key identifies what
	// f says, turn the turn it was said in. It returns in how many distinct
	// turns f has now been said.
	Hold(ctx context.Context, f Fact, p Policy, key string) (times int, err error)
	// TakeHeld removes and returns the held facts that are now due: those
	// held for the end of session sessionID and, for AfterRepetition, those
	// said at least RepetitionsNeeded times.
	TakeHeld(ctx context.Context, personID, sessionID string) ([]Fact, error)
	// Search returns ranked lists of the person's active records for q.
	Search(ctx context.Context, q SearchQuery) (SearchResult, error)
	// SetEmbedding stores the embedding of a fact or episode under model.
	SetEmbedding(ctx context.Context, personID string, ref Ref, model string, v []float32) error
	// Records returns every fact (active or not), rule and episode of the
	// person, oldest first: the numbered list the person sees.
	Records(ctx context.Context, personID string) ([]Record, error)
	// Forget deletes the person's records refs (and a transcript entry for a
	// KindTranscript ref) from storage, search and export.
	Forget(ctx context.Context, personID string, refs ...Ref) error
	// MatchTranscript returns the ids of the person's transcript entries
	// whose text match reports true for.
	MatchTranscript(ctx context.Context, personID string, match func(string) bool) ([]int64, error)
	// ForgetAll deletes the person and everything about them; the crisis log
	// keeps its rows with every id removed (de-identified).
	ForgetAll(ctx context.Context, personID string) error
	// Export returns everything Haven holds about the person.
	Export(ctx context.Context, personID string) (Export, error)
	// Settings returns the person's memory controls (DefaultSettings when
	// never set).
	Settings(ctx context.Context, personID string) (Settings, error)
	// SetSettings saves the person's memory controls.
	SetSettings(ctx context.Context, personID string, s Settings) error
	// Enqueue adds a job to the durable queue.
	Enqueue(ctx context.Context, j Job) error
	// Claim leases the oldest due job for lease, or returns ok false when
	// none is due. A leased job not finished before its lease ends is
	// claimed again (a crash or restart loses no job).
	Claim(ctx context.Context, lease time.Duration) (j Job, ok bool, err error)
	// Finish deletes a done job.
	Finish(ctx context.Context, id int64) error
	// Retry returns a failed job to the queue, due again after delay.
	Retry(ctx context.Context, id int64, delay time.Duration) error
	// EndSession ends the open session sessionID at now; ended is false when
	// it had already ended.
	EndSession(ctx context.Context, sessionID string, now time.Time) (ended bool, err error)
	// IdleSessions returns up to n open sessions with no activity since
	// before.
	IdleSessions(ctx context.Context, before time.Time, n int) ([]Session, error)
	// SessionEntries returns the session's whole transcript, oldest first.
	SessionEntries(ctx context.Context, sessionID string) ([]Entry, error)
	// ApplyRetention deletes what r says is past keeping at now.
	ApplyRetention(ctx context.Context, r Retention, now time.Time) (Swept, error)
}
