package therapy

import (
	"github.com/havenbot/haven/internal/textmatch"
)

// feeling is an emotion family recognised in what the person wrote.
type feeling struct {
	name  string
	words *textmatch.Regexp
	// validations name the feeling in a sentence that does not need the
	// person's words; %s is not used.
	validations []string
}

var feelings = []feeling{
	{"heartbreak", textmatch.MustCompile(`(?i)\b(broke up|break ?up|dumped|divorc(e|ed|ing)|split up|left me|cheated on me|heartbr(oken|eak))\b`), []string{
		"Breakups hurt, and it makes sense that it's taking up so much of your mind.",
		"I'm sorry. The end of a relationship is a real loss, even when life carries on around it.",
		"That's a lot of hurt to carry, and it doesn't have to make sense yet.",
	}},
	{"guilt", textmatch.MustCompile(`(?i)\b(my fault|blame myself|i ruined|i messed (it|everything) up|i screwed up|guilty|ashamed|shame|regret|hate myself for|(i feel|i'm|im|i am) (so |such an? |really |just )?(stupid|pathetic|idiot|an idiot|like an idiot|loser|a loser|useless|embarrassment|an embarrassment))\b`), []string{
		"It's easy to put all the blame on yourself when something goes wrong.",
		"It sounds like you're being really hard on yourself.",
		"Guilt can be so loud; it often tells only part of the story.",
	}},
	{"grief", textmatch.MustCompile(`(?i)\b(passed away|died|death of|funeral|grie(f|ving)|lost my)\b`), []string{
		"Losing someone changes the shape of everything, and grief has no schedule.",
		"I'm so sorry. Grief can come in waves, and there is no right way to do it.",
		"That is a real loss, and it makes sense that it is still with you.",
	}},
	{"missing", textmatch.MustCompile(`(?i)\b(miss(ing)? (him|her|them|my|our|us|you))\b`), []string{
		"Missing someone can ache in a very physical way.",
		"It makes sense that you miss them; it shows how much they mattered.",
		"That kind of missing can come out of nowhere and take your breath away.",
	}},
	{"frustrated", textmatch.MustCompile(`(?i)\b(angry|furious|frustrat(ed|ing)|annoy(ed|ing)|pissed|irritat(ed|ing)|fed up|mad at|unfair|(sick|tired) of)\b`), []string{
		"That sounds really frustrating.",
		"It makes sense to feel angry when something feels that unfair.",
		"Anyone would be fed up after that.",
	}},
	{"stressed", textmatch.MustCompile(`(?i)\b(stress(ed|ful)?|overwhelm(ed|ing)?|pressure|swamped|too much|burn(ed|t) ?out|frazzled|deadlines?)\b`), []string{
		"That sounds like a lot to carry at once.",
		"Being under that much pressure for a while wears anyone down.",
		"No wonder you feel stretched thin; that is a heavy load.",
	}},
	{"anxious", textmatch.MustCompile(`(?i)\b(anxious|anxiety|worr(y|ied|ying)|nervous|panic(king|ky)?|on edge|scared|afraid|dread)\b`), []string{
		"Worry like that can make everything feel urgent at once.",
		"That sounds unsettling; anxiety has a way of filling every quiet moment.",
		"It makes sense to feel on edge when things feel this uncertain.",
	}},
	{"low", textmatch.MustCompile(`(?i)\b(cried|crying|in tears|tearful|sobb(ed|ing)|not (so |too |that |very )?(great|good|ok|okay|well|fine|happy)|sad|down|low|depressed|miserable|blue|empty|numb|cry(ing)?|unhappy|rough|awful|terrible)\b`), []string{
		"I'm sorry it has been so heavy lately.",
		"That sounds really hard, and I'm glad you said it out loud.",
		"Feeling that low is exhausting in its own way.",
	}},
	{"lonely", textmatch.MustCompile(`(?i)\b(lonely|alone|isolated|no one to talk|nobody to talk|left out|no friends)\b`), []string{
		"Loneliness can hurt in a very physical way.",
		"Feeling alone with things makes them so much heavier.",
		"I'm glad you reached out, even if it is to me.",
	}},
	{"tired", textmatch.MustCompile(`(?i)\b(tired|exhausted|drained|worn out|can't sleep|cannot sleep|insomnia|no energy)\b`), []string{
		"Running on empty makes everything harder.",
		"That kind of tiredness goes deeper than sleep.",
		"It sounds like you have been running on very little for a while.",
	}},
	{"good", textmatch.MustCompile(`(?i)\b(happy|great|good news|excited|(feel|feeling|felt|doing|getting|much|a bit|so much) better|proud|relieved|grateful|thrilled|so glad)\b`), []string{
		"That's wonderful news, congratulations!",
		"Congratulations! That's a big deal.",
		"That's brilliant. You must be so pleased.",
		"I'm so glad to hear it.",
		"I love hearing that.",
	}},
	// The families below are not matched by words: readMeeting chooses them
	// from the emotion reading and the cues in feeling.go.
	{"grief-anger", nil, []string{
		"Grief and anger often come together, and both make sense.",
		"When people reach for easy comfort, it can feel like they're rushing past how much this hurts.",
		"Being angry at well-meant words doesn't make you ungrateful; it shows how raw the loss still is.",
	}},
	{"sarcasm", nil, []string{
		"I hear the joke, and I also hear how much pressure you're under.",
		"Said with a grin, maybe, but that sounds genuinely stressful.",
		"That's a tough spot to be in, and it's easy to turn on yourself when you're stressed.",
	}},
	{"mixed", nil, []string{
		"It sounds like a mix of feelings at once, and both can be true.",
		"Two feelings pulling different ways can be confusing; both make sense.",
		"It makes sense to feel more than one thing about this.",
	}},
}

// topic is a part of life the person talks about.
type topic struct {
	name  string
	words *textmatch.Regexp
	// questions are open questions about the topic.
	questions []string
}

var topics = []topic{
	{"work", textmatch.MustCompile(`(?i)\b(work|job|boss|manager|colleague|coworker|office|shift|career|meeting)s?\b`), []string{
		"What part of work is weighing on you most right now?",
		"What has work been asking of you lately?",
		"When work feels like this, what tends to help you, even a little?",
		"What would a better week at work look like?",
		"How is work leaving you feeling by the end of the day?",
	}},
	{"school", textmatch.MustCompile(`(?i)\b(school|exam|class|university|uni|college|homework|essay|grades?|teacher|thesis)s?\b`), []string{
		"What is it about your studies that feels hardest at the moment?",
		"How much room is school leaving you for anything else?",
		"What would make the next few days of study feel more manageable?",
	}},
	{"family", textmatch.MustCompile(`(?i)\b(family|mum|mom|mother|dad|father|parents?|sister|brother|son|daughter|kids?)\b`), []string{
		"How are things between you and them right now?",
		"What do you wish they understood?",
		"What has that been like for you?",
		"Who in your family do you feel closest to at the moment?",
	}},
	{"relationship", textmatch.MustCompile(`(?i)\b(partner|boyfriend|girlfriend|husband|wife|ex|relationship|breakup|broke up|dating)\b`), []string{
		"How are you feeling about the relationship right now?",
		"What has been the hardest part of it for you?",
		"What do you need most from them at the moment?",
	}},
	{"sleep", textmatch.MustCompile(`(?i)\b(sleep|slept|insomnia|nightmares?|awake)\b`), []string{
		"What tends to be on your mind when you are lying awake?",
		"How long has sleep been like this?",
	}},
	{"money", textmatch.MustCompile(`(?i)\b(money|rent|bills?|debt|broke|afford|finances?)\b`), []string{
		"Money worries touch everything. What feels most pressing?",
		"What would take even a bit of that pressure off?",
	}},
}

// themeLabels name feelings and topics in a closing summary, without the
// person's words.
var themeLabels = map[string]string{
	"grief": "your loss", "heartbreak": "the breakup", "missing": "missing someone", "guilt": "how hard you've been on yourself", "frustrated": "how frustrating things have been", "stressed": "the pressure you've been under",
	"anxious": "the worry you've been carrying", "low": "feeling low", "lonely": "feeling alone",
	"tired": "how tired you've been", "grief-anger": "your loss", "sarcasm": "the pressure you've been under", "mixed": "mixed feelings", "work": "work", "school": "your studies", "family": "your family",
	"relationship": "your relationship", "sleep": "sleep", "money": "money",
}

// feelingNamed returns the feeling family called name.
func feelingNamed(name string) (feeling, bool) {
	for _, f := range feelings {
		if f.name == name {
			return f, true
		}
	}
	return feeling{}, false
}

// othersHappyRE is "happy" said of someone else that the person tries to
// please ("keeping everyone happy", "make my mum happy"): not a good feeling
// of their own.
var othersHappyRE = textmatch.MustCompile(`(?i)\b(keep|keeps|keeping|kept|make|makes|making|made) (everyone|everybody|them|him|her|people|others|the \w+|my \w+|his \w+|her \w+|their \w+|you) (\w+ )?happy\b`)

// figureRE are words of dying said of things or as figures of speech
// ("my phone died", "nearly died laughing", "could kill for a pizza"): no
// loss and no danger.
var figureRE = textmatch.MustCompile(`(?i)\b((my|the|our|his|her) (phone|battery|laptop|car|plant|plants|tv|computer|console|charger|headphones|router|wifi|printer|torch|flashlight|game|character|sim)s? (just |finally |totally |completely )?(died|dies|is dead|was dead|is dying|dead)|(nearly |almost |literally |basically )?died (laughing|of laughter|of embarrassment|of cringe|inside a little)|dying (to (know|see|try|go|meet|hear)|of laughter|laughing)|(could|would) kill for|kill(ed|ing)? it|dead (tired|serious))\b`)

// withoutFigures is text without the phrases that use words of feeling or
// dying without the feeling (othersHappyRE, figureRE), for the lexicon.
func withoutFigures(text string) string {
	if othersHappyRE.MatchString(text) {
		text = othersHappyRE.ReplaceAllString(text, " ")
	}
	if figureRE.MatchString(text) {
		text = figureRE.ReplaceAllString(text, " ")
	}
	return text
}

func firstFeeling(text string) (feeling, bool) {
	text = withoutFigures(text)
	for _, f := range feelings {
		if f.words != nil && f.words.MatchString(text) {
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
