// Package therapy is Haven's therapeutic branch: it chooses how to meet a
// person (mode, modality) and writes the reply. This first version answers
// from a scripted, clinician-style library with no language model: it
// reflects the person's own words, validates, and asks one open question.
package therapy

import (
	"hash/fnv"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Mode is how Haven meets the person this turn.
type Mode string

// The modes.
const (
	ModeSupportive Mode = "supportive"
	ModeReflective Mode = "reflective"
	ModeClarifying Mode = "clarifying"
	ModeClosing    Mode = "closing"
)

// Modality is the therapeutic frame the reply draws on.
type Modality string

// The modalities this version uses.
const (
	ModalityNone  Modality = "none"
	ModalityGrief Modality = "grief"
	ModalityPFA   Modality = "pfa"
)

// Request is what the scripted responder reads.
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
	// RecentKeys are the template keys used in the last replies; they are not
	// used again right away.
	RecentKeys []string
	// SafetyQuestion, when set, replaces the reply's closing question: the
	// crisis gate saw warning signs and asks one direct question.
	SafetyQuestion string
}

// Response is the scripted reply.
type Response struct {
	Text     string
	Mode     Mode
	Modality Modality
	// Keys are the template keys used, for Request.RecentKeys next turn.
	Keys []string
}

// feeling is an emotion family recognised in what the person wrote.
type feeling struct {
	name  string
	words *regexp.Regexp
	// validations name the feeling in a sentence that does not need the
	// person's words; %s is not used.
	validations []string
}

var feelings = []feeling{
	{"grief", regexp.MustCompile(`(?i)\b(passed away|died|death of|funeral|grie(f|ving)|lost my|miss(ing)? (him|her|them|my))\b`), []string{
		"Losing someone changes the shape of everything, and grief has no schedule.",
		"I'm so sorry. Grief can come in waves, and there is no right way to do it.",
		"That is a real loss, and it makes sense that it is still with you.",
	}},
	{"frustrated", regexp.MustCompile(`(?i)\b(angry|furious|frustrat(ed|ing)|annoy(ed|ing)|pissed|irritat(ed|ing)|fed up|mad at|unfair|(sick|tired) of)\b`), []string{
		"That sounds really frustrating.",
		"It makes sense to feel angry when something feels that unfair.",
		"Anyone would be fed up after that.",
	}},
	{"stressed", regexp.MustCompile(`(?i)\b(stress(ed|ful)?|overwhelm(ed|ing)?|pressure|swamped|too much|burn(ed|t) ?out|frazzled|deadlines?)\b`), []string{
		"That sounds like a lot to carry at once.",
		"Being under that much pressure for a while wears anyone down.",
		"No wonder you feel stretched thin; that is a heavy load.",
	}},
	{"anxious", regexp.MustCompile(`(?i)\b(anxious|anxiety|worr(y|ied|ying)|nervous|panic(king|ky)?|on edge|scared|afraid|dread)\b`), []string{
		"Worry like that can make everything feel urgent at once.",
		"That sounds unsettling; anxiety has a way of filling every quiet moment.",
		"It makes sense to feel on edge when things feel this uncertain.",
	}},
	{"low", regexp.MustCompile(`(?i)\b(sad|down|low|depressed|miserable|blue|empty|numb|cry(ing)?|unhappy|rough|awful|terrible)\b`), []string{
		"I'm sorry it has been so heavy lately.",
		"That sounds really hard, and I'm glad you said it out loud.",
		"Feeling that low is exhausting in its own way.",
	}},
	{"lonely", regexp.MustCompile(`(?i)\b(lonely|alone|isolated|no one to talk|nobody to talk|left out|no friends)\b`), []string{
		"Loneliness can hurt in a very physical way.",
		"Feeling alone with things makes them so much heavier.",
		"I'm glad you reached out, even if it is to me.",
	}},
	{"tired", regexp.MustCompile(`(?i)\b(tired|exhausted|drained|worn out|can't sleep|cannot sleep|insomnia|no energy)\b`), []string{
		"Running on empty makes everything harder.",
		"That kind of tiredness goes deeper than sleep.",
		"It sounds like you have been running on very little for a while.",
	}},
	{"good", regexp.MustCompile(`(?i)\b(happy|great|good news|excited|better|proud|relieved|grateful)\b`), []string{
		"That's really good to hear.",
		"I love hearing that.",
		"That sounds like a real lift.",
	}},
}

// topic is a part of life the person talks about.
type topic struct {
	name  string
	words *regexp.Regexp
	// questions are open questions about the topic.
	questions []string
}

var topics = []topic{
	{"work", regexp.MustCompile(`(?i)\b(work|job|boss|manager|colleague|coworker|office|shift|career|meeting)s?\b`), []string{
		"What part of work is weighing on you most right now?",
		"What has work been asking of you lately?",
		"When work feels like this, what tends to help you, even a little?",
	}},
	{"school", regexp.MustCompile(`(?i)\b(school|exam|class|university|uni|college|homework|essay|grades?|teacher|thesis)s?\b`), []string{
		"What is it about your studies that feels hardest at the moment?",
		"How much room is school leaving you for anything else?",
		"What would make the next few days of study feel more manageable?",
	}},
	{"family", regexp.MustCompile(`(?i)\b(family|mum|mom|mother|dad|father|parents?|sister|brother|son|daughter|kids?)\b`), []string{
		"How are things between you and them right now?",
		"What do you wish they understood?",
		"What has that been like for you?",
	}},
	{"relationship", regexp.MustCompile(`(?i)\b(partner|boyfriend|girlfriend|husband|wife|ex|relationship|breakup|broke up|dating)\b`), []string{
		"How are you feeling about the relationship right now?",
		"What has been the hardest part of it for you?",
		"What do you need most from them at the moment?",
	}},
	{"sleep", regexp.MustCompile(`(?i)\b(sleep|slept|insomnia|nightmares?|awake)\b`), []string{
		"What tends to be on your mind when you are lying awake?",
		"How long has sleep been like this?",
	}},
	{"money", regexp.MustCompile(`(?i)\b(money|rent|bills?|debt|broke|afford|finances?)\b`), []string{
		"Money worries touch everything. What feels most pressing?",
		"What would take even a bit of that pressure off?",
	}},
}

var (
	greetingRE = regexp.MustCompile(`(?i)^\s*(hi+|hello+|hey+|hiya|howdy|yo|good (morning|afternoon|evening)|morning|evening)\b[\s!.,]*(there|haven)?[\s!.,]*$`)
	thanksRE   = regexp.MustCompile(`(?i)\b(thanks|thank you|thx|ty|cheers)\b`)
	goodbyeRE  = regexp.MustCompile(`(?i)\b(bye|goodbye|good night|goodnight|see you|talk (to you )?later|gotta go|have to go|ttyl)\b`)
	whoRE      = regexp.MustCompile(`(?i)\b(who|what) are you\b|\bare you (a |an )?(human|real|person|bot|ai|robot|therapist|counsel+or)\b`)
	vagueRE    = regexp.MustCompile(`(?i)^\s*(idk|i don'?t know|dunno|meh|nothing|not sure|whatever|ok(ay)?|fine|hm+|ugh+|eh)[\s.!?]*$`)
)

// identity is what Haven says about itself. It never claims to be human, a
// therapist, or an emergency service.
const identity = "I'm Haven, an AI companion. I'm not a therapist or an emergency service, but I'm here to listen and help you think things through."

// Respond writes a scripted reply to req. It is deterministic for a given
// request, never repeats the templates in RecentKeys, and asks at most one
// question.
func Respond(req Request) Response {
	text := strings.TrimSpace(req.Text)
	c := composer{req: req, seed: seed(text, req.TurnCount)}
	switch {
	case whoRE.MatchString(text):
		c.say("who", identity)
		c.ask("who-q", "What would you like to talk about?", "What's on your mind today?")
		return c.done(ModeClarifying, ModalityNone)
	case greetingRE.MatchString(text):
		if req.FirstContact {
			c.say("hello-first", "Hi"+c.name()+". "+identity)
		} else {
			c.say("hello", "Hi"+c.name()+", good to see you again.", "Hello"+c.name()+", welcome back.", "Hey"+c.name()+".")
		}
		c.ask("hello-q", "How are you doing today?", "What's on your mind?", "How has your day been?")
		return c.done(ModeSupportive, ModalityNone)
	case goodbyeRE.MatchString(text) && len(strings.Fields(text)) <= 8:
		c.say("bye", "Thank you for talking with me today. Take good care of yourself, and come back any time.",
			"I'm glad you stopped by. Be gentle with yourself, and I'm here whenever you want to talk again.",
			"Take care"+c.name()+". I'll be here when you want to pick this up again.")
		return c.done(ModeClosing, ModalityNone)
	case thanksRE.MatchString(text) && len(strings.Fields(text)) <= 6:
		c.say("thanks", "You're welcome. I'm glad this helps a little.", "Of course. Thank you for trusting me with it.")
		c.ask("thanks-q", "Is there anything else on your mind?", "How are you feeling now?")
		return c.done(ModeSupportive, ModalityNone)
	case vagueRE.MatchString(text):
		c.say("vague", "That's okay; it doesn't have to be clear yet.", "No pressure to have the words for it.", "That's alright. We can go slowly.")
		c.ask("vague-q", "If you had to pick one word for how today has felt, what would it be?",
			"What's been taking up most of your headspace lately?",
			"Would it help to start with what happened today?")
		return c.done(ModeClarifying, ModalityNone)
	}

	if req.FirstContact {
		c.say("intro", "Hi"+c.name()+", I'm Haven, an AI companion (not a therapist or an emergency service).")
	}
	f, hasFeeling := firstMatch(text)
	t, hasTopic := firstTopic(text)
	mode, modality := ModeSupportive, ModalityNone
	if r := reflect(text); r != "" {
		mode = ModeReflective
		c.say("reflect", "It sounds like "+r+".", "I'm hearing that "+r+".", "From what you're saying, "+r+".")
	}
	if hasFeeling {
		c.say("feel-"+f.name, f.validations...)
		if f.name == "grief" {
			modality = ModalityGrief
		}
	} else if mode != ModeReflective {
		c.say("listen", "Thank you for telling me.", "I'm listening.", "I hear you.")
	}
	switch {
	case hasFeeling && f.name == "grief":
		c.ask("grief-q", "Would you like to tell me about them?", "What has it been like for you since?")
	case hasTopic:
		c.ask("topic-"+t.name, t.questions...)
	case hasFeeling && f.name == "good":
		c.ask("good-q", "What made the difference?", "How are you going to enjoy it?")
	case hasFeeling:
		c.ask("feel-q", "When did you start feeling this way?", "What has this been like for you day to day?",
			"What do you think you need most right now?")
	default:
		c.ask("open-q", "Can you tell me more about that?", "How has that been for you?", "What feels most important about it to you?")
	}
	return c.done(mode, modality)
}

// composer assembles a reply from keyed template groups.
type composer struct {
	req   Request
	seed  uint32
	parts []string
	keys  []string
	q     string
	qKey  string
}

func (c *composer) name() string {
	if c.req.Name == "" {
		return ""
	}
	return " " + c.req.Name
}

// pick chooses one option of a group, skipping options whose key was used
// recently, and returns it with its key.
func (c *composer) pick(group string, options []string) (string, string) {
	n := len(options)
	start := int(c.seed % uint32(n))
	for i := range n {
		idx := (start + i) % n
		key := group + "/" + strconv.Itoa(idx)
		if !slices.Contains(c.req.RecentKeys, key) {
			return options[idx], key
		}
	}
	idx := start
	return options[idx], group + "/" + strconv.Itoa(idx)
}

func (c *composer) say(group string, options ...string) {
	s, k := c.pick(group, options)
	c.parts = append(c.parts, s)
	c.keys = append(c.keys, k)
}

func (c *composer) ask(group string, options ...string) {
	c.q, c.qKey = c.pick(group, options)
}

func (c *composer) done(m Mode, mod Modality) Response {
	q, qk := c.q, c.qKey
	if c.req.SafetyQuestion != "" {
		q, qk = c.req.SafetyQuestion, "safety-q"
	}
	parts := c.parts
	if q != "" {
		parts = append(parts, q)
		c.keys = append(c.keys, qk)
	}
	return Response{Text: capitalize(strings.Join(parts, " ")), Mode: m, Modality: mod, Keys: c.keys}
}

func firstMatch(text string) (feeling, bool) {
	for _, f := range feelings {
		if f.words.MatchString(text) {
			return f, true
		}
	}
	return feeling{}, false
}

func firstTopic(text string) (topic, bool) {
	for _, t := range topics {
		if t.words.MatchString(text) {
			return t, true
		}
	}
	return topic{}, false
}

func seed(text string, turn int) uint32 {
	h := fnv.New32a()
	h.Write([]byte(text))
	return h.Sum32() + uint32(turn)
}
