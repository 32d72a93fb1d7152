package safety

import (
	"strings"
)

// lexicon is the set of words the normalizer may repair a token into: the
// normalizer vocabulary (lexicon_words.go) plus common English words, so that a repair
// never turns an ordinary word into a risk word by accident.
type lexicon struct {
	words map[string]bool
	// risk holds only the pattern words; censored tokens (su*cide) are
	// matched against these.
	risk []string
}

// commonWords are frequent English words (and chat forms) that are kept as
// they are and used to split letters that were spaced apart.
const commonWords = `a i am an and are as at be been being but by can could did do does doing done
for from had has have having he her here hers him his how if in into is it its just like me more most
my no nor not now of off on once only or other our out over own same she should so some such than that
the their them then there these they this those through to too under until up very was we were what
when where which while who whom why will with would you your yours yourself yourselves myself
everyone everybody anyone anybody someone somebody nobody no one nothing something anything everything
all any both each few many much every again always never ever still already yet soon later today
tonight tomorrow yesterday week weekend month year years day days night morning time times life live
lives living alive dead death die died dies dying kill killed killing kills self harm hurt cut cutting
want wanted wants wish wished hope think thought thinking feel feeling feels felt know knew go going
gone get got make made take took give gave see saw say said tell told come came leave left work
good bad better best worse worst happy sad tired sick help please sorry thanks thank okay ok fine
really so just even also too well back away down off again pain end ending ended over done
bye goodbye hello hi hey love hate friend friends family mom dad mother father brother sister son
daughter wife husband partner boyfriend girlfriend kid kids child children people person man woman
school exam test job boss class home house room car phone game games movie music book books
sleep sleeping asleep wake waking woke bed food eat eating water drink drinking pills pill rope gun
knife bridge blade cuts scars scar note letter plan plans planned planning ready decided decide
suicide suicidal myself yourself himself herself themselves ourselves
lol lmao lmfao haha idk tbh ngl fr rn imo omg pls plz ok okay yeah yes nope nah`

// newLexicon builds a lexicon from the normalizer vocabulary (risk words)
// and the common words.
func newLexicon(patternWords []string) *lexicon {
	l := &lexicon{words: map[string]bool{}}
	for _, w := range strings.Fields(commonWords) {
		l.words[w] = true
	}
	for _, p := range slangPhrases {
		for _, w := range p.from {
			l.words[w] = true
		}
		for _, w := range p.to {
			l.words[w] = true
		}
	}
	seen := map[string]bool{}
	for _, w := range patternWords {
		// Short fragments of alternations ("suicid(?:al|e)") are not words.
		if len(w) < 3 {
			continue
		}
		l.words[w] = true
		if !seen[w] {
			seen[w] = true
			l.risk = append(l.risk, w)
		}
	}
	return l
}

func (l *lexicon) has(w string) bool { return l.words[w] }

// wildcard matches a censored token such as "su*cide" or "k*ll" (each run of
// '*' stands for one or two letters) against the risk words; it succeeds
// only when exactly one word fits.
func (l *lexicon) wildcard(t string) (string, bool) {
	found := ""
	for _, w := range l.risk {
		if wildMatch(t, w) {
			if found != "" && found != w {
				return "", false
			}
			found = w
		}
	}
	return found, found != ""
}

func wildMatch(p, w string) bool {
	if p == "" {
		return w == ""
	}
	if p[0] == '*' {
		rest := strings.TrimLeft(p, "*")
		for n := 1; n <= 2 && n <= len(w); n++ {
			if wildMatch(rest, w[n:]) {
				return true
			}
		}
		return false
	}
	if w == "" || p[0] != w[0] {
		return false
	}
	return wildMatch(p[1:], w[1:])
}

// squeeze undoes stretched letters (diiieee, kiiilll, sleeeep): each run of
// a repeated letter becomes one or two letters, and the first combination
// that is a lexicon word wins.
func (l *lexicon) squeeze(t string) (string, bool) {
	type run struct {
		c byte
		n int
	}
	var runs []run
	repeated := 0
	for i := 0; i < len(t); {
		j := i
		for j < len(t) && t[j] == t[i] {
			j++
		}
		runs = append(runs, run{t[i], j - i})
		if j-i >= 2 {
			repeated++
		}
		i = j
	}
	if repeated == 0 || repeated > 6 {
		return "", false
	}
	var b []byte
	// Fewest letters first: "tooo" is read as "to", "diiie" as "die".
	for mask := 0; mask < 1<<repeated; mask++ {
		b = b[:0]
		k := 0
		for _, r := range runs {
			if r.n >= 2 {
				b = append(b, r.c)
				if mask&(1<<k) != 0 {
					b = append(b, r.c)
				}
				k++
			} else {
				b = append(b, r.c)
			}
		}
		if l.words[string(b)] {
			return string(b), true
		}
	}
	return "", false
}

// segment splits a run of letters (from spaced-out letters) into lexicon
// words, fewest words first. Single letters count only as "i" and "a".
func (l *lexicon) segment(s string) ([]string, bool) {
	if len(s) > 64 {
		return nil, false
	}
	const inf = 1 << 30
	best := make([]int, len(s)+1)
	from := make([]int, len(s)+1)
	for i := 1; i <= len(s); i++ {
		best[i] = inf
		for j := max(0, i-14); j < i; j++ {
			if best[j] == inf {
				continue
			}
			w := s[j:i]
			if len(w) == 1 && w != "i" && w != "a" {
				continue
			}
			if !l.words[w] {
				continue
			}
			if best[j]+1 < best[i] {
				best[i] = best[j] + 1
				from[i] = j
			}
		}
	}
	if best[len(s)] == inf {
		return nil, false
	}
	var words []string
	for i := len(s); i > 0; i = from[i] {
		words = append(words, s[from[i]:i])
	}
	for a, b := 0, len(words)-1; a < b; a, b = a+1, b-1 {
		words[a], words[b] = words[b], words[a]
	}
	return words, true
}

// Typos. People in distress type fast: "i tink about suicde evry day". The
// rules read a copy of the canonical text in which a token that is not a
// known word and is one slip away from a typo target (two neighbouring
// letters swapped, or one letter missing from a longer word, or a dropped
// final g) is read as the target. Normalize itself is left alone: the
// learned scorer reads Normalize's output unchanged.

// typoTargets are the words a slip is read back into: the words that carry
// a disclosure, long enough that a slip of them is not another word.
// A target written "wanna=want to" is read as its canonical form.
var typoTargets = strings.Fields(`myself suicide suicidal killing dying anymore tonight tomorrow really every
think thinking thoughts living alive pills overdose wrists cutting hurting goodbye nobody anyone everyone
better without through wanna=want_to gonna=going_to kill dead want just life live hang jump ending tired
wish hate again tablets taking bleeding`)

// typoRealWords are real words that are also one slip from a target; they
// are never corrected ("tried" is not "tired").
var typoRealWords = map[string]bool{
	"very": true, "though": true, "thought": true, "ever": true, "live": true, "tried": true, "thin": true,
	"pill": true, "tied": true, "anna": true, "tire": true, "ding": true, "rally": true, "trough": true,
	"hang": true, "wish": true, "life": true, "kill": true, "dead": true, "want": true, "just": true,
	"died": true, "lief": true, "gain": true,
}

// typoMap maps each slip of a target to the target (slips shared by two
// targets are left out).
var typoMap = func() map[string]string {
	m := map[string]string{}
	shared := map[string]bool{}
	add := func(v, w string) {
		if len(v) < 4 || typoRealWords[v] || v == w {
			return
		}
		if old, ok := m[v]; ok && old != w {
			shared[v] = true
		}
		m[v] = w
	}
	for _, t := range typoTargets {
		w, out, ok := strings.Cut(t, "=")
		if !ok {
			out = w
		}
		out = strings.ReplaceAll(out, "_", " ")
		for i := 0; i+1 < len(w); i++ {
			add(w[:i]+string(w[i+1])+string(w[i])+w[i+2:], out)
		}
		if len(w) >= 5 {
			for i := 0; i < len(w); i++ {
				add(w[:i]+w[i+1:], out)
			}
		}
		if strings.HasSuffix(w, "ing") {
			add(w[:len(w)-1], out)
		}
	}
	for v := range shared {
		delete(m, v)
	}
	// Three-letter slips of "kill" are not English words either.
	m["kil"], m["kll"] = "kill", "kill"
	// Chat shorthand the normalizer keeps: "i dont want to b alive".
	m["b"] = "be"
	// Vowels dropped in haste: "i wsh i wsa ded", "i dnt wake up".
	m["dnt"], m["wsh"], m["wnt"], m["wsa"], m["ded"] = "dont", "wish", "want", "was", "dead"
	m["lif"], m["lyf"] = "life", "life"
	// Short slips and shorthand the length rule above leaves out: "to
	// dei", "suicide thots", "frm the bridg", "tmrw nite".
	m["dei"], m["thots"], m["frm"], m["nite"], m["bridg"], m["brige"] = "die", "thoughts", "from", "night", "bridge", "bridge"
	// Vowels and letters dropped or doubled in haste: "i cutt", "wnt
	// to jmp off the brdge", "cnt stop thnkin", "dont wanna be alove".
	m["cutt"], m["jmp"], m["thnkin"], m["thnking"], m["cnt"], m["alove"], m["brdge"] = "cut", "jump", "thinking", "thinking", "cant", "alive", "bridge"
	m["nvr"], m["neva"] = "never", "never"
	// A neighbouring key hit, letters dropped, numbers for sounds: "i wsnt
	// to die", "i dnt wnt 2 liv", "tokk al the pils", "rope redy 4 2nyt",
	// "tking them now".
	m["wsnt"], m["liv"], m["al"], m["tokk"], m["tking"], m["redy"] = "want", "live", "all", "took", "taking", "ready"
	m["tnite"], m["2nite"], m["2nyt"], m["2night"], m["tonite"], m["tonigt"] = "tonight", "tonight", "tonight", "tonight", "tonight", "tonight"
	return m
}()

// toBefore are the words after which "2" is "to" ("want 2 die").
// Not after "have", "need" or "about", where "2" is a count ("i have 2
// left", "about 2 hours ago").
var toBefore = map[string]bool{"want": true, "going": true, "ready": true, "trying": true, "try": true, "wanted": true,
	"decided": true, "planning": true, "used": true}

// forBefore are the words after which "4" is "for" ("ready 4 tonight");
// not after a count or a time ("3 4 times", "at 4").
var forBefore = map[string]bool{"ready": true, "waiting": true, "wait": true, "set": true, "planned": true, "saved": true,
	"saving": true, "looking": true, "sorry": true}

// fixTypos returns canon with slips of the typo targets corrected, or canon
// itself when there are none (no allocation).
func (l *lexicon) fixTypos(canon string) string {
	var b []byte
	start := 0
	prev := ""
	for i := 0; i <= len(canon); i++ {
		if i < len(canon) && canon[i] != ' ' {
			continue
		}
		tok := canon[start:i]
		w, ok := typoMap[tok]
		if tok == "2" && toBefore[prev] {
			// "i want 2 die", "going 2 jump", "wnt 2 die": "2" is "to".
			w, ok = "to", true
		}
		if tok == "4" && forBefore[prev] {
			// "rope ready 4 tonight": "4" is "for".
			w, ok = "for", true
		}
		prev = tok
		if ok && !l.words[tok] {
			prev = w
		}
		if ok && !l.words[tok] {
			if b == nil {
				b = make([]byte, 0, len(canon)+8)
				b = append(b, canon[:start]...)
			}
			b = append(b, w...)
		} else if b != nil {
			b = append(b, tok...)
		}
		if b != nil && i < len(canon) {
			b = append(b, ' ')
		}
		start = i + 1
	}
	if b == nil {
		return canon
	}
	return string(b)
}
