package tasks

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/llm/llmtest"
)

var noteRE = regexp.MustCompile(`(?i)^note(?: down)?(?: (.+))?$`)

// testRegistry has a note capability (a rule, a required param, writes the
// "note" context type), a sensitive wipe (approval), and a capability that
// always fails after trying to change the context.
func testRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry()
	must := func(c Capability) {
		if err := r.Register(c); err != nil {
			t.Fatal(err)
		}
	}
	must(Capability{
		Name: "note.add", Description: "Keep a note.", Command: "note", Usage: "/note buy milk",
		Params: []Param{{Name: "text", Description: "the note", Required: true, Ask: "What should the note say?"}},
		Writes: []string{"note"},
		Match: func(req *Request) (Args, bool) {
			m := noteRE.FindStringSubmatch(strings.TrimSpace(req.Text))
			if m == nil {
				return nil, false
			}
			return Args{"text": m[1]}, true
		},
		Execute: func(_ context.Context, req *Request, a Args) (Result, error) {
			req.Context.Put("note", "n1", map[string]string{"text": a["text"]})
			return Result{Text: "Noted: " + a["text"]}, nil
		},
	})
	must(Capability{
		Name: "note.wipe", Description: "Delete every note.", Reads: []string{"note"},
		Examples: []string{"delete my notes"},
		Approval: func(Args) (string, bool) { return "Delete every note?", true },
		Match: func(req *Request) (Args, bool) {
			return Args{}, strings.EqualFold(strings.TrimSpace(req.Text), "wipe notes")
		},
		Execute: func(_ context.Context, req *Request, _ Args) (Result, error) {
			delete(req.Context, "note")
			return Result{Text: "All notes deleted."}, nil
		},
	})
	must(Capability{
		Name: "note.broken", Description: "Fails.",
		Match: func(req *Request) (Args, bool) { return Args{}, req.Text == "break" },
		Execute: func(_ context.Context, req *Request, _ Args) (Result, error) {
			req.Context.Put("note", "n1", map[string]string{"text": "half-done"})
			return Result{}, errors.New("store down")
		},
	})
	return r
}

func request(text string, cc Context) Request {
	return Request{Text: text, Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), PersonID: "p1", Private: true, Context: cc}
}

func TestRunByRulesExecutesAndUpdatesAContextCopy(t *testing.T) {
	b := NewBranch(testRegistry(t), BranchOptions{})
	cc := Context{}
	out := b.Run(context.Background(), Input{Request: request("note down buy milk", cc)})
	if out.Kind != KindDone || out.Text != "Noted: buy milk" || out.Source != "rules" {
		t.Fatalf("outcome %+v", out)
	}
	if out.Context.Get("note", "n1")["text"] != "buy milk" {
		t.Fatalf("context %v", out.Context)
	}
	if len(cc) != 0 {
		t.Fatalf("Run changed the input context: %v", cc)
	}
	if k, f, ok := out.Context.Latest("note"); !ok || k != "n1" || f["text"] != "buy milk" {
		t.Fatalf("Latest = %s %v %t", k, f, ok)
	}
}

func TestMissingRequiredParamAsksThenTheAnswerFillsIt(t *testing.T) {
	b := NewBranch(testRegistry(t), BranchOptions{})
	out := b.Run(context.Background(), Input{Request: request("note", Context{})})
	if out.Kind != KindClarify || out.Text != "What should the note say?" || out.Plan == nil || out.Plan.Asked != "text" {
		t.Fatalf("outcome %+v", out)
	}
	again := b.Run(context.Background(), Input{Request: request("call the dentist", out.Context), Plan: out.Plan})
	if again.Kind != KindDone || again.Text != "Noted: call the dentist" || again.Plan != nil {
		t.Fatalf("answer outcome %+v", again)
	}
	cancelled := b.Run(context.Background(), Input{Request: request("never mind", out.Context), Plan: out.Plan})
	if cancelled.Kind != KindCancelled || len(cancelled.Context) != 0 {
		t.Fatalf("cancel outcome %+v", cancelled)
	}
}

func TestAnAnswerTheRuleReadsWithTheRequestFillsAPlanSavedWithoutArgs(t *testing.T) {
	b := NewBranch(testRegistry(t), BranchOptions{})
	// A rule that matched without arguments ("log my mood") left a step
	// with empty args, which the checkpoint does not encode.
	asked := &Plan{Text: "note", Steps: []Step{{Capability: "note.add", Args: Args{}}}, Waiting: WaitParam, Asked: "text", Question: "What should the note say?"}
	v, data, err := State{Plan: asked}.Encode()
	if err != nil {
		t.Fatal(err)
	}
	st, err := DecodeState(v, data)
	if err != nil || st.Plan.Steps[0].Args != nil {
		t.Fatalf("decoded plan %+v, %v; want a step without args", st.Plan, err)
	}
	// "note" + "down call the dentist" is read by the rule as a whole.
	again := b.Run(context.Background(), Input{Request: request("down call the dentist", Context{}), Plan: st.Plan})
	if again.Kind != KindDone || again.Text != "Noted: call the dentist" {
		t.Fatalf("answer outcome %+v", again)
	}
}

func TestCommandGoesStraightToItsCapability(t *testing.T) {
	b := NewBranch(testRegistry(t), BranchOptions{})
	out := b.Run(context.Background(), Input{Request: request("", Context{}), Command: "note.add"})
	if out.Kind != KindClarify || out.Source != "command" {
		t.Fatalf("bare command: %+v", out)
	}
}

func TestApprovalWaitsAndResumeRunsOrCancels(t *testing.T) {
	b := NewBranch(testRegistry(t), BranchOptions{})
	cc := Context{}
	cc.Put("note", "n1", map[string]string{"text": "x"})
	out := b.Run(context.Background(), Input{Request: request("wipe notes", cc)})
	if out.Kind != KindApproval || out.Plan.Waiting != WaitApproval || !strings.HasPrefix(out.Text, "Delete every note?") {
		t.Fatalf("outcome %+v", out)
	}
	if out.Context.Get("note", "n1") == nil {
		t.Fatal("the step ran before its approval")
	}
	no := b.Resume(context.Background(), request("no", cc), out.Plan, false)
	if no.Kind != KindCancelled || no.Context.Get("note", "n1") == nil {
		t.Fatalf("no: %+v", no)
	}
	yes := b.Resume(context.Background(), request("yes", cc), out.Plan, true)
	if yes.Kind != KindDone || yes.Text != "All notes deleted." || yes.Context.Get("note", "n1") != nil {
		t.Fatalf("yes: %+v", yes)
	}
	q, p := Reask(out.Plan)
	if !p.Reasked || out.Plan.Reasked || !strings.Contains(q, "Delete every note?") {
		t.Fatalf("Reask = %q %+v", q, p)
	}
}

func TestAFailingStepLeavesTheContextAsItWas(t *testing.T) {
	b := NewBranch(testRegistry(t), BranchOptions{})
	cc := Context{}
	cc.Put("note", "n1", map[string]string{"text": "kept"})
	out := b.Run(context.Background(), Input{Request: request("break", cc)})
	if out.Kind != KindFailed || out.Err == nil || !strings.Contains(out.Err.Error(), "note.broken") {
		t.Fatalf("outcome %+v", out)
	}
	if got := out.Context.Get("note", "n1")["text"]; got != "kept" {
		t.Fatalf("context after failure: %q", got)
	}
}

func TestAPanickingCapabilityIsAFailedStep(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(Capability{Name: "boom", Description: "Panics.",
		Match:   func(*Request) (Args, bool) { return Args{}, true },
		Execute: func(context.Context, *Request, Args) (Result, error) { panic("bug") }}); err != nil {
		t.Fatal(err)
	}
	out := NewBranch(r, BranchOptions{}).Run(context.Background(), Input{Request: request("x", Context{})})
	if out.Kind != KindFailed {
		t.Fatalf("outcome %+v", out)
	}
}

func modelBranch(t *testing.T, srv *llmtest.Server, timeout time.Duration) *Branch {
	t.Helper()
	c, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), Model: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return NewBranch(testRegistry(t), BranchOptions{LLM: c, Timeout: timeout})
}

func TestModelExtractionIsCheckedAgainstTheRegistry(t *testing.T) {
	tests := []struct {
		name  string
		reply llmtest.Reply
		kind  Kind
		text  string
	}{
		{"valid choice", llmtest.Reply{Content: `{"capability":"note.add","args":{"text":"water the plants"}}`}, KindDone, "Noted: water the plants"},
		{"valid choice missing its param asks", llmtest.Reply{Content: `{"capability":"note.add","args":{}}`}, KindClarify, "What should the note say?"},
		{"sensitive choice waits for approval", llmtest.Reply{Content: "```json\n{\"capability\":\"note.wipe\",\"args\":{}}\n```"}, KindApproval, ""},
		{"none", llmtest.Reply{Content: `{"capability":"none","args":{}}`}, KindNoTask, ""},
		{"unregistered capability", llmtest.Reply{Content: `{"capability":"bank.transfer","args":{}}`}, KindNoTask, ""},
		{"a param the capability does not have", llmtest.Reply{Content: `{"capability":"note.add","args":{"text":"x","to":"bob"}}`}, KindNoTask, ""},
		{"a param that is not a string", llmtest.Reply{Content: `{"capability":"note.add","args":{"text":3}}`}, KindNoTask, ""},
		{"broken JSON", llmtest.Reply{Content: `{"capability": "note.add", "args": {`}, KindNoTask, ""},
		{"model down", llmtest.Reply{Status: 503}, KindNoTask, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			srv.Enqueue(tt.reply)
			out := modelBranch(t, srv, 5*time.Second).Run(context.Background(), Input{Request: request("could you jot something for me", Context{}), History: []string{"person: hi"}})
			if out.Kind != tt.kind || tt.text != "" && out.Text != tt.text || out.ModelCalls != 1 {
				t.Fatalf("outcome %+v", out)
			}
			if tt.kind == KindNoTask && tt.name != "none" && out.Err == nil {
				t.Fatal("a rejected answer has no error for the log")
			}
			if tt.name == "unregistered capability" && !errors.Is(out.Err, ErrUnknownCapability) {
				t.Fatalf("err = %v, want ErrUnknownCapability", out.Err)
			}
			reqs := srv.Requests()
			if rf := reqs[0].ResponseFormat; rf == nil || rf.SchemaName != "haven_task" || !strings.Contains(string(rf.Schema), `"note.wipe"`) {
				t.Fatalf("response format %+v", rf)
			}
		})
	}
}

func TestModelTimeoutEndsAtTheDeadline(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Hang: true})
	out := modelBranch(t, srv, 50*time.Millisecond).Run(context.Background(), Input{Request: request("could you jot something", Context{})})
	if out.Kind != KindNoTask || out.Err == nil {
		t.Fatalf("outcome %+v", out)
	}
}

func TestRulesWinWithoutCallingTheModel(t *testing.T) {
	srv := llmtest.NewServer(t)
	out := modelBranch(t, srv, time.Second).Run(context.Background(), Input{Request: request("note buy milk", Context{})})
	if out.Kind != KindDone || len(srv.Requests()) != 0 {
		t.Fatalf("outcome %+v, %d model calls", out, len(srv.Requests()))
	}
}

func TestPromptNamesTheLatestContextForReferences(t *testing.T) {
	cc := Context{}
	cc.Put("note", "n7", map[string]string{"text": "walk"})
	p := testRegistry(t).prompt(cc)
	if !strings.Contains(p, `latest note (what "that" may mean): key n7 text="walk"`) || !strings.Contains(p, "note.wipe: Delete every note.") {
		t.Fatalf("prompt:\n%s", p)
	}
}

func TestStateRoundTripsAndRejectsBadSlots(t *testing.T) {
	st := State{Plan: &Plan{Text: "wipe notes", Steps: []Step{{Capability: "note.wipe"}}, Waiting: WaitApproval, Question: "Delete?"}}
	v, data, err := st.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeState(v, data)
	if err != nil || got.Plan == nil || got.Plan.Question != "Delete?" || got.Plan.Steps[0].Capability != "note.wipe" {
		t.Fatalf("DecodeState = %+v, %v", got, err)
	}
	if _, data, _ := (State{}).Encode(); data != nil {
		t.Fatal("empty state encodes to data")
	}
	for name, tc := range map[string]struct {
		v    int
		data string
	}{
		"unknown version": {9, `{}`}, "malformed": {1, `{`}, "step out of range": {1, `{"plan":{"steps":[],"current":0}}`},
	} {
		if _, err := DecodeState(tc.v, []byte(tc.data)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestContextCloneIsDeepAndDeleteForgetsLatest(t *testing.T) {
	c := Context{}
	c.Put("note", "a", map[string]string{"text": "1"})
	d := c.Clone()
	d.Get("note", "a")["text"] = "2"
	if c.Get("note", "a")["text"] != "1" {
		t.Fatal("Clone shares fields")
	}
	c.Delete("note", "a")
	if _, _, ok := c.Latest("note"); ok {
		t.Fatal("Latest returns a deleted key")
	}
}
