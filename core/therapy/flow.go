package therapy

import (
	"slices"
	"strings"

	"github.com/havenbot/haven/internal/textmatch"

	"github.com/havenbot/haven/core/therapy/exercises"
)

var (
	betterRE = textmatch.MustCompile(`(?i)\b(better|calmer|calm|relaxed|lighter|looser|slower|easier|less|softer|warm(er)?|good|nice|helped|clearer|grounded)\b`)
	worseRE  = textmatch.MustCompile(`(?i)\b(worse|same|nothing|no (change|different|difference)|didn'?t (help|work)|not really|still)\b`)
)

// startExercise begins ex: its introduction and first step, after a short
// "let's begin" when the person said yes to our offer or switched from
// another exercise.
func (p *plan) startExercise(ex *exercises.Exercise, accepted bool) {
	p.mode, p.modality = ModeGuidedExercise, Modality(ex.Modality)
	p.exercise, p.step, p.event = ex.ID, ex.First(), "started"
	p.st.OfferTurn = p.req.TurnCount + 1
	p.st.Stuck, p.st.Answers, p.st.Interrupted, p.st.Offered = 0, nil, "", ""
	if accepted && len(p.c.parts) == 0 {
		p.c.say("start-yes", "Great, let's do it together.", "Okay, let's begin.", "Good, I'll guide you.")
	} else if p.req.FirstContact {
		p.c.must("intro", "Hi"+p.name()+", I'm Haven, an AI companion (not a therapist or an emergency service).")
	}
	p.c.must("ex-intro-"+ex.ID, ex.Intro)
	first := ex.Steps[0]
	p.c.must("ex-"+ex.ID+"-"+first.ID, first.Say...)
	p.reference = first.Say[0]
	p.brief = "Start " + ex.Name + ": say in a sentence what it is and that they can stop any time, then give the first step exactly as in the reference."
}

// runExercise reads the person's message against the current step and moves
// the exercise on: done, skip, hold, stuck, side question or exit.
func (p *plan) runExercise(text string) {
	ex := exercises.Get(p.exercise)
	p.mode, p.modality = ModeGuidedExercise, Modality(ex.Modality)
	if other := exercises.Requested(text); other != nil && other.ID != ex.ID {
		p.c.say("switch", "Sure, let's switch.", "Of course, we can do that instead.")
		p.startExercise(other, true)
		return
	}
	if rc := readRuleChange(text); slices.Contains(rc.set, RuleJustListen) {
		// "Just listen" means no exercises: stop this one and listen.
		p.clearExercise()
		p.st.OfferTurn = p.req.TurnCount + 1
		p.event, p.mode = "exited", ModeSupportive
		p.ruleAck(rc)
		p.c.ask("listen-q", "I'm here, take your time.", "Tell me more, if you want to.", "Go on whenever you're ready.")
		p.brief = "They stopped the exercise and asked you to just listen. Acknowledge it briefly; no advice."
		return
	}
	step, ok := ex.Step(p.step)
	if !ok {
		// A step id this version does not know (a renamed step): start over
		// rather than guess.
		p.startExercise(ex, true)
		return
	}
	switch exercises.Read(text) {
	case exercises.Exit:
		p.exit(ex)
	case exercises.Hold:
		p.event = "held"
		p.c.must("hold", "Take all the time you need. I'll be here when you're ready.", "No rush at all. Tell me when you're ready to go on.", "Of course, take your time.")
		p.brief = "They need a moment. Tell them to take their time; do not give the next step."
	case exercises.Stuck:
		p.st.Stuck++
		if p.st.Stuck >= 2 {
			p.c.say("skip-stuck", "Let's leave that one; it doesn't have to work every time.", "That's okay, we can skip that one.")
			p.advance(ex, step, "skipped")
			return
		}
		p.event = "stuck"
		p.c.must("help-"+ex.ID+"-"+step.ID, step.Help)
		p.c.say("stuck-out", "And if this isn't right for you now, we can stop here; just say stop.",
			"If it isn't helping, it's fine to stop; just say so.")
		p.reference = step.Help
		p.brief = "They're finding this step hard. Offer the help in the reference kindly, and remind them they can stop."
	case exercises.Skip:
		p.advance(ex, step, "skipped")
	case exercises.Question:
		p.side(ex, step, text)
	default:
		if step.Answer {
			p.st.setAnswer(step.ID, text)
		}
		p.advance(ex, step, "advanced")
	}
}

// advance moves to the step after step, or finishes the exercise.
func (p *plan) advance(ex *exercises.Exercise, step exercises.Step, event string) {
	p.st.Stuck = 0
	next := ex.Next(step.ID)
	if next == "" {
		p.finish(ex)
		return
	}
	p.step, p.event = next, event
	if step.Answer && event == "advanced" {
		p.c.say("ack", "Thank you.", "Okay.", "Good.", "Got it.")
	}
	n, _ := ex.Step(next)
	p.c.must("ex-"+ex.ID+"-"+n.ID, n.Say...)
	p.reference = n.Say[0]
	p.brief = "Guide the next step of " + ex.Name + " exactly as in the reference, warmly and briefly."
}

// side answers a side question and returns to the step.
func (p *plan) side(ex *exercises.Exercise, step exercises.Step, text string) {
	p.event = "side"
	switch {
	case whoRE.MatchString(text):
		p.c.say("side-who", identity)
	default:
		if s, ok := askedSnippet(text, p.modality); ok {
			p.c.say("side-edu-"+s.key, s.short)
			p.reference = s.text
		} else if s, ok := topicSnippet(text); ok {
			p.c.say("side-edu-"+s.key, s.short)
			p.reference = s.text
		} else {
			p.c.say("side", "That's a good question, and I'd like to come back to it once we've finished this.",
				"Let's hold on to that question and come back to it right after this.")
		}
	}
	p.c.must("back", "Whenever you're ready, back to "+step.Short+".", "When you're ready, let's return to "+step.Short+".")
	p.brief = "They asked a side question during " + ex.Name + ". Answer it in a sentence or two, then bring them back to the current step: " + step.Short + "."
}

// topicSnippet finds a snippet for a question that names its topic but does
// not use the usual question words ("breathing helps?").
func topicSnippet(text string) (snippet, bool) {
	for _, s := range snippets {
		if s.topic.MatchString(text) {
			return s, true
		}
	}
	return snippet{}, false
}

// exit stops the exercise at the person's word.
func (p *plan) exit(ex *exercises.Exercise) {
	doneSteps := ex.StepIndex(p.step)
	p.clearExercise()
	// No new offer for a while after someone stopped an exercise.
	p.st.OfferTurn = p.req.TurnCount + 1
	p.event = "exited"
	p.mode = ModeSupportive
	p.c.say("exit", "Of course, we can stop here.", "That's completely fine, let's stop there.", "Sure, we'll leave it there.")
	if doneSteps > 0 {
		p.c.say("exit-credit", "Even part of it counts.", "You gave it a real try, and that matters.")
	}
	p.c.ask("exit-q", "What would you like to do now?", "How are you feeling at the moment?", "Is there something you'd rather talk about?")
	p.brief = "They stopped the exercise. Accept it without any pressure and invite them to say what they'd like now."
}

// finish closes the exercise with a short summary in the person's words.
func (p *plan) finish(ex *exercises.Exercise) {
	p.event = "finished"
	a := p.st.Answers
	switch ex.ID {
	case exercises.ThoughtRecord:
		if a["thought"] != "" && a["balanced"] != "" {
			p.c.say("sum", "You started with the thought \""+a["thought"]+"\" and found a more balanced one: \""+a["balanced"]+"\".")
		}
	case exercises.ThreeGoodThings:
		var things []string
		for _, id := range []string{"first", "second", "third"} {
			if a[id] != "" {
				things = append(things, a[id])
			}
		}
		if len(things) == 3 {
			p.c.say("sum", "Your three good things: "+strings.Join(things, "; ")+".")
		}
	case exercises.ValuesCheck:
		if a["small-step"] != "" {
			p.c.say("sum", "Your small step for this week: "+a["small-step"]+".")
		}
	case exercises.WorryPostponement:
		if a["worry-time"] != "" {
			p.c.say("sum", "Your worry time: "+a["worry-time"]+".")
		}
	default:
		last := a[ex.Steps[len(ex.Steps)-1].ID]
		switch {
		case last == "":
		case worseRE.MatchString(last):
			p.c.say("sum-same", "That's okay; it doesn't always shift things straight away, and trying still counts.", "That's alright. Sometimes the effect is small at first.")
		case betterRE.MatchString(last):
			p.c.say("sum-better", "I'm glad it eased a little.", "It's good to hear something shifted.")
		}
	}
	p.c.say("done-"+ex.ID, ex.Done...)
	p.c.ask("done-q", "How would you like to use the rest of our time?", "What would you like to do now?", "Is there anything on your mind you'd like to talk through?")
	p.st.OfferTurn = p.req.TurnCount + 1
	if !slices.Contains(p.st.Done, ex.ID) {
		p.st.Done = append(p.st.Done, ex.ID)
	}
	p.clearExercise()
	p.event = "finished"
	p.brief = "They finished " + ex.Name + ". Thank them, sum it up briefly in their words, and ask what they'd like now."
}
