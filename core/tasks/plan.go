package tasks

import (
	"encoding/json"
	"fmt"
	"maps"
)

// Plan is a task's steps, in order, and where it stands. A plan that
// waits on the person (a missing argument, an approval) is kept in the
// session's checkpoint and resumed by a later turn, also after a restart.
type Plan struct {
	// Text is the message the task was asked with.
	Text string `json:"text"`
	// Steps run in order; Current is the index of the next one to run.
	Steps   []Step `json:"steps"`
	Current int    `json:"current"`
	// Waiting says what the current step waits for: WaitParam (Asked names
	// the argument) or WaitApproval; "" when the plan is not waiting.
	Waiting Wait   `json:"waiting,omitempty"`
	Asked   string `json:"asked,omitempty"`
	// Question is what the person was asked.
	Question string `json:"question,omitempty"`
	// Reasked is set once an unclear answer to an approval has been met by
	// asking once more: the next unclear answer cancels.
	Reasked bool `json:"reasked,omitempty"`
	// Done holds the replies of the steps already run, in order.
	Done []string `json:"done,omitempty"`
}

// Wait is what a waiting plan needs from the person.
type Wait string

// What a plan can wait for.
const (
	WaitParam    Wait = "param"
	WaitApproval Wait = "approval"
)

// Step is one capability call of a plan.
type Step struct {
	Capability string `json:"capability"`
	Args       Args   `json:"args,omitempty"`
	// Approved is set when the person said yes to this step.
	Approved bool `json:"approved,omitempty"`
}

// step returns the current step, nil when the plan has run out.
func (p *Plan) step() *Step {
	if p == nil || p.Current < 0 || p.Current >= len(p.Steps) {
		return nil
	}
	return &p.Steps[p.Current]
}

// clone returns a deep copy of p.
func (p *Plan) clone() *Plan {
	if p == nil {
		return nil
	}
	c := *p
	c.Steps = make([]Step, len(p.Steps))
	for i, s := range p.Steps {
		s.Args = maps.Clone(s.Args)
		c.Steps[i] = s
	}
	c.Done = append([]string(nil), p.Done...)
	return &c
}

// State is the task branch's session state, kept in the checkpoint's
// "tasks" slot: the plan waiting on the person. (The capability context
// has its own place in the checkpoint.)
type State struct {
	Plan *Plan `json:"plan,omitempty"`
}

// StateVersion is the version of the encoding Encode writes.
const StateVersion = 1

// Encode returns the state's slot version and data; data is nil for the
// empty state (the slot is dropped).
func (s State) Encode() (int, []byte, error) {
	if s.Plan == nil {
		return StateVersion, nil, nil
	}
	data, err := json.Marshal(s)
	if err != nil {
		return 0, nil, fmt.Errorf("encode task state: %w", err)
	}
	return StateVersion, data, nil
}

// DecodeState reads a slot written by Encode. Empty data is the empty
// state; an unknown version or malformed data is an error naming it, with
// the empty state.
func DecodeState(version int, data []byte) (State, error) {
	if len(data) == 0 {
		return State{}, nil
	}
	if version != StateVersion {
		return State{}, fmt.Errorf("task state version %d: only %d is known", version, StateVersion)
	}
	var s State
	if err := json.Unmarshal(data, &s); err != nil {
		return State{}, fmt.Errorf("decode task state: %w", err)
	}
	if s.Plan != nil && s.Plan.step() == nil {
		return State{}, fmt.Errorf("decode task state: plan's current step %d is out of range (%d steps)", s.Plan.Current, len(s.Plan.Steps))
	}
	return s, nil
}
