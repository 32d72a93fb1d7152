// Package safety is Haven's crisis gate: it assesses every message for
// suicide and self-harm risk (a floor of deterministic rules joined by an
// embedded learned scorer that may only raise their verdict, see
// MODEL.md; optionally joined by an LLM assessor under a deadline), and it
// composes the crisis replies with resources from an embedded, sourced
// directory.
//
// safety never imports core, adapters or memory.
package safety

import "fmt"

// Level is a risk level following the C-SSRS screen (see SAFETY.md).
type Level int

// The levels.
const (
	// LevelNone: no risk signal (idioms, stress, talk about the topic).
	LevelNone Level = 0
	// LevelWarning: warning signs without ideation (hopelessness, burden,
	// entrapment). Stay therapeutic; ask one direct question.
	LevelWarning Level = 1
	// LevelIdeation: wish to be dead, active ideation, ideation with a method,
	// or recent self-injury. Crisis branch.
	LevelIdeation Level = 2
	// LevelImminent: intent, plan, preparation, an attempt, means with
	// near-term timing, goodbye. Emergency-first crisis reply.
	LevelImminent Level = 3
)

func (l Level) String() string {
	switch l {
	case LevelNone:
		return "none"
	case LevelWarning:
		return "warning"
	case LevelIdeation:
		return "ideation"
	case LevelImminent:
		return "imminent"
	}
	return fmt.Sprintf("level(%d)", int(l))
}

// Flags are signals kept apart from the level.
type Flags struct {
	// SelfInjury: self-harm without (stated) suicidal intent.
	SelfInjury bool `json:"self_injury,omitempty"`
	// ThirdParty: the person is worried about someone else at risk.
	ThirdParty bool `json:"third_party,omitempty"`
	// HarmToOthers: the person talks of hurting someone else.
	HarmToOthers bool `json:"harm_to_others,omitempty"`
	// AbuseOrDanger: the person is being hurt or is in danger from others.
	AbuseOrDanger bool `json:"abuse_or_danger,omitempty"`
	// Attempt: an attempt already made or under way ("took all my pills",
	// "done. took the lot." after saving them), not only intended.
	Attempt bool `json:"attempt,omitempty"`
}

// Names returns the names of the set flags, in a fixed order.
func (f Flags) Names() []string {
	var n []string
	if f.SelfInjury {
		n = append(n, "self_injury")
	}
	if f.ThirdParty {
		n = append(n, "third_party")
	}
	if f.HarmToOthers {
		n = append(n, "harm_to_others")
	}
	if f.AbuseOrDanger {
		n = append(n, "abuse_or_danger")
	}
	if f.Attempt {
		n = append(n, "attempt")
	}
	return n
}

// Assessment is the crisis gate's verdict on one message.
type Assessment struct {
	Level      Level   `json:"level"`
	Confidence float64 `json:"confidence"`
	// Reason is a short, text-free explanation ("active ideation, first person,
	// present tense"). It never quotes the message.
	Reason string `json:"reason"`
	Flags  Flags  `json:"flags"`
	// NeedsCrisisResponse and NeedsClarification are derived from Level by
	// Decide; use Finish to set them.
	NeedsCrisisResponse bool `json:"needs_crisis_response"`
	NeedsClarification  bool `json:"needs_clarification"`
	// Path names the rules or classifiers that decided, in order.
	Path []string `json:"path"`
	// Language is the message's language (ISO 639-1) when the gate found
	// it is not English; "" for English, or when it could not tell.
	Language string `json:"language,omitempty"`
	// PartialReading is true when the message is not in English and no
	// model read it: the floor reads other languages only through the
	// clear phrases of its lexicon (lang_lexicon.go), so level 0 there
	// means "nothing found", not "nothing there".
	PartialReading bool `json:"partial_reading,omitempty"`
}

// Decide is the one truth table from level to the two derived flags: level 3
// and 2 need a crisis response, level 1 needs one clarifying question, level 0
// needs neither. Levels out of range are clamped, never ignored: anything
// above 3 is treated as 3, below 0 as 0.
func Decide(l Level) (needsCrisisResponse, needsClarification bool) {
	switch {
	case l >= LevelIdeation:
		return true, false
	case l == LevelWarning:
		return false, true
	default:
		return false, false
	}
}

// Finish clamps the level into range and sets the derived flags from Decide.
// Every Assessment that leaves this package has passed through Finish.
func (a Assessment) Finish() Assessment {
	if a.Level > LevelImminent {
		a.Level = LevelImminent
	}
	if a.Level < LevelNone {
		a.Level = LevelNone
	}
	a.NeedsCrisisResponse, a.NeedsClarification = Decide(a.Level)
	return a
}

// Input is what the gate reads for one message.
type Input struct {
	// Text is the message.
	Text string `json:"text"`
	// History holds the person's previous messages in this session, oldest
	// first (a short window), so that risk spread over messages is seen. A
	// disclosure of the person's own in it (level 2 or 3) stays with the
	// conversation: a later message is read at level 2 at least until one
	// steps back from it (safe, calmer, help sought, a denial, and after a
	// level-2 disclosure also a change of subject).
	History []string `json:"history,omitempty"`
	// AskedSafetyQuestion is true when Haven's previous reply asked directly
	// about suicidal thoughts or intent (a question where "yes" means risk);
	// a clear "no" may then lower the per-turn level.
	AskedSafetyQuestion bool `json:"asked_safety_question,omitempty"`
	// AskedIfSafe is true when Haven's previous reply asked whether the
	// person is safe ("Are you safe right now?", "Is someone with you?"):
	// there "no" means danger, never a denial.
	AskedIfSafe bool `json:"asked_if_safe,omitempty"`
	// Answered is true when the person clearly answered a safety question
	// earlier in this session (no thoughts or intent, or safe now) and no
	// warning sign came after it. The earlier messages then lend a later
	// one no risk on their own: "tonight I remembered her soup" after a
	// clear "no" is a memory, not timing. A message with its own signal
	// (a warning sign, talk of dying, a decision, preparation, taking the
	// answer back) is still read with them.
	Answered bool `json:"answered,omitempty"`
}
