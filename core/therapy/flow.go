package therapy

import (
	"slices"
	"strings"

	"github.com/havenbot/haven/emotion"

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
// the exercise on: distress, stop, skip, side question, hold, stuck or done.
// While the half-way check-in waits for its answer, checkInAnswer reads it.
func (p *plan) runExercise(text string) {
	ex := exercises.Get(p.exercise)
	p.mode, p.modality = ModeGuidedExercise, Modality(ex.Modality)
	if exercises.Distressed(text) {
		// Distress comes before anything else the message asks for.
		p.stopDistress(ex, text)
		return
	}
	if other := exercises.Requested(text); other != nil && other.ID != ex.ID {
		p.c.say("switch", "Sure, let's switch.", "Of course, we can do that instead.")
		p.startExercise(other, true)
		return
	}
	if rc := readRuleChange(text); slices.Contains(rc.set, RuleJustListen) {
		// "Just listen" means no exercises: stop this one and listen.
		p.clearExercise()
		p.st.OfferTurn = p.req.TurnCount + 1
		p.event, p.mode = "stopped", ModeSupportive
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
	if p.st.CheckIn {
		p.checkInAnswer(ex, step, text)
		return
	}
	switch exercises.Read(text, step) {
	case exercises.Distress:
		p.stopDistress(ex, text)
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

// checkInAnswer reads the answer to the half-way check-in: distress stops
// the exercise at once, "not really" stops it gently, a side question is
// answered, and anything else goes on with the step the check-in held back.
func (p *plan) checkInAnswer(ex *exercises.Exercise, next exercises.Step, text string) {
	switch exercises.ReadCheckIn(text) {
	case exercises.Distress:
		p.stopDistress(ex, text)
	case exercises.Exit:
		p.exit(ex)
	case exercises.NotHelping:
		p.exit(ex)
	case exercises.Question:
		p.side(ex, next, text)
	case exercises.Hold:
		p.event = "held"
		p.c.must("hold", "Take all the time you need. I'll be here when you're ready.", "No rush at all. Tell me when you're ready to go on.")
		p.brief = "They need a moment. Tell them to take their time; do not give the next step."
	default:
		p.st.CheckIn = false
		p.event = "advanced"
		p.c.say("checkin-ok", "Good, let's keep going.", "Thanks for letting me know. Let's carry on.", "Okay, on we go.")
		p.c.must("ex-"+ex.ID+"-"+next.ID, next.Say...)
		p.reference = next.Say[0]
		p.brief = "They said the exercise is going alright. Guide the next step of " + ex.Name + " exactly as in the reference, warmly and briefly."
	}
}

// advance moves to the step after step, or finishes the exercise. Half-way
// through, it checks in with the person before giving the next step.
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
	if !p.st.CheckedIn && ex.StepIndex(next) == halfWay(ex) {
		p.st.CheckedIn, p.st.CheckIn = true, true
		p.event = "checked_in"
		p.c.say("checkin-credit", "We're half-way there.", "That's the first half done.")
		p.c.ask("checkin", "How is this going for you so far?", "How is this going for you?", "How are you finding it so far?")
		p.brief = "You're half-way through " + ex.Name + ". Check in: ask how it is going for them, and give no step this turn."
		return
	}
	n, _ := ex.Step(next)
	p.c.must("ex-"+ex.ID+"-"+n.ID, n.Say...)
	p.reference = n.Say[0]
	p.brief = "Guide the next step of " + ex.Name + " exactly as in the reference, warmly and briefly."
}

// halfWay is the index of the step the half-way check-in comes before.
func halfWay(ex *exercises.Exercise) int {
	return len(ex.Steps) / 2
}

// side answers a side question and returns to the step, repeating its
// instruction briefly.
func (p *plan) side(ex *exercises.Exercise, step exercises.Step, text string) {
	p.event = "side_question"
	if k, answer, ok := exerciseAnswer(ex, step, text); ok {
		p.c.say("side-ex-"+k, answer)
		p.reference, p.answered = answer, true
	} else if answer, ok := p.answerQuestion(text); ok {
		p.c.say("side-answer", answer)
	} else {
		p.c.say("side", "That's a good question, and I'd like to come back to it once we've finished this.",
			"Let's hold on to that question and come back to it right after this.")
	}
	if p.st.CheckIn {
		p.c.ask("checkin-back", "And how is the exercise going for you so far?", "How are you finding it so far?")
	} else {
		p.c.must("back", "Whenever you're ready, back to "+step.Short+".", "When you're ready, let's return to "+step.Short+".")
	}
	p.brief = "They asked a side question during " + ex.Name + ". Answer it in a sentence or two, then bring them back to the current step: " + step.Short + "."
}

// sideAnswers are the answers to questions people ask about an exercise
// while doing it. kinds limits an answer to exercises of those kinds
// ("breath" for the exercises that pace breathing, "body" for tensing and
// cold); empty means any exercise.
var sideAnswers = []struct {
	key   string
	kinds []string
	re    *textmatch.Regexp
	say   string
}{
	{"dizzy", []string{"breath"}, textmatch.MustCompile(`(?i)\b(dizzy|dizziness|light-?headed|faint|woozy|tingl\w*|pins and needles)\b`),
		"Yes, that can happen: breathing slower or deeper than usual can make some people a little light-headed. Let your breath go back to its own rhythm for a moment, and make the counts shorter if you like; if it doesn't pass, stop and breathe normally."},
	{"dizzy", nil, textmatch.MustCompile(`(?i)\b(dizzy|dizziness|light-?headed|faint|woozy)\b`),
		"Some people do feel a bit light-headed when they slow down and notice their body. Sit or lean on something steady and breathe at your own pace; if it doesn't pass, we can stop."},
	{"hold", []string{"breath"}, textmatch.MustCompile(`(?i)\b(hold(ing)? (my |the |your )?breath|the holds?|can'?t hold)\b`),
		"It's fine to make the holds shorter, or to leave them out and just breathe in for 4 and out for 4."},
	{"count", []string{"breath"}, textmatch.MustCompile(`(?i)\b(count|counting|out loud|seconds?)\b`),
		"Count silently, at whatever pace feels natural; the counts don't have to be exact seconds, only even."},
	{"nose", []string{"breath"}, textmatch.MustCompile(`(?i)\b(nose|mouth)\b`),
		"In through your nose is ideal, but if that's uncomfortable, breathing through your mouth is fine."},
	{"eyes", nil, textmatch.MustCompile(`(?i)\b(eyes?|close my eyes|eyes (open|closed))\b`),
		"Either is fine: close your eyes if that feels comfortable, or rest your gaze on one spot."},
	{"pain", []string{"body"}, textmatch.MustCompile(`(?i)\b(hurts?|pain(ful)?|injur\w*|cramp\w*|heart condition|pregnan\w*|health)\b`),
		"Go gently and never to the point of pain; skip any part that doesn't suit your body or your health."},
	{"length", nil, textmatch.MustCompile(`(?i)\b(how long|how many|how much longer|nearly (done|there)|almost (done|there))\b`),
		"Just a few minutes, one step at a time, and you can stop whenever you like."},
	{"feelings", nil, textmatch.MustCompile(`(?i)\b(normal|okay|ok|weird|strange|fine)\b.*\b(cry|crying|tears|emotional|sad|weird|strange|nothing|numb|bored|silly|awkward)\b|\b(cry|crying|tears|emotional|numb|silly|awkward)\b.*\b(normal|okay|ok)\b`),
		"Yes, that's normal: slowing down can bring feelings up, or make the exercise feel odd at first. Whatever you notice is okay."},
	{"wrong", nil, textmatch.MustCompile(`(?i)\b(doing (it|this) (wrong|right)|am i doing|right way|wrong way)\b`),
		"There's no wrong way to do this. If you're giving it your attention, you're doing it right."},
}

// exerciseKinds says which side answers fit an exercise.
var exerciseKinds = map[string][]string{
	exercises.BoxBreathing:     {"breath"},
	exercises.DBTTipp:          {"breath", "body"},
	exercises.MuscleRelaxation: {"body"},
}

// exerciseAnswer answers a question about the exercise being done: what is
// normal to feel (dizziness while breathing slowly, tears), how to do it
// (holds, counting, eyes), and how long it takes.
func exerciseAnswer(ex *exercises.Exercise, _ exercises.Step, text string) (key, answer string, ok bool) {
	kinds := exerciseKinds[ex.ID]
	for _, a := range sideAnswers {
		if len(a.kinds) > 0 && !slices.ContainsFunc(a.kinds, func(k string) bool { return slices.Contains(kinds, k) }) {
			continue
		}
		if a.re.MatchString(text) {
			return a.key, a.say, true
		}
	}
	return "", "", false
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

// stopDistress stops the exercise at once because it is making things
// worse: validation and grounding words, no next step, and the session
// steps into the stabilizing stage.
func (p *plan) stopDistress(ex *exercises.Exercise, text string) {
	p.clearExercise()
	p.st.OfferTurn = p.req.TurnCount + 1
	p.st.Stabilize = max(p.st.Stabilize, stabilizeN)
	p.event, p.mode, p.stage = "stopped_distress", ModeSupportive, StageStabilizing
	p.met = emotion.Negative // the reply meets the distress, not the exercise
	p.modality = ModalityPFA
	p.c.must("distress-stop", "Let's stop the exercise right here.", "Okay, we're stopping the exercise now.")
	p.c.must("distress-validate", "You haven't done anything wrong; sometimes turning attention to the body makes feelings louder for a while, and that's okay.",
		"Thank you for telling me. What you're feeling makes sense, and it will pass.")
	if breathRE.MatchString(text) {
		p.c.must("distress-breath", "Don't try to control your breathing; let it do whatever it does. Press your feet into the floor and notice something you can see near you.")
		p.c.must("distress-medical", "If your breathing doesn't settle or your chest hurts, please get medical help.")
	} else {
		p.c.must("distress-ground", "Press your feet into the floor, and let your eyes rest on one thing in the room. You're here, and this feeling will ease.",
			"Feel the chair or the floor holding you, and notice one thing you can see. You're here, and this will ease.")
	}
	p.c.ask("distress-q", "I'm right here. How are you doing at this moment?", "I'm here with you. What's it like right now?")
	p.brief = "They said " + ex.Name + " was making them feel worse. Stop it now: validate, give one or two plain grounding words (feet on the floor, one thing they can see), no next step, no new exercise, and ask gently how they are."
}

var breathRE = textmatch.MustCompile(`(?i)\b(breath\w*|chest|hyperventilat\w*|air|choking)\b`)

// exit stops the exercise at the person's word.
func (p *plan) exit(ex *exercises.Exercise) {
	doneSteps := ex.StepIndex(p.step)
	p.clearExercise()
	// No new offer for a while after someone stopped an exercise.
	p.st.OfferTurn = p.req.TurnCount + 1
	p.event = "stopped"
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

// offerExercise asks before starting ex, when the person asked for help
// without naming an exercise: nothing starts until they say yes, and "no",
// "not now" or "maybe later" start nothing.
func (p *plan) offerExercise(ex *exercises.Exercise) {
	turn := p.req.TurnCount + 1
	p.mode, p.modality = ModeSupportive, Modality(ex.Modality)
	p.exercise, p.step, p.event = ex.ID, StepOffered, "offered"
	p.st.Offered, p.st.OfferTurn = ex.ID, turn
	if p.req.FirstContact {
		p.c.must("intro", "Hi"+p.name()+", I'm Haven, an AI companion (not a therapist or an emergency service).")
	}
	if acuteRE.MatchString(p.req.Text) {
		p.c.say("offer-acute", "That sounds really frightening. I'm here with you.", "I'm here with you; let's take this one moment at a time.")
	} else {
		p.c.say("offer-help", "I'd be glad to help with that.", "Of course, we can try something together.")
	}
	p.c.ask("offer-ask", "Would you like to try "+ex.Offer+" with me? We can stop whenever you like.",
		"Would you like to try "+ex.Offer+"? You can stop at any point.")
	p.brief = "They asked for help calming down. Offer " + ex.Offer + " as a question they can say no to; start nothing yet."
}
