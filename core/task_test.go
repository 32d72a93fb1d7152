package core

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/llm/llmtest"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

var noteRE = regexp.MustCompile(`(?i)^(?:/note|note(?: down)?)(?:\s+(.+))?$`)

// noteRegistry is a registry of test capabilities on a store of notes: a
// note (a rule, a command, a required param), a sensitive wipe (needs
// approval) and a step whose store write fails.
func noteRegistry(t testing.TB, notes *[]string) *tasks.Registry {
	t.Helper()
	r := tasks.NewRegistry()
	must := func(c tasks.Capability) {
		if err := r.Register(c); err != nil {
			t.Fatal(err)
		}
	}
	must(tasks.Capability{
		Name: "note.add", Description: "Keep a note.", Command: "note", Usage: "/note buy milk",
		Examples: []string{"note down buy milk"},
		Params:   []tasks.Param{{Name: "text", Description: "the note", Required: true, Ask: "What should the note say?"}},
		Writes:   []string{"note"},
		Match: func(req *tasks.Request) (tasks.Args, bool) {
			m := noteRE.FindStringSubmatch(strings.TrimSpace(req.Text))
			if m == nil {
				return nil, false
			}
			return tasks.Args{"text": m[1]}, true
		},
		Execute: func(_ context.Context, req *tasks.Request, a tasks.Args) (tasks.Result, error) {
			*notes = append(*notes, a["text"])
			req.Context.Put("note", "last", map[string]string{"text": a["text"]})
			return tasks.Result{Text: "Noted: " + a["text"]}, nil
		},
	})
	must(tasks.Capability{
		Name: "note.wipe", Description: "Delete every note.", Reads: []string{"note"},
		Approval: func(tasks.Args) (string, bool) { return "Delete every note?", true },
		Match: func(req *tasks.Request) (tasks.Args, bool) {
			return tasks.Args{}, strings.EqualFold(strings.TrimSpace(req.Text), "clear all the notes")
		},
		Execute: func(_ context.Context, req *tasks.Request, _ tasks.Args) (tasks.Result, error) {
			*notes = nil
			req.Context.Delete("note", "last")
			return tasks.Result{Text: "All notes deleted."}, nil
		},
	})
	must(tasks.Capability{
		Name: "note.edit", Description: "Change the note just written.", Reads: []string{"note"}, Writes: []string{"note"},
		Params: []tasks.Param{{Name: "text", Description: "the new text", Required: true, Ask: "What should it say instead?"}},
		Match: func(req *tasks.Request) (tasks.Args, bool) {
			rest, ok := strings.CutPrefix(strings.TrimSpace(req.Text), "change that to ")
			return tasks.Args{"text": rest}, ok
		},
		Execute: func(_ context.Context, req *tasks.Request, a tasks.Args) (tasks.Result, error) {
			key, f, ok := req.Context.Latest("note")
			if !ok {
				return tasks.Result{Text: "I don't have a note to change."}, nil
			}
			old := f["text"]
			req.Context.Put("note", key, map[string]string{"text": a["text"]})
			return tasks.Result{Text: "Changed " + old + " to " + a["text"] + "."}, nil
		},
	})
	must(tasks.Capability{
		Name: "note.sync", Description: "Copy the notes somewhere.",
		Match: func(req *tasks.Request) (tasks.Args, bool) {
			return tasks.Args{}, strings.EqualFold(strings.TrimSpace(req.Text), "sync my notes")
		},
		Execute: func(_ context.Context, req *tasks.Request, _ tasks.Args) (tasks.Result, error) {
			req.Context.Put("note", "last", map[string]string{"text": "half-done"})
			return tasks.Result{}, errors.New("store: disk I/O error")
		},
	})
	return r
}

// taskEngine returns an engine on the SQLite file path with the note
// capabilities.
func taskEngine(t *testing.T, path string, notes *[]string, opts ...func(*Options)) *Engine {
	t.Helper()
	e, _ := taskEngineStore(t, path, notes, opts...)
	return e
}

// taskEngineStore is taskEngine with its store, for a test that closes it
// to start another engine on the same file (a restart).
func taskEngineStore(t *testing.T, path string, notes *[]string, opts ...func(*Options)) (*Engine, *sqlite.Store) {
	t.Helper()
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	o := Options{Store: store, Gate: safety.NewGate(safety.GateOptions{}), Logger: slog.New(slog.DiscardHandler), Tasks: noteRegistry(t, notes)}
	for _, f := range opts {
		f(&o)
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return e, store
}

// turn runs one committed turn and returns it.
func turn(t *testing.T, e *Engine, text string) *Turn {
	t.Helper()
	tr := &Turn{In: dm(text), id: "t"}
	tr.log = e.log
	if err := e.runCommitted(context.Background(), tr); err != nil {
		t.Fatalf("turn %q: %v", text, err)
	}
	return tr
}

// savedCheckpoint reads the DM session's checkpoint from the store.
func savedCheckpoint(t *testing.T, e *Engine) memory.Checkpoint {
	t.Helper()
	ctx := context.Background()
	p, err := e.store.ResolvePerson(ctx, "test", "test::alice", "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := e.store.OpenSession(ctx, p.ID, "test::dm-1", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return s.Checkpoint
}

func TestATaskRunsByRulesAndItsContextIsSaved(t *testing.T) {
	var notes []string
	e := taskEngine(t, filepath.Join(t.TempDir(), "haven.db"), &notes)
	tr := turn(t, e, "note down buy milk")
	want := []string{"gateway", "crisis_gate", "load_memory", "dispatch", "task", "finalize"}
	if got := tr.Diag.Path(); !slices.Equal(got, want) || tr.Reply != "Noted: buy milk" || tr.Branch != BranchTask || tr.ModeSource != "rules" {
		t.Fatalf("path %v reply %q branch %s source %s", got, tr.Reply, tr.Branch, tr.ModeSource)
	}
	if !slices.Equal(notes, []string{"buy milk"}) {
		t.Fatalf("notes %v", notes)
	}
	cp := savedCheckpoint(t, e)
	if got := tasks.Context(cp.CapabilityContext).Get("note", "last")["text"]; got != "buy milk" {
		t.Fatalf("saved capability context %v", cp.CapabilityContext)
	}
}

func TestAMissingParamIsAskedForAndTheNextMessageAnswersIt(t *testing.T) {
	var notes []string
	e := taskEngine(t, filepath.Join(t.TempDir(), "haven.db"), &notes)
	if tr := turn(t, e, "note"); tr.Reply != "What should the note say?" {
		t.Fatalf("reply %q", tr.Reply)
	}
	if tr := turn(t, e, "call the dentist on Monday"); tr.Reply != "Noted: call the dentist on Monday" || tr.Branch != BranchTask {
		t.Fatalf("reply %q branch %s", tr.Reply, tr.Branch)
	}
	if cp := savedCheckpoint(t, e); cp.Slots[tasksSlot].Data != nil {
		t.Fatalf("the answered plan is still saved: %s", cp.Slots[tasksSlot].Data)
	}
}

func TestAnApprovalSurvivesARestart(t *testing.T) {
	tests := []struct {
		name    string
		answers []string
		wiped   bool
		last    string
	}{
		{"yes runs it", []string{"yes"}, true, "All notes deleted."},
		{"no cancels it", []string{"no"}, false, "Okay, I won't do that. Nothing has changed."},
		{"anything else asks once more, then yes runs it", []string{"what do you mean", "yes"}, true, "All notes deleted."},
		{"anything else twice cancels it", []string{"what do you mean", "I'm not sure about any of this"}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "haven.db")
			var notes []string
			e, store := taskEngineStore(t, path, &notes)
			turn(t, e, "note buy milk")
			if tr := turn(t, e, "clear all the notes"); !strings.HasPrefix(tr.Reply, "Delete every note?") {
				t.Fatalf("approval question %q", tr.Reply)
			}
			var tr *Turn
			for i, a := range tt.answers {
				if err := store.Close(); err != nil { // a restart before each answer
					t.Fatal(err)
				}
				e, store = taskEngineStore(t, path, &notes)
				tr = turn(t, e, a)
				if i < len(tt.answers)-1 && !strings.Contains(tr.Reply, "Delete every note?") {
					t.Fatalf("unclear answer %q got %q, want the question once more", a, tr.Reply)
				}
			}
			if wiped := len(notes) == 0; wiped != tt.wiped {
				t.Fatalf("notes %v, want wiped %t", notes, tt.wiped)
			}
			if tt.last != "" && tr.Reply != tt.last {
				t.Fatalf("reply %q, want %q", tr.Reply, tt.last)
			}
			if tt.last == "" {
				// Cancelled: the note first, then the message answered as usual.
				if len(tr.Out) != 2 || tr.Out[0].Text != taskCancelledNote || tr.Branch != BranchTherapeutic {
					t.Fatalf("out %+v branch %s", tr.Out, tr.Branch)
				}
			}
			cp := savedCheckpoint(t, e)
			if cp.PendingApproval != nil || cp.Slots[tasksSlot].Data != nil {
				t.Fatalf("approval still pending: %+v %s", cp.PendingApproval, cp.Slots[tasksSlot].Data)
			}
		})
	}
}

func TestACrisisDropsAPendingApprovalSoAYesNeverRunsIt(t *testing.T) {
	var notes []string
	e := taskEngine(t, filepath.Join(t.TempDir(), "haven.db"), &notes)
	turn(t, e, "note buy milk")
	turn(t, e, "clear all the notes")
	if tr := turn(t, e, "I want to kill myself"); tr.ReplyKind != channels.OutCrisis {
		t.Fatalf("kind %s", tr.ReplyKind)
	}
	turn(t, e, "yes")
	if len(notes) != 1 {
		t.Fatalf("a yes after the crisis reply ran the wipe: notes %v", notes)
	}
}

func TestAFailingStepAnswersKindlyAndChangesNothing(t *testing.T) {
	var notes []string
	e := taskEngine(t, filepath.Join(t.TempDir(), "haven.db"), &notes)
	turn(t, e, "note buy milk")
	tr := turn(t, e, "sync my notes")
	want := []string{"gateway", "crisis_gate", "load_memory", "dispatch", "task", "task_error", "finalize"}
	if got := tr.Diag.Path(); !slices.Equal(got, want) || tr.Reply != taskFailedReply {
		t.Fatalf("path %v reply %q", got, tr.Reply)
	}
	if got := tasks.Context(savedCheckpoint(t, e).CapabilityContext).Get("note", "last")["text"]; got != "buy milk" {
		t.Fatalf("the failed step changed the context: %q", got)
	}
}

func TestDispatchSendsTasksToTheTaskBranchAndFeelingsToTherapy(t *testing.T) {
	var notes []string
	e := taskEngine(t, filepath.Join(t.TempDir(), "haven.db"), &notes)
	tests := []struct {
		text   string
		branch Branch
	}{
		{"note down buy milk", BranchTask},
		{"/note buy bread", BranchTask},
		{"remind me to take a walk at 6", BranchTask},
		{"log my mood as 4", BranchTask},
		{"I forgot to take my meds and feel awful", BranchTherapeutic},
		{"I keep notes on everything and it's exhausting", BranchTherapeutic},
	}
	for _, tt := range tests {
		if tr := turn(t, e, tt.text); tr.Branch != tt.branch {
			t.Errorf("%q went to %s, want %s (reply %q)", tt.text, tr.Branch, tt.branch, tr.Reply)
		}
	}
}

func TestCapabilityCommands(t *testing.T) {
	var notes []string
	e := taskEngine(t, filepath.Join(t.TempDir(), "haven.db"), &notes)
	// A pure command skips the crisis gate, like other pure commands.
	tr := turn(t, e, "/note")
	if got := tr.Diag.Path(); !slices.Equal(got, []string{"gateway", "task", "finalize"}) || tr.Reply != "What should the note say?" {
		t.Fatalf("path %v reply %q", got, tr.Reply)
	}
	tr = turn(t, e, "/note   pay rent")
	if tr.Reply != "Noted: pay rent" || tr.Assessment == nil {
		t.Fatalf("reply %q assessed %t", tr.Reply, tr.Assessment != nil)
	}
	if tr := turn(t, e, "/help"); !strings.Contains(tr.Reply, "/note buy milk: Keep a note") {
		t.Fatalf("/help does not list the capability: %q", tr.Reply)
	}
	if tr := turn(t, e, "/frobnicate"); !strings.Contains(tr.Reply, "/note") {
		t.Fatalf("unknown command reply does not name /note: %q", tr.Reply)
	}
	// Crisis words after the command get the crisis reply; nothing is
	// written.
	tr = turn(t, e, "/note I am going to kill myself tonight")
	if tr.ReplyKind != channels.OutCrisis || len(notes) != 1 {
		t.Fatalf("kind %s notes %v", tr.ReplyKind, notes)
	}
}

func modelTaskEngine(t *testing.T, srv *llmtest.Server, notes *[]string, deadline time.Duration) *Engine {
	t.Helper()
	c, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), Model: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return taskEngine(t, filepath.Join(t.TempDir(), "haven.db"), notes, func(o *Options) { o.LLM, o.LLMDeadline = c, deadline })
}

// byCall answers the dispatch call and the task extraction call by their
// schema, so the order of calls does not matter.
func byCall(srv *llmtest.Server, task llmtest.Reply) {
	srv.HandleFunc(func(r llmtest.ChatRequest) (llmtest.Reply, bool) {
		if r.ResponseFormat == nil {
			return llmtest.Reply{Content: "Of course."}, true
		}
		switch r.ResponseFormat.SchemaName {
		case "haven_dispatch":
			return llmtest.Reply{Content: `{"branch":"task","mode":"supportive","modality":"none"}`}, true
		case "haven_task":
			return task, true
		}
		return llmtest.Reply{}, false
	})
}

func TestTheModelPicksACapabilityWhenNoRuleDoes(t *testing.T) {
	const text = "keep a note that the plants need water"
	tests := []struct {
		name  string
		reply llmtest.Reply
		want  string
	}{
		{"valid choice", llmtest.Reply{Content: `{"capability":"note.add","args":{"text":"the plants need water"}}`}, "Noted: the plants need water"},
		{"choice with its param missing asks", llmtest.Reply{Content: `{"capability":"note.add","args":{}}`}, "What should the note say?"},
		{"unregistered capability", llmtest.Reply{Content: `{"capability":"shell.exec","args":{}}`}, taskUnavailable},
		{"broken JSON", llmtest.Reply{Content: `{"capability":`}, taskUnavailable},
		{"model down", llmtest.Reply{Status: 500}, taskUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			byCall(srv, tt.reply)
			var notes []string
			tr := turn(t, modelTaskEngine(t, srv, &notes, 5*time.Second), text)
			if tr.Branch != BranchTask || tr.Reply != tt.want {
				t.Fatalf("branch %s reply %q, want %q", tr.Branch, tr.Reply, tt.want)
			}
		})
	}
}

func TestAModelPastItsDeadlineStillGetsAnAnswer(t *testing.T) {
	srv := llmtest.NewServer(t)
	byCall(srv, llmtest.Reply{Hang: true})
	var notes []string
	tr := turn(t, modelTaskEngine(t, srv, &notes, 50*time.Millisecond), "keep a note that the plants need water")
	if tr.Reply != taskUnavailable || len(notes) != 0 {
		t.Fatalf("reply %q notes %v", tr.Reply, notes)
	}
}

func TestAnExpiredApprovalIsDroppedAndAYesDoesNothing(t *testing.T) {
	var notes []string
	now := time.Date(2026, 1, 14, 12, 0, 0, 0, time.UTC)
	e := taskEngine(t, filepath.Join(t.TempDir(), "haven.db"), &notes, func(o *Options) { o.Clock = func() time.Time { return now } })
	turn(t, e, "note buy milk")
	turn(t, e, "clear all the notes")
	now = now.Add(approvalTTL + time.Minute)
	if tr := turn(t, e, "yes"); tr.Branch == BranchTask || len(notes) != 1 {
		t.Fatalf("an expired approval ran: branch %s notes %v", tr.Branch, notes)
	}
	if cp := savedCheckpoint(t, e); cp.PendingApproval != nil || cp.Slots[tasksSlot].Data != nil {
		t.Fatalf("expired approval still saved: %+v", cp.PendingApproval)
	}
}

// "Change that" after a restart is resolved against the capability
// context the earlier turn saved.
func TestAReferenceBackIsResolvedAgainstTheSavedContextAfterARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "haven.db")
	var notes []string
	e, store := taskEngineStore(t, path, &notes)
	turn(t, e, "note buy milk")
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	e, _ = taskEngineStore(t, path, &notes)
	if tr := turn(t, e, "change that to buy oat milk"); tr.Reply != "Changed buy milk to buy oat milk." {
		t.Fatalf("reply %q", tr.Reply)
	}
}
