package therapy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/havenbot/haven/llm"
)

// Default deadlines for model calls.
const (
	DefaultDispatchTimeout = 3 * time.Second
	DefaultReplyTimeout    = 10 * time.Second
)

// shorterRunes caps a generated reply when the person asked for shorter
// replies.
const shorterRunes = 320

// Options configure a Therapist.
type Options struct {
	// LLM, when set, is asked for the mode when no rule is confident and
	// writes the replies; nil means scripted replies only.
	LLM llm.Client
	// DispatchTimeout bounds the dispatch call; zero means
	// DefaultDispatchTimeout.
	DispatchTimeout time.Duration
	// ReplyTimeout bounds the reply call; zero means DefaultReplyTimeout.
	ReplyTimeout time.Duration
	// Logger receives events (never message or reply text); nil means
	// slog.Default().
	Logger *slog.Logger
}

// Therapist is the therapeutic branch. It is safe for concurrent use.
type Therapist struct {
	llm             llm.Client
	dispatchTimeout time.Duration
	replyTimeout    time.Duration
	log             *slog.Logger

	replies, generated, fallbacks, guarded atomic.Uint64
	dispatchLLM, dispatchFallbacks         atomic.Uint64
	mu                                     sync.Mutex
	guardByRule                            map[string]uint64
}

// New returns a Therapist.
func New(opts Options) *Therapist {
	t := &Therapist{
		llm: opts.LLM, dispatchTimeout: opts.DispatchTimeout, replyTimeout: opts.ReplyTimeout,
		log: opts.Logger, guardByRule: map[string]uint64{},
	}
	if t.dispatchTimeout <= 0 {
		t.dispatchTimeout = DefaultDispatchTimeout
	}
	if t.replyTimeout <= 0 {
		t.replyTimeout = DefaultReplyTimeout
	}
	if t.log == nil {
		t.log = slog.Default()
	}
	return t
}

// Stats are the Therapist's counters since it started.
type Stats struct {
	// Replies counts every reply written.
	Replies uint64
	// Generated counts replies the model wrote that passed the guard.
	Generated uint64
	// Fallbacks counts model errors and timeouts answered by the scripted reply.
	Fallbacks uint64
	// GuardRejections counts generated replies the output guard replaced;
	// GuardByRule splits them by rule.
	GuardRejections uint64
	GuardByRule     map[string]uint64
	// DispatchLLM counts modes the model chose; DispatchFallbacks counts
	// dispatch calls that failed or returned invalid JSON.
	DispatchLLM, DispatchFallbacks uint64
}

// Stats returns a snapshot of the counters.
func (t *Therapist) Stats() Stats {
	t.mu.Lock()
	by := make(map[string]uint64, len(t.guardByRule))
	for k, v := range t.guardByRule {
		by[k] = v
	}
	t.mu.Unlock()
	return Stats{
		Replies: t.replies.Load(), Generated: t.generated.Load(), Fallbacks: t.fallbacks.Load(),
		GuardRejections: t.guarded.Load(), GuardByRule: by,
		DispatchLLM: t.dispatchLLM.Load(), DispatchFallbacks: t.dispatchFallbacks.Load(),
	}
}

// Dispatch picks the mode type, mode and modality: keyword and pattern rules
// first, then the model when one is configured (its JSON validated, under a
// deadline), then the default (supportive). It never fails.
func (t *Therapist) Dispatch(ctx context.Context, in DispatchInput) Decision {
	d, ok := classify(in)
	if ok {
		return d
	}
	if t.llm != nil {
		if m, err := t.dispatchLLMCall(ctx, in, &d); err == nil {
			t.dispatchLLM.Add(1)
			return m
		} else {
			t.dispatchFallbacks.Add(1)
			t.log.Warn("therapy: model dispatch failed; using the default mode", slog.Any("err", err))
		}
	}
	return defaultDecision(d)
}

var dispatchSchema = llm.Schema{Name: "haven_dispatch", JSON: json.RawMessage(`{
  "type": "object",
  "properties": {
    "mode_type": {"type": "string", "enum": ["therapeutic", "operational"]},
    "mode": {"type": "string", "enum": ["supportive", "reflective", "clarifying", "psychoeducation", "closing"]},
    "modality": {"type": "string", "enum": ["mi", "cbt", "act", "dbt", "grief", "ipt", "pfa", "none"]}
  },
  "required": ["mode_type", "mode", "modality"],
  "additionalProperties": false
}`)}

const dispatchPrompt = `You route messages for Haven, an AI companion. Classify the person's latest message.
mode_type: "operational" when they ask Haven to do a task (a reminder, an export, a lookup), else "therapeutic".
mode: "supportive" (they share something and need warmth), "reflective" (they describe their feelings or situation at some length), "clarifying" (their message is vague or unclear), "psychoeducation" (they ask how minds, bodies, sleep, stress or grief work), "closing" (they are saying goodbye).
modality: "mi" (ambivalence about a change), "cbt" (worry, stress, harsh or all-or-nothing thoughts), "act" (stuck thoughts, avoidance, values), "dbt" (intense emotions or urges), "grief" (a death or loss), "ipt" (relationships, conflicts, life changes, loneliness), "pfa" (a recent shocking event), "none".
Answer with JSON only: {"mode_type": "...", "mode": "...", "modality": "..."}.`

// dispatchLLMCall asks the model for the mode and validates its answer.
func (t *Therapist) dispatchLLMCall(ctx context.Context, in DispatchInput, d *Decision) (Decision, error) {
	temp := float32(0)
	msgs := chat(dispatchPrompt, in.History, 4, in.Text)
	d.LLMCalls++
	resp, err := t.llm.Complete(ctx, llm.Request{
		Messages: msgs, Schema: &dispatchSchema, MaxTokens: 60, Temperature: &temp, Timeout: t.dispatchTimeout,
	})
	if err != nil {
		return Decision{}, fmt.Errorf("dispatch call: %w", err)
	}
	d.Tokens += resp.PromptTokens + resp.CompletionTokens
	raw, err := llm.ExtractJSON(resp.Content)
	if err != nil {
		return Decision{}, fmt.Errorf("dispatch answer: %w", err)
	}
	var v struct {
		ModeType string `json:"mode_type"`
		Mode     string `json:"mode"`
		Modality string `json:"modality"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return Decision{}, fmt.Errorf("dispatch answer: %w", err)
	}
	out := *d
	switch ModeType(v.ModeType) {
	case ModeTypeTherapeutic, ModeTypeOperational:
		out.ModeType = ModeType(v.ModeType)
	default:
		return Decision{}, fmt.Errorf("dispatch answer: mode_type %q is not therapeutic or operational", v.ModeType)
	}
	// The model may not start an exercise: that takes the person's word.
	if m := Mode(v.Mode); slices.Contains(Modes, m) && m != ModeGuidedExercise {
		out.Mode = m
	} else {
		return Decision{}, fmt.Errorf("dispatch answer: mode %q is not one the model may choose", v.Mode)
	}
	if m := Modality(v.Modality); slices.Contains(Modalities, m) {
		if out.Modality == ModalityNone || out.Modality == "" {
			out.Modality = m
		}
	} else {
		return Decision{}, fmt.Errorf("dispatch answer: modality %q is unknown", v.Modality)
	}
	out.Source = SourceLLM
	switch {
	case out.ModeType == ModeTypeOperational:
		out.intent, out.Mode, out.Modality = intentOperational, ModeNone, ModalityNone
	case out.Mode == ModeClosing:
		out.intent = intentGoodbye
	case out.Mode == ModeClarifying:
		out.intent = intentVague
	default:
		out.intent = intentShare
	}
	return out, nil
}

// Respond writes the reply. With a model it generates from the plan's brief
// under the reply deadline and checks the result with Guard; on an error, a
// timeout or a guard failure the scripted reply answers and the event is
// counted. It never fails.
func (t *Therapist) Respond(ctx context.Context, req Request) Response {
	t.replies.Add(1)
	p := build(req)
	resp := p.response()
	if t.llm == nil || !p.generate {
		return resp
	}
	opts := GuardOptions{MaxRunes: req.MaxRunes, NoAdvice: p.style.justListen, NoQuestion: req.SafetyQuestion != ""}
	if opts.MaxRunes <= 0 {
		opts.MaxRunes = DefaultMaxRunes
	}
	if p.style.shorter {
		opts.MaxRunes = min(opts.MaxRunes, shorterRunes)
	}
	if req.SafetyQuestion != "" {
		// Room for the question appended after the generated words.
		opts.MaxRunes -= utf8.RuneCountInString(req.SafetyQuestion) + 1
	}
	scripted := resp.Text
	if req.SafetyQuestion != "" {
		scripted = strings.TrimSpace(strings.TrimSuffix(scripted, req.SafetyQuestion))
	}
	temp := float32(0.7)
	resp.LLMCalls++
	out, err := t.llm.Complete(ctx, llm.Request{
		Messages: p.messages(scripted, opts), MaxTokens: 400, Temperature: &temp, Timeout: t.replyTimeout,
	})
	if err != nil {
		t.fallbacks.Add(1)
		resp.Source = ReplyFallback
		t.log.Warn("therapy: model reply failed; the scripted reply answers",
			slog.Bool("timeout", errors.Is(err, context.DeadlineExceeded)), slog.Any("err", err))
		return resp
	}
	resp.Tokens += out.PromptTokens + out.CompletionTokens
	text := cleanGenerated(out.Content)
	if rule := Guard(text, opts); rule != "" {
		t.guarded.Add(1)
		t.mu.Lock()
		t.guardByRule[rule]++
		t.mu.Unlock()
		resp.Source, resp.GuardReason = ReplyGuarded, rule
		t.log.Warn("therapy: generated reply failed the output guard; the scripted reply answers", slog.String("rule", rule))
		return resp
	}
	if req.SafetyQuestion != "" {
		text += " " + req.SafetyQuestion
	}
	t.generated.Add(1)
	resp.Text, resp.Source = text, ReplyLLM
	return resp
}

// cleanGenerated strips what models wrap around a chat reply: surrounding
// quotes, a speaker label, extra blank space.
func cleanGenerated(s string) string {
	s = strings.TrimSpace(s)
	for _, p := range []string{"Haven:", "haven:", "Assistant:", "assistant:"} {
		s = strings.TrimSpace(strings.TrimPrefix(s, p))
	}
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"') {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}
