package exercises

import (
	"regexp"
	"strings"

	"github.com/havenbot/haven/internal/textmatch"
)

// Step is one step of an exercise.
type Step struct {
	// ID is stable across releases: it is persisted in checkpoints.
	ID string
	// Say are alternative wordings of the step's instruction; each asks at
	// most one question.
	Say []string
	// Help is offered when the person is stuck on the step.
	Help string
	// Short names the step's task in a few words, for returning to it after
	// a side question ("one more round of box breathing").
	Short string
	// Answer is true when the step asks the person to tell something (a
	// thought, three things they see), false when it asks them to do
	// something and say when they are done.
	Answer bool
}

// Exercise is one guided exercise.
type Exercise struct {
	// ID is stable across releases: it is persisted in checkpoints.
	ID string
	// Name is how Haven names the exercise to the person.
	Name string
	// Modality is the therapeutic frame it comes from (matches the therapy
	// package's Modality values).
	Modality string
	// Offer is a short description used when offering it ("a short breathing
	// exercise").
	Offer string
	// Intro says what the exercise is, in one or two sentences.
	Intro string
	// Steps run in order.
	Steps []Step
	// Done closes the exercise after its last step.
	Done []string
	// Request matches a person asking for this exercise by name.
	Request *textmatch.Regexp
}

// StepIndex returns the index of step id, or -1.
func (e *Exercise) StepIndex(id string) int {
	for i, s := range e.Steps {
		if s.ID == id {
			return i
		}
	}
	return -1
}

// Step returns the step with id and whether it exists.
func (e *Exercise) Step(id string) (Step, bool) {
	if i := e.StepIndex(id); i >= 0 {
		return e.Steps[i], true
	}
	return Step{}, false
}

// Next returns the id of the step after id, or "" when id is the last step
// (or unknown).
func (e *Exercise) Next(id string) string {
	i := e.StepIndex(id)
	if i < 0 || i+1 >= len(e.Steps) {
		return ""
	}
	return e.Steps[i+1].ID
}

// First returns the id of the first step.
func (e *Exercise) First() string { return e.Steps[0].ID }

// Get returns the exercise with id, or nil.
func Get(id string) *Exercise {
	for i := range catalog {
		if catalog[i].ID == id {
			return &catalog[i]
		}
	}
	return nil
}

// All returns every exercise, in catalog order. The slice must not be
// modified.
func All() []Exercise { return catalog }

// Requested returns the exercise the text asks for by name, or nil. A
// generic request ("can we do an exercise?") is reported by
// RequestedAny, not here.
func Requested(text string) *Exercise {
	for i := range catalog {
		if catalog[i].Request.MatchString(text) {
			return &catalog[i]
		}
	}
	return nil
}

var anyRequest = textmatch.MustCompile(`(?i)\b((an?|some|the) (calming |grounding |relaxation |breathing |mindfulness |short |quick )?(exercise|technique|skill)s?|help me (calm|relax|settle|chill)( down)?|(calm|settle) me down|something to (calm|relax|ground) me|how (can|do) i calm( myself)? down)\b`)

// RequestedAny reports whether the text asks for some exercise without
// naming one ("can you help me calm down?").
func RequestedAny(text string) bool { return anyRequest.MatchString(text) }

// Signal is what a person's message means for the current step.
type Signal string

// The signals, in the order Read checks them.
const (
	// Distress: the exercise is making things worse ("this is making me
	// more anxious", "I can't breathe", "I'm panicking"); it stops at once.
	Distress Signal = "distress"
	// Exit: the person wants to stop ("stop" anywhere in the message, "not
	// now", "maybe later", a bare "no" to a step that asks them to do
	// something).
	Exit Signal = "exit"
	// Skip: the person wants to skip this step and go on ("skip", "next
	// one"); two stuck replies on one step also skip it.
	Skip Signal = "skip"
	// Question: a side question; it is answered and the step stays.
	Question Signal = "question"
	// Hold: the person needs a moment ("wait", "one sec"); the step stays.
	Hold Signal = "hold"
	// Stuck: the person cannot do the step or does not understand it; help
	// is offered and the step stays.
	Stuck Signal = "stuck"
	// NotHelping: an answer to the half-way check-in that it is not going
	// well ("not really", "meh, not helping") without distress.
	NotHelping Signal = "not_helping"
	// Done: the step is done (an acknowledgement, or the answer asked for).
	Done Signal = "done"
)

var (
	exitRE = textmatch.MustCompile(`(?i)^\s*(quit|cancel|enough|end( it)?|exit|no more|nope|no thanks|not now|skip the (whole )?exercise|forget it|never ?mind|maybe later|not today|not right now|rather not|i'?d rather not)\b|\b(not now|not (right )?now,? thanks|maybe (later|another time|some other time)|another time|not today|no more|skip the (whole )?exercise|forget (it|this)|let'?s (quit|end|leave it|not)|(can|could) we (quit|end|leave it|pause)|i (want|need|would like|'d like) to (quit|end)|(end|quit) (the|this) (exercise|thing)|i'?m done with (this|the exercise)|don'?t want to (do|continue|keep going|carry on)( this| it)?|not (in the mood|up for (it|this)|feeling (it|up to (it|this)))|i'?d rather not|this isn'?t for me)\b`)
	// noRE is a bare no: an exit on a step that asks the person to do
	// something, an answer on a step that asks a question.
	noRE    = textmatch.MustCompile(`(?i)^\s*(no+|nah|nope|no,? (i don'?t want to|i'?d rather not|thanks|thank you))[\s.!]*$`)
	stopRE  = textmatch.MustCompile(`(?i)\b(stop|stopping)\b`)
	skipRE  = textmatch.MustCompile(`(?i)^\s*(skip|pass|next( one| step)?|move on|let'?s move on|can we skip (this|that|it)( one)?)\b`)
	holdRE  = textmatch.MustCompile(`(?i)^\s*(wait|hold on|hang on|one sec(ond)?|just a (sec(ond)?|moment|minute)|brb|give me a (sec(ond)?|moment|minute)|not yet|still (going|doing it|breathing|on it)|one moment|a moment)\b`)
	stuckRE = textmatch.MustCompile(`(?i)\b(i can'?t( do (it|this|that))?$|i cannot|can'?t (do|think of|find|feel|focus|concentrate|remember)|not working|doesn'?t (work|help)|don'?t (understand|get it|know how|know what)|what do i (do|say|write)|how do i|what do you mean|confus(ed|ing)|too hard|i'?m stuck|stuck|nothing comes|no idea|(^|\s)idk|i don'?t know|blank|help me)\b`)
	// questionStartRE is a question without its question mark: a question
	// word first, after a "wait," or "sorry,".
	questionStartRE = textmatch.MustCompile(`(?i)^\s*((wait|hang on|hold on|sorry|um+|uh+|quick question|so|ok(ay)?|actually|also|oh)[\s,.!:-]+)*(is|are|am|does|do|did|can|could|should|shall|will|would|why|how|what|when|where|who|which)\b`)
	// askedRE is a question put to Haven about the exercise ("is it normal
	// to...", "should I..."), as opposed to a question that is the
	// person's answer ("what if I fail?").
	askedRE      = textmatch.MustCompile(`(?i)\b(is (it|this|that) (normal|ok(ay)?|safe|bad|supposed|meant|fine|common|weird|strange)|should i|do i (have|need)|can i|am i (supposed|meant|doing)|why (does|do|is|are|would)|how (long|many|often|does|do|much)|does (it|this|that)|will (it|this|that)|what (does|is|'?s) (this|that|it|the point)|is there|are you|what happens)\b`)
	notHelpingRE = textmatch.MustCompile(`(?i)\b(not (great|good|well|really|much|helping|for me|working|sure it'?s helping)|meh|bad|awful|terrible|horrible|hate (it|this)|don'?t like (it|this)|isn'?t (helping|working)|doesn'?t (help|seem to help)|no (better|different|change))\b`)
	butFineRE    = textmatch.MustCompile(`(?i)\bbut (it'?s |i'?m )?(ok(ay)?|fine|good|alright|getting there|better)\b`)
)

// Read says what text means for step, the current step of an exercise.
// Anything that is not distress, an exit, a pause, a sign of being stuck or
// a side question counts as done: a bare "ok" moves on, since the person may
// have done the step silently.
func Read(text string, step Step) Signal {
	t := strings.TrimSpace(text)
	question := strings.Contains(t, "?") || questionStartRE.MatchString(t)
	switch {
	case Distressed(t):
		return Distress
	case exitRE.MatchString(t) || wantsStop(t):
		return Exit
	case !step.Answer && noRE.MatchString(t):
		return Exit
	case skipRE.MatchString(t):
		return Skip
	case question && stuckRE.MatchString(t):
		return Stuck
	case question && (!step.Answer || askedRE.MatchString(t)):
		return Question
	case holdRE.MatchString(t):
		return Hold
	case stuckRE.MatchString(t):
		return Stuck
	}
	return Done
}

// ReadCheckIn says what text means as the answer to the half-way check-in
// ("How is this going for you?"): Distress, Exit, Question, Hold, NotHelping
// or Done (going on).
func ReadCheckIn(text string) Signal {
	t := strings.TrimSpace(text)
	switch s := Read(t, Step{Answer: true}); s {
	case Distress, Exit, Question, Hold:
		return s
	}
	if noRE.MatchString(t) || (notHelpingRE.MatchString(t) && !butFineRE.MatchString(t)) {
		return NotHelping
	}
	return Done
}

// wantsStop reports a "stop" anywhere in the message that asks to stop
// ("ok stop", "please stop now", "I want to stop"), and not one that
// describes something ("I can't stop shaking", "the STOP skill").
func wantsStop(t string) bool {
	for _, loc := range stopRE.FindAllStringIndex(t, -1) {
		before := strings.ToLower(t[:loc[0]])
		after := strings.ToLower(t[loc[1]:])
		if stopNotBeforeRE.MatchString(before) || stopNotAfterRE.MatchString(after) {
			continue
		}
		return true
	}
	return false
}

var (
	stopNotBeforeRE = regexp.MustCompile(`(can'?t|cannot|couldn'?t|won'?t|wouldn'?t|don'?t|didn'?t|never|the|dbt|a|bus|how (do|can|to) i|how to|hard to|unable to|trying to|try to|help me)\s+$`)
	stopNotAfterRE  = regexp.MustCompile(`^\s*(thinking|worrying|crying|shaking|feeling|myself|skill|sign|it from|the (thoughts?|worry|worrying|panic))\b`)
)
