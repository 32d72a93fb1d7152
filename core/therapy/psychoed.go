package therapy

import (
	"strings"

	"github.com/havenbot/haven/internal/textmatch"
)

// snippet is one psychoeducation snippet: plain-language information about
// how minds and bodies work, never a diagnosis or medical advice.
type snippet struct {
	key      string
	modality Modality
	// topic matches the subject in a question about it.
	topic *textmatch.Regexp
	// text is the full snippet; short is one sentence for "shorter replies".
	text, short string
	// ask is the follow-up question.
	ask string
}

var snippets = []snippet{
	{"dizzy", ModalityNone,
		textmatch.MustCompile(`(?i)\b(dizz(y|iness)|light[- ]?headed|tingl\w*|pins and needles|faint)\b`),
		"That's common, and usually harmless: breathing more deeply or faster than usual changes the balance of gases in your blood, which can make you lightheaded or tingly. Let your breathing go back to a gentle, ordinary pace, with a soft out-breath rather than a big one, and it settles within a minute or two. If it comes with chest pain, or doesn't pass, get it checked.",
		"That's common: breathing more deeply than usual can make you lightheaded. Breathe gently at an ordinary pace and it passes; if it doesn't, or there's chest pain, get it checked.",
		""},
	{"caffeine", ModalityCBT,
		textmatch.MustCompile(`(?i)\b(caffeine|coffee|energy drinks?|espresso|cola)\b`),
		"It can. Caffeine speeds up the heart and makes you more alert, which the body can read as the start of anxiety: jitters, a racing heart, trouble settling. Its effect lasts for hours, so an afternoon coffee can still keep you awake at night. Cutting down gradually and keeping it to the morning helps many people who feel anxious.",
		"It can: caffeine speeds the heart and can feel like anxiety, and it lasts for hours; less, and only in the morning, helps many people.",
		"How much do you usually have in a day?"},
	{"alcohol", ModalityCBT,
		textmatch.MustCompile(`(?i)\b(alcohol|drinking|booze|wine|beer|hungover|hangover|drunk)\b`),
		"Alcohol can calm nerves for an hour or two, but as it wears off the body often swings the other way: more anxiety, a lower mood and broken sleep. Over time it can keep anxiety going. How you feel the next day is a good guide to what it's doing for you.",
		"Alcohol can ease anxiety for a short while, but as it wears off it often brings more anxiety, lower mood and worse sleep.",
		"What do you notice the day after you drink?"},
	{"crying", ModalityNone,
		textmatch.MustCompile(`(?i)\b(cry(ing)?|cried|tears)\b`),
		"Crying is a normal way the body lets strong feeling out, and many people feel a little calmer afterwards. Crying a lot during a hard time is common. If it comes with feeling low most days for a couple of weeks or more, it's worth talking to a doctor or counsellor too.",
		"Crying is a normal release, and crying a lot in a hard time is common.",
		"What's been bringing the tears lately?"},
	{"panic", ModalityCBT,
		textmatch.MustCompile(`(?i)\bpanic attacks?\b|\bpanick?(ing|y)?\b.*\b(heart|breath|dying|chest)\b`),
		"A panic attack is the body's alarm going off at full volume: a racing heart, fast breathing, dizziness, tingling, a sense of dread. It usually peaks within about ten minutes and then eases. It feels frightening, but it is not dangerous in itself, and slow, long out-breaths help it pass. If you ever have chest pain you're unsure about, it's right to get it checked.",
		"A panic attack is the body's alarm at full volume; it peaks within minutes and passes, and slow out-breaths help.",
		"What tends to set them off for you?"},
	{"anxiety-body", ModalityCBT,
		textmatch.MustCompile(`(?i)\b(anxi(ety|ous)|nervous|worry|worried|on edge)\b.*\b(body|heart|chest|stomach|breath(e|ing)?|shak(y|ing)|sick|nause|sweat|tense|physical|feel like this|do(es)? to)\b|\b(heart|chest|stomach|breath(ing)?|shak(y|ing))\b.*\banxi(ety|ous)\b|\bwhat (is|does) anxiety\b|\bwhy (am i|do i (get|feel)) (so )?anxious\b`),
		"Anxiety is your body's alarm system getting ready for danger: your heart beats faster, breathing gets quicker and shallower, muscles tense, and your stomach can churn. It's uncomfortable, but it isn't harmful, and it does pass. Slow breathing, with the out-breath longer than the in-breath, tells your body the danger is over.",
		"Anxiety is the body's alarm: a fast heart, quick breathing, tense muscles; uncomfortable but not harmful, and it passes.",
		"Which of those do you notice most in yourself?"},
	{"sleep", ModalityCBT,
		textmatch.MustCompile(`(?i)\b(sleep(ing)?|insomnia|fall(ing)? asleep|stay(ing)? asleep|awake at night|bedtime)\b`),
		"A few things help sleep for most people: getting up at the same time every day, even after a bad night; keeping caffeine to the morning; dimming screens and lights in the last hour; and keeping the bed for sleep. If you've been awake for what feels like twenty minutes, getting up to do something quiet in low light until you feel sleepy usually works better than lying there trying.",
		"Same wake-up time every day, caffeine only in the morning, and getting up for a bit if you can't sleep usually help.",
		"Which of those feels most doable for you this week?"},
	{"grief", ModalityGrief,
		textmatch.MustCompile(`(?i)\b(grief|griev(e|ing)|mourn(ing)?|loss|lost (him|her|them|my)|miss (him|her|them)|(died|passed( away)?|death))\b`),
		"Grief isn't linear. It comes in waves, sometimes long after the loss, set off by a song, a smell or a date, and good days can be followed by hard ones. There's no timetable and no right way to do it. Many people find that the grief doesn't shrink so much as life slowly grows around it.",
		"Grief isn't linear; it comes in waves, and there's no timetable for it.",
		"What has it been like for you lately?"},
	{"stress", ModalityCBT,
		textmatch.MustCompile(`(?i)\b(stress(ed|ful)?|burn(ed|t)? ?out|overwhelm(ed|ing)?|too much on my plate)\b`),
		"Stress is your body gearing up to meet a demand. In short bursts it helps, but when it runs for weeks it wears down sleep, patience and concentration. What usually helps is shrinking the next step until it's doable, protecting small breaks, moving your body a little, and not carrying it alone.",
		"Stress helps in bursts but wears you down over weeks; small next steps, short breaks and not carrying it alone help.",
		"Which part of that fits your situation most?"},
	{"breathing", ModalityNone,
		textmatch.MustCompile(`(?i)\b(breath(e|ing)?|breathwork)\b`),
		"Slow breathing works through the body: a long, slow out-breath switches on the nervous system's brake, which slows the heart and softens the alarm. That's why it can help even when your mind is still racing.",
		"A long, slow out-breath switches on the body's brake and slows the heart.",
		""},
	{"overthinking", ModalityACT,
		textmatch.MustCompile(`(?i)\b(overthink(ing)?|ruminat(e|ing|ion)|(stop|switch off|quiet) (my )?(mind|brain|thinking|thoughts)|thoughts? (won'?t|keep) (stop|going|racing|spinning)|racing thoughts)\b`),
		"Minds are built to solve problems, so they chew on worries, even ones that can't be solved tonight. Overthinking feels like problem-solving but goes round in circles. Noticing \"I'm going in circles again\", naming the thought, and turning your attention to something you can see, hear or do can loosen its grip.",
		"Overthinking feels like solving but goes in circles; noticing it and shifting to your senses loosens its grip.",
		"What does your mind tend to circle back to?"},
	{"low-mood", ModalityCBT,
		textmatch.MustCompile(`(?i)\b(low|down|sad|empty|flat|unmotivated|no motivation|depress(ed|ion))\b`),
		"Low mood often feeds itself: when we feel down we do less, and doing less means fewer moments of enjoyment or achievement, which keeps the mood low. Small, doable activities, even ten minutes of something you used to like, can gently break that loop. If it has lasted more than a couple of weeks or gets in the way of daily life, it's worth talking to a doctor or counsellor too.",
		"Low mood feeds on doing less; small, doable activities can gently break the loop.",
		"What's one small thing you used to enjoy?"},
	{"anger", ModalityDBT,
		textmatch.MustCompile(`(?i)\b(anger|angry|rage|temper|lose it|snap(ping)? at)\b`),
		"Anger comes with a rush of energy, and often sits on top of something softer, like hurt or fear. The urge to act on it usually peaks and passes within minutes if it isn't fed, so a pause, a few slow breaths or a short walk before responding can make a real difference.",
		"Anger's urge peaks and passes within minutes; a pause before acting makes a real difference.",
		"What usually happens just before you feel it rise?"},
	{"loneliness", ModalityIPT,
		textmatch.MustCompile(`(?i)\b(lonel(y|iness)|make friends|no friends|isolated)\b`),
		"Loneliness is about the gap between the connection you have and the connection you need, not the number of people around you. It can hurt in a very physical way. Small, regular contact, like a message to one person or a weekly activity with the same faces, tends to help more than big leaps.",
		"Loneliness is the gap between the connection you have and the connection you need; small, regular contact helps most.",
		"Who is one person you'd like to feel closer to?"},
	{"professional-help", ModalityNone,
		textmatch.MustCompile(`(?i)\b(therap(y|ist)|counsel+(or|ling|ing)|psycholog(ist|y)|psychiatrist|professional help|see (a|my) (doctor|gp))\b`),
		"If something has been weighing on you for a few weeks, or is making daily life hard, talking to a professional is a good step, not a last resort. A GP or family doctor is often a good first stop, and many places have free or low-cost counselling. I'm glad to keep talking with you alongside that.",
		"If it's been weighing on you for weeks, a GP or counsellor is a good step, and I'm still here alongside that.",
		"What would make reaching out feel easier?"},
}

var (
	questionStartRE = textmatch.MustCompile(`(?i)^\s*(why|how|what|is it|is that|are there|does|do|can|could|should|will|would|any|tips|advice|help with|explain|tell me (about|why|how))\b`)
	askInfoRE       = textmatch.MustCompile(`(?i)\b(should i|do i need|would it help|tips|advice|what (is|are|happens)|why (do|does|am|is|can'?t)|how (do|can|to|long)|is (it|this|that) normal|normal to|explain|tell me (about|why|how)|what can i do|worse|bad for|good for)\b|\b(is|are|does|do|can|could|would) \w+( \w+)? (mak(e|es|ing)|caus(e|es|ing)|affect(s|ing)?|help(s|ing)?)\b`)
)

// modalitySnippets answer a general question ("is it normal that it comes
// in waves?") from the session's modality when the question names no topic.
var modalitySnippets = map[Modality]string{ModalityGrief: "grief"}

// askedSnippet returns the snippet a question asks about: the message must
// read as a request for information ("why does anxiety make my heart race?",
// "any tips for sleep"). A question that names no topic is answered from
// the session's modality m when it has a snippet.
func askedSnippet(text string, m Modality) (snippet, bool) {
	t := strings.TrimSpace(text)
	question := strings.Contains(t, "?") || questionStartRE.MatchString(t)
	if !question || !askInfoRE.MatchString(t) {
		return snippet{}, false
	}
	for _, s := range snippets {
		if s.topic.MatchString(t) {
			return s, true
		}
	}
	if key, ok := modalitySnippets[m]; ok && generalRE.MatchString(t) {
		return snippetByKey(key)
	}
	return snippet{}, false
}

// pointingRE is a question about something said just before: "why does
// that happen?", "is this normal?", "what causes it?".
var pointingRE = textmatch.MustCompile(`(?i)^\s*((why (does|do|would|is|am i|can'?t i)|what (causes|makes|is|happens)|how come)\b.*\b(that|this|it|these|those|happen(s|ing)?)\b|(is|are) (it|this|that|these|those) (normal|bad|dangerous|common)\b)`)

// askedAboutEarlier answers a question that points back ("why does that
// happen?") from the topic of the person's previous message, if it has one.
func askedAboutEarlier(text string, history []Line) (snippet, bool) {
	if !pointingRE.MatchString(text) {
		return snippet{}, false
	}
	for i := len(history) - 1; i >= 0; i-- {
		if !history[i].User {
			continue
		}
		return topicSnippet(history[i].Text)
	}
	return snippet{}, false
}

var generalRE = textmatch.MustCompile(`(?i)\b(is (it|this|that) normal|normal to|will it (ever )?get (better|easier)|how long (does|will) (it|this))\b`)

func snippetByKey(key string) (snippet, bool) {
	for _, s := range snippets {
		if s.key == key {
			return s, true
		}
	}
	return snippet{}, false
}
