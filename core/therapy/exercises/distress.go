package exercises

import (
	"regexp"
	"strings"

	"github.com/havenbot/haven/internal/textmatch"
)

// Distress during an exercise is read by concept, not by phrase: each
// pattern below is one way the body or the feeling can say "this is making
// it worse", with its own words swapped freely. A concept preceded by a
// negation ("I'm not panicking", "it isn't making it worse") does not count.
var (
	// worseRE: the exercise or the moment is making things worse.
	worseRE = textmatch.MustCompile(`(?i)\b((making|made|makes|make) (me|it|things|this|everything|my \w+) (feel )?(even |so |a lot |much |way |a bit |a little )?(more|worse)\b|(feel|feeling|felt|getting|got|gotten|going|becoming|it'?s|this is|that'?s|i'?m|i am) (even |so |a lot |much |way |a bit |a little |only )?worse\b|worse (than|now|and worse)\b|more and more (anxious|panicky|scared|stressed|tense|overwhelmed|upset|nervous))`)
	// moreFeelingRE: a rise in an anxious or frightened feeling.
	moreFeelingRE = textmatch.MustCompile(`(?i)\b(more|increasingly|even more) (anxious|anxiety|panicky|panicked|panic|scared|afraid|frightened|stressed|nervous|tense|overwhelmed|upset|agitated|on edge|wound up|worked up|shaky|dizzy|light-?headed)\b`)
	// panicRE: panic and the body's alarm.
	panicRE = textmatch.MustCompile(`(?i)\b(panic(king|ked|ky)?|panic attack|freaking out|flipping out|losing it|spiral+ing|falling apart|hyperventilat\w*|can'?t (breathe|catch my breath|get (enough )?(air|breath)|get my breath|stop shaking|calm down)|cannot breathe|(hard|difficult|struggling) to breathe|short of breath|choking|heart( (is|keeps|won'?t stop|will not stop|just|still|really|so|has been|started|starting|feels|feeling|getting|going|is going))* (racing|pounding|thumping|beating (so |really |too )?fast)|chest( (is|feels|feeling|getting|gets|just|still|really|so|very|has been|started|starting|going|too))* (tight|tightening|hurts|hurting|pain|aching)|(i'?m|i am|my hands are|i keep) (shaking|trembling))\b`)
	// fearRE: fear or overwhelm said of oneself now.
	fearRE = textmatch.MustCompile(`(?i)\b((i'?m|i am|i feel|i'?m feeling|feeling|getting|i'?m getting) (so |really |very |too |super |completely )?(scared|terrified|frightened|overwhelmed|freaked( out)?)|(this|it) is (way |just )?too much|too much for me|i can'?t (handle|take|cope with) (this|it)|(this|it) (is|'s) (scaring|freaking) me)\b`)
	// unwellRE: feeling faint or sick; a statement, not a question about it.
	unwellRE = textmatch.MustCompile(`(?i)\b(i'?m|i am|i feel|i'?m feeling|feeling|getting|i'?m getting|starting to feel|it'?s making me|making me|makes me) (a bit |a little |kind of |kinda |really |so |very |quite )?(dizzy|light-?headed|faint|woozy|nauseous|sick|like i'?m going to (faint|pass out|be sick))\b`)
	// negatedRE: a negation right before a concept; pastRE: the concept
	// told as the past ("I used to have panic attacks").
	negatedRE = regexp.MustCompile(`(?i)(\bnot|n'?t|\bno longer|\bnever|\bno|\bless|\bstopped)\s+((really|even|feel(ing)?|getting|making (me|it)|that|as|so|any)\s+)*$`)
	pastRE    = regexp.MustCompile(`(?i)\b(used to|when i was (a |little|younger|young)|years ago|as a (kid|child|teen(ager)?))\b[^.!?]*$`)
)

// Distressed reports whether text says the person is getting more anxious,
// panicking, unable to breathe, frightened or feeling worse. Feeling dizzy
// or faint counts when said, not asked about ("is it normal to feel
// dizzy?" is a side question).
func Distressed(text string) bool {
	for _, re := range []*textmatch.Regexp{panicRE, worseRE, moreFeelingRE, fearRE} {
		if matchedNotNegated(re, text) {
			return true
		}
	}
	question := strings.Contains(text, "?") || questionStartRE.MatchString(text)
	return !question && matchedNotNegated(unwellRE, text)
}

// matchedNotNegated reports a match of re in text that no negation
// precedes and that is not told as the past.
func matchedNotNegated(re *textmatch.Regexp, text string) bool {
	if !re.MatchString(text) {
		return false
	}
	for _, loc := range re.FindAllStringIndex(text, -1) {
		if before := text[:loc[0]]; !negatedRE.MatchString(before) && !pastRE.MatchString(before) {
			return true
		}
	}
	return false
}
