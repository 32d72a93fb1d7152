package therapy

import (
	"log/slog"
	"unicode/utf8"

	"github.com/havenbot/haven/core/reply"
	"github.com/havenbot/haven/emotion"
)

// Mode is how Haven meets the person this turn.
type Mode string

// The modes.
const (
	ModeSupportive      Mode = "supportive"
	ModeReflective      Mode = "reflective"
	ModeClarifying      Mode = "clarifying"
	ModePsychoeducation Mode = "psychoeducation"
	ModeGuidedExercise  Mode = "guided_exercise"
	ModeClosing         Mode = "closing"
)

// Modes lists the therapeutic modes, for validation.
var Modes = []Mode{ModeSupportive, ModeReflective, ModeClarifying, ModePsychoeducation, ModeGuidedExercise, ModeClosing}

// Modality is the therapeutic frame the reply draws on.
type Modality string

// The modalities.
const (
	ModalityMI    Modality = "mi"
	ModalityCBT   Modality = "cbt"
	ModalityACT   Modality = "act"
	ModalityDBT   Modality = "dbt"
	ModalityGrief Modality = "grief"
	ModalityIPT   Modality = "ipt"
	ModalityPFA   Modality = "pfa"
	ModalityNone  Modality = "none"
)

// Modalities lists every modality, for validation.
var Modalities = []Modality{ModalityMI, ModalityCBT, ModalityACT, ModalityDBT, ModalityGrief, ModalityIPT, ModalityPFA, ModalityNone}

// Stage is where the session is in its course.
type Stage string

// The stages.
const (
	// StageOpening: the first exchanges, before the person has said much.
	StageOpening Stage = "opening"
	// StageDeepening: the person is telling their story.
	StageDeepening Stage = "deepening"
	// StageStabilizing: acute distress or a crisis earlier in the session;
	// calm, grounding and safety come before exploring.
	StageStabilizing Stage = "stabilizing"
	// StageClosing: the person is wrapping up.
	StageClosing Stage = "closing"
)

// Source says how the mode was chosen.
type Source string

// The mode sources.
const (
	SourceRules   Source = "rules"
	SourceLLM     Source = "llm"
	SourceDefault Source = "default"
)

// ReplySource says who wrote the reply text.
type ReplySource string

// The reply sources.
const (
	// ReplyScripted: no model configured (or the turn is scripted by design:
	// identity and privacy answers).
	ReplyScripted ReplySource = "scripted"
	// ReplyLLM: generated and passed the output guard.
	ReplyLLM ReplySource = "llm"
	// ReplyFallback: the model failed or timed out; the scripted reply answered.
	ReplyFallback ReplySource = "fallback"
	// ReplyGuarded: the generated reply failed the output guard; the scripted
	// reply answered.
	ReplyGuarded ReplySource = "guarded"
)

// MemoryItem is one working memory entry for the turn.
type MemoryItem struct {
	// Kind is "fact" or "episode" (free text; it labels the entry in the
	// prompt).
	Kind string
	// Text is the entry in a sentence ("Sam's sister is called Ana").
	Text string
	// Quote is the person's own words the entry rests on, if any.
	Quote string
}

// Line is one line of the recent conversation.
type Line struct {
	// User is true for the person's messages, false for Haven's.
	User bool
	Text string
}

// Request is everything the therapeutic branch reads for one turn.
type Request struct {
	// Text is the person's message.
	Text string
	// FirstContact is true the very first time Haven meets this person; the
	// reply then says what Haven is.
	FirstContact bool
	// TurnCount is the number of earlier turns in this session.
	TurnCount int
	// Name is how to address the person; empty for none.
	Name string
	// History is the recent conversation of this session, oldest first,
	// without this message.
	History []Line
	// RecentKeys are the template keys used in the last reply; they are not
	// used again right away. The keys of the replies before it are kept in
	// State, so no question comes back within the last five replies.
	RecentKeys []string
	// Feeling is what the message says about feelings (emotion.Read); the
	// zero Reading means nothing was read, and lexical cues stand in.
	Feeling emotion.Reading
	// LanguageModel is true when a language model writes Haven's replies
	// in this deployment: "are you a script?" is answered truthfully from
	// it. The Therapist sets it when it has a model.
	LanguageModel bool
	// SafetyQuestion, when set, replaces the reply's closing question: the
	// crisis gate saw warning signs and asks one direct question. A running
	// exercise is paused for it.
	SafetyQuestion string
	// Recall is one remembered thing core brings up in the reply (see
	// reply.Draft); it is cut first when the reply is too long.
	Recall reply.Part
	// Notice is a safety line core adds at the end of the reply (the
	// emergency number when someone is in danger); it is never cut.
	Notice string
	// SessionMaxRisk is the highest crisis level seen in the session.
	SessionMaxRisk int
	// SafetyAnswer is true when this message clearly answered the safety
	// question Haven asked in its last reply (the crisis gate read a clear
	// denial, or "safe now"): the reply steps down to ordinary support and
	// the session remembers the answer until new risk appears.
	SafetyAnswer bool

	// State is the session's therapy state as the last turn left it.
	State State

	// Memory is the turn's working memory, best first.
	Memory []MemoryItem
	// Rules are the person's procedural rules in their words ("just listen",
	// "keep replies short").
	Rules []string

	// Decision is dispatch's result; nil means Respond dispatches by rules.
	Decision *Decision
	// MaxRunes caps the length of the whole reply, recall and notice
	// included (the platform's comfort); zero means DefaultMaxRunes.
	MaxRunes int
	// Log receives this reply's log lines (core passes the turn's logger,
	// which carries the turn's id); nil means the Therapist's.
	Log *slog.Logger
}

// DefaultMaxRunes is the reply length cap when Request.MaxRunes is zero: a
// chat message a person reads at a glance, well under every platform limit.
const DefaultMaxRunes = 700

// StepOffered is the Step value that marks an exercise offered last turn.
const StepOffered = "offered"

// Response is the reply and the state to persist.
type Response struct {
	Text     string
	Mode     Mode
	Modality Modality
	// Event is what happened to the exercise this turn ("" for nothing):
	// offered, declined, started, advanced, checked_in, held, stuck,
	// skipped, side_question, stopped (at the person's word),
	// stopped_distress (it was making things worse), finished, paused (for
	// a safety question).
	Event string
	// State is the session's therapy state after this turn (its Stage,
	// Exercise and Step included), for the checkpoint.
	State State
	// Keys are the template and memory keys used, for Request.RecentKeys
	// next turn.
	Keys []string
	// Source says who wrote Text.
	Source ReplySource
	// GuardReason names the guard rule a generated reply failed (no text).
	GuardReason string
	// LLMCalls and Tokens count the reply's model use (dispatch counts its
	// own in Decision).
	LLMCalls, Tokens int
	// Met is the valence of the feeling the reply met: emotion.Positive
	// when it meets good news, emotion.Negative when it meets pain,
	// frustration or grief, emotion.Ambiguous for mixed feelings, "" when
	// it reflected no feeling.
	Met emotion.Valence
	// Answered is true when the reply answers a direct question the
	// message asked, before going on.
	Answered bool
}

// maxReadBytes bounds how much of a message the rules read: a person's
// point is in its first lines, and the regular expressions stay fast on a
// 1 MB paste. The crisis gate reads the whole message before this branch.
const maxReadBytes = 4000

// maxPromptBytes bounds how much of a message goes into a prompt.
const maxPromptBytes = 12000

// clip returns s cut to at most n bytes at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
