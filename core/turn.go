package core

import (
	"log/slog"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/core/therapy"
	"github.com/havenbot/haven/emotion"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/safety"
)

// Branch is the part of the graph a turn takes after the crisis gate.
type Branch string

// The branches.
const (
	BranchNone        Branch = ""
	BranchTherapeutic Branch = "therapeutic"
	BranchTask        Branch = "task"
)

// ModeType is the kind of help a turn gives.
type ModeType string

// The mode types.
const (
	// ModeTypeTherapeutic: support, listening, exercises (BranchTherapeutic).
	ModeTypeTherapeutic ModeType = "therapeutic"
	// ModeTypeOperational: the person asks Haven to do something
	// (BranchTask).
	ModeTypeOperational ModeType = "operational"
)

// Turn is the state of one turn as it flows through the graph. Field groups
// follow DESIGN.md: input (this turn), session (persisted in the checkpoint),
// loaded (this turn, from the store), decided (this turn), output (this
// turn) and diagnostics (this turn, logged).
type Turn struct {
	// --- input: this turn
	In      channels.Inbound
	Person  memory.Person
	Session memory.Session
	Locale  string
	// FirstContact is true when Haven meets this person for the first time.
	FirstContact bool

	// --- session: persisted (checkpoint)
	Checkpoint memory.Checkpoint
	// Therapy is the therapeutic branch's session state, decoded from its
	// checkpoint slot at the gateway and encoded back at finalize.
	Therapy therapy.State
	// Tasks is the task branch's session state (the plan waiting on the
	// person), from its checkpoint slot; the capability context is
	// Checkpoint.CapabilityContext.
	Tasks tasks.State

	// --- loaded: this turn, from the store
	// History is the person's recent messages in this session, oldest first.
	History []memory.Entry
	// Lines is History as the therapeutic branch reads it (crisis turns
	// left out), built once when History is loaded.
	Lines []therapy.Line
	// MemoryLoaded is set once working memory has been loaded.
	MemoryLoaded bool
	// Name is how to address the person, empty for no name.
	Name string
	// Memory is the working memory retrieved for this turn (DMs only); nil
	// without a memory store or when retrieval failed.
	Memory *memory.Working
	// MemorySettings are the person's memory controls (incognito, recall).
	MemorySettings memory.Settings
	// ApprovalAnswer is "yes" or "no" when the message answers the
	// checkpoint's pending approval.
	ApprovalAnswer string
	// Channel is what operators set for the conversation (paused, policy).
	Channel channels.ChannelSettings

	// --- decided: this turn
	Command    *Command
	Assessment *safety.Assessment
	Branch     Branch
	Mode       therapy.Mode
	ModeSource string
	ModeType   ModeType
	Modality   therapy.Modality
	// Feeling is what the message says about feelings; the zero Reading
	// means it was not read.
	Feeling emotion.Reading
	// EndsSession is true when dispatch read a goodbye: finalize ends the
	// session so its episode is written. A safety question keeps it open.
	EndsSession bool
	// decision is dispatch's full result, read by the therapeutic node.
	decision *therapy.Decision
	// Country is the ISO country code crisis resources are chosen for.
	Country string
	// priorRisk is the session's highest crisis level before this message.
	priorRisk int

	// --- output: this turn
	Reply     string
	ReplyKind channels.OutKind
	ReplyKeys []string
	// ReplySource says who wrote a therapeutic reply: scripted, llm,
	// fallback (the model failed) or guarded (the output guard replaced it).
	ReplySource therapy.ReplySource
	// Met is the valence the therapeutic reply met ("" when it reflected
	// no feeling); Answered is true when it answered a direct question.
	Met      emotion.Valence
	Answered bool
	// ExerciseEvent is what happened to a guided exercise this turn
	// (started, advanced, exited, ...), "" for nothing.
	ExerciseEvent string
	// AskedSafetyQuestion is true when this turn's reply asks about suicidal
	// thoughts or intent ("yes" means risk); AskedIfSafe when it asks whether
	// the person is safe ("no" means danger).
	AskedSafetyQuestion bool
	AskedIfSafe         bool
	Out                 []channels.Outbound

	// --- control: where the turn is in the graph
	gatewayDone  bool
	commandDone  bool
	adminDone    bool
	crisisLogged bool
	// crisisEvent is the crisis-log row waiting to be written with the
	// turn (nil once finalize took it, or when there is none).
	crisisEvent *memory.CrisisEvent
	replied     bool
	finalized   bool
	// pending is what finalize leaves to commit (nil when nothing).
	pending      *pendingTurn
	approvalDone bool
	// askedApproval is set when this turn asked for a yes or no (a task
	// step or "forget everything" waits for it).
	askedApproval bool
	// taskReask is set at the gateway when a message is neither yes nor no
	// to a task's approval for the first time: the task node asks once
	// more. taskCancelNote is set when it is the second time: the step is
	// cancelled and the message is answered as usual after the note.
	taskReask      bool
	taskCancelNote string
	// taskOutcome is how the task branch ended the turn; taskFailure,
	// when set, is the failed step the error node answers.
	taskOutcome tasks.Kind
	taskFailure *taskFailure
	// Err is a failure that stops the ordinary path. The crisis gate still
	// runs after it, so a broken store never silences a crisis reply.
	Err error

	// --- diagnostics: this turn, logged
	Diag Diagnostics
	// id identifies the turn in logs and its report; log is the engine's
	// logger with the turn's id, for every log line of the turn.
	id  string
	log *slog.Logger
}

// Diagnostics is what a turn measured about itself.
type Diagnostics struct {
	Nodes       []NodeTiming
	StoreWrites int
	LLMCalls    int
	Tokens      int
	// GuardRule names the output guard rule a generated reply failed; no text.
	GuardRule string
}

// NodeTiming is the time one node took.
type NodeTiming struct {
	Node     Node
	Duration time.Duration
}

// Path returns the node names the turn visited, in order.
func (d Diagnostics) Path() []string {
	p := make([]string, len(d.Nodes))
	for i, n := range d.Nodes {
		p[i] = string(n.Node)
	}
	return p
}
