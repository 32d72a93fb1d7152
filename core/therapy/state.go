package therapy

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// State is the therapeutic branch's whole session state: the stage, the
// exercise and its step, and what the branch remembers between turns. Core
// keeps it in the session checkpoint as one opaque, versioned slot (see
// Encode and DecodeState): loaded once when the turn starts, saved once when
// it ends. Storage never reads it.
type State struct {
	// Stage is where the session is in its course ("" before the first
	// therapeutic turn).
	Stage Stage `json:"stage,omitempty"`
	// Exercise is the guided exercise running or offered ("" for none);
	// Step is its current step, or StepOffered when it was offered last
	// turn and not started yet.
	Exercise string `json:"exercise,omitempty"`
	Step     string `json:"step,omitempty"`
	// Rules are procedural rules the person set in this session, in
	// canonical words ("just listen", "shorter replies").
	Rules []string `json:"rules,omitempty"`
	// Modality is the last modality the session used.
	Modality Modality `json:"modality,omitempty"`
	// Themes are labels (feelings, topics) the session touched, oldest
	// first, at most maxThemes; never the person's words.
	Themes []string `json:"themes,omitempty"`
	// Offered is the exercise offered last (kept after the offer lapses, so
	// a late "yes" still starts it); OfferTurn is that turn's number
	// (1-based).
	Offered   string `json:"offered,omitempty"`
	OfferTurn int    `json:"offer_turn,omitempty"`
	// Stuck counts stuck replies on the current exercise step.
	Stuck int `json:"stuck,omitempty"`
	// Answers holds the person's answers to the current exercise's steps
	// (step id -> answer, trimmed), for its closing summary; cleared when
	// the exercise ends.
	Answers map[string]string `json:"answers,omitempty"`
	// Stabilize is how many more turns stay in the stabilizing stage.
	Stabilize int `json:"stabilize,omitempty"`
	// Done lists the exercises finished in this session.
	Done []string `json:"done,omitempty"`
	// SuggestedHelp is set once professional help was suggested this session.
	SuggestedHelp bool `json:"suggested_help,omitempty"`
	// Interrupted is the exercise a crisis or safety question interrupted.
	Interrupted string `json:"interrupted,omitempty"`
	// Recent holds the template keys of Haven's last replies (at most
	// recentReplies), oldest first, so that no template,
	// and above all no follow-up question, comes back within five replies.
	Recent [][]string `json:"recent,omitempty"`
	// CheckedIn is set once the running exercise has had its half-way
	// check-in; CheckIn is set while the check-in waits for its answer
	// (Step is then the step to give after it). Both are cleared when the
	// exercise ends.
	CheckedIn bool `json:"checked_in,omitempty"`
	CheckIn   bool `json:"check_in,omitempty"`
	// SafetyAnswered is set when the person clearly answered the crisis
	// gate's safety question (no intent, no plan, safe now): replies step
	// down from stabilizing to ordinary support. New risk (a later message
	// at level 1 or more) clears it.
	SafetyAnswered bool `json:"safety_answered,omitempty"`
	// LastFeeling is the feeling the last reply met (family and valence),
	// carried into a next message that goes on telling without one of its
	// own; empty when the last reply met none.
	LastFeeling lastFeeling `json:"last_feeling,omitzero"`
}

// StateVersion is the version of State's encoding that Encode writes.
// DecodeState reads this version; a later change to State's meaning bumps it
// and teaches DecodeState the old one.
const StateVersion = 1

const (
	maxThemes  = 6
	maxAnswer  = 160
	stabilizeN = 3
)

// InExercise reports whether a guided exercise is running (started, not
// only offered).
func (s State) InExercise() bool {
	return s.Exercise != "" && s.Step != StepOffered
}

// Encode returns the state's encoding and its version, for the session
// checkpoint. The zero State encodes as nil.
func (s State) Encode() (version int, data json.RawMessage, err error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return 0, nil, fmt.Errorf("encode therapy state: %w", err)
	}
	if string(raw) == "{}" {
		return StateVersion, nil, nil
	}
	return StateVersion, raw, nil
}

// DecodeState reads a state Encode wrote. Empty data is the zero State. An
// unknown version or malformed data is an error naming what is wrong; the
// caller decides whether to go on with the zero State.
func DecodeState(version int, data json.RawMessage) (State, error) {
	var s State
	if len(data) == 0 {
		return s, nil
	}
	if version != StateVersion {
		return s, fmt.Errorf("therapy state version %d is not one this build reads (%d)", version, StateVersion)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return State{}, fmt.Errorf("decode therapy state: %w", err)
	}
	return s, nil
}

// AfterCrisis returns the state a crisis turn leaves: any exercise or offer
// is dropped (the exercise is remembered as interrupted, never resumed on
// its own) and the next turns stay in the stabilizing stage.
func AfterCrisis(s State) State {
	if s.InExercise() {
		s.Interrupted = s.Exercise
	}
	s.Exercise, s.Step = "", ""
	s.Stuck, s.Answers = 0, nil
	s.CheckedIn, s.CheckIn = false, false
	s.SafetyAnswered = false
	s.Stabilize = stabilizeN
	s.Modality = ModalityPFA
	s.Stage = StageStabilizing
	return s
}

// noteSafetyCheck returns the state after the crisis gate read a message
// below crisis level. answered is true when the message clearly answered
// the safety question Haven asked last turn (Request.SafetyAnswer); asked
// is true when the gate saw warning signs in it (level 1: the safety
// question is asked this turn). A clear answer is remembered and steps the
// session down from stabilizing; new warning signs forget it, so the
// question can be asked again. (A crisis-level message goes through
// AfterCrisis, which forgets it too.)
func noteSafetyCheck(s State, answered, asked bool) State {
	switch {
	case answered:
		s.SafetyAnswered = true
		s.Stabilize = 0
	case asked:
		s.SafetyAnswered = false
	}
	return s
}

func (s *State) addTheme(label string) {
	if label == "" || slices.Contains(s.Themes, label) {
		return
	}
	s.Themes = append(s.Themes, label)
	if len(s.Themes) > maxThemes {
		s.Themes = s.Themes[len(s.Themes)-maxThemes:]
	}
}

func (s *State) addRule(rule string) {
	if !slices.Contains(s.Rules, rule) {
		s.Rules = append(s.Rules, rule)
	}
}

func (s *State) removeRule(rule string) {
	s.Rules = slices.DeleteFunc(s.Rules, func(r string) bool { return r == rule })
}

func (s *State) setAnswer(step, text string) {
	text = strings.Join(strings.Fields(text), " ")
	if r := []rune(text); len(r) > maxAnswer {
		text = string(r[:maxAnswer]) + "…"
	}
	if s.Answers == nil {
		s.Answers = map[string]string{}
	}
	s.Answers[step] = text
}

// clone returns a deep copy, so a Response never shares slices with its
// Request.
func (s State) clone() State {
	s.Rules = slices.Clone(s.Rules)
	s.Themes = slices.Clone(s.Themes)
	s.Done = slices.Clone(s.Done)
	s.Recent = slices.Clone(s.Recent)
	if s.Answers != nil {
		a := make(map[string]string, len(s.Answers))
		for k, v := range s.Answers {
			a[k] = v
		}
		s.Answers = a
	}
	return s
}
