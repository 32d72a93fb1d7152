package therapy

import (
	"strings"

	"github.com/havenbot/haven/internal/textmatch"
)

// Answering what was asked: a direct question to Haven is answered first,
// from the psychoeducation snippets, from what Haven is, or honestly with
// "I don't know that one", and then the conversation goes on. A question a
// person asks themselves out of pain ("why does this always happen to
// me?") is not one to answer: it is met as the feeling it is.

// answer is Haven's answer to a direct question.
type answer struct {
	// key names the stock answer ("who", "edu-caffeine", "unknown", ...).
	key string
	// text is the answer as said in a scripted reply.
	text string
	// reference is fuller information for a model ("" for none).
	reference string
	// ask is the follow-up question the answer suggests ("" for none).
	ask string
	// whole is set when the question is the whole message: the answer is
	// then the reply's body.
	whole bool
}

// askContext is what an answer depends on besides the question.
type askContext struct {
	// modality is the session's modality: a general question ("is it
	// normal?") in a conversation about a loss is about grief.
	modality Modality
	// exercise is the running exercise ("" for none): "doing this" is it.
	exercise string
	// model is true when a language model writes Haven's replies.
	model bool
	// shorter asks for the one-sentence form.
	shorter bool
	// history is the recent conversation, for a question that points back
	// ("why does that happen?").
	history []Line
}

// askContext returns the plan's context for answering a question.
func (p *plan) askContext() askContext {
	return askContext{modality: p.modality, exercise: p.exercise, model: p.req.LanguageModel,
		shorter: p.style.shorter, history: p.req.History}
}

// answerQuestion answers a direct question in text, for a reply to say
// before it goes on (flow.go calls it for a side question during an
// exercise). ok is false when text asks Haven nothing that calls for an
// answer. When ok, the turn's Response reports Answered.
func (p *plan) answerQuestion(text string) (string, bool) {
	a, ok := findAnswer(text, p.askContext())
	if !ok {
		return "", false
	}
	p.answered = true
	if a.reference != "" {
		p.reference = a.reference
	}
	return a.text, true
}

var (
	// questionWordRE opens a question that has no question mark.
	questionWordRE = textmatch.MustCompile(`(?i)^\s*(why|how|what|when|where|who|which|is|are|am|do|does|did|can|could|should|would|will|any|tips)\b`)
	// rhetoricalRE is a question asked of oneself or of life, out of pain.
	rhetoricalRE = textmatch.MustCompile(`(?i)\b(why (me|bother|try|does (this|it|everything) (always )?happen to me|do i (always|even|bother|keep)|can'?t i (ever|just|do anything)|am i (like this|such|so (stupid|useless|bad|broken|weak))|is (it|everything|life) (always )?so)|what('?s| is) (wrong with me|the point|even the point)|who (even )?cares|what (did|have) i (do|done) to deserve|how am i supposed to|how (could|can) (she|he|they) (do|say) (that|this)|what am i (even )?doing( with my life)?|why would (anyone|anybody))\b`)
	// botRE asks what Haven is.
	botRE = textmatch.MustCompile(`(?i)\b(are you (just |only |really |actually |even )?(a |an )?(real |actual |live )?(bot|chat ?bot|script|program|robot|ai|a\.i\.|machine|computer|human|person|real|therapist|counsel+or|psychologist|doctor|professional|chatgpt|gpt|llm|language model)|(am i|i'?m not|i am not) (really |even |actually )?(talking|speaking|chatting) (to|with) (a |an )?(real |actual )?(person|human|bot|script|ai|robot|machine|computer|program)|is (this|it) (a |an |just a )?(bot|script|ai|automated|real person|human|program|robot)|who (are you|am i talking to)|what are you( exactly| really)?\s*(\?|$)|are you scripted|do you (use|run on) (ai|chatgpt|gpt|a language model|an llm))\b`)
	// howAreYouRE asks how Haven is.
	howAreYouRE = textmatch.MustCompile(`(?i)^\s*(and )?(how are you|how'?s it going|how are you doing|how about you|and you|what about you)\b`)
	// thereRE asks whether Haven is there.
	thereRE = textmatch.MustCompile(`(?i)^\s*(are you (still )?there|you there|hello\?+|anyone there)\b`)
	// permissionRE asks to talk ("can I tell you something?").
	permissionRE = textmatch.MustCompile(`(?i)^\s*(can|could|may) (i|we) (ask( you)?|tell you|talk|vent|say|share|rant)\b`)
	// makesSenseRE asks whether Haven understands.
	makesSenseRE = textmatch.MustCompile(`(?i)\b(does (that|this|it|any of (that|this)) (even )?make sense|do you (get|understand) (it|me|what i mean|that)|you know what i mean)\b`)
	// decideRE asks Haven to decide for them.
	decideRE = textmatch.MustCompile(`(?i)\b(what (should|do|would) i (do|say)|should i\b|what would you do|what do you think( i should)?|do you think (i|it|that|this)|what'?s your (advice|opinion|take)|any advice)\b`)
	// helpRE asks what Haven can do.
	helpRE = textmatch.MustCompile(`(?i)^\s*(can|could|will) you (help|listen|talk)\b|\bwhat can you do\b|\bhow (can|do) you (help|work)\b`)
	// infoQuestionRE is a question asking for information.
	infoQuestionRE = textmatch.MustCompile(`(?i)^\s*(why|how|what|when|where|which|is|are|does|do|can|could|will|would)\b`)
	// healthRE marks a question about the body, health or medicine.
	healthRE = textmatch.MustCompile(`(?i)\b(body|heart|chest|head(aches?)?|stomach|pain|symptoms?|medic\w*|meds|pills?|drugs?|doctor|dose|vitamins?|supplements?|diet|eat(ing)?|blood|dizz\w*|sick|ill|illness|disease|disorder|condition|hormones?)\b`)
)

// findAnswer returns the answer to the direct question in text, if it asks
// one that calls for an answer.
func findAnswer(text string, ac askContext) (answer, bool) {
	text = strings.TrimSpace(clip(normalizeQuotes(text), maxReadBytes))
	q, whole := questionIn(text)
	if q == "" {
		return answer{}, false
	}
	a, ok := answerTo(q, ac)
	if !ok {
		return answer{}, false
	}
	a.whole = whole
	return a, true
}

// questionIn returns the sentence of text that asks a question ("" for
// none), and whether it is the whole message.
func questionIn(text string) (string, bool) {
	ss := sentences(text)
	for _, s := range ss {
		if strings.HasSuffix(s, "?") || (!strings.Contains(text, "?") && questionWordRE.MatchString(s) && len(ss) == 1) {
			return s, len(ss) == 1 || onlyFillerBesides(ss, s)
		}
	}
	return "", false
}

// onlyFillerBesides reports whether every sentence of ss other than q is a
// short lead-in ("wait,", "sorry", "quick question").
func onlyFillerBesides(ss []string, q string) bool {
	for _, s := range ss {
		if s != q && len(strings.Fields(s)) > 3 {
			return false
		}
	}
	return true
}

// answerTo answers one question sentence.
func answerTo(q string, ac askContext) (answer, bool) {
	// What Haven is comes first: it is always answered truthfully.
	if botRE.MatchString(q) {
		return answer{key: "who", text: whatHavenIs(ac.model)}, true
	}
	if crisisPolicyRE.MatchString(q) {
		return answer{key: "crisis-policy", text: crisisPolicyAnswer}, true
	}
	if privacyRE.MatchString(q) {
		return answer{key: "privacy", text: privacyAnswer}, true
	}
	if s, ok := askedSnippet(q, ac.modality); ok {
		return snippetAnswer(s, ac), true
	}
	if s, ok := askedAboutEarlier(q, ac.history); ok {
		return snippetAnswer(s, ac), true
	}
	if rhetoricalRE.MatchString(q) {
		return answer{}, false
	}
	switch {
	case howAreYouRE.MatchString(q):
		return answer{key: "how-me", text: "I'm a program, so I don't have good or bad days, but thank you for asking."}, true
	case thereRE.MatchString(q):
		return answer{key: "here", text: "I'm here."}, true
	case permissionRE.MatchString(q):
		return answer{key: "permission", text: "Of course, go ahead."}, true
	case makesSenseRE.MatchString(q):
		return answer{key: "sense", text: "It does make sense to me."}, true
	case helpRE.MatchString(q):
		return answer{key: "can", text: "I can listen, help you sort through what's on your mind, and guide a few short exercises for stress and worry. For anything medical or urgent, a professional is the right person."}, true
	case decideRE.MatchString(q):
		return answer{key: "decide", text: "I can't tell you what's right for you, but I can help you think it through."}, true
	case infoQuestionRE.MatchString(q) && !asksAboutThemselves(q):
		t := "I don't know that one, I'm afraid."
		if healthRE.MatchString(q) {
			t = "I don't know that one, I'm afraid, and it's one a doctor or pharmacist could answer properly."
		}
		return answer{key: "unknown", text: t}, true
	}
	return answer{}, false
}

// crisisPolicyRE asks what Haven does when someone tells it of suicide or
// self-harm: "do you call the police if I mention suicide?", "will you
// tell my parents if I say I self-harm?", "what happens if I tell you I'm
// suicidal?". People often ask it before they say more.
var crisisPolicyRE = textmatch.MustCompile(`(?i)\b(do|will|would|can|could|does|are) (you|haven|this (bot|app|chat|thing)) (have to |need to |ever |automatically |going to |gonna |legally )?(call|contact|tell|report|alert|notify|inform|ring|send (the )?police|flag|lock)\b.*\b(if|when)\b.*\b(suicid\w*|self[- ]?harm\w*|kill (myself|themselves)|end (my|their) life|hurt(ing)? (myself|themselves)|want(ing)? to die|kms|ctb|unalive)|\bwhat (happens|do you do|will you do|would you do|does haven do)\b.*\b(if|when)\b.*\b(mention|say|type|tell you|talk about|bring up|admit|write)\b.*\b(suicid\w*|self[- ]?harm\w*|kill myself|end my life|hurt(ing)? myself|want(ing)? to die|kms|ctb|unalive)`)

// crisisPolicyAnswer says truthfully what Haven does, and leaves the door
// open.
const crisisPolicyAnswer = "No. I'm an AI, so I can't call the police or anyone else, and I don't contact anyone about you. If you tell me about thoughts of suicide or of hurting yourself, I'll stay with you, ask how you're doing, and share helplines where a real person can talk with you; what you do next is your choice. The service that runs Haven does save our conversation, so it isn't confidential the way therapy is. You can tell me what's going on."

// selfQuestionRE is a question about the person's own story that Haven
// cannot answer and should not pretend to ("do I even want to go back?").
var selfQuestionRE = textmatch.MustCompile(`(?i)^\s*(do|did|am|was|will|would|should|can|could) i\b|^\s*(why|how|what|when) (do|did|am|was|will|would|can|could) i\b|^\s*(is|was) (it|that) (my|me)\b`)

// asksAboutThemselves reports a question about the person's own life,
// which the conversation explores rather than answers.
func asksAboutThemselves(q string) bool {
	return selfQuestionRE.MatchString(q)
}

// snippetAnswer is a psychoeducation snippet as an answer, in its short
// form when the person asked for shorter replies or an exercise is running.
func snippetAnswer(s snippet, ac askContext) answer {
	t := s.text
	if ac.shorter || ac.exercise != "" {
		t = s.short
	}
	return answer{key: "edu-" + s.key, text: t, reference: s.text, ask: s.ask}
}

// whatHavenIs is the truthful answer to "are you a bot / a script / a
// person?": an AI companion, not a therapist, and whether a language model
// writes its replies.
func whatHavenIs(model bool) string {
	if model {
		return identity + " My replies are written by a language model and checked against safety rules."
	}
	return identity + " Right now I'm running without a language model: my replies come from a script that people wrote, so I won't understand everything the way a person would."
}

// privacyAnswer is the truthful answer to "is this private?".
const privacyAnswer = "Honest answer: I'm an AI, and our conversation is saved by the service that runs Haven so I can keep track of it. It isn't confidential the way a session with a therapist is, so share only what feels okay to share."
