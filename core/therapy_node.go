package core

import (
	"context"
	"log/slog"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/therapy"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/safety"
)

// This file holds the therapeutic branch's side of the engine: dispatch, the
// therapeutic reply, and what a crisis turn does to a running exercise. The
// decisions themselves live in core/therapy.

// dispatchTherapy picks the mode type, mode and modality. Until the task
// branch exists every turn takes the therapeutic branch; an operational
// request gets an honest scripted answer there.
func (e *Engine) dispatchTherapy(ctx context.Context, t *Turn) {
	t.Branch = BranchTherapeutic
	d := e.therapist.Dispatch(ctx, therapy.DispatchInput{
		Text:      t.In.Text,
		Exercise:  t.Checkpoint.ExerciseType,
		Step:      t.Checkpoint.ExerciseStep,
		State:     e.therapyState(t),
		TurnCount: t.Checkpoint.TurnCount,
		History:   historyLines(t.History),
	})
	t.decision = &d
	t.ModeType, t.Mode, t.Modality, t.ModeSource = d.ModeType, d.Mode, d.Modality, string(d.Source)
	t.Diag.LLMCalls += d.LLMCalls
	t.Diag.Tokens += d.Tokens
}

// respondTherapy writes the therapeutic reply and moves the session's
// therapy state (stage, exercise and step, the rest in Extra) into the
// checkpoint that finalize saves.
func (e *Engine) respondTherapy(ctx context.Context, t *Turn) {
	t.replied = true
	cp := &t.Checkpoint
	if a := t.Assessment; a != nil && a.PartialReading && !a.NeedsCrisisResponse {
		// The gate read this message only partly (another language, no
		// model): say so plainly and name where help is, instead of an
		// everyday reply in English.
		t.Reply, t.ReplyKind = safety.PartialReadingNotice(*a, cp.TurnCount, nil), channels.OutReply
		t.Out = append(t.Out, t.reply(channels.OutReply, t.Reply))
		return
	}
	req := therapy.Request{
		Text:           t.In.Text,
		FirstContact:   t.FirstContact,
		TurnCount:      cp.TurnCount,
		Name:           t.Name,
		History:        historyLines(t.History),
		RecentKeys:     cp.LastReplyKeys,
		SessionMaxRisk: cp.SessionMaxRisk,
		Stage:          therapy.Stage(cp.Stage),
		Exercise:       cp.ExerciseType,
		Step:           cp.ExerciseStep,
		State:          e.therapyState(t),
		Memory:         therapyMemory(t.Memory),
		Rules:          therapyRules(t.Memory),
		Decision:       t.decision,
		MaxRunes:       e.maxReplyRunes,
	}
	if t.Assessment != nil && t.Assessment.NeedsClarification {
		req.SafetyQuestion = safety.ClarifyingQuestion(cp.TurnCount)
		t.AskedSafetyQuestion = true
	}
	r := e.therapist.Respond(ctx, req)
	t.ModeType, t.Mode, t.Modality, t.Stage = r.ModeType, r.Mode, r.Modality, r.Stage
	t.ReplyKeys, t.ReplySource, t.ExerciseEvent = r.Keys, r.Source, r.Event
	t.Diag.LLMCalls += r.LLMCalls
	t.Diag.Tokens += r.Tokens
	t.Diag.GuardRule = r.GuardReason
	cp.Stage, cp.ExerciseType, cp.ExerciseStep = string(r.Stage), r.Exercise, r.Step
	e.saveTherapyState(t, r.State)
	r.Text = withRecall(t, r.Text)
	if f := t.Assessment.Flags; f.AbuseOrDanger || f.HarmToOthers {
		// Being hurt, or speaking of hurting someone: the ordinary reply
		// also names the emergency number.
		r.Text += " " + safety.DangerLine(*t.Assessment, e.country(t))
	}
	t.Reply, t.ReplyKind = r.Text, channels.OutReply
	t.Out = append(t.Out, t.reply(channels.OutReply, r.Text))
}

// therapyMemory formats working memory for the therapeutic branch: each
// entry as a sentence, with the person's own words as its quote.
func therapyMemory(w *memory.Working) []therapy.MemoryItem {
	if w == nil {
		return nil
	}
	items := make([]therapy.MemoryItem, 0, len(w.Entries))
	for _, en := range w.Entries {
		switch {
		case en.Fact != nil:
			items = append(items, therapy.MemoryItem{Kind: "fact", Text: en.Fact.Sentence(), Quote: en.Fact.Evidence})
		case en.Episode != nil:
			items = append(items, therapy.MemoryItem{Kind: "episode", Text: en.Text()})
		}
	}
	return items
}

// therapyRules returns the person's style rules in their words. The
// "address" rule is the name to use, already in Turn.Name.
func therapyRules(w *memory.Working) []string {
	if w == nil {
		return nil
	}
	rules := make([]string, 0, len(w.Rules))
	for _, r := range w.Rules {
		if r.Key != "address" {
			rules = append(rules, r.Text)
		}
	}
	return rules
}

// interruptTherapy runs on a crisis turn: the crisis reply wins, any
// exercise or offer is dropped (remembered as interrupted, never resumed on
// its own) and the session moves to the stabilizing stage.
func (e *Engine) interruptTherapy(t *Turn) {
	cp := &t.Checkpoint
	if cp.ExerciseType != "" && cp.ExerciseStep != therapy.StepOffered {
		t.ExerciseEvent = "interrupted"
	}
	stage, ex, step, st := therapy.AfterCrisis(cp.ExerciseType, cp.ExerciseStep, e.therapyState(t))
	cp.Stage, cp.ExerciseType, cp.ExerciseStep = string(stage), ex, step
	t.Stage = stage
	e.saveTherapyState(t, st)
}

// therapyState reads the therapy state from the checkpoint. A malformed
// value is logged (no text) and read as empty: the person still gets a reply.
func (e *Engine) therapyState(t *Turn) therapy.State {
	st, err := therapy.LoadState(t.Checkpoint.Extra)
	if err != nil {
		e.log.Warn("therapy state unreadable; starting it afresh", slog.String("session", t.Session.ID), slog.Any("err", err))
	}
	return st
}

func (e *Engine) saveTherapyState(t *Turn, st therapy.State) {
	extra, err := therapy.SaveState(t.Checkpoint.Extra, st)
	if err != nil {
		e.log.Error("therapy state not saved", slog.String("session", t.Session.ID), slog.Any("err", err))
		return
	}
	t.Checkpoint.Extra = extra
}

// historyLines turns the session's recent transcript into therapy lines,
// leaving out crisis turns: their text is not sent to a model.
func historyLines(entries []memory.Entry) []therapy.Line {
	var out []therapy.Line
	for _, en := range entries {
		if en.Crisis {
			continue
		}
		out = append(out, therapy.Line{User: en.Role == memory.RoleUser, Text: en.Text})
	}
	return out
}

// TherapyStats returns the therapeutic branch's counters: replies, model
// replies, fallbacks after model errors or timeouts, and output guard
// rejections by rule. They hold no text.
func (e *Engine) TherapyStats() therapy.Stats {
	return e.therapist.Stats()
}
