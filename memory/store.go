package memory

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// ErrNotFound is returned (wrapped) when a requested record does not exist.
var ErrNotFound = errors.New("not found")

// Person is one human, possibly known on several platforms.
type Person struct {
	// ID is opaque and random; it carries nothing about the person.
	ID string
	// Display is the name the person was last seen with. Never logged.
	Display string
	Created time.Time
	// FirstSeen is true while Haven is meeting this person for the first
	// time: no turn for them has finished yet (a first turn cut short by a
	// crash, after the person was created, does not count).
	FirstSeen bool
}

// Identity links a namespaced platform user id to a person.
type Identity struct {
	PersonID string
	// PlatformUserID is the namespaced author id (platform:workspace:id).
	PlatformUserID string
	Platform       string
}

// Session is one conversation episode between a person and Haven in one
// conversation. A session ends on /reset (and later on idle timeout or goodbye).
type Session struct {
	ID             string
	PersonID       string
	ConversationID string
	Started        time.Time
	// Ended is zero while the session is open.
	Ended      time.Time
	Checkpoint Checkpoint
}

// Checkpoint is the persisted part of a turn's state, saved at the end of
// every turn and loaded at the start of the next.
type Checkpoint struct {
	TurnCount int `json:"turn_count"`
	// PendingApproval is an action waiting for the person's yes or no.
	PendingApproval *Approval `json:"pending_approval,omitempty"`
	// CapabilityContext is per-capability state: type -> key -> fields.
	CapabilityContext map[string]map[string]map[string]string `json:"capability_context,omitempty"`
	// SessionMaxRisk is the highest crisis level seen in the session. It only
	// goes up within a session.
	SessionMaxRisk int `json:"session_max_risk"`
	// AskedSafetyQuestion is true when Haven's last reply asked directly about
	// suicidal thoughts or intent ("yes" means risk), so that the next message
	// can be read as its answer.
	AskedSafetyQuestion bool `json:"asked_safety_question,omitempty"`
	// AskedIfSafe is true when Haven's last reply asked whether the person
	// is safe or has someone with them, where "no" means danger.
	AskedIfSafe bool `json:"asked_if_safe,omitempty"`
	// LastReplyKeys are the ids of the scripted replies used most recently, so
	// that Haven does not say the same sentence twice in a row.
	LastReplyKeys []string `json:"last_reply_keys,omitempty"`
	// Slots hold each branch's own session state by branch name
	// ("therapy", "tasks"): opaque here, encoded and versioned by the branch
	// that owns it.
	Slots map[string]Slot `json:"slots,omitempty"`
}

// Slot is one branch's session state in a checkpoint. Storage keeps it as
// it is; the branch that wrote it reads it, by its version.
type Slot struct {
	Version int             `json:"v"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Approval is an action that waits for the person to confirm it.
type Approval struct {
	Action  string            `json:"action"`
	Args    map[string]string `json:"args,omitempty"`
	Prompt  string            `json:"prompt"`
	Expires time.Time         `json:"expires"`
}

// Role says who said a transcript entry.
type Role string

// The transcript roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Entry is one line of a session's transcript.
type Entry struct {
	SessionID string
	Role      Role
	Text      string
	// Crisis marks a turn the crisis gate took; such turns feed no memory
	// extraction.
	Crisis bool
	At     time.Time
}

// TurnRecord is everything a finished turn writes, committed atomically.
type TurnRecord struct {
	SessionID  string
	Checkpoint Checkpoint
	Entries    []Entry
	// Jobs are background jobs queued with the turn (its extraction),
	// due at the commit.
	Jobs []Job
	// EndSession ends the session at the commit (the person said
	// goodbye). When it was open until then and Episode is set, a
	// JobSessionEnd job for it is queued too.
	EndSession bool
	Episode    bool
	// Stat, when set, is the turn's de-identified row for /haven stats,
	// committed with it.
	Stat *TurnStat
	// Crisis, when set, is the turn's crisis-log row, written with the
	// turn so that a turn run again after a crash logs it once.
	Crisis *CrisisEvent
}

// TurnStat is one finished turn as /haven stats counts it: no person,
// session or conversation id, no text.
type TurnStat struct {
	Platform string
	// Route is the way the turn took (crisis, therapeutic, task, ...).
	Route string
	// Mode is the therapeutic mode, "" off that branch.
	Mode string
	// Level is the crisis gate's level, -1 when it did not run.
	Level int
	// Exercise is what happened to a guided exercise (started, finished,
	// ...), "" for nothing.
	Exercise string
	// Guarded is true when the output guard replaced a generated reply.
	Guarded bool
	At      time.Time
}

// Stats are de-identified counts over a time window (/haven stats).
type Stats struct {
	Since time.Time
	// Turns is the finished turns; People the distinct people who had a
	// session active in the window.
	Turns, People int
	// Routes, Modes and Exercises count turns by their route, therapeutic
	// mode and exercise event; Platforms by platform.
	Routes, Modes, Exercises, Platforms map[string]int
	// CrisisLevels counts crisis-log rows by level (1 to 3).
	CrisisLevels map[int]int
	// Guarded counts generated replies the output guard replaced.
	Guarded int
}

// Pending is a finished turn's record that is not committed yet: core
// hands it, as a channels.TurnWrites, to the Hub, whose outbox (the SQLite
// store) commits it with the turn's replies in one transaction.
type Pending interface {
	PendingTurn() TurnRecord
}

// CrisisEvent is one row of the crisis log. It holds opaque ids and the
// assessment, never message text.
type CrisisEvent struct {
	PersonID       string
	SessionID      string
	ConversationID string
	Platform       string
	Level          int
	Confidence     float64
	Reason         string
	Path           string
	Flags          []string
	At             time.Time
}

// AdminEvent is one row of the admin audit log.
type AdminEvent struct {
	// ActorID is the namespaced platform id of the admin who acted.
	ActorID string
	// Platform is the platform the command came from.
	Platform       string
	ConversationID string
	Command        string
	// Allowed is false when the command was denied.
	Allowed bool
	Detail  string
	At      time.Time
}

// Store keeps everything Haven remembers. Implementations are safe for
// concurrent use. Every method wraps its errors with what it was doing.
type Store interface {
	// ResolvePerson returns the person behind a namespaced platform user id,
	// creating the person and identity on first contact. display updates the
	// remembered display name when non-empty.
	ResolvePerson(ctx context.Context, platform, platformUserID, display string) (Person, error)
	// OpenSession returns the person's open session in the conversation,
	// starting one if there is none.
	OpenSession(ctx context.Context, personID, conversationID string, now time.Time) (Session, error)
	// ResetSession ends the open session in the conversation (if any) and
	// starts a new one.
	ResetSession(ctx context.Context, personID, conversationID string, now time.Time) (Session, error)
	// CommitTurn appends the turn's transcript entries, saves the
	// checkpoint, queues its jobs and ends the session when asked, in one
	// transaction.
	CommitTurn(ctx context.Context, rec TurnRecord) error
	// RecentEntries returns up to n of the session's latest transcript entries,
	// oldest first.
	RecentEntries(ctx context.Context, sessionID string, n int) ([]Entry, error)
	// LogCrisis appends a row to the crisis log.
	LogCrisis(ctx context.Context, ev CrisisEvent) error
	// AuditAdmin appends a row to the admin audit log.
	AuditAdmin(ctx context.Context, ev AdminEvent) error
	// Close releases the store.
	Close() error
}
