package core

// Node names a step of the turn graph.
type Node string

// The nodes of the turn graph.
const (
	NodeGateway     Node = "gateway"
	NodeApproval    Node = "approval"
	NodeCommand     Node = "command"
	NodeAdmin       Node = "admin"
	NodeRedirect    Node = "redirect"
	NodeCrisisGate  Node = "crisis_gate"
	NodeCrisisLog   Node = "crisis_log"
	NodeCrisisReply Node = "crisis_reply"
	NodeLoadMemory  Node = "load_memory"
	NodeDispatch    Node = "dispatch"
	NodeTherapeutic Node = "therapeutic"
	NodeTask        Node = "task"
	// NodeTaskError answers kindly when a task step failed.
	NodeTaskError Node = "task_error"
	NodeFinalize  Node = "finalize"
	// NodeEnd is not a node: it ends the turn.
	NodeEnd Node = "end"
)

// allNodes lists every node and NodeEnd; the router's table test proves each
// is reachable.
var allNodes = []Node{NodeGateway, NodeApproval, NodeCommand, NodeAdmin, NodeRedirect, NodeCrisisGate, NodeCrisisLog, NodeCrisisReply,
	NodeLoadMemory, NodeDispatch, NodeTherapeutic, NodeTask, NodeTaskError, NodeFinalize, NodeEnd}

// route decides the next node from the turn's state alone. It is the one
// place where flow is decided:
//
//	gateway ─┬─ admin command (/haven ...) ──────────────────────────────────── end
//	         ├─ pure command (not in a paused or dm-only conversation) ───────── end
//	         ├─ yes/no to a pending approval: resume it ─────────────────────── end
//	         │    (a task's: resume it ─ (task error) ─ finalize ─ end)
//	         ├─ pure capability command (/journal) ─ task ─ (task error) ─ finalize ─ end
//	         └─ crisis gate ─ (log if level ≥ 1) ─┬─ crisis reply ─────────────── finalize ─ end
//	                           (or third party) ──┤
//	                                              ├─ paused conversation ──────────────── end
//	                                              ├─ dm-only conversation ─ redirect ───── end
//	                                              ├─ command (with words after it) ─────── end
//	                                              └─ load memory ─ dispatch ─┬─ therapeutic ─┬─ finalize ─ end
//	                                                                         └─ task ─ (task error) ─┘
//
// Only a pure command (a known command with nothing after it) skips the
// crisis gate: "/help I want to die" and "/kms" are read by the gate first.
// A gateway failure (t.Err) skips everything but the crisis gate and the
// crisis reply: a person in danger is answered even when the store is down.
// An admin command never passes the crisis gate, the transcript or memory.
// In a paused conversation (and one whose policy is dm-only) only the
// crisis gate answers; dm-only adds a pointer to a DM. A capability's
// command with words after it ("/journal ...") is read by the crisis gate
// and then goes to the task branch like any task; a message that is
// neither yes nor no to a task's approval is read by the gate too before
// the task node asks once more.
func route(t *Turn) Node {
	cmd := t.Command != nil
	capCmd := cmd && t.Command.Capability != ""
	switch {
	case !t.gatewayDone:
		return NodeGateway
	case t.ApprovalAnswer != "" && t.Err == nil && !t.approvalDone:
		return NodeApproval
	case t.approvalDone && t.Branch == BranchTask:
		return taskTail(t)
	case t.approvalDone:
		return NodeEnd
	case cmd && t.Command.Admin() && t.Err == nil && !t.adminDone:
		return NodeAdmin
	case t.adminDone:
		return NodeEnd
	case capCmd && t.Command.Pure() && !t.quiet() && t.Err == nil:
		if !t.replied && t.taskFailure == nil {
			return NodeTask
		}
		return taskTail(t)
	case cmd && t.Command.Pure() && !t.quiet() && t.Err == nil && !t.commandDone:
		return NodeCommand
	case cmd && t.Command.Pure() && !t.quiet():
		return NodeEnd
	case t.Assessment == nil:
		return NodeCrisisGate
	case (t.Assessment.Level >= 1 || t.Assessment.Flags.AbuseOrDanger || t.Assessment.Flags.HarmToOthers) && !t.crisisLogged && t.Err == nil:
		return NodeCrisisLog
	case t.Assessment.NeedsCrisisResponse || t.Assessment.Flags.ThirdParty:
		// Someone worried about another person gets the helper's guidance
		// and resources, whatever their own level.
		if !t.replied {
			return NodeCrisisReply
		}
	case t.Err != nil:
		return NodeEnd
	case cmd && t.Command.Name == adminCommandName:
		// A malformed admin command is answered (help, or the refusal)
		// even where Haven is quiet.
		if !t.commandDone {
			return NodeCommand
		}
		return NodeEnd
	case t.Channel.Paused:
		return NodeEnd
	case t.dmOnly():
		if !t.replied {
			return NodeRedirect
		}
		return NodeEnd
	case cmd && !capCmd:
		if !t.commandDone {
			return NodeCommand
		}
		return NodeEnd
	case !t.MemoryLoaded:
		return NodeLoadMemory
	case t.Branch == BranchNone:
		return NodeDispatch
	case t.Branch == BranchTherapeutic && !t.replied:
		return NodeTherapeutic
	case t.Branch == BranchTask && t.taskFailure != nil && !t.replied:
		return NodeTaskError
	case t.Branch == BranchTask && !t.replied:
		return NodeTask
	}
	if t.Err == nil && !t.finalized {
		return NodeFinalize
	}
	return NodeEnd
}

// taskTail is where a task turn goes once the task node has run: the
// error node when a step failed, then finalize.
func taskTail(t *Turn) Node {
	switch {
	case t.taskFailure != nil && !t.replied:
		return NodeTaskError
	case t.Err == nil && !t.finalized:
		return NodeFinalize
	}
	return NodeEnd
}
