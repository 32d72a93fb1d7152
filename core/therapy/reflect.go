package therapy

import (
	"strings"
	"unicode"

	"github.com/havenbot/haven/internal/textmatch"
)

// reflector turns a person's first-person statement into a second-person
// reflection that keeps their own words: "I have been so stressed about
// work" becomes "you've been so stressed about work".

// selfStatement finds the part of a message where the person speaks about
// themselves: what follows "I feel", "I'm", "I've been" and the like, up to
// the end of the clause.
var selfStatement = textmatch.MustCompile(`(?i)\b(i(?:['’](?:m|ve\s+been)|\s+(?:have\s+been|am|feel|felt|keep|can't|cannot|can’t|don't|don’t|just|really|was|had|think|wish|need|want|miss|hate|lost|got|said|did|told|tried|ruined|messed|made|love|loved|left|argued|know|thought|should|could|would|will|always|never|still))\b[^.!?\n;]*)`)

// pronouns maps first-person words to second-person ones. Keys are lower case.
var pronouns = map[string]string{
	"i": "you", "i'm": "you're", "i’m": "you’re", "im": "you're", "i've": "you've", "i’ve": "you’ve",
	"ive": "you've", "i'd": "you'd", "i’d": "you’d", "i'll": "you'll", "i’ll": "you’ll",
	"me": "you", "my": "your", "mine": "yours", "myself": "yourself", "am": "are",
	"was": "were", "we": "you", "our": "your", "ours": "yours", "us": "you",
	"you": "I", "your": "my", "yours": "mine", "yourself": "myself",
}

// reflect returns the person's self-statement in the second person, or ""
// when the message holds none worth reflecting (too short or too long).
func reflect(text string) string {
	var words []string
	for _, m := range selfStatement.FindAllString(text, 4) {
		if hedgeStartRE.MatchString(m) {
			continue
		}
		if w := strings.Fields(m); len(w) >= 3 && len(w) <= 24 {
			words = w
			break
		}
	}
	if words == nil {
		return ""
	}
	// "I have been" reads better as "you've been".
	if strings.EqualFold(words[0], "i") && strings.EqualFold(words[1], "have") && strings.EqualFold(words[2], "been") {
		words = append([]string{"you've", "been"}, words[3:]...)
	}
	for i, w := range words {
		core, tail := splitTrailingPunct(w)
		lw := strings.ToLower(core)
		if r, ok := pronouns[lw]; ok {
			if lw == "you" && i > 0 && isPreposition(words[i-1]) {
				r = "me"
			}
			words[i] = r + tail
		}
	}
	out := strings.Join(words, " ")
	return strings.TrimRightFunc(out, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}

func splitTrailingPunct(w string) (string, string) {
	i := len(w)
	for i > 0 && strings.ContainsRune(",:)\"", rune(w[i-1])) {
		i--
	}
	return w[:i], w[i:]
}

func isPreposition(w string) bool {
	switch strings.ToLower(w) {
	case "to", "with", "for", "at", "about", "from", "of", "like":
		return true
	}
	return false
}

// hedgeStartRE marks self-statements that only hedge ("I don't know,
// maybe"): mirroring them back sounds odd.
var hedgeStartRE = textmatch.MustCompile(`(?i)^i\s+(don'?t|do not)\s+know\b|^i\s+(guess|think so|suppose|mean)\b`)

var clauseRE = textmatch.MustCompile(`\s*[,.;!?]+\s*`)

var hedgeRE = textmatch.MustCompile(`(?i)[\s,]+(i (guess|think|suppose|mean)|tbh|honestly|lol|haha|really|or something|you know)[\s.!?]*$`)

// reflection is the reflection used in replies: reflect without trailing
// hedges ("I'm tired I guess" -> "you're tired"), and never a procedural
// request ("I don't want advice" is a rule, not a feeling to mirror).
func reflection(text string) string {
	if justListenRE.MatchString(text) || shorterRE.MatchString(text) || adviceOKRE.MatchString(text) {
		var keep []string
		for _, clause := range clauseRE.Split(text, -1) {
			if !justListenRE.MatchString(clause) && !shorterRE.MatchString(clause) && !adviceOKRE.MatchString(clause) {
				keep = append(keep, clause)
			}
		}
		text = strings.Join(keep, ". ")
	}
	for {
		t := hedgeRE.ReplaceAllString(text, "")
		if t == text {
			break
		}
		text = t
	}
	return reflect(text)
}
