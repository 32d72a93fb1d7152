package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/havenbot/haven/internal/textmatch"

	"github.com/havenbot/haven/memory"
)

// Candidate is one memory found in a message, with its write policy.
// Exactly one of Fact and Rule is set.
type Candidate struct {
	Fact   *memory.Fact
	Rule   *memory.Rule
	Policy memory.Policy
	// Source says which extractor found it: "pattern" or "llm".
	Source string
}

// Key identifies what a candidate says, for holding and repetition.
func (c Candidate) Key() string {
	if c.Rule != nil {
		return "rule|" + c.Rule.Key
	}
	f := c.Fact
	return strings.ToLower(f.Subject + "|" + f.Predicate + "|" + f.Object)
}

const (
	name     = `(\p{Lu}[\p{L}'-]{1,30})`
	anyName  = `([\p{L}][\p{L}'-]{1,30})`
	place    = `(\p{Lu}[\p{L}'-]+(?:[ -](?:upon|on|le|de|\p{Lu}[\p{L}'-]+)){0,3})`
	relation = `(sister|brother|mum|mom|mother|dad|father|partner|wife|husband|girlfriend|boyfriend|fiancee?|son|daughter|best friend|friend|boss|manager|ex|grandma|grandmother|gran|grandpa|grandfather|aunt|uncle|cousin|flatmate|roommate|housemate|therapist|colleague|coworker|stepmum|stepmom|stepdad|niece|nephew|neighbou?r)`
	pet      = `(dog|cat|puppy|kitten|rabbit|bunny|hamster|parrot|budgie|bird|horse|pony|guinea pig|tortoise|turtle|snake|lizard|gecko|fish|ferret|rat|mouse)`
	namedAs  = `(?:(?i:'s name is| is called| called| named| whose name is),?|,)?\s+`
)

var (
	reName = textmatch.MustCompile(`(?i:\bmy name(?:'s| is)|\bi(?:'m| am) called|\bname's)\s+` + anyName)
	// reIntro is a short introduction, "hi, I'm Sam" or "this is Sam": a
	// capitalized name ending the sentence ("I'm tired" is not a name).
	reIntro       = textmatch.MustCompile(`^(?:(?i:hi+|hello+|hey+|hiya)(?: (?i:there|haven))?[\s,!.]+)?(?i:i'm|i’m|im|i am|this is)\s+([A-Z][a-z]{1,20})[\s!.]*$`)
	reCallMe      = textmatch.MustCompile(`(?i:\b(?:please |you can |just )?call me)\s+` + anyName + `\b`)
	rePronouns    = textmatch.MustCompile(`(?i)\b(?:my pronouns are|i use|i go by)\s+(she/her|he/him|they/them|she/they|he/they|xe/xem|ze/zir|it/its)\b`)
	reRelation    = textmatch.MustCompile(`\b(?i:my)\s+(?i:` + relation + `)` + namedAs + name)
	rePet         = textmatch.MustCompile(`\b(?i:my|a|our)\s+(?i:` + pet + `)` + namedAs + name)
	reLivesIn     = textmatch.MustCompile(`\b(?i:i(?:'ve| have)? (?:just |recently )?moved to|i (?:now )?live in|i(?:'m| am) (?:now )?living in|we live in|i(?:'m| am) based in)\s+` + place)
	reWorksAs     = textmatch.MustCompile(`(?i)\b(?:i work as|i(?:'m| am) working as|my job is|i(?:'m| am) employed as)\s+(?:an? |the )?([a-z][a-z -]{2,40}?)(?:\s+(?:at|for|in)\b|[.,!?;]|$)`)
	reWorksAt     = textmatch.MustCompile(`\b(?i:i work (?:at|for)|i(?:'m| am) working (?:at|for)|i got a job at)\s+` + `(\p{Lu}[\p{L}&'.-]*(?: \p{Lu}[\p{L}&'.-]*){0,3})`)
	reJobNoun     = textmatch.MustCompile(`(?i)\bi(?:'m| am) an? (nurse|teacher|student|engineer|software engineer|developer|programmer|doctor|lawyer|designer|chef|cook|driver|cashier|accountant|writer|artist|musician|carer|caregiver|paramedic|firefighter|electrician|plumber|builder|barista|waiter|waitress|scientist|researcher|social worker|pharmacist|midwife|police officer|mechanic|cleaner|receptionist|student nurse|junior doctor|care worker)\b`)
	reStudies     = textmatch.MustCompile(`(?i)\bi(?:'m| am)? (?:study|studying|doing a degree in|majoring in)\s+([a-z][a-z ]{2,40}?)(?:\s+at\b|[.,!?;]|$)`)
	reLikes       = textmatch.MustCompile(`(?i)\bi (?:really |absolutely |do )?(?:love|like|enjoy|adore)\s+([a-z][a-z' -]{2,40}?)(?:[.,!?;]|$|\s+(?:but|and|so|because|when)\b)`)
	reDislikes    = textmatch.MustCompile(`(?i)\bi (?:really )?(?:hate|dislike|can't stand|cannot stand|don't like|do not like)\s+([a-z][a-z' -]{2,40}?)(?:[.,!?;]|$|\s+(?:but|and|so|because|when)\b)`)
	reRemember    = textmatch.MustCompile(`(?i)\b(?:please )?(?:remember|don't forget|do not forget|keep in mind)\s+(?:that\s+)?(.{3,240}?)\s*(?:[.!]\s|[.!]?$)`)
	reSelfBelief  = textmatch.MustCompile(`(?i)\bi(?:'m| am) (?:(?:such|just|so|really|totally|completely|a|an) )*(failure|burden|disappointment|mess|worthless|useless|stupid|unlovable|not good enough|pathetic|hopeless|broken)\b`)
	reSelfBelief2 = textmatch.MustCompile(`(?i)\b(i hate myself|nobody (?:likes|loves|cares about) me|no one (?:likes|loves|cares about) me|i(?:'ll| will) never be good enough|i ruin everything)\b`)
)

// notNames are capitalised words that follow "my sister" and the like but
// are not names.
var notNames = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`I I'm Im And But So Is Was Has Had Who The This That Then He She They It We You Just Really
		Always Never Still Also Today Yesterday Tomorrow Last Next Mum Mom Dad Lol Ok Okay Because When Said Says Told Thinks
		Monday Tuesday Wednesday Thursday Friday Saturday Sunday Christmas Went Got Keeps Does Did Can Could Would Will`) {
		notNames[strings.ToLower(w)] = true
	}
	for _, w := range strings.Fields(`tired sad okay fine good bad sorry here back home done new not so very really just
		a an the feeling going getting trying worried anxious stressed happy angry upset lost stuck confused alone lonely
		sure glad afraid scared sick ill exhausted overwhelmed busy free ready worthless useless stupid what`) {
		notNames[w] = true
	}
}

func isName(s string) bool {
	return s != "" && !notNames[strings.ToLower(s)]
}

// titleCase upper-cases the first letter of s.
func titleCase(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// vague objects are dropped: "I love it", "I hate that".
var vague = map[string]bool{"it": true, "that": true, "this": true, "them": true, "him": true, "her": true, "you": true,
	"myself": true, "everything": true, "everyone": true, "nothing": true, "people": true, "my life": true, "life": true,
	"my job": false, "when": true, "how": true, "the way": true}

// fillers are trailing words that are not part of an object ("I love
// swimming though").
var fillers = map[string]bool{"though": true, "too": true, "also": true, "anyway": true, "really": true, "lol": true,
	"honestly": true, "tbh": true, "now": true, "lately": true, "actually": true}

func cleanObject(s string) string {
	s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), ".,!?;:"))
	f := strings.Fields(s)
	for len(f) > 1 && fillers[strings.ToLower(f[len(f)-1])] {
		f = f[:len(f)-1]
	}
	if n := len(f); n > 2 && strings.EqualFold(f[n-2], "a") && strings.EqualFold(f[n-1], "lot") {
		f = f[:n-2]
	}
	return strings.Join(f, " ")
}

// Deterministic finds memories in text with patterns alone. It never fails
// and never needs a model. Evidence is the sentence the memory was found in.
func Deterministic(text string) []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	add := func(c Candidate) {
		c.Source = "pattern"
		if seen[c.Key()] {
			return
		}
		seen[c.Key()] = true
		out = append(out, c)
	}
	addFact := func(subject, pred, object, evidence string, conf float64, p memory.Policy) {
		object = cleanObject(object)
		if object == "" || subject == "" {
			return
		}
		add(Candidate{Fact: &memory.Fact{Subject: subject, Predicate: pred, Object: object, Evidence: memory.Quote(evidence), Confidence: conf}, Policy: p})
	}
	for _, sent := range sentences(text) {
		if UnsafeRule(sent) {
			continue // refused in the turn; never stored
		}
		for _, m := range reName.FindAllStringSubmatch(sent, -1) {
			if isName(m[1]) {
				addFact(memory.Self, memory.PredName, titleCase(m[1]), sent, 0.95, memory.CommitNow)
			}
		}
		if m := reIntro.FindStringSubmatch(strings.TrimSpace(sent)); m != nil && isName(m[1]) {
			addFact(memory.Self, memory.PredName, m[1], sent, 0.9, memory.CommitNow)
		}
		for _, m := range reCallMe.FindAllStringSubmatch(sent, -1) {
			if isName(m[1]) {
				add(Candidate{Rule: &memory.Rule{Key: "address", Text: titleCase(m[1]), Evidence: memory.Quote(sent)}, Policy: memory.CommitNow})
			}
		}
		for _, m := range rePronouns.FindAllStringSubmatch(sent, -1) {
			addFact(memory.Self, memory.PredPronouns, strings.ToLower(m[1]), sent, 0.95, memory.CommitNow)
		}
		for _, m := range reRelation.FindAllStringSubmatch(sent, -1) {
			if isName(m[2]) {
				addFact(m[2], memory.PredRelationship, strings.ToLower(m[1]), sent, 0.85, memory.CommitNow)
			}
		}
		for _, m := range rePet.FindAllStringSubmatch(sent, -1) {
			if isName(m[2]) {
				addFact(m[2], memory.PredPet, strings.ToLower(m[1]), sent, 0.85, memory.CommitNow)
			}
		}
		for _, m := range reLivesIn.FindAllStringSubmatch(sent, -1) {
			if isName(m[1]) {
				addFact(memory.Self, memory.PredLivesIn, m[1], sent, 0.85, memory.CommitNow)
			}
		}
		for _, m := range reWorksAs.FindAllStringSubmatch(sent, -1) {
			addFact(memory.Self, memory.PredWorksAs, m[1], sent, 0.8, memory.CommitNow)
		}
		for _, m := range reJobNoun.FindAllStringSubmatch(sent, -1) {
			addFact(memory.Self, memory.PredWorksAs, strings.ToLower(m[1]), sent, 0.75, memory.CommitNow)
		}
		for _, m := range reWorksAt.FindAllStringSubmatch(sent, -1) {
			addFact(memory.Self, memory.PredWorksAt, m[1], sent, 0.8, memory.CommitNow)
		}
		for _, m := range reStudies.FindAllStringSubmatch(sent, -1) {
			addFact(memory.Self, memory.PredStudies, m[1], sent, 0.75, memory.CommitNow)
		}
		question := strings.HasSuffix(strings.TrimSpace(sent), "?")
		for _, pair := range []struct {
			re   *textmatch.Regexp
			pred string
		}{{reLikes, memory.PredLikes}, {reDislikes, memory.PredDislikes}} {
			for _, m := range pair.re.FindAllStringSubmatch(sent, -1) {
				obj := strings.ToLower(cleanObject(m[1]))
				if question || vague[obj] || strings.HasPrefix(obj, "it ") || strings.HasPrefix(obj, "to ") && len(strings.Fields(obj)) > 4 {
					continue
				}
				// Said in passing: written when the session ends.
				addFact(memory.Self, pair.pred, obj, sent, 0.6, memory.AtSessionEnd)
			}
		}
		if m := reRemember.FindStringSubmatch(sent); m != nil && !question {
			addFact(memory.Self, memory.PredNote, m[1], sent, 0.95, memory.CommitNow)
		}
		// Fragile and negative: only remembered once said again, in one
		// canonical wording so that repetitions are recognised.
		if m := reSelfBelief.FindStringSubmatch(sent); m != nil {
			w := strings.ToLower(m[1])
			switch w {
			case "failure", "burden", "disappointment", "mess":
				w = "a " + w
			}
			addFact(memory.Self, memory.PredSelfBelief, "I'm "+w, sent, 0.5, memory.AfterRepetition)
		} else if m := reSelfBelief2.FindStringSubmatch(sent); m != nil {
			addFact(memory.Self, memory.PredSelfBelief, strings.ToLower(m[1]), sent, 0.5, memory.AfterRepetition)
		}
		for _, r := range styleRules(sent) {
			add(Candidate{Rule: &r, Policy: memory.CommitNow})
		}
	}
	return out
}

var reSentence = textmatch.MustCompile(`[^.!?\n]+[.!?]*`)

// sentences splits text into trimmed sentences.
func sentences(text string) []string {
	var out []string
	for _, s := range reSentence.FindAllString(text, -1) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// AddressName returns the name the person asks to be called in text ("call
// me Sam", "my name is Sam"), for use in the same turn before extraction
// has run.
func AddressName(text string) (string, bool) {
	for _, re := range []*textmatch.Regexp{reCallMe, reName, reIntro} {
		if m := re.FindStringSubmatch(strings.TrimSpace(text)); m != nil && isName(m[1]) {
			return titleCase(m[1]), true
		}
	}
	return "", false
}
