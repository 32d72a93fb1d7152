package core

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/therapy"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/safety"
)

// gateway resolves the person and their session and parses a command.
func (e *Engine) gateway(ctx context.Context, t *Turn) {
	t.gatewayDone = true
	t.Command = parseCommand(t.In.Text)
	p, err := e.store.ResolvePerson(ctx, t.In.Platform, t.In.Author.ID, t.In.Author.Display)
	if err != nil {
		t.Err = fmt.Errorf("resolve person: %w", err)
		return
	}
	t.Person, t.FirstContact = p, p.FirstSeen
	s, err := e.store.OpenSession(ctx, p.ID, t.In.Conversation.ID, e.now())
	if err != nil {
		t.Err = fmt.Errorf("open session for person %s: %w", p.ID, err)
		return
	}
	t.Session, t.Checkpoint = s, s.Checkpoint
	e.loadTherapy(t)
	e.loadTasks(t)
	e.loadChannel(ctx, t)
	if c := t.Command; c != nil && !c.builtin() {
		c.Capability = e.capabilityCommand(c.Name)
	}
	if t.Command == nil && e.isAdmin(t) && (t.In.MentionsBot || !t.In.Conversation.Kind.Public()) {
		t.Command = plainAdminCommand(t.In.Text)
	}
	if t.Command == nil {
		t.Command = plainMemoryCommand(t.In.Text)
	}
	e.checkApproval(t)
}

// crisisGate assesses the message, with a window of the person's recent
// messages in this session. Session risk only goes up.
func (e *Engine) crisisGate(ctx context.Context, t *Turn) {
	var history []string
	if t.Err == nil {
		entries, err := e.store.RecentEntries(ctx, t.Session.ID, 2*e.historyTurns)
		if err != nil {
			// The gate still runs on the message alone; the window is a help,
			// not a precondition.
			e.logger(t).Warn("crisis gate: history unavailable", slog.String("session", t.Session.ID), slog.Any("err", err))
		}
		t.History, t.Lines = entries, historyLines(entries)
		for _, en := range entries {
			if en.Role == memory.RoleUser {
				history = append(history, en.Text)
			}
		}
		if len(history) > e.historyTurns {
			history = history[len(history)-e.historyTurns:]
		}
	}
	a := e.gate.Assess(ctx, safety.Input{
		Text:                t.In.Text,
		History:             history,
		AskedSafetyQuestion: t.Checkpoint.AskedSafetyQuestion,
		AskedIfSafe:         t.Checkpoint.AskedIfSafe,
		Answered:            t.Therapy.SafetyAnswered,
	})
	t.Assessment = &a
	t.priorRisk = t.Checkpoint.SessionMaxRisk
	if int(a.Level) > t.Checkpoint.SessionMaxRisk {
		t.Checkpoint.SessionMaxRisk = int(a.Level)
	}
}

// crisisLog records an assessment at level 1 or above, with no message
// text. The row is written with the turn's other writes (finalize), so a
// turn run again after a crash logs it once; a turn that ends without
// finalizing writes it at its end (see handle). A failure is logged and
// does not stop the crisis reply.
func (e *Engine) crisisLog(ctx context.Context, t *Turn) {
	t.crisisLogged = true
	a := t.Assessment
	ev := memory.CrisisEvent{
		PersonID:       t.Person.ID,
		SessionID:      t.Session.ID,
		ConversationID: t.In.Conversation.ID,
		Platform:       t.In.Platform,
		Level:          int(a.Level),
		Confidence:     a.Confidence,
		Reason:         a.Reason,
		Path:           strings.Join(a.Path, ","),
		Flags:          a.Flags.Names(),
		At:             e.now(),
	}
	t.crisisEvent = &ev
	e.logger(t).Info("crisis assessment", slog.String("session", t.Session.ID), slog.Int("crisis_level", ev.Level),
		slog.String("path", ev.Path), slog.Any("flags", ev.Flags))
}

// crisisReply answers a person at level 2 or 3 (or worried about someone who
// is) with a safe-messaging reply and resources for their country. In a
// group or public channel the reply goes privately to the person and the
// channel gets a short, kind note.
func (e *Engine) crisisReply(t *Turn) {
	t.replied = true
	t.Branch = BranchNone
	t.Country = e.country(t)
	public := t.In.Conversation.Kind.Public()
	r := safety.CrisisReply(safety.ReplyInput{
		Assessment: *t.Assessment,
		Country:    t.Country,
		Public:     public,
		Variant:    t.Checkpoint.TurnCount,
		FollowUp:   lastReplyWasCrisis(t.History),
	})
	t.Reply, t.ReplyKind = r.Text, channels.OutCrisis
	t.AskedSafetyQuestion, t.AskedIfSafe = r.AsksSafetyQuestion, r.AsksIfSafe
	e.interruptTherapy(t)
	t.dropTask()
	if public {
		t.Out = append(t.Out, channels.Outbound{
			Platform: t.In.Platform, Conversation: t.In.Conversation, Kind: channels.OutCrisis,
			Private: true, Recipient: t.In.Author.ID, Text: r.Text,
		})
		if r.PublicNote != "" && !t.Channel.Paused {
			t.Out = append(t.Out, t.reply(channels.OutCrisis, r.PublicNote))
		}
	} else {
		t.Out = append(t.Out, t.reply(channels.OutCrisis, r.Text))
	}
	e.operatorAlert(t)
}

// operatorAlert tells the operators' private conversation about a crisis
// turn: platform, level, rule path and opaque ids, never the message or the
// person's name. It goes out after the person's reply.
func (e *Engine) operatorAlert(t *Turn) {
	if e.alert == nil {
		return
	}
	platform, _, _, _ := channels.SplitID(e.alert.ID)
	a := t.Assessment
	text := fmt.Sprintf("Crisis alert: level %d (%s) on %s in a %s conversation. Person %s, session %s. Rules: %s.",
		a.Level, a.Level, t.In.Platform, t.In.Conversation.Kind, orUnknown(t.Person.ID), orUnknown(t.Session.ID), strings.Join(a.Path, ", "))
	if flags := a.Flags.Names(); len(flags) > 0 {
		text += " Flags: " + strings.Join(flags, ", ") + "."
	}
	text += " Haven has answered with crisis resources; no message text is shared here."
	t.Out = append(t.Out, channels.Outbound{Platform: platform, Conversation: *e.alert, Kind: channels.OutCrisis, Text: text})
}

func orUnknown(id string) string {
	if id == "" {
		return "unknown (store unavailable)"
	}
	return id
}

// lastReplyWasCrisis reports whether Haven's latest reply in the session
// was a crisis reply: the person already has the full list of resources.
func lastReplyWasCrisis(history []memory.Entry) bool {
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role == memory.RoleAssistant {
			return history[i].Crisis
		}
	}
	return false
}

// country picks the country for crisis resources: what the person said in
// this message or the recent ones, then the platform locale, then the
// configured default.
func (e *Engine) country(t *Turn) string {
	if c, ok := safety.DetectCountry(t.In.Text, ""); ok {
		return c
	}
	for i := len(t.History) - 1; i >= 0; i-- {
		if t.History[i].Role != memory.RoleUser {
			continue
		}
		if c, ok := safety.DetectCountry(t.History[i].Text, ""); ok {
			return c
		}
	}
	if c, ok := safety.DetectCountry("", t.Locale); ok {
		return c
	}
	return e.defaultCountry.Load().(string)
}

// loadMemory fills the turn's working memory. In this version that is how to
// address the person (in a DM only: a name is not repeated in public);
// remembered facts and episodes join it with the memory store's retrieval.
func (e *Engine) loadMemory(ctx context.Context, t *Turn) {
	t.MemoryLoaded = true
	if t.In.Conversation.Kind == channels.KindDM {
		if f := strings.Fields(t.Person.Display); len(f) > 0 {
			t.Name = f[0]
		}
	}
	if e.mem != nil {
		e.loadWorkingMemory(ctx, t)
	}
}

// finalize appends the turn to the transcript and saves the checkpoint in
// one transaction. Crisis turns are marked so that no memory is extracted
// from them. A failure is logged; the reply still goes out.
func (e *Engine) finalize(ctx context.Context, t *Turn) {
	t.finalized = true
	now := e.now()
	crisis := t.ReplyKind == channels.OutCrisis
	cp := e.saveTasks(t, e.saveTherapy(t, t.Checkpoint))
	cp.TurnCount++
	cp.AskedSafetyQuestion, cp.AskedIfSafe = t.AskedSafetyQuestion, t.AskedIfSafe
	if len(t.ReplyKeys) > 0 {
		cp.LastReplyKeys = t.ReplyKeys
	}
	rec := memory.TurnRecord{
		SessionID:  t.Session.ID,
		Checkpoint: cp,
		Entries: []memory.Entry{
			{SessionID: t.Session.ID, Role: memory.RoleUser, Text: t.In.Text, Crisis: crisis, At: t.In.ReceivedAt},
			{SessionID: t.Session.ID, Role: memory.RoleAssistant, Text: t.Reply, Crisis: crisis, At: now},
		},
	}
	if rec.Entries[0].At.IsZero() {
		rec.Entries[0].At = now
	}
	if t.taskCancelNote != "" && !crisis {
		// A second unclear answer cancelled a task step: say so first.
		t.Out = append([]channels.Outbound{t.reply(channels.OutNotice, t.taskCancelNote)}, t.Out...)
	}
	if t.MemorySettings.Paused && !crisis {
		rec.Entries = nil // incognito: the words are not kept
	}
	rec.Stat = turnStat(t, crisis, now)
	e.queueMemory(t, &rec)
	rec.Crisis, t.crisisEvent = t.crisisEvent, nil // written with the turn
	t.Diag.StoreWrites++
	t.Checkpoint = cp
	t.pending = &pendingTurn{rec: rec, e: e, t: t}
}

// turnStat is the turn's de-identified row for /haven stats.
func turnStat(t *Turn, crisis bool, now time.Time) *memory.TurnStat {
	st := &memory.TurnStat{Platform: t.In.Platform, Route: string(t.Branch), Level: -1, Exercise: t.ExerciseEvent,
		Guarded: t.ReplySource == therapy.ReplyGuarded, At: now}
	if crisis {
		st.Route = string(RouteCrisis)
	}
	if t.Branch == BranchTherapeutic && !crisis {
		st.Mode = string(t.Mode)
	}
	if t.Assessment != nil {
		st.Level = int(t.Assessment.Level)
	}
	return st
}

// pendingTurn is a finalized turn's record waiting for its commit: by
// Handle at once, or by the Hub with the turn's replies (HandleDeferred).
type pendingTurn struct {
	rec memory.TurnRecord
	e   *Engine
	t   *Turn
}

// PendingTurn returns the record to commit (memory.Pending).
func (p *pendingTurn) PendingTurn() memory.TurnRecord { return p.rec }

// Committed logs a failed commit, or wakes the memory runner for the jobs
// the commit queued (channels.TurnWrites).
func (p *pendingTurn) Committed(err error) {
	if err != nil {
		p.e.logger(p.t).Error("finalize: commit turn failed", slog.String("session", p.rec.SessionID), slog.Any("err", err))
		if p.rec.Crisis != nil {
			// The crisis log must not lose the row with the turn.
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			p.e.writeCrisisLog(ctx, p.t, *p.rec.Crisis)
		}
		return
	}
	if len(p.rec.Jobs) > 0 || p.rec.Episode {
		p.e.notifyMemory()
	}
}

// writeCrisisLog writes a crisis-log row on its own, logging a failure.
func (e *Engine) writeCrisisLog(ctx context.Context, t *Turn, ev memory.CrisisEvent) {
	t.Diag.StoreWrites++
	if err := e.store.LogCrisis(ctx, ev); err != nil {
		e.logger(t).Error("crisis log write failed", slog.String("session", ev.SessionID), slog.Int("crisis_level", ev.Level), slog.Any("err", err))
	}
}

// reply returns an outbound answering the turn's message in its conversation.
func (t *Turn) reply(kind channels.OutKind, text string) channels.Outbound {
	o := channels.Outbound{Platform: t.In.Platform, Conversation: t.In.Conversation, Kind: kind, Text: text}
	if t.In.Conversation.Kind.Public() {
		o.ReplyTo = t.In.MessageID
	}
	return o
}
