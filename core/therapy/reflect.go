package therapy

import (
	"strings"
	"unicode"

	"github.com/havenbot/haven/internal/textmatch"
)

// A reflection gives back the heart of a message in the second person, in
// the person's own words: of "everyone keeps saying she's in a better place
// and I want to scream" it is "you want to scream", of "I'd give anything to
// talk to him" it is "you'd give anything to talk to him". It is one clause,
// never the whole message told back.

// maxReflectWords bounds a reflection: longer clauses are cut at a
// subordinate clause, or not reflected at all.
const (
	minReflectWords = 3
	maxReflectWords = 14
)

// reflect returns the heart of text in the second person, or "" when the
// message holds no clause worth reflecting (none where the person speaks
// about themselves, or only hedges and requests).
func reflect(text string) string {
	best, bestScore := []string(nil), 0
	for _, c := range clauses(normalizeQuotes(text)) {
		w := selfClause(c)
		if w == nil {
			continue
		}
		joined := strings.Join(w, " ")
		if riskEchoRE.MatchString(joined) {
			continue
		}
		score := 1
		if heartRE.MatchString(joined) {
			score += 3
		}
		if _, ok := firstFeeling(joined); ok {
			score += 2
		}
		if addressesHaven(w) {
			score -= 2
		}
		if score > bestScore {
			best, bestScore = w, score
		}
	}
	if best == nil || bestScore <= 0 {
		return ""
	}
	out := strings.Join(secondPerson(best), " ")
	return strings.TrimRightFunc(out, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}

// riskEchoRE are words of dying, killing and self-harm, and an attempt
// told as an event ("in hospital after an attempt"). A clause with one
// is never reflected: if the crisis gate read it as risk, the crisis path
// answers; if not (a figure of speech, someone else, the past), saying
// "you're killing yourself" back in Haven's voice still reads as if Haven
// took it lightly.
var riskEchoRE = textmatch.MustCompile(`(?i)\b(` + deathWords + `|self[- ]?harm\w*|(hurt|hurting|cut|cutting|harm|harming|burn|burning) (myself|yourself)|end(ing)? (it all|my life|things|everything)|(after|since|from) (an|my|the|that) attempt)\b`)

// heartRE marks a clause that carries a feeling or a wish: the one to
// reflect when a message has several.
var heartRE = textmatch.MustCompile(`(?i)\b(feel\w*|felt|want|wanted|wish|miss\w*|love\w*|hate\w*|scream\w*|cry\w*|hurts?|afraid|scared|can'?t|cannot|give anything|so|really|too|never|always|anymore|got|passed|made it|did it)\b`)

// clauses splits a message at sentence ends, semicolons and commas, and at
// a conjunction that starts a new clause with its own subject ("... and I
// want to scream").
func clauses(text string) []string {
	var out []string
	for _, part := range clauseRE.Split(text, -1) {
		words := strings.Fields(part)
		start := 0
		for i := 1; i+1 < len(words); i++ {
			if !isConjunction(words[i]) {
				continue
			}
			next := i + 1
			if isAdverb(words[next]) && next+1 < len(words) {
				next++ // "and now I'm ..."
			}
			if !isSubject(words[next]) || compoundSubject(words[start:i], words[next]) {
				continue
			}
			out = append(out, strings.Join(words[start:i], " "))
			start = i + 1
		}
		if start < len(words) {
			out = append(out, strings.Join(words[start:], " "))
		}
	}
	return out
}

var clauseRE = textmatch.MustCompile(`\s*(?:[.;!?\n]+|,|\s-\s|\s—\s)\s*`)

// turnsMeaning reports a word before the person's own clause that turns
// what the clause says (a negation, a doubt, a condition), so that the
// clause cannot be reflected without it.
func turnsMeaning(w string) bool {
	switch strings.ToLower(strings.Trim(w, ",")) {
	case "not", "no", "never", "dont", "don't", "doubt", "unsure", "whether", "if", "unless", "hardly", "barely", "without", "nobody", "nothing", "longer":
		return true
	}
	return false
}

func isConjunction(w string) bool {
	switch strings.ToLower(w) {
	case "and", "but", "so", "because", "cause", "cuz", "though", "although", "while", "yet", "or", "since", "when", "then":
		return true
	}
	return false
}

func isSubject(w string) bool {
	switch strings.ToLower(strings.TrimRight(w, ",")) {
	case "i", "i'm", "i've", "i'd", "i'll", "im", "ive", "my", "she", "he", "they", "it", "we", "you",
		"everyone", "everybody", "nobody", "no", "people", "things", "this", "that", "she's", "he's", "they're", "it's", "we're":
		return true
	}
	return false
}

func isAdverb(w string) bool {
	switch strings.ToLower(w) {
	case "now", "then", "still", "just", "honestly", "really", "also", "suddenly", "yet":
		return true
	}
	return false
}

// compoundSubject reports "my partner and I": a short noun phrase joined
// to "I", one subject rather than two clauses.
func compoundSubject(before []string, next string) bool {
	if !strings.EqualFold(next, "i") || len(before) == 0 || len(before) > 3 {
		return false
	}
	switch strings.ToLower(before[0]) {
	case "my", "me", "her", "him", "his", "she", "he", "they", "them", "our", "the", "a", "mum", "mom", "dad":
		return true
	}
	return false
}

// fillers are words that open a clause without adding to it ("so I ...",
// "honestly I ...").
var fillers = map[string]bool{
	"so": true, "and": true, "but": true, "like": true, "honestly": true, "tbh": true, "well": true, "ok": true,
	"okay": true, "lol": true, "just": true, "also": true, "anyway": true, "basically": true, "literally": true,
	"yeah": true, "yes": true, "no": true, "um": true, "uh": true, "hmm": true, "oh": true, "now": true, "today": true,
	"idk": true, "ugh": true, "man": true, "actually": true, "then": true, "because": true, "cause": true,
}

// selfClause returns the words of clause c from where the person starts
// speaking about themselves ("I ..."), cut to a reflection's
// length, or nil when c is not about them, only hedges, or is a request
// about how Haven should talk.
func selfClause(c string) []string {
	words := strings.Fields(c)
	if len(words) > 0 && relativeStart(words[0]) {
		// "..., which I never thought I'd say": a relative clause leans on
		// the one before it and says nothing alone.
		return nil
	}
	i := 0
	for i < len(words) && fillers[strings.ToLower(words[i])] {
		i++
	}
	start := -1
	if i < len(words) && isSelf(words[i]) {
		start = i
	} else {
		// A clause that turns to themselves later: "since she died I can't
		// focus". What someone else said about them ("he said I never
		// try") is theirs, not the person's own voice.
		for j := i; j < len(words) && j < i+6; j++ {
			if isReporting(words[j]) {
				return nil
			}
			if isSelf(words[j]) {
				start = j
				break
			}
			if turnsMeaning(words[j]) {
				// "not sure how much longer I can keep this up": what
				// follows alone says the opposite.
				return nil
			}
		}
	}
	if start < 0 {
		return nil
	}
	w := words[start:]
	if start > i+1 && start-1-i <= 3 && strings.EqualFold(words[start-1], "and") && strings.EqualFold(words[start], "i") {
		// "my partner and I had a fight": "you and your partner had a
		// fight".
		w = append(append([]string{"I", "and"}, words[i:start-1]...), words[start+1:]...)
	}
	joined := strings.Join(w, " ")
	if hedgeStartRE.MatchString(joined) || justListenRE.MatchString(joined) || shorterRE.MatchString(joined) || adviceOKRE.MatchString(joined) {
		return nil
	}
	w = trimTail(w)
	if len(w) > maxReflectWords {
		w = cutLong(w)
	}
	if len(w) < minReflectWords || len(w) > maxReflectWords {
		return nil
	}
	return w
}

// isReporting reports a verb that reports someone's words or opinion.
func isReporting(w string) bool {
	switch strings.ToLower(w) {
	case "said", "says", "told", "tells", "thinks", "thought", "claims", "claimed", "reckons", "called", "calls", "keeps":
		return true
	}
	return false
}

// isSelf reports whether w is the person as subject ("I", "I'm", ...). A
// clause about someone else ("my dad died in March") is not reflected: told
// back, a fact sounds cold; the reply meets the feeling instead.
func isSelf(w string) bool {
	switch strings.ToLower(w) {
	case "i", "i'm", "i've", "i'd", "i'll", "im", "ive":
		return true
	}
	return false
}

// trimTail drops hedges and fillers at the end of a clause ("I'm tired I
// guess", "I'm done lol").
func trimTail(w []string) []string {
	for {
		t := hedgeRE.ReplaceAllString(strings.Join(w, " "), "")
		n := strings.Fields(t)
		if len(n) == len(w) {
			return w
		}
		w = n
	}
}

// cutLong cuts a long clause before a subordinate part ("... because ...",
// "... when ...") when what is left still says something.
func cutLong(w []string) []string {
	for i := minReflectWords; i < len(w) && i <= maxReflectWords; i++ {
		switch strings.ToLower(w[i]) {
		case "because", "when", "since", "after", "which", "who", "while", "if", "until", "even", "that's", "where", "whenever":
			if i >= minReflectWords+1 {
				return w[:i]
			}
		}
	}
	return w
}

// addressesHaven reports whether a clause talks to Haven ("I told you").
func addressesHaven(w []string) bool {
	for _, x := range w {
		switch strings.ToLower(strings.Trim(x, ",.!?")) {
		case "you", "your", "you're", "yours", "yourself":
			return true
		}
	}
	return false
}

// secondPerson turns the words of a clause about the speaker into the
// second person, verbs agreeing: "I was" -> "you were", "I'm" -> "you're",
// "my" -> "your", "I told you" -> "you told me".
func secondPerson(words []string) []string {
	// "I have been" reads better as "you've been".
	if len(words) >= 3 && strings.EqualFold(words[0], "i") && strings.EqualFold(words[1], "have") && strings.EqualFold(words[2], "been") {
		words = append([]string{"I've"}, words[2:]...)
	}
	out := make([]string, len(words))
	for i, w := range words {
		core, tail := splitTrailingPunct(w)
		lw := strings.ToLower(core)
		prev, next := "", ""
		if i > 0 {
			prev, _ = splitTrailingPunct(strings.ToLower(words[i-1]))
		}
		if i+1 < len(words) {
			next, _ = splitTrailingPunct(strings.ToLower(words[i+1]))
		}
		r, ok := swapPronoun(lw, prev, next)
		if !ok {
			out[i] = w
			if i == 0 {
				out[i] = lowerFirst(w)
			}
			continue
		}
		out[i] = r + tail
	}
	return out
}

// swapPronoun returns the second-person form of lw between prev and next
// (lower case), and whether it changed.
func swapPronoun(lw, prev, next string) (string, bool) {
	switch lw {
	case "i":
		return "you", true
	case "i'm", "im":
		return "you're", true
	case "i've", "ive":
		return "you've", true
	case "i'd":
		return "you'd", true
	case "i'll":
		return "you'll", true
	case "me":
		return "you", true
	case "my":
		return "your", true
	case "mine":
		return "yours", true
	case "myself":
		return "yourself", true
	case "we", "us":
		return "you", true
	case "we're":
		return "you're", true
	case "we've":
		return "you've", true
	case "our":
		return "your", true
	case "ours":
		return "yours", true
	case "ourselves":
		return "yourselves", true
	case "am":
		if prev == "i" || next == "i" {
			return "are", true
		}
	case "was":
		if prev == "i" || next == "i" {
			return "were", true
		}
	case "wasn't":
		if prev == "i" || next == "i" {
			return "weren't", true
		}
	case "you":
		if prev == "" || isConjunction(prev) || prev == "like" || prev == "that" || prev == "if" {
			return "I", true
		}
		return "me", true
	case "you're":
		return "I'm", true
	case "you've":
		return "I've", true
	case "you'd":
		return "I'd", true
	case "your":
		return "my", true
	case "yours":
		return "mine", true
	case "yourself":
		return "myself", true
	case "are", "were":
		// "you are" said to Haven, now "I": "I am", "I was".
		if prev == "you" {
			if lw == "are" {
				return "am", true
			}
			return "was", true
		}
	}
	return "", false
}

func lowerFirst(w string) string {
	if w == "" || strings.HasPrefix(w, "I'") || w == "I" {
		return w
	}
	r := []rune(w)
	// Keep names and acronyms: only a capital followed by lower case is a
	// sentence's first letter.
	if len(r) > 1 && unicode.IsUpper(r[0]) && unicode.IsLower(r[1]) {
		r[0] = unicode.ToLower(r[0])
	}
	return string(r)
}

// normalizeQuotes turns typographic apostrophes into plain ones.
func normalizeQuotes(s string) string {
	return strings.NewReplacer("’", "'", "‘", "'").Replace(s)
}

func splitTrailingPunct(w string) (string, string) {
	i := len(w)
	for i > 0 && strings.ContainsRune(",:)\"!?.", rune(w[i-1])) {
		i--
	}
	return w[:i], w[i:]
}

// hedgeStartRE marks self-statements that only hedge ("I don't know,
// maybe"): mirroring them back sounds odd.
var hedgeStartRE = textmatch.MustCompile(`(?i)^i\s+(don'?t|do not)\s+know\b|^i\s+(guess|think so|suppose|mean)\b|^i\s+(just )?wanted to (say|ask|tell|let)\b|^i\s+have a question\b|^(i'?m|i am) (fine|ok|okay|good|alright|here|back)\s*$`)

var hedgeRE = textmatch.MustCompile(`(?i)[\s,]+(i (guess|think|suppose|mean)|tbh|honestly|lol|haha|really|or something|you know|right now|lately|anymore lol)[\s.!?]*$`)

// reflection is the reflection used in replies: the heart of the message,
// never a procedural request ("I don't want advice" is a rule, not a
// feeling to mirror) and never a question to Haven.
func reflection(text string) string {
	return reflect(withoutQuestions(text))
}

// withoutQuestions drops the sentences of text that ask something: they are
// answered, not mirrored.
func withoutQuestions(text string) string {
	if !strings.Contains(text, "?") {
		return text
	}
	var keep []string
	for _, s := range sentences(text) {
		if !strings.HasSuffix(s, "?") {
			keep = append(keep, s)
		}
	}
	return strings.Join(keep, " ")
}

// relativeStart reports a word that opens a relative clause after a comma
// ("which", "whom", "whose"), whose sense lies in the clause before it.
func relativeStart(w string) bool {
	switch strings.ToLower(strings.Trim(w, ",")) {
	case "which", "whom", "whose":
		return true
	}
	return false
}
