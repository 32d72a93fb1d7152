package safety

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/havenbot/haven/safety/internal/lr"
)

// Scorer is a learned crisis classifier: the probability that a canonical
// text (see Normalize) is the writer's own suicidal ideation, intent,
// attempt or self-injury. Implementations are safe for concurrent use.
type Scorer interface {
	Score(canon string) float64
}

// Thresholds say what a learned score may do. A verdict the rules are unsure
// of (level 0 or 1, no deliberate rule decision) becomes level 2 at a score
// of Raise or more; a level-2 verdict becomes 3 at a score of High or more
// when the message also names a time ("tonight") or a means (pills, a rope,
// a height). A threshold above 1 never fires.
type Thresholds struct {
	Raise, High float64
	// Short is the short-message scorer's threshold: a message of fewer
	// than ShortLongWords words in which no rule matched anything (level
	// 0) becomes level 2 at a short score of Short or more. ShortLong is
	// the same for a message of ShortLongWords words to fewer than
	// ShortParagraphWords (zero: the same as Short), ShortParagraph for
	// one of ShortParagraphWords to ShortWords words (zero: never).
	Short, ShortLong, ShortParagraph float64
}

// ShortWords is the most words (of the canonical text) a message may have
// for the short-message scorer to read it: a few lines typed into a chat.
const ShortWords = 40

// ShortParagraphWords starts the short scorer's third band: a message of a
// few sentences, where posts about stress and loneliness (the distress
// sources) share most words with chat crises, so its threshold is set by
// them apart from the shorter bands'.
const ShortParagraphWords = 21

// ShortLongWords splits the short messages for the scorer's first two
// thresholds: under it, a message is a few words ("I think I want to
// stop"), where word n-grams say least and an ordinary remark scores like
// a crisis; from it, a sentence or two.
const ShortLongWords = 12

// FloorOptions configure NewFloorWith.
type FloorOptions struct {
	// Scorer is the learned component; nil means the rules alone.
	Scorer Scorer
	// Short is the learned scorer for short chat messages (at most
	// ShortWords words), trained on chat messages written for Haven
	// beside the posts; nil means none. It may only raise a message no
	// rule matched to level 2.
	Short Scorer
	// Thresholds for Scorer and Short. Zero Raise and High mean the
	// thresholds stored with Scorer (the embedded model carries those
	// chosen at training), zero Short and ShortLong the three stored with
	// Short (in its file's three slots); a scorer without stored
	// thresholds then never raises.
	Thresholds Thresholds
}

// NewFloorWith returns the built-in rules joined by opts.Scorer and
// opts.Short.
func NewFloorWith(opts FloorOptions) *Floor {
	f := &Floor{rules: compiledRules, lex: defaultLexicon, scorer: opts.Scorer, short: opts.Short, th: opts.Thresholds}
	if f.th.Raise == 0 && f.th.High == 0 {
		f.th.Raise, f.th.High = never, never
		if s, ok := opts.Scorer.(storedThresholds); ok {
			f.th.Raise, f.th.High, _ = s.Thresholds()
		}
	}
	switch {
	case f.th.Short == 0 && f.th.ShortLong == 0:
		f.th.Short, f.th.ShortLong, f.th.ShortParagraph = never, never, never
		if s, ok := opts.Short.(storedThresholds); ok {
			f.th.Short, f.th.ShortLong, f.th.ShortParagraph = s.Thresholds()
		}
	case f.th.ShortLong == 0:
		f.th.ShortLong = f.th.Short
	}
	if f.th.ShortParagraph == 0 {
		f.th.ShortParagraph = never
	}
	return f
}

// storedThresholds is a scorer that carries the thresholds chosen when it
// was trained (the model file's three slots; see lr.Model).
type storedThresholds interface {
	Thresholds() (raise, high, third float64)
}

// never is a threshold no score reaches.
const never = 2

//go:embed crisis_model.bin
var embeddedModelFile []byte

//go:embed crisis_short_model.bin
var embeddedShortModelFile []byte

var loadEmbedded = sync.OnceValues(func() (*lr.Model, error) {
	return lr.UnmarshalBinary(embeddedModelFile)
})

var loadEmbeddedShort = sync.OnceValues(func() (*lr.Model, error) {
	return lr.UnmarshalBinary(embeddedShortModelFile)
})

// EmbeddedShortModel returns the short-message scorer built into the
// binary (crisis_short_model.bin, trained with the post scorer by
// safety/internal/train; see MODEL.md), with its threshold. It is loaded
// once and panics on a damaged file, as EmbeddedModel does.
func EmbeddedShortModel() Scorer {
	m, err := loadEmbeddedShort()
	if err != nil {
		panic(fmt.Sprintf("safety: embedded short-message crisis model: %v", err))
	}
	return m
}

// EmbeddedModel returns the learned scorer built into the binary
// (crisis_model.bin, trained by safety/internal/train; see MODEL.md), with
// its thresholds. It is loaded once. A damaged embedded file is a build
// defect: it panics with what is wrong rather than let the floor run
// without its scorer unnoticed (the package tests load it).
func EmbeddedModel() Scorer {
	m, err := loadEmbedded()
	if err != nil {
		panic(fmt.Sprintf("safety: embedded crisis model: %v", err))
	}
	return m
}

// LoadModel decodes a model file written by safety/internal/train, with its
// thresholds, for NewFloorWith. A damaged or foreign file gets an error that
// names what is wrong.
func LoadModel(data []byte) (Scorer, error) {
	m, err := lr.UnmarshalBinary(data)
	if err != nil {
		return nil, fmt.Errorf("load crisis model: %w", err)
	}
	return m, nil
}

// RulesVerdict is the rules' verdict on one message and what the learned
// scorer may do with it.
type RulesVerdict struct {
	// Assessment is the verdict of the rules alone.
	Assessment
	// ModelText is the canonical text the scorer reads: the message minus
	// the clauses a rule deliberately decided (a negation, a third party,
	// an idiom, the past, fiction, an accident, laughter) and those it
	// would have decided had a rule matched there (see setAside).
	ModelText string
	// MayRaise says the rules are unsure (level 0 or 1, not a clear answer
	// to a safety question) and ModelText speaks in the first person: a
	// score of Thresholds.Raise or more makes 2.
	MayRaise bool
	// MayRaiseImminent says a level-2 verdict (the rules' or the scorer's)
	// may become 3: no modifier lowered or set aside any rule match in the
	// message, and it is not about someone else.
	MayRaiseImminent bool
	// Cue says ModelText names a time (tonight, tomorrow) or a means
	// (pills, a rope, a height), which a High score needs to make 3.
	Cue bool
	// Short says the message has at most ShortWords words, MayRaise, and
	// the rules' level is 0 with no rule match they decided (see
	// decidedMatch) or 1 (a warning sign):
	// the short-message scorer reads ModelText. Words is the message's
	// word count, which chooses the short threshold (see ShortLongWords);
	// it is counted only for a message the short scorer could read.
	Short bool
	Words int
	// AttemptUnplaced says an attempt rule matched the message (drugs
	// and doses taken, "swallowed the lot") but found no context for its
	// words, and nothing in it was set aside: a short score of Short and
	// High (very high) both reads it as an attempt, level 3.
	AttemptUnplaced bool
	// Conversation is the rules' view of the conversation read as one
	// message, for the short scorer (see Floor.conversationView); nil
	// when it may not be read so, and never a view the short scorer does
	// not read (Short is set).
	Conversation *RulesVerdict
	// conversationParts are the canonical messages a Conversation view
	// joined, for the step-back check.
	conversationParts []string
}

// ShortFor is the short-message scorer's threshold for a message of n
// words: Short under ShortLongWords, ShortLong from it, ShortParagraph
// from ShortParagraphWords.
func (th Thresholds) ShortFor(n int) float64 {
	switch {
	case n >= ShortParagraphWords:
		return th.ShortParagraph
	case n >= ShortLongWords:
		return th.ShortLong
	}
	return th.Short
}

// NeedsScore reports whether a score could change the verdict.
func (v RulesVerdict) NeedsScore() bool {
	return v.MayRaise || (v.MayRaiseImminent && v.Cue && v.Level == LevelIdeation)
}

// NeedsShortScore reports whether a short-message score could change the
// verdict.
func (v RulesVerdict) NeedsShortScore() bool { return v.Short }

// WithScores applies the post scorer's score as WithScore does, then the
// short-message scorer's: a short message still below level 2 becomes 2
// at a short score of th.Short or more. A negative score stands for "not
// scored" and never raises.
func (v RulesVerdict) WithScores(score, short float64, th Thresholds) Assessment {
	a := v.WithScore(score, th)
	if v.Short && a.Level < LevelIdeation && short >= th.ShortFor(v.Words) {
		a = raisedBy(a, LevelIdeation, "model:short", "learned scorer for short messages: worded like chat messages about wanting to die")
		if v.AttemptUnplaced && short >= th.High {
			// The attempt the rules read without context, in a message the
			// scorer reads as a crisis: taken, not only thought of.
			a.Flags.Attempt = true
			a = raisedBy(a, LevelImminent, "model:short-attempt", "learned scorer for short messages: an attempt told as what was taken")
		}
	}
	return a
}

// raisedBy is a raised to level by a learned scorer: its confidence
// learnedConfidence, its reason, and step added to a copy of its path.
func raisedBy(a Assessment, level Level, step, reason string) Assessment {
	a.Level = level
	a.Confidence = learnedConfidence
	a.Reason = reason
	a.Path = append(a.Path[:len(a.Path):len(a.Path)], step)
	return a.Finish()
}

// WithScore applies a learned score under th: it only raises, as
// Thresholds says, and never touches a verdict the rules decided.
func (v RulesVerdict) WithScore(score float64, th Thresholds) Assessment {
	a := v.Assessment
	a.Path = a.Path[:len(a.Path):len(a.Path)] // a caller's append copies
	if v.MayRaise && a.Level < LevelIdeation && score >= th.Raise {
		a = raisedBy(a, LevelIdeation, "model:raised", "learned scorer: worded like posts about wanting to die")
	}
	if v.MayRaiseImminent && v.Cue && a.Level == LevelIdeation && score >= th.High {
		a = raisedBy(a, LevelImminent, "model:imminent", "learned scorer: worded like crisis posts, with a time or a means")
	}
	return a.Finish()
}

// learnedConfidence is the confidence of a verdict the scorer raised: below
// the gate's confidentFloor, so that a configured LLM reading the meaning
// may moderate it by one step (never below a direct question from 2).
const learnedConfidence = 0.7

// learnedRaise joins the scorer to the rules' verdict.
func (f *Floor) learnedRaise(v RulesVerdict) Assessment {
	return v.Scored(f.scorer, f.short, f.th)
}

// Scored applies post and short, the two scorers, to the verdict under th
// (see WithScores): each reads ModelText only where its score could change
// the verdict, and a nil scorer is never read. A verdict still under 2
// with a Conversation the short scorer may read becomes 2 when the
// conversation read as one message scores at its threshold. With no score
// read it is the rules' verdict itself.
func (v RulesVerdict) Scored(post, short Scorer, th Thresholds) Assessment {
	ps, ss := -1.0, -1.0
	if post != nil && v.NeedsScore() {
		ps = post.Score(v.ModelText)
	}
	if short != nil && v.NeedsShortScore() {
		ss = short.Score(v.ModelText)
	}
	a := v.Assessment
	if ps >= 0 || ss >= 0 {
		a = v.WithScores(ps, ss, th)
	}
	if c := v.Conversation; c != nil && short != nil && a.Level < LevelIdeation &&
		short.Score(c.ModelText) >= th.ShortFor(c.Words) && !stepsBack(c.conversationParts) {
		a = raisedBy(a, LevelIdeation, "model:short-conversation", "learned scorer for short messages, on the conversation read as one message")
	}
	return a
}

// decidedModifier reports whether a rule modifier deliberately set a match
// aside (level 0 or 1, or a lowered level): the scorer does not read that
// clause, so it cannot undo the decision. Modifiers that only say the rules
// lack context (no_context, no_talk, no_own_context) are not decisions: the
// scorer may read the whole text there. A conditional ("if I fail I'll kill
// myself") keeps level 2 and only blocks level 3 (see imminentBlocker).
func decidedModifier(mod string) bool {
	switch mod {
	case "negated", "third_party", "saying", "idiom", "fiction", "accident", "past_recovered", "past", "laughter", "conditional_laughter",
		"everyday_use", "not_self", "ordinary_absence", "research", "mention":
		return true
	}
	return false
}

// imminentBlocker reports a modifier after which the scorer may not raise a
// message to level 3: every decided modifier and the conditional.
func imminentBlocker(mod string) bool {
	return decidedModifier(mod) || mod == "conditional"
}

// modelView builds the RulesVerdict of a finished rules assessment of
// canon.
func (f *Floor) modelView(a Assessment, canon string, cur scanResult) RulesVerdict {
	v := RulesVerdict{Assessment: a}
	if a.Level >= LevelImminent {
		return v
	}
	h := cur.hits
	if h == nil {
		h = findHits(canon) // an empty text: scan found no hits
	}
	spans := setAside(canon, h, cur.decided, func() bool { return f.pastItNow(canon, h) })
	v.ModelText = maskClauses(canon, spans)
	own := firstPerson(v.ModelText)
	if !own && (len(spans) > 0 || !subjectDropped(v.ModelText)) {
		// The scorer judges the writer's own statements: a text with no
		// "I", "me" or "my" left ("what is suicide?", news, a friend's
		// story) is never raised, however much it is about suicide.
		return v
	}
	// The short scorer reads what no rule decided: a message where no rule
	// matched, or a rule matched and found no context for its words ("I
	// keep thinking about it", "picked up rope and tape today"), and a
	// warning sign (level 1: "I can't go on like this", or a clause a rule
	// lowered there, which ModelText leaves out). A match a rule set aside
	// (a negation, an idiom, a third party) stays set aside.
	if (a.Level == LevelNone && !decidedMatch(a.Path)) || a.Level == LevelWarning {
		v.Words = wordCount(canon)
		v.Short = v.Words <= ShortWords
		v.AttemptUnplaced = v.Short && len(spans) == 0 && !a.Flags.ThirdParty && attemptUnplaced(a.Path)
	}
	if !own {
		return v
	}
	v.MayRaise = a.Level < LevelIdeation
	v.MayRaiseImminent = !a.Flags.ThirdParty && len(spans) == 0
	if v.MayRaiseImminent {
		for _, p := range a.Path {
			if _, mod, ok := strings.Cut(p, "/"); ok && imminentBlocker(mod) {
				v.MayRaiseImminent = false
				break
			}
		}
	}
	// With nothing set aside the scorer reads canon itself, whose timing and
	// preparation the scan already read.
	v.Cue = v.MayRaiseImminent && (cur.timing || cur.prep || meansRe.matchHits(canon, h))
	return v
}

// setAside adds to spans the clauses whose wording the rules would set
// aside had a rule matched there: a figure of speech ("this exam is killing
// me", "my phone is dying"); talk of suicide or death that is negated ("I'm
// not suicidal"), in the past ("I was suicidal in high school"), framed as
// a topic ("an essay on suicide prevention", "I volunteer for a suicide
// hotline") or laughed at ("kill me lol"); an injury by accident ("I cut
// myself while shaving"). h are the prefilter hits of canon; recovered
// says whether the text tells that the person is past it now, so that
// talk of suicide dated to a time gone by ("a year ago tonight I tried to
// end it") is in the past wherever the date stands in its sentence.
func setAside(canon string, h hits, spans [][2]int, recovered func() bool) [][2]int {
	var bounds []int
	each := func(re filteredRe, aside func(loc []int, cs, ce int, sp string) bool) {
		if !re.matchHits(canon, h) {
			return
		}
		if bounds == nil {
			bounds = clauseBounds(canon)
		}
		for _, loc := range re.re.FindAllStringIndex(canon, -1) {
			cs, ce := clauseOf(canon, bounds, loc[0])
			sp := decidedSpan(canon, cs, ce, loc[0])
			if aside(loc, cs, ce, canon[sp[0]:sp[1]]) {
				spans = append(spans, sp)
			}
		}
	}
	each(idiomRe, func([]int, int, int, string) bool { return true })
	each(suicideTalkRe, func(loc []int, cs, ce int, sp string) bool {
		return negatedBefore(canon[cs:loc[0]]) || pastRe.matchHits(near(canon, loc, cs, ce), h) || (thenBefore(canon[cs:loc[0]], h) && recovered()) ||
			topicFrameRe.matchHits(sp, h) || hasLaugh(sp) || othersSuicideRe.MatchString(sp) ||
			(topicFrameRe.matchHits(canon, h) && topicQuestion(canon[cs:ce]))
	})
	each(injuryTalkRe, func(_ []int, _, _ int, sp string) bool { return accidentRe.matchHits(sp, h) })
	each(backByRe, func([]int, int, int, string) bool { return true })
	each(unwishedHarmRe, func([]int, int, int, string) bool { return true })
	each(mentionFrameRe, func([]int, int, int, string) bool { return true })
	// A relapse into a drink or a drug is not a relapse into self-harm:
	// only its words are left out ("relapsed on drinking and took all my
	// pills" keeps the pills).
	if substanceRelapseRe.matchHits(canon, h) {
		for _, loc := range substanceRelapseRe.re.FindAllStringIndex(canon, -1) {
			spans = append(spans, [2]int{loc[0], loc[1]})
		}
	}
	return spans
}

// othersSuicideRe is suicide said of someone else: a death by suicide, or
// asking whether someone is suicidal ("my friend who died by suicide",
// "how do I ask my flatmate if she's suicidal"). A general question about
// suicide ("why is suicide more common in men?") is set aside only when the
// message frames it as a topic ("for my psych essay").
var othersSuicideRe = regexp.MustCompile(`\b(?:died by suicide|died of suicide|lost (?:him|her|them|\w+) to suicide|(?:if|whether|that) (?:she|he|they|someone|somebody|anyone|my \w+|a \w+|your \w+|people|someone on my \w+)(?: \w+)? (?:is|are|s|might be|may be|could be|was|were|re|feels|seems) (?:\w+ )?suicidal)\b`)

// backByRe is an absence with the time of return ("not coming back till
// late", "home by sunday"): away for a while, not for good.
var backByRe = newFilteredRe(regexp.MustCompile(`\b(?:back|home) (?:till|until|til|before|by|around|after) (?:late|later|tonight|tomorrow|midnight|morning|the morning|lunch|dinner|the weekend|next week|monday|tuesday|wednesday|thursday|friday|saturday|sunday|\d+)\b`))

// substanceRelapseRe is a relapse named with what it is into: a drink, a
// drug, gambling, smoking.
var substanceRelapseRe = newFilteredRe(regexp.MustCompile(`\b(?:relapsed|relapse|relapsing|slipped|fell off the wagon)(?: again)? (?:on|with|into|back into|back on) (?:the )?(?:drinking|drink|alcohol|booze|beer|wine|vodka|smoking|cigarettes|cigs|vaping|vapes?|gambling|betting|the slots|drugs|weed|coke|cocaine|heroin|meth|sugar|porn|bingeing|binge eating|caffeine)\b`))

// unwishedHarmRe is an accident imagined and minded ("if a bus hit me I'd
// be so annoyed, I have a date tonight"): the opposite of wish.accident,
// which the scorers cannot tell from it by the words alone.
var unwishedHarmRe = newFilteredRe(regexp.MustCompile(`\bif (?:a|the|some) (?:bus|car|truck|lorry|train|plane|tree|meteor|piano)(?: \w+){0,4} (?:hit|hits|took|takes|ran|runs|crashed|killed|flattened|fell on)(?: \w+){0,6} (?:id|i would|i d) (?:\w+ )?(?:be )?(?:so |really |very |well |proper |absolutely )?(?:annoyed|mad|angry|furious|pissed|gutted|upset|livid|fuming|raging|devastated|late)\b`))

// injuryTalkRe are words of injury that an accident explains.
var injuryTalkRe = newFilteredRe(regexp.MustCompile(`\b(?:cut|cuts|cutting|burn|burned|burnt|burning|hurt|hurting|injured|bleed|bleeding|bled|bruised|broke)\b`))

// decidedSpan is the part of the clause [cs, ce) that a decision about a
// match starting at start covers: up to a "but" from the match on, which
// turns the statement ("I'm not suicidal, but I don't want to be alive").
func decidedSpan(canon string, cs, ce, start int) [2]int {
	if k := strings.Index(canon[start:ce], " but "); k >= 0 {
		ce = start + k
	}
	return [2]int{cs, ce}
}

// attemptUnplaced reports an attempt rule on path ("took 30 of them",
// "swallowed the lot") that found no context for its words.
func attemptUnplaced(path []string) bool {
	for _, p := range path {
		if r, ok := strings.CutPrefix(p, "rule:attempt."); ok && strings.HasSuffix(r, "/no_context") {
			return true
		}
	}
	return false
}

// decidedMatch reports a rule match on path that the rules decided (a
// plain match, or one a modifier set aside), as opposed to one that only
// lacked context: no_context, no_talk, no_own_context, or a question
// about others that the writer owned.
func decidedMatch(path []string) bool {
	for _, p := range path {
		r, ok := strings.CutPrefix(p, "rule:")
		if !ok {
			continue
		}
		_, mod, _ := strings.Cut(r, "/")
		switch mod {
		case "no_context", "no_talk", "no_own_context", "owned":
		default:
			return true
		}
	}
	return false
}

// wordCount counts the words of canon (runs of non-spaces).
func wordCount(canon string) int {
	n := 0
	for range strings.FieldsSeq(canon) {
		n++
	}
	return n
}

// firstPerson reports a first-person word in canon.
func firstPerson(canon string) bool {
	for i := 0; i < len(canon); {
		j := strings.IndexByte(canon[i:], ' ')
		if j < 0 {
			j = len(canon) - i
		}
		switch canon[i : i+j] {
		case "i", "im", "ive", "ill", "id", "me", "my", "myself", "mine", "imma":
			return true
		}
		i += j + 1
	}
	return false
}

// subjectDropped reports a message with no subject but the writer's own
// left out, as chat drops it ("cant do this anymore", "done with
// everything", "took them all", "suicide thoughts every night"): no word
// names or points to anyone else as its subject (an object, "them" or
// "us", and "you", the bot the person writes to, do not), and no sentence
// asks about a topic ("how do people ...", "what is ...": a question word
// that starts one; "did it. now what" does not ask). Only a whole message
// counts: what is left after a rule set clauses aside is a fragment, not a
// sentence without a subject.
func subjectDropped(canon string) bool {
	if canon == "" || strings.HasSuffix(canon, "?") {
		return false
	}
	start := true // at the start of a sentence
	for w := range strings.FieldsSeq(canon) {
		w = strings.Trim(w, ",!?")
		switch w {
		case "he", "hes", "she", "shes", "they", "theyre", "theyll", "theyd", "her", "hers", "his", "their", "theirs",
			"we", "our", "someone", "somebody", "anyone", "anybody", "people", "person",
			"friend", "friends", "brother", "sister", "mom", "mum", "dad", "mother", "father", "son", "daughter", "wife", "husband",
			"girlfriend", "boyfriend", "partner", "kid", "kids", "character":
			return false
		case "what", "how", "why":
			// A question about a topic ("how do people ...", "what is
			// ..."), not "now what" or "thought about how easy".
			if start {
				return false
			}
		}
		start = w == "."
	}
	return true
}

// maskClauses returns canon without the clauses in spans, the rest joined by
// sentence marks. With no spans it returns canon itself.
func maskClauses(canon string, spans [][2]int) string {
	if len(spans) == 0 {
		return canon
	}
	spans = slices.Clone(spans)
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	at := 0
	keep := func(s string) {
		s = strings.Trim(s, " .")
		if s == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteString(" . ")
		}
		b.WriteString(s)
	}
	for _, sp := range spans {
		if sp[0] > at {
			keep(canon[at:sp[0]])
		}
		at = max(at, sp[1])
	}
	if at < len(canon) {
		keep(canon[at:])
	}
	return b.String()
}

// topicFrameRe frames talk of suicide as a topic: study, work, media,
// fiction, volunteering.
var topicFrameRe = newFilteredRe(regexp.MustCompile(`\b(?:essay|paper|thesis|dissertation|research|researching|article|assignment|homework|project|presentation|report|documentary|podcast|statistics|stats|rates?|prevention|awareness|hotline|lifeline|helpline|fundraiser|charity|volunteer\w*|training|lecture|seminar|workshop|novel|story|book|movie|film|show|series|episode|song|lyrics|poem|character|game|fiction|fanfic|news|definition|define|meaning)\b`))

// meansRe names a lethal means or a place to fall from, for the scorer's
// level-3 cue (never a level on its own).
var meansRe = newFilteredRe(regexp.MustCompile(`\b(?:pills?|tablets?|meds|medications?|overdos\w*|bottle of|rope|noose|belt|hang|hanging|gun|guns|pistol|rifle|shotgun|firearm|bullets?|knife|knives|blades?|razors?|bridge|roof|rooftop|ledge|balcony|cliff|jump|train tracks|railway|gas|carbon monoxide|helium|exhaust|plastic bag|poison|bleach|antifreeze|drown|wrists?|tylenol|paracetamol|acetaminophen|insulin|sleeping pills)\b`))
