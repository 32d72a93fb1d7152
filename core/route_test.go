package core

import (
	"errors"
	"testing"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/safety"
)

func assessed(level safety.Level) *safety.Assessment {
	a := safety.Assessment{Level: level}.Finish()
	return &a
}

func TestRouteCoversEveryNode(t *testing.T) {
	errStore := errors.New("store down")
	paused := channels.ChannelSettings{Paused: true}
	dmOnly := channels.ChannelSettings{Policy: channels.PolicyDMOnly}
	group := channels.Inbound{Conversation: channels.Conversation{ID: "test::g", Kind: channels.KindGroup}}
	tests := []struct {
		name string
		turn Turn
		want Node
	}{
		{"new turn starts at the gateway", Turn{}, NodeGateway},
		{"yes to a pending approval resumes it", Turn{gatewayDone: true, ApprovalAnswer: "yes"}, NodeApproval},
		{"no to a pending approval resumes it", Turn{gatewayDone: true, ApprovalAnswer: "no"}, NodeApproval},
		{"approval answered ends the turn", Turn{gatewayDone: true, ApprovalAnswer: "yes", approvalDone: true}, NodeEnd},
		{"approval with a broken store goes to the crisis gate", Turn{gatewayDone: true, ApprovalAnswer: "yes", Err: errStore}, NodeCrisisGate},
		{"plain-word memory command is assessed first", Turn{gatewayDone: true, Command: &Command{Name: "memory", Args: "list", Plain: true}}, NodeCrisisGate},
		{"assessed plain-word memory command runs", Turn{gatewayDone: true, Command: &Command{Name: "memory", Args: "list", Plain: true}, Assessment: assessed(0)}, NodeCommand},
		{"pure command goes to the command node", Turn{gatewayDone: true, Command: &Command{Name: "help"}}, NodeCommand},
		{"pure command ends after it ran", Turn{gatewayDone: true, Command: &Command{Name: "help"}, commandDone: true}, NodeEnd},
		{"pure command with a broken store ends", Turn{gatewayDone: true, Command: &Command{Name: "reset"}, Err: errStore}, NodeEnd},
		{"command with words after it is assessed first", Turn{gatewayDone: true, Command: &Command{Name: "help", Args: "please"}}, NodeCrisisGate},
		{"unknown command is assessed first", Turn{gatewayDone: true, Command: &Command{Name: "kms"}}, NodeCrisisGate},
		{"assessed command without risk runs", Turn{gatewayDone: true, Command: &Command{Name: "kms"}, Assessment: assessed(0)}, NodeCommand},
		{"assessed command ends after it ran", Turn{gatewayDone: true, Command: &Command{Name: "kms"}, Assessment: assessed(0), commandDone: true}, NodeEnd},
		{"command with crisis words gets the crisis reply", Turn{gatewayDone: true, Command: &Command{Name: "help", Args: "x"}, Assessment: assessed(3), crisisLogged: true}, NodeCrisisReply},
		{"admin command goes to the admin node before the crisis gate", Turn{gatewayDone: true, Command: &Command{Name: "haven", Args: "pause"}}, NodeAdmin},
		{"admin command ends after the admin node", Turn{gatewayDone: true, Command: &Command{Name: "haven", Args: "pause"}, adminDone: true}, NodeEnd},
		{"malformed admin command is assessed first", Turn{gatewayDone: true, Command: &Command{Name: "haven", Args: "pause now"}}, NodeCrisisGate},
		{"assessed malformed admin command is answered in a paused channel", Turn{gatewayDone: true, Command: &Command{Name: "haven", Args: "pause now"}, Assessment: assessed(0), Channel: paused}, NodeCommand},
		{"pure command in a paused channel is assessed, not run", Turn{gatewayDone: true, Command: &Command{Name: "help"}, Channel: paused}, NodeCrisisGate},
		{"paused channel ends after the crisis gate", Turn{gatewayDone: true, Assessment: assessed(0), Channel: paused}, NodeEnd},
		{"paused channel still gets the crisis reply", Turn{gatewayDone: true, Assessment: assessed(2), crisisLogged: true, Channel: paused}, NodeCrisisReply},
		{"dm-only channel gets the pointer", Turn{gatewayDone: true, In: group, Assessment: assessed(0), Channel: dmOnly}, NodeRedirect},
		{"dm-only channel ends after the pointer", Turn{gatewayDone: true, In: group, Assessment: assessed(0), Channel: dmOnly, replied: true}, NodeEnd},
		{"dm-only policy does not touch a DM", Turn{gatewayDone: true, In: channels.Inbound{Conversation: channels.Conversation{Kind: channels.KindDM}}, Assessment: assessed(0), Channel: dmOnly}, NodeLoadMemory},
		{"message goes to the crisis gate", Turn{gatewayDone: true}, NodeCrisisGate},
		{"broken store still reaches the crisis gate", Turn{gatewayDone: true, Err: errStore}, NodeCrisisGate},
		{"warning level is logged", Turn{gatewayDone: true, Assessment: assessed(1)}, NodeCrisisLog},
		{"ideation is logged", Turn{gatewayDone: true, Assessment: assessed(2)}, NodeCrisisLog},
		{"danger to the person is logged", Turn{gatewayDone: true, Assessment: &safety.Assessment{Flags: safety.Flags{AbuseOrDanger: true}}}, NodeCrisisLog},
		{"level 0 is not logged", Turn{gatewayDone: true, Assessment: assessed(0)}, NodeLoadMemory},
		{"logged ideation gets the crisis reply", Turn{gatewayDone: true, Assessment: assessed(2), crisisLogged: true}, NodeCrisisReply},
		{"imminent risk gets the crisis reply", Turn{gatewayDone: true, Assessment: assessed(3), crisisLogged: true}, NodeCrisisReply},
		{"crisis with a broken store skips the log and replies", Turn{gatewayDone: true, Assessment: assessed(3), Err: errStore}, NodeCrisisReply},
		{"worry about someone else gets the helper's crisis reply", Turn{gatewayDone: true, Assessment: &safety.Assessment{Flags: safety.Flags{ThirdParty: true}}}, NodeCrisisReply},
		{"crisis reply is finalized", Turn{gatewayDone: true, Assessment: assessed(2), crisisLogged: true, replied: true}, NodeFinalize},
		{"crisis reply with a broken store ends unpersisted", Turn{gatewayDone: true, Assessment: assessed(2), replied: true, Err: errStore}, NodeEnd},
		{"no risk with a broken store ends", Turn{gatewayDone: true, Assessment: assessed(0), Err: errStore}, NodeEnd},
		{"warning level stays therapeutic", Turn{gatewayDone: true, Assessment: assessed(1), crisisLogged: true}, NodeLoadMemory},
		{"memory loaded goes to dispatch", Turn{gatewayDone: true, Assessment: assessed(0), MemoryLoaded: true}, NodeDispatch},
		{"therapeutic branch replies", Turn{gatewayDone: true, Assessment: assessed(0), MemoryLoaded: true, Branch: BranchTherapeutic}, NodeTherapeutic},
		{"task branch replies", Turn{gatewayDone: true, Assessment: assessed(0), MemoryLoaded: true, Branch: BranchTask}, NodeTask},
		{"task reply is finalized", Turn{gatewayDone: true, Assessment: assessed(0), MemoryLoaded: true, Branch: BranchTask, replied: true}, NodeFinalize},
		{"failed task step goes to the error node", Turn{gatewayDone: true, Assessment: assessed(0), MemoryLoaded: true, Branch: BranchTask, taskFailure: &taskFailure{}}, NodeTaskError},
		{"task error reply is finalized", Turn{gatewayDone: true, Assessment: assessed(0), MemoryLoaded: true, Branch: BranchTask, taskFailure: &taskFailure{}, replied: true}, NodeFinalize},
		{"pure capability command goes to the task node before the crisis gate", Turn{gatewayDone: true, Command: &Command{Name: "journal", Capability: "journal.write"}}, NodeTask},
		{"pure capability command's failed step goes to the error node", Turn{gatewayDone: true, Command: &Command{Name: "journal", Capability: "journal.write"}, Branch: BranchTask, taskFailure: &taskFailure{}}, NodeTaskError},
		{"pure capability command is finalized", Turn{gatewayDone: true, Command: &Command{Name: "journal", Capability: "journal.write"}, Branch: BranchTask, replied: true}, NodeFinalize},
		{"capability command with words is assessed first", Turn{gatewayDone: true, Command: &Command{Name: "journal", Args: "a good day", Capability: "journal.write"}}, NodeCrisisGate},
		{"assessed capability command goes on to dispatch", Turn{gatewayDone: true, Command: &Command{Name: "journal", Args: "a good day", Capability: "journal.write"}, Assessment: assessed(0)}, NodeLoadMemory},
		{"capability command with crisis words gets the crisis reply", Turn{gatewayDone: true, Command: &Command{Name: "journal", Args: "x", Capability: "journal.write"}, Assessment: assessed(3), crisisLogged: true}, NodeCrisisReply},
		{"task approval answered is finalized", Turn{gatewayDone: true, ApprovalAnswer: "yes", approvalDone: true, Branch: BranchTask, replied: true}, NodeFinalize},
		{"task approval whose step failed goes to the error node", Turn{gatewayDone: true, ApprovalAnswer: "yes", approvalDone: true, Branch: BranchTask, taskFailure: &taskFailure{}}, NodeTaskError},
		{"finalized task approval ends", Turn{gatewayDone: true, ApprovalAnswer: "yes", approvalDone: true, Branch: BranchTask, replied: true, finalized: true}, NodeEnd},
		{"unclear answer to a task approval is assessed first", Turn{gatewayDone: true, taskReask: true, Branch: BranchTask}, NodeCrisisGate},
		{"reply is finalized", Turn{gatewayDone: true, Assessment: assessed(0), MemoryLoaded: true, Branch: BranchTherapeutic, replied: true}, NodeFinalize},
		{"finalized turn ends", Turn{gatewayDone: true, Assessment: assessed(0), MemoryLoaded: true, Branch: BranchTherapeutic, replied: true, finalized: true}, NodeEnd},
		{"finalized crisis turn ends", Turn{gatewayDone: true, Assessment: assessed(3), crisisLogged: true, replied: true, finalized: true}, NodeEnd},
	}
	seen := map[Node]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := route(&tt.turn); got != tt.want {
				t.Errorf("route() = %s, want %s", got, tt.want)
			}
		})
		seen[tt.want] = true
	}
	for _, n := range allNodes {
		if !seen[n] {
			t.Errorf("no route case reaches node %s", n)
		}
	}
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		in   string
		want *Command
	}{
		{"/help", &Command{Name: "help"}},
		{"  /HELP  ", &Command{Name: "help"}},
		{"/help@HavenBot", &Command{Name: "help"}},
		{"/reset now please", &Command{Name: "reset", Args: "now please"}},
		{"hello /help", nil},
		{"/", nil},
		{"/ not a command", nil},
		{"/usr/bin/env", nil},
		{"/journal a quiet day", &Command{Name: "journal", Args: "a quiet day"}},
	}
	for _, tt := range tests {
		got := parseCommand(tt.in)
		if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
			t.Errorf("parseCommand(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestPlainWordsAreMemoryCommandsOnlyWhenTheWholeMessageIsOne(t *testing.T) {
	tests := []struct {
		in   string
		want *Command
	}{
		{"What do you remember about me?", &Command{Name: "memory", Args: "list", Plain: true}},
		{"forget that I mentioned my ex", &Command{Name: "forget", Args: "my ex", Plain: true}},
		{"Please forget everything about me.", &Command{Name: "forget", Args: "all", Plain: true}},
		{"forget number 3", &Command{Name: "forget", Args: "3", Plain: true}},
		{"export my data", &Command{Name: "export", Plain: true}},
		{"go incognito", &Command{Name: "memory", Args: "pause", Plain: true}},
		{"start remembering again", &Command{Name: "memory", Args: "resume", Plain: true}},
		{"turn recall off", &Command{Name: "memory", Args: "recall off", Plain: true}},
		{"never mention hotlines", &Command{Name: "memory", Args: "unsafe-rule", Plain: true}},
		{"I keep trying to forget my ex but I can't", nil},
		{"what do you remember about me and my sister when we were kids", nil},
		{"I can't forget what he said", nil},
	}
	for _, tt := range tests {
		got := plainMemoryCommand(tt.in)
		if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
			t.Errorf("plainMemoryCommand(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestApprovalAnswers(t *testing.T) {
	for in, want := range map[string]string{"yes": "yes", "Yes!": "yes", "yes, forget everything": "yes", "ok": "yes",
		"no": "no", "Nope.": "no", "cancel": "no", "yes but first tell me": "", "I said no to him": ""} {
		if got := approvalAnswer(in); got != want {
			t.Errorf("approvalAnswer(%q) = %q, want %q", in, got, want)
		}
	}
}
