package core

import (
	"context"
	"log/slog"
	"strings"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/reply"
	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/memory"
)

// This file is the task branch's side of the engine: the task node, the
// error node, the resumption of an approval, and the "tasks" checkpoint
// slot. The decisions live in core/tasks; core hands it the turn as
// core/tasks' own types and copies its outcome back into the turn.

// taskUnavailable answers a request to do something no capability does.
const taskUnavailable = "That sounds like something for me to do rather than talk through, and I can't do that from here yet. Type /help to see what I can do."

// taskFailedReply is the error node's answer.
const taskFailedReply = "Sorry, something went wrong on my side and I couldn't do that just now, so I've left everything as it was. Please try again in a moment."

// actionTask is the pending approval of a task step; the plan itself is in
// the "tasks" slot.
const actionTask = "task"

// tasksSlot is the checkpoint slot that holds the task branch's state.
const tasksSlot = "tasks"

// task runs the task branch: a waiting plan's answer, a capability
// command, or a new task. A failing step goes on to the error node.
func (e *Engine) task(ctx context.Context, t *Turn) {
	if t.Branch != BranchTask {
		e.chooseTask(t, "command") // a pure capability command skips dispatch
	}
	if e.taskBranch == nil {
		e.taskReply(t, taskUnavailable, nil)
		return
	}
	if t.taskReask {
		q, p := tasks.Reask(t.Tasks.Plan)
		t.Tasks.Plan = p
		e.taskReply(t, q, nil)
		return
	}
	in := tasks.Input{Request: e.capRequest(t, t.In.Text), Plan: t.Tasks.Plan, History: taskHistory(t.History)}
	in.Request.Location = e.personLocation(ctx, t)
	if c := t.Command; c != nil && c.Capability != "" {
		in.Command, in.Request.Text = c.Capability, c.Args
	}
	e.applyTask(t, e.taskBranch.Run(ctx, in))
}

// applyTask copies the branch's outcome into the turn: the reply, the new
// capability context, the plan left waiting and its approval.
func (e *Engine) applyTask(t *Turn, out tasks.Outcome) {
	t.Diag.LLMCalls += out.ModelCalls
	t.Diag.Tokens += out.Tokens
	if out.Source != "" && t.ModeSource == "" {
		t.ModeSource = out.Source
	}
	t.taskOutcome = out.Kind
	if out.Err != nil && out.Kind != tasks.KindFailed {
		e.logger(t).Warn("task: model answer not used", slog.String("session", t.Session.ID), slog.Any("err", out.Err))
	}
	t.Tasks.Plan = out.Plan
	t.Checkpoint.PendingApproval = nil
	if out.Kind == tasks.KindApproval {
		t.askedApproval = true
		t.Checkpoint.PendingApproval = &memory.Approval{
			Action:  actionTask,
			Args:    map[string]string{"capability": out.Capability},
			Prompt:  out.Plan.Question,
			Expires: e.now().Add(approvalTTL),
		}
	}
	switch out.Kind {
	case tasks.KindFailed:
		// The failed step changed nothing; steps before it stand.
		t.Checkpoint.CapabilityContext = out.Context
		t.taskFailure = &taskFailure{capability: out.Capability, err: out.Err, done: out.Text}
		return
	case tasks.KindNoTask:
		e.taskReply(t, taskUnavailable, nil)
		return
	}
	t.Checkpoint.CapabilityContext = out.Context
	var file *channels.File
	if f := out.File; f != nil {
		file = &channels.File{Name: f.Name, ContentType: f.MIME, Data: f.Data}
	}
	e.taskReply(t, out.Text, file)
}

// taskFailure is a step that failed, for the error node.
type taskFailure struct {
	capability string
	err        error
	// done is what the steps before it said.
	done string
}

// taskError is the error node: a step failed. It logs what failed (no
// text) and answers kindly; the failed step changed nothing.
func (e *Engine) taskError(t *Turn) {
	f := t.taskFailure
	e.logger(t).Error("task step failed", slog.String("session", t.Session.ID), slog.String("capability", f.capability), slog.Any("err", f.err))
	text := taskFailedReply
	if f.done != "" {
		text = f.done + "\n\n" + "Then something went wrong with the next part, so I've left that undone. Please try it again in a moment."
	}
	e.taskReply(t, text, nil)
}

// taskReply answers the turn from the task branch. The emergency number
// goes with it when the gate flagged danger.
func (e *Engine) taskReply(t *Turn, text string, file *channels.File) {
	t.replied = true
	a := reply.Assemble(reply.Draft{
		Body:   []reply.Part{{Text: text, Key: "task", Essential: true}},
		Notice: reply.Part{Text: e.dangerNotice(t), Essential: true},
	}, max(e.replyLimit(), len([]rune(text))+200))
	t.Reply, t.ReplyKind = a.Text, channels.OutReply
	o := t.reply(channels.OutReply, a.Text)
	o.File = file
	t.Out = append(t.Out, o)
}

// capRequest is the turn as a capability sees it.
func (e *Engine) capRequest(t *Turn, text string) tasks.Request {
	req := ruleRequest(e, t, text)
	req.Country = e.country(t)
	return req
}

// ruleRequest is capRequest without the person's country, for the rules
// (tasks.Capability.Match), which read the text and context only: the
// country scans the session's history, which a turn that is not a task
// never needs.
func ruleRequest(e *Engine, t *Turn, text string) tasks.Request {
	c := t.In.Conversation
	return tasks.Request{
		Text:       text,
		Now:        e.now(),
		PersonID:   t.Person.ID,
		SessionID:  t.Session.ID,
		MessageKey: messageKey(t.In),
		Target:     tasks.Target{Platform: t.In.Platform, ConversationID: c.ID, Kind: string(c.Kind), ThreadID: c.ThreadID},
		Private:    c.Kind == channels.KindDM,
		Context:    tasks.Context(t.Checkpoint.CapabilityContext),
	}
}

// taskHistory is the session's recent lines for the extraction model,
// crisis turns left out.
func taskHistory(entries []memory.Entry) []string {
	var out []string
	for _, en := range entries {
		if en.Crisis {
			continue
		}
		who := "person: "
		if en.Role == memory.RoleAssistant {
			who = "haven: "
		}
		out = append(out, who+strings.ReplaceAll(en.Text, "\n", " "))
	}
	return out
}

// resumeTask answers the approval a task step waits for: yes runs it (and
// the rest of the plan), no cancels it.
func (e *Engine) resumeTask(ctx context.Context, t *Turn) {
	t.Branch, t.ModeType, t.ModeSource = BranchTask, ModeTypeOperational, "approval"
	if e.taskBranch == nil {
		t.Tasks.Plan = nil
		e.taskReply(t, taskUnavailable, nil)
		return
	}
	req := e.capRequest(t, t.In.Text)
	req.Location = e.personLocation(ctx, t)
	out := e.taskBranch.Resume(ctx, req, t.Tasks.Plan, t.ApprovalAnswer == "yes")
	e.applyTask(t, out)
}

// taskCancelledNote goes before the reply when a second unclear answer
// cancelled a step that waited for approval.
const taskCancelledNote = "I didn't hear a yes, so I've left that request undone. Nothing has changed."

// loadTasks decodes the task state from its checkpoint slot. A malformed
// slot is logged (no text) and read as empty.
func (e *Engine) loadTasks(t *Turn) {
	sl := t.Checkpoint.Slots[tasksSlot]
	st, err := tasks.DecodeState(sl.Version, sl.Data)
	if err != nil {
		e.logger(t).Warn("task state unreadable; starting it afresh", slog.String("session", t.Session.ID), slog.Any("err", err))
	}
	t.Tasks = st
	if ap := t.Checkpoint.PendingApproval; ap != nil && ap.Action == actionTask && (st.Plan == nil || st.Plan.Waiting != tasks.WaitApproval) {
		t.Checkpoint.PendingApproval = nil // an approval whose plan is gone
	}
}

// saveTasks returns cp with the task state in its slot (the slot map is
// copied, never shared).
func (e *Engine) saveTasks(t *Turn, cp memory.Checkpoint) memory.Checkpoint {
	v, data, err := t.Tasks.Encode()
	if err != nil {
		e.logger(t).Error("task state not saved", slog.String("session", t.Session.ID), slog.Any("err", err))
		return cp
	}
	return withSlot(cp, tasksSlot, v, data)
}

// dropTask forgets a waiting plan and its approval (a crisis turn: a "yes"
// to the crisis reply must never run a task).
func (t *Turn) dropTask() {
	t.Tasks.Plan = nil
	if ap := t.Checkpoint.PendingApproval; ap != nil && ap.Action == actionTask {
		t.Checkpoint.PendingApproval = nil
	}
	t.taskReask = false
}

// TaskCapabilities lists the registered capabilities (for /help and
// tests), nil when the task branch is off.
func (e *Engine) TaskCapabilities() []*tasks.Capability {
	if e.taskBranch == nil {
		return nil
	}
	return e.taskBranch.Registry().All()
}

// capabilityCommand returns the capability whose slash command name is,
// "" when none.
func (e *Engine) capabilityCommand(name string) string {
	if e.taskBranch == nil {
		return ""
	}
	if c := e.taskBranch.Registry().ByCommand(name); c != nil {
		return c.Name
	}
	return ""
}

// checkTaskApproval reads a message while a task step waits for approval:
// yes or no goes to the approval node; anything else the first time has
// the task node ask once more (after the crisis gate has read it); the
// second time the step is cancelled and the message is answered as usual,
// after a short note.
func (e *Engine) checkTaskApproval(t *Turn) {
	if t.ApprovalAnswer = approvalAnswer(t.In.Text); t.ApprovalAnswer != "" {
		return
	}
	if t.Command != nil {
		return // a command is answered; the question stays open
	}
	if p := t.Tasks.Plan; p != nil && !p.Reasked {
		t.taskReask = true
		t.Branch, t.ModeType, t.ModeSource = BranchTask, ModeTypeOperational, "approval"
		return
	}
	t.dropTask()
	t.taskCancelNote = taskCancelledNote
}

// messageKey identifies the turn's message for a capability's write: its
// delivery key, else its message id, with the conversation.
func messageKey(in channels.Inbound) string {
	k := in.DeliveryKey
	if k == "" {
		k = in.MessageID
	}
	if k == "" {
		return ""
	}
	return in.Conversation.ID + "|" + k
}
