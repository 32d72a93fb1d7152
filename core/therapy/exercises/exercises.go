package exercises

import (
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
	// Exit: the person wants to stop ("stop", "not now", "can we stop").
	Exit Signal = "exit"
	// Skip: the person wants to skip this step and go on ("skip", "next
	// one"); two stuck replies on one step also skip it.
	Skip Signal = "skip"
	// Hold: the person needs a moment ("wait", "one sec"); the step stays.
	Hold Signal = "hold"
	// Stuck: the person cannot do the step or does not understand it; help
	// is offered and the step stays.
	Stuck Signal = "stuck"
	// Question: a side question; it is answered and the step stays.
	Question Signal = "question"
	// Done: the step is done (an acknowledgement, or the answer asked for).
	Done Signal = "done"
)

var (
	exitRE  = textmatch.MustCompile(`(?i)^\s*(stop|quit|cancel|enough|end( it)?|exit|no more|nope|no thanks|not now|skip the (whole )?exercise|forget it|never ?mind)\b|\b(not now|no more|skip the (whole )?exercise|forget (it|this)|let'?s (stop|quit|end|leave it|not)|(can|could) we (stop|quit|end|leave it|pause)|i (want|need|would like|'d like) to (stop|quit|end)|(stop|end|quit) (the|this) (exercise|thing)|i'?m done with (this|the exercise)|don'?t want to (do|continue|keep going|carry on)( this| it)?|not (in the mood|up for (it|this))|this isn'?t (for me|helping,? stop))\b`)
	skipRE  = textmatch.MustCompile(`(?i)^\s*(skip|pass|next( one| step)?|move on|let'?s move on|can we skip (this|that|it)( one)?)\b`)
	holdRE  = textmatch.MustCompile(`(?i)^\s*(wait|hold on|hang on|one sec(ond)?|just a (sec(ond)?|moment|minute)|brb|give me a (sec(ond)?|moment|minute)|not yet|still (going|doing it|breathing|on it)|one moment|a moment)\b`)
	stuckRE = textmatch.MustCompile(`(?i)\b(i can'?t( do (it|this|that))?$|i cannot|can'?t (do|think of|find|feel|focus|concentrate|remember)|not working|doesn'?t (work|help)|don'?t (understand|get it|know how|know what)|what do i (do|say|write)|how do i|what do you mean|confus(ed|ing)|too hard|i'?m stuck|stuck|nothing comes|no idea|(^|\s)idk|i don'?t know|blank|help me)\b`)
)

// Read says what text means for the current step of an exercise. Anything
// that is not an exit, a pause, a sign of being stuck or a side question
// counts as done: a bare "ok" moves on, since the person may have done the
// step silently.
func Read(text string) Signal {
	t := strings.TrimSpace(text)
	switch {
	case exitRE.MatchString(t):
		return Exit
	case skipRE.MatchString(t):
		return Skip
	case holdRE.MatchString(t):
		return Hold
	case stuckRE.MatchString(t):
		return Stuck
	case strings.HasSuffix(t, "?"):
		return Question
	}
	return Done
}
