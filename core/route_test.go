package core

import (
	"errors"
	"testing"

	"github.com/havenbot/haven/safety"
)

func assessed(level safety.Level) *safety.Assessment {
	a := safety.Assessment{Level: level}.Finish()
	return &a
}

func TestRouteCoversEveryNode(t *testing.T) {
	errStore := errors.New("store down")
	tests := []struct {
		name string
		turn Turn
		want Node
	}{
		{"new turn starts at the gateway", Turn{}, NodeGateway},
		{"pure command goes to the command node", Turn{gatewayDone: true, Command: &Command{Name: "help"}}, NodeCommand},
		{"pure command ends after it ran", Turn{gatewayDone: true, Command: &Command{Name: "help"}, commandDone: true}, NodeEnd},
		{"pure command with a broken store ends", Turn{gatewayDone: true, Command: &Command{Name: "reset"}, Err: errStore}, NodeEnd},
		{"command with words after it is assessed first", Turn{gatewayDone: true, Command: &Command{Name: "help", Args: "please"}}, NodeCrisisGate},
		{"unknown command is assessed first", Turn{gatewayDone: true, Command: &Command{Name: "kms"}}, NodeCrisisGate},
		{"assessed command without risk runs", Turn{gatewayDone: true, Command: &Command{Name: "kms"}, Assessment: assessed(0)}, NodeCommand},
		{"assessed command ends after it ran", Turn{gatewayDone: true, Command: &Command{Name: "kms"}, Assessment: assessed(0), commandDone: true}, NodeEnd},
		{"command with crisis words gets the crisis reply", Turn{gatewayDone: true, Command: &Command{Name: "help", Args: "x"}, Assessment: assessed(3), crisisLogged: true}, NodeCrisisReply},
		{"message goes to the crisis gate", Turn{gatewayDone: true}, NodeCrisisGate},
		{"broken store still reaches the crisis gate", Turn{gatewayDone: true, Err: errStore}, NodeCrisisGate},
		{"warning level is logged", Turn{gatewayDone: true, Assessment: assessed(1)}, NodeCrisisLog},
		{"ideation is logged", Turn{gatewayDone: true, Assessment: assessed(2)}, NodeCrisisLog},
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
	for _, n := range []Node{NodeGateway, NodeCommand, NodeCrisisGate, NodeCrisisLog, NodeCrisisReply,
		NodeLoadMemory, NodeDispatch, NodeTherapeutic, NodeFinalize, NodeEnd} {
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
	}
	for _, tt := range tests {
		got := parseCommand(tt.in)
		if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
			t.Errorf("parseCommand(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}
