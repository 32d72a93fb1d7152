package core

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/havenbot/haven/core/therapy"
	"github.com/havenbot/haven/llm/llmtest"
)

// Without a model, dispatch decides by rules: a request to do something is
// the task branch unless therapy holds the message (an exercise running);
// everything else is therapeutic.
func TestDispatchByRulesPicksTheBranch(t *testing.T) {
	tests := []struct {
		text   string
		state  therapy.State
		branch Branch
		mt     ModeType
		ends   bool
	}{
		{"remind me to call mum at 6", therapy.State{}, BranchTask, ModeTypeOperational, false},
		{"can you export my data please", therapy.State{}, BranchTask, ModeTypeOperational, false},
		{"remind me to breathe", therapy.State{Exercise: "box_breathing", Step: "round-1"}, BranchTherapeutic, ModeTypeTherapeutic, false},
		{"I have been so stressed about work", therapy.State{}, BranchTherapeutic, ModeTypeTherapeutic, false},
		{"thanks, that helped. bye!", therapy.State{}, BranchTherapeutic, ModeTypeTherapeutic, true},
		{"I said bye to my sister at the station and cried", therapy.State{}, BranchTherapeutic, ModeTypeTherapeutic, false},
	}
	e := &Engine{log: slog.New(slog.DiscardHandler)}
	for _, tt := range tests {
		tr := &Turn{In: dm(tt.text), Therapy: tt.state}
		e.dispatch(context.Background(), tr)
		if tr.Branch != tt.branch || tr.ModeType != tt.mt || tr.EndsSession != tt.ends || tr.ModeSource != "rules" && tr.ModeSource != "default" {
			t.Errorf("%q: branch %s type %s ends %t source %s, want %s %s %t", tt.text, tr.Branch, tr.ModeType, tr.EndsSession, tr.ModeSource, tt.branch, tt.mt, tt.ends)
		}
	}
}

// A request no capability does gets the task branch's honest answer (the
// model was asked once and found none), and the turn is finalized like any
// other.
func TestATaskRequestGetsTheTaskBranchsHonestAnswer(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.SetDefault(llmtest.Reply{Content: `{"capability":"none","args":{}}`})
	e := newModelEngine(t, srv)
	tr := &Turn{In: dm("book a table for two at 7")}
	if err := e.runCommitted(context.Background(), tr); err != nil {
		t.Fatal(err)
	}
	want := []string{"gateway", "crisis_gate", "load_memory", "dispatch", "task", "finalize"}
	if got := tr.Diag.Path(); !slices.Equal(got, want) || tr.Reply != taskUnavailable || tr.Diag.LLMCalls != 1 {
		t.Errorf("path %v reply %q calls %d", got, tr.Reply, tr.Diag.LLMCalls)
	}
}

// When no rule is confident the model picks the branch and mode; its answer
// is validated, and a bad, late or failed answer takes the default.
func TestModelDispatchIsValidatedAndFallsBackToTheDefault(t *testing.T) {
	const text = "the weather turned on the way home"
	tests := []struct {
		name, content string
		branch        Branch
		mode          therapy.Mode
		modality      therapy.Modality
		source        string
	}{
		{"valid answer", `{"branch":"therapeutic","mode":"reflective","modality":"ipt"}`, BranchTherapeutic, therapy.ModeReflective, therapy.ModalityIPT, "llm"},
		{"answer in a fence", "```json\n{\"branch\":\"therapeutic\",\"mode\":\"psychoeducation\",\"modality\":\"none\"}\n```", BranchTherapeutic, therapy.ModePsychoeducation, therapy.ModalityNone, "llm"},
		{"a task", `{"branch":"task","mode":"supportive","modality":"none"}`, BranchTask, "", therapy.ModalityNone, "llm"},
		{"unknown branch", `{"branch":"shopping","mode":"supportive","modality":"none"}`, BranchTherapeutic, therapy.ModeSupportive, therapy.ModalityNone, "default"},
		{"unknown mode", `{"branch":"therapeutic","mode":"hypnosis","modality":"none"}`, BranchTherapeutic, therapy.ModeSupportive, therapy.ModalityNone, "default"},
		{"exercise is not the model's call", `{"branch":"therapeutic","mode":"guided_exercise","modality":"none"}`, BranchTherapeutic, therapy.ModeSupportive, therapy.ModalityNone, "default"},
		{"unknown modality", `{"branch":"therapeutic","mode":"supportive","modality":"emdr"}`, BranchTherapeutic, therapy.ModeSupportive, therapy.ModalityNone, "default"},
		{"not JSON", `I think it is supportive.`, BranchTherapeutic, therapy.ModeSupportive, therapy.ModalityNone, "default"},
		{"server error", "", BranchTherapeutic, therapy.ModeSupportive, therapy.ModalityNone, "default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			if tt.content == "" {
				srv.Enqueue(llmtest.Reply{Status: 500})
			} else {
				srv.Enqueue(llmtest.Reply{Content: tt.content})
			}
			e := newModelEngine(t, srv)
			tr := &Turn{In: dm(text)}
			e.dispatch(context.Background(), tr)
			if tr.Branch != tt.branch || tr.Mode != tt.mode || tr.Modality != tt.modality || tr.ModeSource != tt.source || tr.Diag.LLMCalls != 1 {
				t.Errorf("decision %s %s/%s/%s calls %d, want %s %s/%s/%s", tr.Branch, tr.Mode, tr.Modality, tr.ModeSource, tr.Diag.LLMCalls,
					tt.branch, tt.mode, tt.modality, tt.source)
			}
			rf := srv.Requests()[0].ResponseFormat
			if rf == nil || rf.SchemaName != "haven_dispatch" {
				t.Errorf("dispatch did not ask for the JSON schema: %+v", rf)
			}
			s := e.DispatchStats()
			if tt.source == "llm" && s.ByModel != 1 || tt.source == "default" && s.Fallbacks != 1 {
				t.Errorf("stats %+v", s)
			}
		})
	}
}

func TestModelDispatchTimeoutTakesTheDefault(t *testing.T) {
	srv := llmtest.NewServer(t)
	srv.Enqueue(llmtest.Reply{Hang: true})
	e := newModelEngineWithDeadline(t, srv, 50*time.Millisecond)
	tr := &Turn{In: dm("the weather turned on the way home")}
	e.dispatch(context.Background(), tr)
	if tr.ModeSource != "default" || tr.Mode != therapy.ModeSupportive || e.DispatchStats().Fallbacks != 1 {
		t.Fatalf("decision %s/%s stats %+v", tr.Mode, tr.ModeSource, e.DispatchStats())
	}
}
