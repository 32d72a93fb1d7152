package therapy

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// State is the therapy state that lives in the session checkpoint beyond
// its stage and exercise fields. It is kept under the "therapy" key of the
// checkpoint's Extra so that other features can keep their own keys there.
type State struct {
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
}

const (
	extraKey   = "therapy"
	maxThemes  = 6
	maxAnswer  = 160
	stabilizeN = 3
)

// LoadState reads the therapy state from a checkpoint's Extra. Empty Extra
// is the zero State. A malformed value is an error naming what is wrong; the
// caller decides whether to go on with the zero State.
func LoadState(extra json.RawMessage) (State, error) {
	var s State
	if len(extra) == 0 {
		return s, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(extra, &m); err != nil {
		return s, fmt.Errorf("checkpoint extra is not a JSON object: %w", err)
	}
	raw, ok := m[extraKey]
	if !ok {
		return s, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return State{}, fmt.Errorf("checkpoint extra %q: %w", extraKey, err)
	}
	return s, nil
}

// SaveState returns extra with the therapy state set, keeping every other
// key. A malformed extra is replaced (LoadState already reported it).
func SaveState(extra json.RawMessage, s State) (json.RawMessage, error) {
	m := map[string]json.RawMessage{}
	if len(extra) > 0 {
		if err := json.Unmarshal(extra, &m); err != nil || m == nil {
			m = map[string]json.RawMessage{}
		}
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return extra, fmt.Errorf("encode therapy state: %w", err)
	}
	if string(raw) == "{}" {
		delete(m, extraKey)
	} else {
		m[extraKey] = raw
	}
	if len(m) == 0 {
		return nil, nil
	}
	out, err := json.Marshal(m)
	if err != nil {
		return extra, fmt.Errorf("encode checkpoint extra: %w", err)
	}
	return out, nil
}

// AfterCrisis returns the state a crisis turn leaves: any exercise or offer
// is dropped (the exercise is remembered as interrupted, never resumed on
// its own) and the next turns stay in the stabilizing stage. It returns the
// new stage, exercise and step for the checkpoint.
func AfterCrisis(exercise, step string, s State) (Stage, string, string, State) {
	if exercise != "" && step != StepOffered {
		s.Interrupted = exercise
	}
	s.Stuck, s.Answers = 0, nil
	s.Stabilize = stabilizeN
	s.Modality = ModalityPFA
	return StageStabilizing, "", "", s
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
	if s.Answers != nil {
		a := make(map[string]string, len(s.Answers))
		for k, v := range s.Answers {
			a[k] = v
		}
		s.Answers = a
	}
	return s
}
