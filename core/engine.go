package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/core/therapy"
	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/safety"
)

// CrisisGate assesses a message for risk. safety.Gate implements it. Assess
// never fails: on any internal failure it returns a level no lower than its
// deterministic floor.
type CrisisGate interface {
	Assess(ctx context.Context, in safety.Input) safety.Assessment
}

// Options configure an Engine. Store and Gate are required.
type Options struct {
	Store memory.Store
	Gate  CrisisGate
	// DefaultCountry is the ISO code used for crisis resources when the person
	// has not said where they are and the locale has no region; empty means
	// the international fallback.
	DefaultCountry string
	// AlertConversation is the namespaced id of a private operators'
	// conversation told about every crisis turn (level 2 or 3), with opaque
	// ids and the assessment, never the message; empty sends no alerts.
	AlertConversation string
	// Clock returns the current time; nil means time.Now.
	Clock func() time.Time
	// Logger receives structured logs; nil means slog.Default().
	Logger *slog.Logger
	// MaxSteps bounds the nodes one turn may visit; zero means 16.
	MaxSteps int
	// HistoryTurns is how many earlier user messages of the session the crisis
	// gate reads; zero means 6.
	HistoryTurns int
	// LLM, when set, picks the branch and mode when no rule is confident
	// (dispatch) and writes therapeutic replies, each checked by the output
	// guard. nil means rules and scripted replies only.
	LLM llm.Client
	// LLMDeadline bounds each dispatch and reply model call; zero means
	// DefaultDispatchTimeout for dispatch and therapy.DefaultReplyTimeout
	// for replies.
	LLMDeadline time.Duration
	// MaxReplyRunes caps therapeutic replies (the platform's comfort); zero
	// means therapy.DefaultMaxRunes.
	MaxReplyRunes int
	// Memories, when set, gives Haven long-term memory: working memory
	// retrieved for each turn, post-turn extraction queued, and the memory
	// commands. memory/sqlite's Store implements it.
	Memories MemoryStore
	// Embedder, when set, adds vector search to retrieval.
	Embedder memory.Embedder
	// MemoryTokenBudget bounds the working memory of a turn; zero means
	// memory.DefaultTokenBudget.
	MemoryTokenBudget int
	// MemoryNotify, when set, is called after a memory job was queued (the
	// memory jobs runner's Notify).
	MemoryNotify func()
	// Admins are the namespaced platform user ids ("slack:T1:U2") allowed
	// to run admin commands, with anyone whose Author.PlatformAdmin is set
	// (the adapter's reading of the platform's own role, false when it
	// cannot be read). The console adapter marks its person an admin.
	Admins []string
	// Channels, when set, keeps each conversation's settings: pause and
	// policy. memory/sqlite's Store implements it.
	Channels ChannelControls
	// Stats, when set, answers /haven stats. memory/sqlite's Store
	// implements it.
	Stats StatsSource
	// CrisisLog, when set, answers /haven crisis. memory/sqlite's Store
	// implements it.
	CrisisLog CrisisLogReader
	// Reloader, when set, answers /haven reload (cmd/haven implements it).
	Reloader Reloader
	// People, when set, finds the person /haven forget-user names.
	// memory/sqlite's Store implements it.
	People PeopleFinder
	// Status, when set, answers /haven status (cmd/haven implements it).
	Status StatusSource
	// LiveWindow is how long an adapter may go unheard before status calls
	// it not live; zero means DefaultLiveWindow.
	LiveWindow time.Duration
	// Observe, when set, is called with each turn's report as the turn
	// ends, on the turn's goroutine (metrics count it); it must be quick
	// and safe for concurrent use.
	Observe func(TurnReport)
	// Tasks, when set, is the task branch's registry, used as it is; nil
	// means the built-in capabilities (registerTasks) for the stores and
	// lookups the other options provide.
	Tasks *tasks.Registry
	// ReminderWake, when set, is called after a reminder is set or moved
	// or a person resumes theirs (Scheduler.Wake), so the scheduler looks
	// at once; nil leaves it to the scheduler's poll.
	ReminderWake func()
}

// Engine runs turns. It is safe for concurrent use; the Hub guarantees that
// turns of one conversation do not run at once.
type Engine struct {
	store memory.Store
	gate  CrisisGate
	// defaultCountry holds the upper-case ISO code (a string), replaced by
	// SetDefaultCountry.
	defaultCountry  atomic.Value
	alert           *channels.Conversation
	now             func() time.Time
	log             *slog.Logger
	maxSteps        int
	historyTurns    int
	therapist       *therapy.Therapist
	llm             llm.Client
	dispatchTimeout time.Duration
	// dispatchLLM and dispatchFallbacks count dispatch's model use.
	dispatchLLM, dispatchFallbacks atomic.Uint64
	maxReplyRunes                  int
	mem                            MemoryStore
	retriever                      *memory.Retriever
	memNotify                      func()
	observe                        func(TurnReport)
	admins                         atomic.Pointer[map[string]bool]
	channels                       ChannelControls
	status                         StatusSource
	stats                          StatsSource
	people                         PeopleFinder
	reloader                       Reloader
	crisisRows                     CrisisLogReader
	liveWindow                     time.Duration
	// reminders keeps reminders and each person's zone, nil when the store
	// does not (no reminder capabilities then).
	reminders ReminderBackend
	// taskBranch runs the task branch (nil: no capabilities).
	taskBranch *tasks.Branch
}

// New returns an Engine, or an error naming the missing option.
func New(opts Options) (*Engine, error) {
	if opts.Store == nil {
		return nil, errors.New("core: Options.Store is required")
	}
	if opts.Gate == nil {
		return nil, errors.New("core: Options.Gate is required")
	}
	e := &Engine{
		store:           opts.Store,
		gate:            opts.Gate,
		now:             opts.Clock,
		log:             opts.Logger,
		maxSteps:        opts.MaxSteps,
		historyTurns:    opts.HistoryTurns,
		maxReplyRunes:   opts.MaxReplyRunes,
		mem:             opts.Memories,
		memNotify:       opts.MemoryNotify,
		observe:         opts.Observe,
		llm:             opts.LLM,
		dispatchTimeout: opts.LLMDeadline,
	}
	e.SetAdmins(opts.Admins)
	e.SetDefaultCountry(opts.DefaultCountry)
	if opts.Channels != nil {
		e.channels = opts.Channels
	}
	if opts.CrisisLog != nil {
		e.crisisRows = opts.CrisisLog
	}
	if opts.Reloader != nil {
		e.reloader = opts.Reloader
	}
	if opts.People != nil {
		e.people = opts.People
	}
	if opts.Stats != nil {
		e.stats = opts.Stats
	}
	if opts.Status != nil {
		e.status = opts.Status
	}
	e.liveWindow = opts.LiveWindow
	if e.liveWindow <= 0 {
		e.liveWindow = DefaultLiveWindow
	}
	if e.dispatchTimeout <= 0 {
		e.dispatchTimeout = DefaultDispatchTimeout
	}
	if opts.AlertConversation != "" {
		if _, _, _, ok := channels.SplitID(opts.AlertConversation); !ok {
			return nil, fmt.Errorf("core: alert conversation %q is not a namespaced id (platform:workspace:id)", opts.AlertConversation)
		}
		e.alert = &channels.Conversation{ID: opts.AlertConversation, Kind: channels.KindChannel}
	}
	if e.mem != nil {
		e.retriever = &memory.Retriever{Store: e.mem, Embedder: opts.Embedder, TokenBudget: opts.MemoryTokenBudget}
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.log == nil {
		e.log = slog.Default()
	}
	if e.maxSteps <= 0 {
		e.maxSteps = 16
	}
	if e.historyTurns <= 0 {
		e.historyTurns = 6
	}
	e.therapist = therapy.New(therapy.Options{
		LLM: opts.LLM, ReplyTimeout: opts.LLMDeadline, Logger: e.log,
	})
	reg, err := e.registerTasks(opts)
	if err != nil {
		return nil, err
	}
	if len(reg.All()) > 0 {
		e.taskBranch = tasks.NewBranch(reg, tasks.BranchOptions{LLM: opts.LLM, Timeout: e.dispatchTimeout})
	}
	return e, nil
}

// SetAdmins replaces the configured admins (Options.Admins), for the turns
// that start from now on: /haven reload applies a changed list this way.
func (e *Engine) SetAdmins(ids []string) {
	m := make(map[string]bool, len(ids))
	for _, id := range ids {
		m[id] = true
	}
	e.admins.Store(&m)
}

// SetDefaultCountry replaces Options.DefaultCountry for the turns that
// start from now on.
func (e *Engine) SetDefaultCountry(code string) {
	e.defaultCountry.Store(strings.ToUpper(code))
}

// ErrStepLimit is returned when a turn visits more nodes than the step
// limit allows: a routing loop.
var ErrStepLimit = errors.New("turn exceeded its step limit")

// Handle runs one turn for in and returns what to send back. It returns an
// error only when the turn could not produce a reply; a crisis reply is
// returned even when persisting the turn failed. Every log line the turn
// writes carries its id (the "turn" attribute), and Options.Observe gets
// its report.
func (e *Engine) Handle(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	outs, pending, err := e.handle(ctx, in)
	e.commit(ctx, pending)
	return outs, err
}

// commit commits a turn's writes itself (nil: nothing to commit).
func (e *Engine) commit(ctx context.Context, p *pendingTurn) {
	if p != nil {
		p.Committed(e.store.CommitTurn(ctx, p.rec))
	}
}

// HandleDeferred runs a turn as Handle does but leaves the turn's own
// writes (transcript, checkpoint, memory jobs, the end of the session)
// uncommitted: writes is a memory.Pending, for the Hub to commit with the
// turn's replies in one transaction (channels.DeferredHandler). writes is
// nil when the turn has nothing left to commit.
func (e *Engine) HandleDeferred(ctx context.Context, in channels.Inbound) ([]channels.Outbound, channels.TurnWrites, error) {
	outs, pending, err := e.handle(ctx, in)
	if pending == nil {
		return outs, nil, err
	}
	return outs, pending, err
}

// handle runs the turn and returns its replies and its writes, not yet
// committed.
func (e *Engine) handle(ctx context.Context, in channels.Inbound) ([]channels.Outbound, *pendingTurn, error) {
	in.Text = strings.ToValidUTF8(in.Text, "\uFFFD")
	t := &Turn{In: in, Locale: in.Locale, id: newTurnID()}
	t.log = e.log.With(slog.String("turn", t.id))
	start := time.Now()
	err := e.run(ctx, t)
	if t.crisisEvent != nil && ctx.Err() == nil {
		// The turn ended without finalize: the row is written on its own.
		// (A turn the drain cut short is not recorded and runs again at
		// the next start, which logs it then.)
		e.writeCrisisLog(ctx, t, *t.crisisEvent)
		t.crisisEvent = nil
	}
	if e.observe != nil {
		e.observe(t.report(time.Since(start), err))
	}
	if err != nil {
		return nil, nil, err
	}
	e.logTurn(t)
	if t.Err != nil && len(t.Out) == 0 {
		return nil, nil, t.Err
	}
	offerAnswers(t)
	return t.Out, t.pending, nil
}

// approvalChoices are the buttons under a question that waits for a yes
// or no; pressing one says the word, as typing it would.
var approvalChoices = []channels.Choice{{Label: "Yes", Text: "yes"}, {Label: "No", Text: "no"}}

// offerAnswers puts Yes and No buttons under the last reply of a turn that
// asked for an approval (the platforms that have buttons show them), for
// the turn's author alone: the approval is theirs, so in a group nobody
// else may answer it with a press.
func offerAnswers(t *Turn) {
	if !t.askedApproval || t.Checkpoint.PendingApproval == nil {
		return
	}
	for i := len(t.Out) - 1; i >= 0; i-- {
		if t.Out[i].Kind == channels.OutReply && t.Out[i].File == nil {
			t.Out[i].Choices = approvalChoices
			t.Out[i].ChoicesFor = t.In.Author.ID
			return
		}
	}
}

var _ channels.DeferredHandler = (*Engine)(nil)

// run drives the graph until the router says end.
func (e *Engine) run(ctx context.Context, t *Turn) error {
	for step := 0; ; step++ {
		n := route(t)
		if n == NodeEnd {
			return nil
		}
		if step >= e.maxSteps {
			return fmt.Errorf("%w (%d steps, last node %s)", ErrStepLimit, step, n)
		}
		start := time.Now()
		if err := e.node(ctx, n, t); err != nil {
			return fmt.Errorf("turn node %s: %w", n, err)
		}
		t.Diag.Nodes = append(t.Diag.Nodes, NodeTiming{Node: n, Duration: time.Since(start)})
	}
}

// node runs one node. A node returns an error only for a bug (the turn cannot
// go on at all); failures the graph can route around go in t.Err.
func (e *Engine) node(ctx context.Context, n Node, t *Turn) error {
	switch n {
	case NodeGateway:
		ctx, end := readScope(ctx, e.store)
		defer end()
		e.gateway(ctx, t)
	case NodeCommand:
		e.command(ctx, t)
	case NodeAdmin:
		e.admin(ctx, t)
	case NodeRedirect:
		e.redirect(t)
	case NodeApproval:
		e.approval(ctx, t)
	case NodeCrisisGate:
		e.crisisGate(ctx, t)
	case NodeCrisisLog:
		e.crisisLog(ctx, t)
	case NodeCrisisReply:
		e.crisisReply(t)
	case NodeLoadMemory:
		if e.retriever == nil || e.retriever.Embedder == nil { // no model call inside a scope
			ctx, end := readScope(ctx, e.mem)
			defer end()
			e.loadMemory(ctx, t)
			break
		}
		e.loadMemory(ctx, t)
	case NodeDispatch:
		e.dispatch(ctx, t)
	case NodeTherapeutic:
		e.therapeutic(ctx, t)
	case NodeTask:
		e.task(ctx, t)
	case NodeTaskError:
		e.taskError(t)
	case NodeFinalize:
		e.finalize(ctx, t)
	default:
		return fmt.Errorf("unknown node %q", n)
	}
	return nil
}

// readScoper is a store whose reads can share one read transaction
// (memory/sqlite's Store.ReadScope): a node's reads then see one snapshot
// and cost one transaction. A scope is held only by the nodes whose work
// between reads is the engine's own (gateway, load memory without an
// embedder): never across a model call.
type readScoper interface {
	ReadScope(ctx context.Context) (context.Context, func())
}

// readScope returns ctx with a read scope of store, if store has them, and
// the function that ends it.
func readScope(ctx context.Context, store any) (context.Context, func()) {
	if rs, ok := store.(readScoper); ok {
		return rs.ReadScope(ctx)
	}
	return ctx, func() {}
}

func (e *Engine) logTurn(t *Turn) {
	if !t.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	attrs := []any{
		slog.String("platform", t.In.Platform),
		slog.String("person", t.Person.ID),
		slog.String("session", t.Session.ID),
		slog.Any("path", t.Diag.Path()),
		slog.Int("store_writes", t.Diag.StoreWrites),
		slog.Int("runes", utf8.RuneCountInString(t.In.Text)),
	}
	if t.Assessment != nil {
		attrs = append(attrs, slog.Int("crisis_level", int(t.Assessment.Level)))
	}
	for _, nt := range t.Diag.Nodes {
		attrs = append(attrs, slog.Duration("ms_"+string(nt.Node), nt.Duration))
	}
	t.log.Debug("turn", attrs...)
}

// replyLimit is the length limit of an ordinary reply, in runes.
func (e *Engine) replyLimit() int {
	if e.maxReplyRunes > 0 {
		return e.maxReplyRunes
	}
	return therapy.DefaultMaxRunes
}
