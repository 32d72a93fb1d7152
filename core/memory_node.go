package core

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/reply"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/extract"
)

// loadWorkingMemory fills the turn's memory fields from the memory store:
// the person's settings always, and in a DM the working memory retrieved
// for the message and the name to use. A failure is logged; the turn goes
// on without memory.
func (e *Engine) loadWorkingMemory(ctx context.Context, t *Turn) {
	st, err := e.mem.Settings(ctx, t.Person.ID)
	if err != nil {
		e.logger(t).Warn("load memory settings failed", slog.String("person", t.Person.ID), slog.Any("err", err))
		// Fail towards privacy: remember nothing new this turn.
		st = memory.Settings{Paused: true}
	}
	t.MemorySettings = st
	if t.In.Conversation.Kind != channels.KindDM {
		return // memory is never used where others can read it
	}
	w, err := e.retriever.Retrieve(ctx, memory.Query{
		PersonID:  t.Person.ID,
		Text:      t.In.Text,
		Proactive: st.Proactive,
		CatchUp:   t.Checkpoint.TurnCount == 0,
	})
	if err != nil {
		e.logger(t).Warn("load working memory failed", slog.String("person", t.Person.ID), slog.Any("err", err))
		return
	}
	if w.VectorErr != nil {
		e.logger(t).Warn("memory: vector search unavailable this turn", slog.Any("err", w.VectorErr))
	}
	t.Memory = &w
	for _, en := range w.Entries {
		if en.Fact != nil && en.Fact.Predicate == memory.PredName && en.Fact.Subject == memory.Self {
			t.Name = en.Fact.Object
		}
	}
	for _, r := range w.Rules {
		if r.Key == "address" {
			t.Name = r.Text
		}
	}
	if name, ok := extract.AddressName(t.In.Text); ok {
		t.Name = name
	}
}

// recall returns one remembered fact the person's message brought up, or a
// catch-up on the last session, for the reply to carry lightly as a
// statement: only in a DM with proactive recall on, never a self-belief,
// and not the one recalled in the previous reply. reply.Assemble places it
// after a greeting and cuts it first when the reply is long.
func recall(t *Turn) reply.Part {
	if t.Memory == nil || !t.MemorySettings.Proactive || t.In.Conversation.Kind != channels.KindDM {
		return reply.Part{}
	}
	for _, en := range t.Memory.Entries {
		key := fmt.Sprintf("recall:%s:%d", en.Ref.Kind, en.Ref.ID)
		if en.Pinned || contains(t.Checkpoint.LastReplyKeys, key) {
			continue
		}
		var line string
		switch {
		case en.CatchUp && en.Episode != nil:
			line = catchUpLine(*en.Episode)
		case en.Matched && en.Fact != nil && en.Fact.SessionID != t.Session.ID:
			if en.Fact.Recallable() {
				line = "I remember " + en.Fact.Words(memory.ToThem) + "."
			}
		}
		if line != "" {
			return reply.Part{Text: line, Key: key}
		}
	}
	return reply.Part{}
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

func catchUpLine(ep memory.Episode) string {
	if len(ep.OpenLoops) > 0 {
		loop := strings.TrimPrefix(ep.OpenLoops[0], "wanted to ")
		loop = strings.NewReplacer(" their ", " your ", " them ", " you ", " themself", " yourself").Replace(" " + loop + " ")
		return "Last time you mentioned you wanted to " + strings.TrimSpace(loop) + "."
	}
	if len(ep.Themes) > 0 {
		return "Last time we talked about " + strings.Join(ep.Themes, " and ") + "."
	}
	return ""
}

// queueMemory adds to rec the background extraction of the turn and,
// when dispatch read a goodbye, the end of the session so its episode is
// written, all committed with the turn. Crisis turns, incognito, commands
// and turns without a memory store queue nothing.
func (e *Engine) queueMemory(t *Turn, rec *memory.TurnRecord) {
	if e.mem == nil || !t.MemoryLoaded || t.ReplyKind == channels.OutCrisis || t.MemorySettings.Paused || t.Command != nil {
		return
	}
	rec.Jobs = append(rec.Jobs, memory.Job{Kind: memory.JobTurn, PersonID: t.Person.ID, SessionID: t.Session.ID,
		Turn: rec.Checkpoint.TurnCount, Text: t.In.Text})
	if t.EndsSession {
		rec.EndSession, rec.Episode = true, true
	}
}

// sessionEnded queues the episode of t's person's session sessionID, which
// ended.
func (e *Engine) sessionEnded(ctx context.Context, t *Turn, sessionID string) {
	personID := t.Person.ID
	if e.mem == nil {
		return
	}
	if st, err := e.mem.Settings(ctx, personID); err == nil && st.Paused {
		return
	}
	if err := e.mem.Enqueue(ctx, memory.Job{Kind: memory.JobSessionEnd, PersonID: personID, SessionID: sessionID}); err != nil {
		e.logger(t).Error("queue episode failed", slog.String("session", sessionID), slog.Any("err", err))
		return
	}
	e.notifyMemory()
}

func (e *Engine) notifyMemory() {
	if e.memNotify != nil {
		e.memNotify()
	}
}
