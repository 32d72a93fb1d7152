package therapy

import (
	"slices"
	"strings"
	"unicode"

	"github.com/havenbot/haven/internal/textmatch"

	"github.com/havenbot/haven/core/reply"
	"github.com/havenbot/haven/core/therapy/exercises"
	"github.com/havenbot/haven/emotion"
)

// identity is what Haven says about itself. It never claims to be human, a
// therapist, or an emergency service.
const identity = "I'm Haven, an AI companion. I'm not a therapist or an emergency service, but I'm here to listen and help you think things through."

// plan is one turn worked out: the decisions, the exercise transition, the
// scripted reply, and the brief a model would write from.
type plan struct {
	req   Request
	d     Decision
	st    State
	style style
	c     composer

	mode     Mode
	modality Modality
	stage    Stage
	exercise string
	step     string
	event    string
	// brief tells a model what this reply must do; generate is false for
	// replies that must stay scripted (identity, privacy).
	brief    string
	generate bool
	// reference is information the reply draws on (a psychoeducation
	// snippet, an exercise step), passed to the model.
	reference string

	// meet is the feeling the message carries (hasMeet false for none);
	// met is the valence the reply met ("" when it reflected no feeling).
	meet    meeting
	hasMeet bool
	met     emotion.Valence
	// answered is set when the reply answers a direct question.
	answered bool
}

// Respond writes the scripted reply for req with no model. It is
// deterministic for a given request.
func Respond(req Request) Response {
	p := build(req)
	return p.response(p.draft())
}

// build works out the turn: dispatch by rules unless req.Decision is set,
// then the exercise machine, then the scripted reply.
func build(req Request) *plan {
	full := req.Text
	req.Text = clip(req.Text, maxReadBytes)
	d := Decision{}
	if req.Decision != nil {
		d = *req.Decision
	} else {
		var ok bool
		d, ok = classify(DispatchInput{Text: req.Text, State: req.State, TurnCount: req.TurnCount})
		if !ok {
			d = Default(d)
		}
	}
	p := &plan{
		req: req, d: d, st: req.State.clone(),
		mode: d.Mode, modality: d.Modality,
		exercise: req.State.Exercise, step: req.State.Step, generate: true,
	}
	if p.modality == "" {
		p.modality = ModalityNone
	}
	p.st = noteSafetyCheck(p.st, req.SafetyAnswer, req.SafetyQuestion != "")
	p.meet, p.hasMeet = readMeeting(req.Text, req.Feeling, p.modality, p.st.LastFeeling)
	if p.hasMeet && strings.HasPrefix(p.meet.f.name, "grief") && d.Mode != ModeGuidedExercise {
		// A loss told with anger is grief, not a call for DBT skills.
		p.modality = ModalityGrief
	}
	p.c = newComposer(req.Text, req.TurnCount, recentKeys(req), prevReplies(req.History, recentReplies))
	rc := readRuleChange(req.Text)
	for _, r := range rc.set {
		p.st.addRule(r)
	}
	for _, r := range rc.lift {
		p.st.removeRule(r)
	}
	p.style = readStyle(req.Rules, p.st)
	p.write(rc)
	p.req.Text = full
	if p.stage == "" {
		p.stage = nextStage(req.State.Stage, req.TurnCount, Decision{Mode: p.mode, intent: p.d.intent}, req.Text, &p.st)
	}
	if p.modality != "" {
		p.st.Modality = p.modality
	}
	if p.stage == StageStabilizing && p.modality == ModalityNone {
		p.modality = ModalityPFA
	}
	return p
}

// prevReplies returns Haven's last n replies in h.
func prevReplies(h []Line, n int) []string {
	var out []string
	for i := len(h) - 1; i >= 0 && len(out) < n; i-- {
		if !h[i].User {
			out = append(out, h[i].Text)
		}
	}
	return out
}

// recentKeys are the keys not to use again this turn: the last reply's
// (req.RecentKeys) and those of the replies before it that the state keeps.
func recentKeys(req Request) []string {
	out := slices.Clone(req.RecentKeys)
	for _, ks := range req.State.Recent {
		out = append(out, ks...)
	}
	return out
}

// rememberKeys returns recent with keys appended as the newest reply's,
// keeping the last recentReplies replies.
func rememberKeys(recent [][]string, keys []string) [][]string {
	if len(keys) == 0 {
		return recent
	}
	out := append(slices.Clone(recent), slices.Clone(keys))
	if len(out) > recentReplies {
		out = out[len(out)-recentReplies:]
	}
	return out
}

// draft returns the scripted reply's draft with what core adds: the recall
// and the notice.
func (p *plan) draft() reply.Draft {
	d := p.c.draft(p.req.SafetyQuestion, p.style.shorter)
	d.Recall = p.req.Recall
	d.Notice = reply.Part{Text: p.req.Notice, Essential: true}
	return d
}

// maxRunes is the length limit of the whole reply.
func (p *plan) maxRunes() int {
	if p.req.MaxRunes <= 0 {
		return DefaultMaxRunes
	}
	return p.req.MaxRunes
}

// response assembles the scripted reply from its draft d (p.draft()).
func (p *plan) response(d reply.Draft) Response {
	a := reply.Assemble(d, p.maxRunes())
	text, keys := a.Text, a.Keys
	st := p.st
	st.Stage, st.Exercise, st.Step = p.stage, p.exercise, p.step
	st.Recent = rememberKeys(st.Recent, keys)
	st.LastFeeling = lastFeeling{}
	if p.met != "" && p.hasMeet && p.met == p.meet.valence {
		st.LastFeeling = lastFeeling{Family: p.meet.f.name, Valence: p.met}
	}
	return Response{
		Text: text, Mode: p.mode, Modality: p.modality,
		Event: p.event, State: st, Keys: keys, Source: ReplyScripted,
		Met: p.met, Answered: p.answered,
	}
}

func (p *plan) name() string {
	if p.req.Name == "" {
		return ""
	}
	return " " + p.req.Name
}

// write chooses the kind of reply and composes it.
func (p *plan) write(rc ruleChange) {
	text := strings.TrimSpace(p.req.Text)
	active := p.exercise != "" && p.step != StepOffered && exercises.Get(p.exercise) != nil

	// Warning signs: the gate's one direct question comes first, and a
	// running exercise or offer is paused for it.
	if p.req.SafetyQuestion != "" {
		if p.req.FirstContact {
			// Whoever meets Haven learns first that it is an AI, also
			// when its first words worry it.
			p.c.must("intro", "Hi"+p.name()+", I'm Haven, an AI companion (not a therapist or an emergency service).")
		}
		if isGoodbye(text) {
			p.c.say("warn-bye", "Before you go, I want to check in with you about something.")
		}
		if active {
			p.st.Interrupted = p.exercise
			p.event = "paused"
		}
		p.clearExercise()
		p.mode, p.stage = ModeSupportive, StageStabilizing
		p.st.Stabilize = max(p.st.Stabilize, 2)
		if !isGoodbye(text) {
			p.met = emotion.Negative
			if r := reflection(text); r != "" {
				p.c.say("reflect", "It sounds like "+r+".", "I'm hearing that "+r+".")
			}
			p.c.say("warn-validate", "That sounds really heavy, and I'm glad you told me.",
				"Thank you for trusting me with that; it sounds like a lot to hold.",
				"I'm really sorry it feels this hard right now.")
		}
		p.brief = "Acknowledge what they said warmly in one or two sentences. Ask no question: a safety question is added after your words."
		return
	}

	if active && p.d.intent == intentGoodbye {
		// Leaving in the middle: the exercise ends with the session.
		p.clearExercise()
		p.event = "stopped"
		active = false
	}
	if active {
		p.runExercise(text)
		return
	}
	if p.req.SafetyAnswer && p.step != StepOffered && !isGoodbye(text) {
		p.stepDown()
		return
	}
	if p.step == StepOffered {
		ex := exercises.Get(p.exercise)
		switch {
		case ex != nil && isYes(text):
			p.startExercise(ex, true)
			return
		case noRE.MatchString(text):
			p.clearExercise()
			p.st.Offered = ""
			p.event = "declined"
			p.mode = ModeSupportive
			p.c.say("decline", "That's okay, we don't have to.", "No problem at all.", "Of course, that's completely fine.")
			if len(strings.Fields(text)) <= 4 {
				p.c.ask("decline-q", "What would feel most helpful right now?", "What would you like to talk about instead?", "Would you like to tell me more about how it's been?")
				p.brief = "They said no to the exercise. Accept it warmly and invite them to keep talking."
				return
			}
		default:
			p.clearExercise()
			p.event = "declined"
		}
	}

	if len(rc.set)+len(rc.lift) > 0 {
		p.ruleAck(rc)
	}

	switch p.d.intent {
	case intentStartExercise, intentOfferReply:
		ex := exercises.Get(p.d.exercise)
		if ex == nil {
			// Asked for help without naming an exercise: Haven picks one
			// and asks before starting it.
			p.offerExercise(suited(text, p.st, p.modality))
			return
		}
		p.startExercise(ex, p.d.intent == intentOfferReply)
		return
	case intentIdentity:
		p.generate = false
		p.answered = true
		p.c.must("who", whatHavenIs(p.req.LanguageModel))
		p.c.say("who-can", "I can listen, help you sort through what's on your mind, and guide a few short exercises for stress and worry.",
			"I can listen, reflect things back, and walk you through a few calming exercises if you'd like.")
		p.c.ask("who-q", "What would you like to talk about?", "What's on your mind today?")
		return
	case intentCrisisPolicy:
		// The answer ends by leaving the door open; no second question.
		p.generate = false
		p.answered = true
		p.c.must("crisis-policy", crisisPolicyAnswer)
		return
	case intentConfidential:
		p.generate = false
		p.answered = true
		p.c.must("privacy", privacyAnswer)
		p.c.ask("privacy-q", "What's on your mind?", "What would you like to talk about?")
		return
	case intentGoodbye:
		p.closing()
		return
	case intentPsychoed:
		if s, ok := snippetByKey(p.d.snippet); ok || p.d.snippet == "" {
			if !ok {
				s, ok = askedSnippet(text, p.modality)
			}
			if !ok {
				break
			}
			p.psychoed(s)
			return
		}
	}
	p.share(text)
}

func (p *plan) clearExercise() {
	p.exercise, p.step = "", ""
	p.st.Stuck, p.st.Answers = 0, nil
	p.st.CheckedIn, p.st.CheckIn = false, false
}

func (p *plan) ruleAck(rc ruleChange) {
	for _, r := range rc.set {
		switch r {
		case RuleJustListen:
			p.c.say("rule-listen", "Of course. I'll just listen.", "Okay, no advice. I'm here to listen.", "Got it, I'm listening.")
		case RuleShorter:
			p.c.say("rule-short", "Sure, I'll keep it short.", "Got it, shorter replies.")
		}
	}
	for _, r := range rc.lift {
		switch r {
		case RuleJustListen:
			p.c.say("rule-advice", "Okay, I'll share ideas when they might help.", "Sure, I can offer some thoughts too.")
		case RuleShorter:
			p.c.say("rule-long", "Okay, I'll say a bit more.", "Sure, I can go into more detail.")
		}
	}
}

// share is the ordinary reply: reflection in the person's own words,
// validation, and one open question (or a gentle offer).
func (p *plan) share(text string) {
	if greetingRE.MatchString(text) {
		p.mode = ModeSupportive
		if p.req.FirstContact {
			p.c.must("hello-first", "Hi"+p.name()+". "+identity)
		} else {
			p.c.say("hello", "Hi"+p.name()+", good to see you again.", "Hello"+p.name()+", welcome back.", "Hey"+p.name()+", nice to hear from you.")
		}
		p.c.ask("hello-q", "How are you doing today?", "What's on your mind?", "How has your day been?")
		p.brief = "Greet them back warmly and invite them to share how they are."
		return
	}
	if m := introRE.FindStringSubmatch(text); m != nil && p.req.Name != "" && strings.EqualFold(m[2], p.req.Name) {
		p.mode = ModeSupportive
		p.c.must("met", "Nice to meet you,"+p.name()+".")
		if p.req.FirstContact {
			p.c.must("met-who", identity)
		}
		p.c.ask("hello-q", "How are you doing today?", "What's on your mind?", "How has your day been?")
		p.brief = "They told you their name. Greet them by it warmly and invite them to share how they are."
		return
	}
	if p.req.FirstContact {
		p.c.must("intro", "Hi"+p.name()+", I'm Haven, an AI companion (not a therapist or an emergency service).")
	}
	// A direct question is answered first; the conversation then goes on.
	a, answered := findAnswer(text, p.askContext())
	if answered {
		p.answered = true
		p.c.must("answer-"+a.key, a.text)
		if a.reference != "" {
			p.reference = a.reference
		}
		if a.whole && (!p.hasMeet || p.meet.fromContext) {
			p.brief = "They asked you a direct question. Answer it first, briefly and truthfully (the reference has the facts), then invite them to go on."
			if a.ask != "" && !p.style.justListen {
				p.c.ask("answer-q-"+a.key, a.ask)
			} else {
				p.c.ask("back-q", "How are you doing with everything else?", "What's on your mind today?",
					"Is there something you'd like to talk through?", "How are things with you right now?",
					"What would be most helpful to talk about?")
			}
			return
		}
	}
	if thanksRE.MatchString(text) && len(strings.Fields(text)) <= 6 {
		p.c.say("thanks", "You're welcome. I'm glad this helps a little.", "Of course. Thank you for trusting me with it.", "Anytime. I'm glad you're here.")
		p.c.ask("thanks-q", "Is there anything else on your mind?", "How are you feeling now?", "What would you like to do with the rest of today?")
		p.brief = "They thanked you. Receive it warmly and leave the door open."
		return
	}
	if vagueRE.MatchString(text) {
		p.c.say("vague", "That's okay; it doesn't have to be clear yet.", "No pressure to have the words for it.", "That's alright. We can go slowly.")
		p.c.ask("vague-q", "If you had to pick one word for how today has felt, what would it be?",
			"What's been taking up most of your headspace lately?",
			"Would it help to start with what happened today?")
		p.brief = "They're unsure what to say. Make it easy: no pressure, one gentle, concrete question."
		return
	}
	m, hasFeeling := p.meet, p.hasMeet
	f := m.f
	t, hasTopic := firstTopic(text)
	if hasFeeling && m.valence == emotion.Negative && !m.carried {
		p.st.addTheme(f.name)
	}
	if hasTopic {
		p.st.addTheme(t.name)
	}
	afterCrisis := p.req.SessionMaxRisk >= 2 && p.st.Stabilize > 0 && !p.st.SafetyAnswered
	if afterCrisis {
		p.c.say("stab", "I'm really glad you're still here talking with me.", "Thank you for staying with me.", "I'm here with you.")
	}
	p.reflectHeart(text, m, hasFeeling)
	switch {
	case hasFeeling && afterCrisis && m.valence == emotion.Positive:
		// Relief after a crisis is met quietly: "congratulations" or
		// "that's brilliant" to "I'm safe now, my partner is home" would
		// jar.
		p.met = m.valence
		p.c.say("feel-relief", "I'm really glad to hear that.", "That's good to hear.", "I'm relieved to hear that.")
	case hasFeeling:
		p.met = m.valence
		p.c.say("feel-"+f.name, f.validations...)
	case len(p.c.parts) == 0 || (len(p.c.parts) == 1 && p.req.FirstContact):
		p.c.say("listen", "Thank you for telling me.", "I'm listening.", "I hear you.", "Thanks for sharing that with me.", "I'm with you.", "Go on, I'm listening.", "Okay.")
	}
	p.brief = "Reflect the heart of what they said in their own words, meet the feeling, and ask one open question."
	if answered {
		p.brief = "They asked you a direct question: answer it first, briefly and truthfully (the reference has the facts). Then reflect what they said, meet the feeling, and ask at most one question."
	}

	if afterCrisis {
		p.c.say("stab-res", "The support lines I shared are there any time, day or night.", "If things feel unsafe again, the numbers I gave you are there any time.")
		p.c.ask("stab-q", "How are you feeling right now, in this moment?", "Is there someone you could be with, or talk to, today?", "What would help you feel a little safer tonight?")
		p.brief = "Earlier in this conversation they were in crisis. Stay calm and warm, check how they are right now, and do not explore painful details."
		return
	}

	// Professional help, once a session, when what they describe calls for it.
	if !p.st.SuggestedHelp && helpNeedRE.MatchString(text) && (hasFeeling && m.valence != emotion.Positive || acuteRE.MatchString(text)) {
		p.st.SuggestedHelp = true
		p.c.say("pro", "When something has been this heavy for this long, it can really help to talk to a GP or a counsellor as well; you deserve that kind of support. I'm still here to talk, too.",
			"If it's been like this for a while, a GP or a counsellor could help alongside our chats, and you deserve that support. I'll still be here, too.")
		p.brief += " Gently suggest talking to a GP or counsellor as well, without pushing them away."
	}

	if p.style.justListen {
		p.c.ask("listen-q", "I'm here, take your time.", "Tell me more, if you want to.", "What else is on your mind about it?", "Go on whenever you're ready.")
		p.brief = "They asked you to just listen: reflect and validate only. No advice, no suggestions, no exercises."
		return
	}
	// A feeling carried over from the last message is met, but only the
	// person's own words of stress make an exercise the next step.
	if p.offer(text, f, hasFeeling && !m.carried) {
		return
	}
	p.followUp(text, m, hasFeeling, t, hasTopic)
}

// reflectHeart reflects the heart of the message, framed for the feeling
// it carries. A harsh word about themselves ("I feel so stupid") is met,
// not mirrored back: saying it again would repeat the judgment; and a joke
// at their own expense is not told back either.
func (p *plan) reflectHeart(text string, m meeting, hasFeeling bool) {
	if lex, ok := firstFeeling(text); ok && lex.name == "guilt" {
		return
	}
	if hasFeeling && m.f.name == "sarcasm" {
		return
	}
	r := reflection(text)
	if r == "" {
		return
	}
	switch {
	case hasFeeling && m.valence == emotion.Positive:
		p.c.say("reflect-good", upperFirst(r)+"!", "Wow, "+r+"!", "Oh, "+r+"!")
	case hasFeeling && m.f.name == "grief-anger":
		p.c.say("reflect-grief", "No wonder "+r+".", "Of course "+r+".", "It makes sense that "+r+".")
	default:
		p.c.say("reflect", "It sounds like "+r+".", "I'm hearing that "+r+".", "From what you're saying, "+r+".",
			"So "+r+".", "If I'm hearing you right, "+r+".", "It seems "+r+".")
	}
}

// followUp asks the reply's one question: about the feeling it met, the
// part of life the message is about, or an open one.
func (p *plan) followUp(text string, m meeting, hasFeeling bool, t topic, hasTopic bool) {
	f := m.f
	them, they := lostOne(text)
	switch {
	case hasFeeling && m.valence == emotion.Positive:
		p.c.ask("good-q", "How are you going to celebrate?", "How does it feel?", "What did it take to get there?",
			"Who have you told so far?", "What are you most looking forward to?", "What made the difference?")
	case hasFeeling && f.name == "sarcasm":
		p.c.ask("sarcasm-q", "What's made it hard to get started?", "How are you feeling about it, underneath the joke?",
			"What would a small, realistic first step look like?", "How much is this weighing on you right now?")
	case hasFeeling && f.name == "mixed":
		p.c.ask("mixed-q", "Which feeling is louder right now?", "What's the part that doesn't feel good?",
			"Can you tell me about both sides of it?")
	case hasFeeling && f.name == "grief-anger":
		p.c.ask("grief-q", "What do you wish people would say instead?", "Would you like to tell me about "+them+"?",
			"What has it been like for you since?", "What do you miss most about "+them+"?")
	case hasFeeling && !hasTopic && len(strings.Fields(text)) < 6 && len(p.req.State.Themes) == 0:
		p.c.ask("short-q", "What's been going on?", "Do you want to tell me what's been happening?", "What's been weighing on you?")
	case hasFeeling && f.name == "heartbreak":
		p.c.ask("heartbreak-q", "How have you been holding up since it ended?", "What has been the hardest part since then?", "What do you miss most right now?")
	case hasFeeling && f.name == "guilt":
		p.c.ask("guilt-q", "What would you say to a friend who told you the same thing?", "Is that the whole story, or just the loudest part of it?", "What makes you so sure it was all on you?")
	case hasFeeling && f.name == "grief":
		p.c.ask("grief-q", "Would you like to tell me about "+them+"?", "What has it been like for you since?", "What do you miss most about "+them+"?",
			"How are you looking after yourself through this?", "What "+map[string]string{"they": "were they", "she": "was she", "he": "was he"}[they]+" like?")
	case hasTopic:
		p.c.ask("topic-q-"+t.name, t.questions...)
	case hasFeeling:
		p.c.ask("feel-q", "When did you start feeling this way?", "What has this been like for you day to day?",
			"What do you think you need most right now?", "What's the hardest part of it?", "How long has it been like this?",
			"What does a day like that look like for you?")
	default:
		p.c.ask(openGroup, openQuestions...)
	}
}

// lostOne is how to name the person a message about a loss speaks of, as
// object and subject: "her"/"she", "him"/"he", or "them"/"they" when it
// does not say.
func lostOne(text string) (object, subject string) {
	switch {
	case sheRE.MatchString(text):
		return "her", "she"
	case heRE.MatchString(text):
		return "him", "he"
	}
	return "them", "they"
}

var (
	sheRE = textmatch.MustCompile(`(?i)\b(she|her|she's|mum|mom|mother|sister|wife|daughter|grandma|granny|nan|aunt|girlfriend)\b`)
	heRE  = textmatch.MustCompile(`(?i)\b(he|him|he's|dad|father|brother|husband|son|grandad|grandpa|uncle|boyfriend)\b`)
)

// upperFirst capitalizes the first letter of s.
func upperFirst(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// offer adds a gentle exercise offer when the moment fits: the person
// describes stress, worry, panic, anger, rumination or tension, the session
// is past its opening, and nothing was offered in the last few turns.
func (p *plan) offer(text string, f feeling, hasFeeling bool) bool {
	turn := p.req.TurnCount + 1
	if p.req.TurnCount < 2 || (p.st.OfferTurn > 0 && turn-p.st.OfferTurn < 5) {
		return false
	}
	acute := acuteRE.MatchString(text)
	if hasFeeling && slices.Contains([]string{"grief", "grief-anger", "heartbreak", "guilt", "low", "lonely", "good", "mixed"}, f.name) && !acute {
		return false
	}
	fits := acute || ((p.modality == ModalityACT || p.modality == ModalityDBT) && p.req.TurnCount >= 3) ||
		(hasFeeling && slices.Contains([]string{"stressed", "anxious", "frustrated", "tired"}, f.name))
	if !fits {
		return false
	}
	ex := suited(text, p.st, p.modality)
	if ex == nil || slices.Contains(p.st.Done, ex.ID) {
		return false
	}
	p.exercise, p.step, p.event = ex.ID, StepOffered, "offered"
	p.st.Offered, p.st.OfferTurn = ex.ID, turn
	p.c.ask("offer", "If it would help, we could try "+ex.Offer+" together; would you like that?",
		"Would you like to try "+ex.Offer+", just for a few minutes?",
		"Would it help to try "+ex.Offer+" together, right now?")
	p.brief += " End by gently offering " + ex.Offer + ", as a question they can say no to."
	return true
}

var (
	worryRE    = textmatch.MustCompile(`(?i)\b(what if|worr(y|ied|ying)|can'?t stop thinking about)\b`)
	tenseRE    = textmatch.MustCompile(`(?i)\b(tense|tension|sleep|can'?t relax)\b`)
	absoluteRE = textmatch.MustCompile(`(?i)\b(i'?m (such an?|a total|a complete|so) (failure|idiot|loser|mess|stupid|useless|pathetic|worthless)|i always|i never|everyone (thinks|hates)|nobody (likes|cares))\b`)
)

// suited picks the exercise that fits what the person describes.
// calmRE asks for help settling down.
var calmRE = textmatch.MustCompile(`(?i)\b(calm (me )?down|calm myself|settle (down|myself)|relax|chill out|unwind)\b`)

func suited(text string, st State, m Modality) *exercises.Exercise {
	f, _ := firstFeeling(text)
	id := exercises.BoxBreathing
	switch {
	case st.Stabilize > 0 && !acuteRE.MatchString(text):
		id = exercises.Grounding54321
	case acuteRE.MatchString(text), calmRE.MatchString(text):
		// Asked to calm down: the breath first ("calm down" is not
		// feeling down).
		id = exercises.BoxBreathing
	case m == ModalityACT:
		id = exercises.Defusion
	case m == ModalityDBT || f.name == "frustrated":
		id = exercises.DBTStop
	case worryRE.MatchString(text):
		id = exercises.WorryPostponement
	case f.name == "tired" || tenseRE.MatchString(text):
		id = exercises.MuscleRelaxation
	case f.name == "good":
		id = exercises.ThreeGoodThings
	case f.name == "low":
		id = exercises.ValuesCheck
	case m == ModalityCBT && absoluteRE.MatchString(text):
		id = exercises.ThoughtRecord
	}
	if slices.Contains(st.Done, id) && id != exercises.Grounding54321 {
		id = exercises.Grounding54321
	}
	return exercises.Get(id)
}

// psychoed answers a question with a snippet and one follow-up question.
func (p *plan) psychoed(s snippet) {
	p.mode = ModePsychoeducation
	p.answered = true
	if p.req.FirstContact {
		p.c.must("intro", "Hi"+p.name()+", I'm Haven, an AI companion (not a therapist or an emergency service).")
	}
	if p.style.shorter {
		p.c.say("edu-"+s.key, s.short)
	} else {
		p.c.say("edu-"+s.key, s.text)
	}
	if s.ask != "" {
		p.c.ask("edu-q-"+s.key, s.ask)
	}
	p.reference = s.text
	p.brief = "They asked a question. Answer it in plain words using the reference information, without diagnosing or giving medical advice, then ask at most one question."
}

// closing says goodbye with a short summary of the session.
func (p *plan) closing() {
	p.mode = ModeClosing
	p.generate = true
	if p.req.FirstContact {
		p.c.must("intro", "Hi"+p.name()+", I'm Haven, an AI companion (not a therapist or an emergency service).")
	}
	var themes []string
	recent := p.st.Themes
	if len(recent) > 4 {
		recent = recent[len(recent)-4:]
	}
	for _, th := range recent {
		if l, ok := themeLabels[th]; ok {
			themes = append(themes, l)
		}
	}
	var did []string
	for _, id := range p.st.Done {
		if ex := exercises.Get(id); ex != nil {
			did = append(did, ex.Name)
		}
	}
	if p.req.TurnCount >= 2 && len(themes) > 0 {
		s := "Today we talked about " + list(themes)
		if len(did) > 0 {
			s += ", and you tried " + list(did)
		}
		p.c.say("summary", s+".")
		p.c.say("summary-2", "That's a lot to bring, and you showed up for it.", "It took something to put that into words.", "Thank you for sharing all of that with me.")
	}
	p.c.say("bye", "Take good care of yourself, and come back any time.",
		"Be gentle with yourself, and I'm here whenever you want to talk again.",
		"Take care"+p.name()+". I'll be here when you want to pick this up again.")
	p.brief = "They're leaving. Say goodbye warmly, briefly sum up what they talked about if there was anything, and ask no question."
}

func list(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
