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

// therapeutic writes the supportive reply. At level 1 its closing
// question is the gate's one direct safety question, and the session stays
// open even after a goodbye. The reply carries one remembered thing (in a
// DM) and, when the gate flagged danger, the emergency number; therapy
// assembles it all with reply.Assemble.
func (e *Engine) therapeutic(ctx context.Context, t *Turn) {
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
		Feeling:        t.Feeling,
		FirstContact:   t.FirstContact,
		TurnCount:      cp.TurnCount,
		Name:           t.Name,
		History:        t.Lines,
		RecentKeys:     cp.LastReplyKeys,
		SessionMaxRisk: cp.SessionMaxRisk,
		State:          t.Therapy,
		Memory:         therapyMemory(t.Memory),
		Rules:          therapyRules(t.Memory),
		Decision:       t.decision,
		MaxRunes:       e.maxReplyRunes,
		Recall:         recall(t),
		Notice:         e.dangerNotice(t),
		Log:            t.log,
	}
	req.SafetyAnswer = clearSafetyAnswer(*cp, t.Assessment)
	if t.Assessment != nil && t.Assessment.NeedsClarification && !e.plainFarewell(t) {
		req.SafetyQuestion = safety.ClarifyingQuestion(cp.TurnCount)
		t.AskedSafetyQuestion = true
		t.EndsSession = false
	}
	if t.EndsSession && cp.SessionMaxRisk >= int(safety.LevelIdeation) {
		// Leaving a session in which Haven gave crisis resources: the
		// goodbye names the line again.
		req.Notice = joinNotice(req.Notice, safety.ReminderLine(e.country(t)))
	}
	r := e.therapist.Respond(ctx, req)
	t.Mode, t.Modality, t.Therapy = r.Mode, r.Modality, r.State
	t.ReplyKeys, t.ReplySource, t.ExerciseEvent = r.Keys, r.Source, r.Event
	t.Met, t.Answered = r.Met, r.Answered
	t.Diag.LLMCalls += r.LLMCalls
	t.Diag.Tokens += r.Tokens
	t.Diag.GuardRule = r.GuardReason
	t.Reply, t.ReplyKind = r.Text, channels.OutReply
	t.Out = append(t.Out, t.reply(channels.OutReply, r.Text))
}

// clearSafetyAnswer reports whether this message clearly answered the
// safety question Haven's last reply asked: the gate read it as a clear
// denial of thoughts or intent, or a clear "yes, I'm safe", and found no
// risk in it. cp is the checkpoint as the last turn left it.
func clearSafetyAnswer(cp memory.Checkpoint, a *safety.Assessment) bool {
	if a == nil || a.Level != safety.LevelNone || !(cp.AskedSafetyQuestion || cp.AskedIfSafe) {
		return false
	}
	for _, p := range a.Path {
		switch p {
		case "denial_after_question", "safe_after_question", "lang:safe_after_question":
			return true
		}
	}
	return false
}

// plainFarewell reports whether the turn is a plain goodbye in a session
// with no risk seen before it ("ok I need to go now, bye" as a first
// message): the warning sign the gate may read in "I need to go now" is the
// goodbye itself, so the reply is a warm goodbye, not a safety question.
// Any other warning sign in the message, or risk earlier in the session,
// keeps the question.
func (e *Engine) plainFarewell(t *Turn) bool {
	return t.EndsSession && t.priorRisk == 0 && t.Assessment != nil &&
		t.Assessment.Level == safety.LevelWarning && !t.Assessment.PartialReading &&
		therapy.PlainFarewell(t.In.Text)
}

// joinNotice joins safety lines into one notice.
func joinNotice(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// dangerNotice is the line an ordinary reply ends with when the gate
// flagged that the person is being hurt, or speaks of hurting someone: the
// emergency number for their country. "" otherwise.
func (e *Engine) dangerNotice(t *Turn) string {
	if t.Assessment == nil {
		return ""
	}
	if f := t.Assessment.Flags; f.AbuseOrDanger || f.HarmToOthers {
		return safety.DangerLine(*t.Assessment, e.country(t))
	}
	return ""
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
			items = append(items, therapy.MemoryItem{Kind: "fact", Text: en.Fact.Words(memory.AboutThem), Quote: en.Fact.Evidence})
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
	if t.Therapy.InExercise() {
		t.ExerciseEvent = "interrupted"
	}
	t.Therapy = therapy.AfterCrisis(t.Therapy)
}

// therapySlot is the checkpoint slot that holds the therapeutic branch's
// state.
const therapySlot = "therapy"

// loadTherapy decodes the therapy state from its checkpoint slot. A
// malformed or unknown slot is logged (no text) and read as empty: the
// person still gets a reply.
func (e *Engine) loadTherapy(t *Turn) {
	sl := t.Checkpoint.Slots[therapySlot]
	st, err := therapy.DecodeState(sl.Version, sl.Data)
	if err != nil {
		e.logger(t).Warn("therapy state unreadable; starting it afresh", slog.String("session", t.Session.ID), slog.Any("err", err))
	}
	t.Therapy = st
}

// saveTherapy returns cp with the therapy state encoded in its slot; the
// slot map is copied, never shared with the turn's checkpoint.
func (e *Engine) saveTherapy(t *Turn, cp memory.Checkpoint) memory.Checkpoint {
	v, data, err := t.Therapy.Encode()
	if err != nil {
		e.logger(t).Error("therapy state not saved", slog.String("session", t.Session.ID), slog.Any("err", err))
		return cp
	}
	return withSlot(cp, therapySlot, v, data)
}

// TherapyStats returns the therapeutic branch's counters: replies, model
// replies, fallbacks after model errors or timeouts, and output guard
// rejections by rule. They hold no text.
func (e *Engine) TherapyStats() therapy.Stats {
	return e.therapist.Stats()
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
