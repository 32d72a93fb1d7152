package therapy

import (
	"slices"
	"strings"

	"github.com/havenbot/haven/emotion"
	"github.com/havenbot/haven/internal/textmatch"
)

// Meeting the feeling: what a reply answers in a message is the feeling it
// carries, read from the emotion classifier's Reading (Request.Feeling) and,
// when there is none, from lexical cues. Joy and pride are good news; grief
// stays grief even when it comes with anger; a joke at one's own expense is
// the frustration under it, never good news.

// meeting is the feeling a reply meets.
type meeting struct {
	// f is the feeling family (see feelings), with its validations.
	f feeling
	// valence is what the reply meets: emotion.Positive for good news,
	// emotion.Negative for pain, frustration or grief, emotion.Ambiguous
	// for mixed feelings.
	valence emotion.Valence
	// angry is set when anger comes with the feeling (grief with anger).
	angry bool
	// fromContext is set when the message itself carries no feeling and
	// the session's modality supplied it (grief).
	fromContext bool
	// carried is set when the feeling is the last message's, going on
	// into this one (lastFeeling).
	carried bool
}

var (
	// griefCueRE is a loss named in other words than the lexicon's.
	griefCueRE = textmatch.MustCompile(`(?i)\b((in )?a better place|(she|he)('?s| is) gone|since (she|he|they) (died|passed|went)|(her|his|their) (funeral|grave|ashes)|lost (her|him) (last|this|in|to)|still can'?t believe (she|he)'?s gone|passed away|passed last)\b`)
	// angerCueRE is anger in the person's words.
	angerCueRE = textmatch.MustCompile(`(?i)\b(angry|furious|rage|livid|pissed|so mad|want to (scream|punch|yell|hit|throw)|scream(ing)?|sick of|can'?t stand|hate (it|that|them|when))\b`)
	// praiseRE is a word of praise, the material of sarcasm.
	praiseRE = textmatch.MustCompile(`(?i)\b(great|brilliant|fantastic|wonderful|amazing|perfect|awesome|lovely|splendid|stellar|nice one|good job|well done)\b`)
	// failureCueRE is a setback told about oneself.
	failureCueRE = textmatch.MustCompile(`(?i)\b(zero|nothing (done|yet)|none of (it|them)|(haven'?t|didn'?t|never) (even )?(started|studied|done|finished|opened)|failed|fail(ing)? (again|everything)|screwed|messed up|forgot|missed (the|my)|procrastinat\w*|overslept|broke (my|the)|lost my (keys|wallet|phone|job)|fired|rejected|last minute)\b`)
	// sarcasmRE is sarcasm that needs no second cue.
	sarcasmRE = textmatch.MustCompile(`(?i)\b((great|good|brilliant|fantastic|stellar|excellent) (life )?(choices|decisions|planning|job,? me)|(just|oh) (great|perfect|wonderful|fantastic|brilliant|lovely)|(yay|go|way to go),? me|love that for me|what a (great|fantastic|wonderful|perfect) (day|week|start|life)|could (this|today|my life) get any better|thanks a lot,? (brain|life|universe|me))\b|/s\s*$`)
	// goodNewsRE is good news told plainly.
	goodNewsRE = textmatch.MustCompile(`(?i)\b(i (got|landed|passed|won|finished|did) (it|the (job|offer|part|place|promotion|scholarship|exam|test|interview)|my (exam|test|driving test|degree|thesis)|in)|got (the job|the offer|promoted|accepted|hired|engaged|in)|i passed|i did it|(we|i) made it|good news|great news|so happy|so excited|so proud|proud of myself|finally (did|got|finished|passed)|feel(ing)? (so much |much |a lot |a bit )?better|doing (so much |much |a lot )?better|best day)\b`)
)

// positiveLabels, negativeLabels: the GoEmotions labels by the valence they
// carry (Ekman's grouping; surprise and the neutral label carry none).
var (
	positiveLabels = []emotion.Label{"joy", "pride", "excitement", "gratitude", "relief", "love", "optimism", "admiration", "amusement", "approval", "caring", "desire"}
	// negativeFamilies maps negative labels to the feeling family that
	// meets them, strongest need first.
	negativeFamilies = []struct {
		label  emotion.Label
		family string
	}{
		{"grief", "grief"},
		{"remorse", "guilt"},
		{"embarrassment", "guilt"},
		{"fear", "anxious"},
		{"nervousness", "anxious"},
		{"sadness", "low"},
		{"disappointment", "low"},
		{"anger", "frustrated"},
		{"annoyance", "frustrated"},
		{"disgust", "frustrated"},
		{"disapproval", "frustrated"},
	}
)

// read returns the feeling a reply to text meets; ok is false when there
// is none to meet (a neutral message with no cue). modality is the
// session's modality: in a conversation about a loss, a message that
// names no feeling is still grief.
//
// prev is the feeling the last reply met (its family and valence, from
// the session state): a statement that carries no feeling of its own goes
// on with it ("I got the job!" then "I start in March"), as a listener
// would hear it.
// deathWordRE are words of dying and killing. A message with one is never
// met as good news, whatever the classifier heard ("I'm killing myself
// trying to keep everyone happy" is not a reason to congratulate).
var deathWordRE = textmatch.MustCompile(`(?i)\b(` + deathWords + `)\b`)

// deathWords are the words of dying and killing that deathWordRE and
// riskEchoRE share.
const deathWords = `kill\w*|die|dies|died|dying|dead|death|suicid\w*|overdos\w*|unalive\w*|kms`

func readMeeting(text string, r emotion.Reading, modality Modality, prev lastFeeling) (meeting, bool) {
	lex, hasLex := firstFeeling(text)
	// dying: words of dying or killing that are not a figure of speech;
	// such a message is never met as good news.
	deathWord := deathWordRE.MatchString(text)
	dying := deathWord && deathWordRE.MatchString(withoutFigures(text))
	// Annoyance alone is too faint a reading to meet as anger: the
	// classifier hears it in plain plans ("taking me out to dinner").
	angry := angerCueRE.MatchString(text) || r.Has("anger")
	named := func(name string, v emotion.Valence) (meeting, bool) {
		f, _ := feelingNamed(name)
		return meeting{f: f, valence: v, angry: angry}, true
	}
	// Grief first, also when it comes with anger: the anger is part of it.
	// The classifier hears grief in "died" said of a phone or of laughing:
	// where every word of dying is a figure of speech, it is not heard.
	figuresOnly := deathWord && !dying
	if (r.Has("grief") && !figuresOnly) || griefCueRE.MatchString(text) || (hasLex && lex.name == "grief") {
		if angry {
			return named("grief-anger", emotion.Negative)
		}
		return named("grief", emotion.Negative)
	}
	// A joke at their own expense is the frustration under it.
	if sarcasmRE.MatchString(text) || (praiseRE.MatchString(text) && failureCueRE.MatchString(text) && !goodNewsRE.MatchString(text)) {
		return named("sarcasm", emotion.Negative)
	}
	if read := len(r.Emotions) > 0 || r.Valence != ""; read {
		switch r.Valence {
		case emotion.Positive:
			if hasLex && lex.name != "good" && !goodNewsRE.MatchString(text) {
				// The classifier heard warmth ("thanks, I'm so tired"),
				// the words name a pain: meet the pain.
				return meeting{f: lex, valence: emotion.Negative, angry: angry}, true
			}
			if ((celebrated(r) && !neutralFirst(r)) || goodNewsRE.MatchString(text) || (hasLex && lex.name == "good")) && !dying {
				return named("good", emotion.Positive)
			}
			// Warmth alone (admiration, approval, a wish) is not news:
			// it is how sarcasm and hopes read too ("truly a genius",
			// "I just want to move on"). The words decide, below.
		case emotion.Ambiguous:
			if hasPositive(r) && (hasNegative(r) || hasLex && lex.name != "good") {
				return named("mixed", emotion.Ambiguous)
			}
		case emotion.Negative:
			if goodNewsRE.MatchString(text) && !(hasLex && lex.name != "good") {
				// Good news the classifier misread: the words decide.
				break
			}
			if hasLex && lex.name != "good" {
				return meeting{f: lex, valence: emotion.Negative, angry: angry}, true
			}
			if neutralFirst(r) {
				// A faint negative beside a stronger neutral, with no
				// word of pain: too little to name a feeling for them.
				break
			}
			for _, nf := range negativeFamilies {
				if r.Has(nf.label) && !(figuresOnly && nf.family == "grief") {
					return named(nf.family, emotion.Negative)
				}
			}
			return named("low", emotion.Negative)
		}
	}
	// Lexical cues, when the reading is empty or neutral.
	switch {
	case dying && hasLex && lex.name == "good":
		// "I'm killing myself trying to keep up, great": not news to
		// celebrate, and no feeling named.
	case goodNewsRE.MatchString(text) && !(hasLex && lex.name != "good") && !dying:
		return named("good", emotion.Positive)
	case goodNewsRE.MatchString(text):
		return named("mixed", emotion.Ambiguous)
	case hasLex && lex.name == "good":
		return named("good", emotion.Positive)
	case hasLex:
		return meeting{f: lex, valence: emotion.Negative, angry: angry}, true
	case modality == ModalityGrief:
		m, ok := named("grief", emotion.Negative)
		m.fromContext = true
		return m, ok
	case prev.carries() && continuesTelling(text) && !(prev.Valence == emotion.Positive && deathWord):
		// Good news is not carried onto words of dying, figures of speech
		// included ("this traffic is killing me lol" after "I'm so proud").
		if f, ok := feelingNamed(prev.Family); ok {
			return meeting{f: f, valence: prev.Valence, fromContext: true, carried: true}, true
		}
	}
	return meeting{}, false
}

// lastFeeling is the feeling a reply met, kept in the session state for
// the next message.
type lastFeeling struct {
	Family  string          `json:"family,omitempty"`
	Valence emotion.Valence `json:"valence,omitempty"`
}

// carries reports whether the feeling can go on into the next message:
// good news or a pain, not mixed feelings.
func (l lastFeeling) carries() bool {
	return l.Family != "" && (l.Valence == emotion.Positive || l.Valence == emotion.Negative)
}

// continuesTelling reports whether text goes on telling (a statement of a
// few words), not a question, a vague answer or a change of subject to
// Haven.
func continuesTelling(text string) bool {
	return !strings.Contains(text, "?") && len(strings.Fields(text)) >= 4 && !vagueRE.MatchString(text) &&
		!thanksRE.MatchString(text) && !changeSubjectRE.MatchString(text)
}

// changeSubjectRE opens a message that moves on from what came before
// ("anyway im making pasta"): the last message's feeling does not go on
// into it.
var changeSubjectRE = textmatch.MustCompile(`(?i)^\s*(anyway|anyways|anyhoo|moving on|on (another|a different|a lighter|a happier|a brighter) note|changing the subject|change of subject|in other news|other than that|enough about (that|me|this)|oh and|oh also|btw|by the way)\b`)

// neutralFirst reports whether neutral is the strongest label read: any
// feeling beside it is faint.
func neutralFirst(r emotion.Reading) bool {
	return len(r.Emotions) > 0 && r.Emotions[0].Label == "neutral"
}

// celebratoryLabels are the positive readings that are news to meet as
// good news on their own.
var celebratoryLabels = []emotion.Label{"joy", "pride", "excitement", "gratitude", "relief"}

// celebrated reports whether r holds a celebratory label.
func celebrated(r emotion.Reading) bool { return hasAny(r, celebratoryLabels) }

func hasPositive(r emotion.Reading) bool { return hasAny(r, positiveLabels) }

// hasAny reports whether r holds one of labels.
func hasAny(r emotion.Reading, labels []emotion.Label) bool {
	return slices.ContainsFunc(labels, r.Has)
}

func hasNegative(r emotion.Reading) bool {
	for _, nf := range negativeFamilies {
		if r.Has(nf.label) {
			return true
		}
	}
	return false
}
