package core

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/havenbot/haven/internal/textmatch"

	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/core/therapy"
	"github.com/havenbot/haven/emotion"
	"github.com/havenbot/haven/llm"
)

// This file is the dispatch node: the one place that decides which branch
// answers a turn (therapeutic or task), with which mode, and whether the
// turn ends the session. Rules first, then the model when one is configured
// (one call, under a deadline, its JSON validated), then the default:
// supportive listening. Turn.ModeSource says which of the three chose.

// taskRequestRE is a person asking Haven to do something rather than to
// talk it through.
var taskRequestRE = textmatch.MustCompile(`(?i)\b(remind me|(log|record|track|note) (my|a) mood|set (a|an|up a) (reminder|alarm|timer)|schedule (a|an|my) (message|call|reminder|check-?in)|add (it|this|that) to my calendar|export (my|all my) (data|memories|conversations?)|delete (my|all my) (data|account|memories|history)|what do you (remember|know) about me|send (a )?(message|text|email) to|book (a|an) (appointment|table))\b`)

// maxDispatchReadBytes bounds how much of a message the task rule reads, as
// therapy's rules do: a 1 MB paste stays fast.
const maxDispatchReadBytes = 4000

// DefaultDispatchTimeout bounds the dispatch model call when
// Options.LLMDeadline is zero.
const DefaultDispatchTimeout = 3 * time.Second

// dispatch decides the branch and mode of the turn. A message the
// therapeutic branch claims (an exercise running or asked for, an offer
// answered, a question about Haven) stays therapeutic whatever it says; a
// request to do something goes to the task branch; the rest is therapeutic,
// with therapy's rules choosing the mode and the model asked only when no
// rule is confident.
func (e *Engine) dispatch(ctx context.Context, t *Turn) {
	// What the message says about feelings: read once, here, for the
	// branch that answers (the therapeutic reply meets it; the report
	// counts it). Crisis turns never get here: the gate answered them.
	t.Feeling = emotion.Read(t.In.Text)
	if c := t.Command; c != nil && c.Capability != "" {
		e.chooseTask(t, "command")
		return
	}
	in := therapy.DispatchInput{Text: t.In.Text, State: t.Therapy, TurnCount: t.Checkpoint.TurnCount, History: t.Lines}
	d, confident := therapy.Classify(in)
	if d.Claimed() && t.Tasks.Plan != nil {
		t.Tasks.Plan = nil // therapy holds the message: the question is dropped
	}
	switch {
	case !d.Claimed() && (taskRequest(t.In.Text) || e.taskAsked(t)):
		e.chooseTask(t, string(therapy.SourceRules))
		return
	case !confident && e.llm != nil:
		branch, md, err := e.dispatchByModel(ctx, t, d)
		switch {
		case err != nil:
			e.dispatchFallbacks.Add(1)
			e.logger(t).Warn("dispatch: model call failed; using the default mode", slog.String("session", t.Session.ID), slog.Any("err", err))
			d = therapy.Default(d)
		case branch == BranchTask:
			e.dispatchLLM.Add(1)
			e.chooseTask(t, string(therapy.SourceLLM))
			return
		default:
			e.dispatchLLM.Add(1)
			d = md
		}
	case !confident:
		d = therapy.Default(d)
	}
	t.Branch, t.ModeType = BranchTherapeutic, ModeTypeTherapeutic
	t.decision = &d
	t.Mode, t.Modality, t.ModeSource = d.Mode, d.Modality, string(d.Source)
	t.EndsSession = d.Closing()
}

func (e *Engine) chooseTask(t *Turn, source string) {
	t.Branch, t.ModeType, t.ModeSource = BranchTask, ModeTypeOperational, source
	t.Mode, t.Modality = "", therapy.ModalityNone
}

// taskAsked reports whether the message is for the task branch: the
// answer to its clarifying question, or a request a capability's rule
// recognises ("log my mood as 4").
func (e *Engine) taskAsked(t *Turn) bool {
	if e.taskBranch == nil {
		return false
	}
	if p := t.Tasks.Plan; p != nil && p.Waiting == tasks.WaitParam {
		return true
	}
	if len(t.In.Text) > maxDispatchReadBytes {
		return false
	}
	req := ruleRequest(e, t, t.In.Text)
	_, _, ok := e.taskBranch.MatchRules(&req)
	return ok
}

// taskRequest reports whether text asks Haven to do something.
func taskRequest(text string) bool {
	if len(text) > maxDispatchReadBytes {
		text = strings.ToValidUTF8(text[:maxDispatchReadBytes], "")
	}
	return taskRequestRE.MatchString(text)
}

var dispatchSchema = llm.Schema{Name: "haven_dispatch", JSON: json.RawMessage(`{
  "type": "object",
  "properties": {
    "branch": {"type": "string", "enum": ["therapeutic", "task"]},
    "mode": {"type": "string", "enum": ["supportive", "reflective", "clarifying", "psychoeducation", "closing"]},
    "modality": {"type": "string", "enum": ["mi", "cbt", "act", "dbt", "grief", "ipt", "pfa", "none"]}
  },
  "required": ["branch", "mode", "modality"],
  "additionalProperties": false
}`)}

var dispatchPrompt = `You route messages for Haven, an AI companion. Classify the person's latest message.
branch: "task" when they ask Haven to do something (a reminder, an export, a lookup), else "therapeutic".
` + therapy.ModelGuide + `
` + therapy.FenceNote + `
Answer with JSON only: {"branch": "...", "mode": "...", "modality": "..."}.`

// dispatchByModel asks the model for the branch and the therapeutic mode
// and validates its answer; d is what the rules found (its modality is
// kept).
func (e *Engine) dispatchByModel(ctx context.Context, t *Turn, d therapy.Decision) (Branch, therapy.Decision, error) {
	temp := float32(0)
	t.Diag.LLMCalls++
	resp, err := e.llm.Complete(ctx, llm.Request{
		Messages: therapy.Chat(dispatchPrompt, t.Lines, 4, t.In.Text), Schema: &dispatchSchema,
		MaxTokens: 60, Temperature: &temp, Timeout: e.dispatchTimeout,
	})
	if err != nil {
		return "", d, fmt.Errorf("dispatch call: %w", err)
	}
	t.Diag.Tokens += resp.PromptTokens + resp.CompletionTokens
	raw, err := llm.ExtractJSON(resp.Content)
	if err != nil {
		return "", d, fmt.Errorf("dispatch answer: %w", err)
	}
	var v struct {
		Branch   string `json:"branch"`
		Mode     string `json:"mode"`
		Modality string `json:"modality"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", d, fmt.Errorf("dispatch answer: %w", err)
	}
	switch Branch(v.Branch) {
	case BranchTask:
		return BranchTask, d, nil
	case BranchTherapeutic:
	default:
		return "", d, fmt.Errorf("dispatch answer: branch %q is not therapeutic or task", v.Branch)
	}
	md, err := d.WithModel(v.Mode, v.Modality)
	if err != nil {
		return "", d, fmt.Errorf("dispatch answer: %w", err)
	}
	return BranchTherapeutic, md, nil
}

// DispatchStats counts how dispatch used the model since the engine
// started.
type DispatchStats struct {
	// ByModel counts turns whose branch and mode the model chose.
	ByModel uint64
	// Fallbacks counts model calls that failed, timed out or answered
	// something invalid; the default mode answered.
	Fallbacks uint64
}

// DispatchStats returns a snapshot of the dispatch counters.
func (e *Engine) DispatchStats() DispatchStats {
	return DispatchStats{ByModel: e.dispatchLLM.Load(), Fallbacks: e.dispatchFallbacks.Load()}
}
