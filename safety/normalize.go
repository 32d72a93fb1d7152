package safety

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"go.mau.fi/util/confusable"
	"golang.org/x/text/unicode/norm"
)

// This file turns a message into the canonical form the rules read:
// lowercase ASCII words separated by single spaces, with " . " between
// sentences. It undoes the usual ways of writing past a filter: fullwidth and
// styled letters (NFKC), accents, zero-width and other invisible characters,
// homoglyphs (UTS #39 confusable skeletons, see foldRune), leetspeak (k1ll),
// repeated letters (diiie), letters spaced or dotted apart (k i l l), emoji
// between words, censoring asterisks (su*cide) and filter slang (kms, unalive,
// sewerslide, ctb). The rule patterns pass through the same fold (see
// compilePattern), so text and patterns live in one space.

// laughEmoji become the token "lol" so the idiom rules can see laughter.
var laughEmoji = map[rune]bool{
	'😂': true, '🤣': true, '💀': true, '☠': true, '😆': true, '😹': true, '😅': true, '🙃': true,
}

// extraFold maps the few letters whose confusable prototype is itself not
// ASCII.
var extraFold = map[rune]string{
	'ĸ': "k", 'ı': "i", 'ȷ': "j", 'ſ': "s", 'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'đ': "d",
	'ł': "l", 'ð': "d", 'þ': "th", 'ħ': "h",
}

// foldRune maps one lowercase rune to its ASCII skeleton, or returns "" and
// false when it has none (a letter of another script, a symbol).
func foldRune(r rune) (string, bool) {
	if r < utf8.RuneSelf {
		return string(r), true
	}
	if s, ok := extraFold[r]; ok {
		return s, true
	}
	if rep := confusable.GetReplacement(r); rep != "" {
		if s, ok := asciiLetters(rep); ok {
			return s, true
		}
	}
	// Accents: decompose and drop the marks.
	d := norm.NFD.String(string(r))
	if s, ok := asciiLetters(d); ok {
		return s, true
	}
	return "", false
}

// asciiLetters lowercases s, drops combining marks and reports whether what
// is left is non-empty ASCII.
func asciiLetters(s string) (string, bool) {
	var b strings.Builder
	for _, r := range s {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		r = unicode.ToLower(r)
		if r >= utf8.RuneSelf {
			if x, ok := extraFold[r]; ok {
				b.WriteString(x)
				continue
			}
			return "", false
		}
		b.WriteRune(r)
	}
	return b.String(), b.Len() > 0
}

// isInvisible reports runes that carry no visible text: zero-width and other
// format characters, variation selectors, combining marks left over, controls
// other than whitespace.
func isInvisible(r rune) bool {
	if r >= 0x20 && r < 0x7f {
		return false
	}
	switch {
	case r == '\u200b', r == '\u200c', r == '\u200d', r == '\u2060', r == '\ufeff', r == '\u00ad', r == '\u034f':
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
		return true
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Mn, r), unicode.Is(unicode.Me, r):
		return true
	case unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r':
		return true
	}
	return false
}

// leetable are the characters that stand for letters inside a word.
var leetMap = map[byte]byte{
	'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b',
	'@': 'a', '$': 's', '!': 'i', '|': 'l', '+': 't', '(': 'c',
}

// Normalize returns the canonical form of text used by the rules. It is
// exported for tests and tools; the form is not meant for display.
func Normalize(text string) string {
	return normalize(text, defaultLexicon)
}

// normalize is Normalize with an explicit lexicon (the words the repairs may
// produce).
func normalize(text string, lex *lexicon) string {
	if !isASCII(text) {
		// Invalid bytes become U+FFFD first, as the rune pass below reads
		// them anyway: NFKC passes over a rune that follows an invalid byte
		// unnormalized, so "\xf1" + a compatibility capital came out as a
		// capital no lowercasing maps (found by FuzzNormalize).
		text = norm.NFKC.String(strings.ToValidUTF8(text, "\uFFFD"))
	}
	// Pass 1: rune level. Produce lowercase ASCII with spaces, sentence
	// marks '.', and the raw leet characters kept inside words.
	var b strings.Builder
	b.Grow(len(text) + 8)
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if isInvisible(r) {
			continue
		}
		if laughEmoji[r] {
			b.WriteString(" lol ")
			continue
		}
		r = unicode.ToLower(r)
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '\'' || r == '’' || r == '‘' || r == 'ʼ' || r == '`' || r == '´':
			// Apostrophes join: don't -> dont, i'm -> im.
		case r == '*' || r == '@' || r == '$' || r == '|' || r == '+' || r == '(':
			if wordNeighbours(rs, i) {
				b.WriteRune(r)
			} else {
				b.WriteByte(' ')
			}
		case r == '!':
			if wordNeighbours(rs, i) && i+1 < len(rs) && isWordRune(rs[i+1]) {
				b.WriteRune(r)
			} else {
				b.WriteString(" . ")
			}
		case r == '.' || r == '?' || r == ';' || r == '\n' || r == '…' || r == '。' || r == '？' || r == '！':
			// A dot between two word characters (k.i.l.l, 2.5) separates
			// letters, not sentences.
			if r == '.' && i > 0 && i+1 < len(rs) && isWordRune(rs[i-1]) && isWordRune(rs[i+1]) {
				b.WriteByte(' ')
			} else {
				b.WriteString(" . ")
			}
		case unicode.IsLetter(r):
			if s, ok := foldRune(r); ok {
				b.WriteString(s)
			} else {
				b.WriteRune(r)
			}
		case unicode.IsNumber(r):
			if s, ok := foldRune(r); ok {
				b.WriteString(s)
			} else {
				b.WriteByte(' ')
			}
		case r < utf8.RuneSelf:
			b.WriteByte(' ')
		default:
			// Punctuation, symbols, emoji: a word break. Homoglyph symbols that
			// stand for letters (such as '¡') are folded first; the emoji of a
			// means ("🔫 to my head") are read as its word.
			if w, ok := emojiWords[r]; ok {
				b.WriteByte(' ')
				b.WriteString(w)
				b.WriteByte(' ')
			} else if s, ok := foldRune(r); ok && len(s) == 1 && s[0] >= 'a' && s[0] <= 'z' && wordNeighbours(rs, i) {
				b.WriteString(s)
			} else {
				b.WriteByte(' ')
			}
		}
	}
	// Pass 2: token level.
	toks := strings.Fields(b.String())
	for i, t := range toks {
		toks[i] = lex.repairToken(t)
	}
	toks = joinSpacedLetters(toks, lex)
	// Slang rewrites can expose more slang ("end my self" -> "end myself"
	// -> "kill myself"): two passes.
	toks = applySlang(applySlang(toks))
	// Collapse repeated sentence marks.
	out := toks[:0]
	for _, t := range toks {
		if t == "." && (len(out) == 0 || out[len(out)-1] == ".") {
			continue
		}
		out = append(out, t)
	}
	for len(out) > 0 && out[len(out)-1] == "." {
		out = out[:len(out)-1]
	}
	return strings.Join(out, " ")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '*' || r == '@' || r == '$' || r == '!'
}

// wordNeighbours reports whether the rune at i touches a letter or digit on
// at least one side and is not surrounded by spaces.
func wordNeighbours(rs []rune, i int) bool {
	left := i > 0 && isWordRune(rs[i-1])
	right := i+1 < len(rs) && isWordRune(rs[i+1])
	return left || right
}

// repairToken fixes one token: leetspeak, censoring asterisks and repeated
// letters are undone when that yields a word of the lexicon; a token that is
// already a lexicon word, or cannot be repaired to one, keeps its letters
// (with leet symbols dropped).
func (l *lexicon) repairToken(t string) string {
	if t == "." || l.has(t) {
		return t
	}
	hasLetter, hasOther := false, false
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c >= 'a' && c <= 'z' {
			hasLetter = true
		} else {
			hasOther = true
		}
	}
	if hasOther && !hasLetter {
		// A number (or symbols): keep digits only.
		return t
	}
	cand := t
	if hasOther {
		var b []byte
		for i := 0; i < len(t); i++ {
			c := t[i]
			if c >= 'a' && c <= 'z' || c == '*' {
				b = append(b, c)
			} else if m, ok := leetMap[c]; ok {
				b = append(b, m)
			} else {
				b = append(b, c)
			}
		}
		cand = string(b)
		if isUnitNumber(t) {
			return t
		}
		if l.has(cand) {
			return cand
		}
	}
	if strings.IndexByte(cand, '*') >= 0 {
		if w, ok := l.wildcard(cand); ok {
			return w
		}
	}
	if w, ok := l.squeeze(cand); ok {
		return w
	}
	if hasOther {
		if strings.ContainsAny(cand, "0123456789") {
			return t
		}
		return strings.ReplaceAll(cand, "*", "")
	}
	return t
}

// isUnitNumber reports tokens such as 24h, 2am, 30mg, 10th that are numbers,
// not leetspeak.
func isUnitNumber(t string) bool {
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return false
	}
	switch t[i:] {
	case "h", "hr", "hrs", "am", "pm", "st", "nd", "rd", "th", "s", "k", "m", "mg", "g", "kg", "lb", "lbs", "x", "min", "mins", "yo", "f", "d", "y", "yr", "yrs":
		return true
	}
	return false
}

// joinSpacedLetters joins runs of three or more single-character tokens
// (k i l l m y s e l f) and splits the result into lexicon words when it can.
func joinSpacedLetters(toks []string, lex *lexicon) []string {
	var out []string
	for i := 0; i < len(toks); {
		j := i
		for j < len(toks) && len(toks[j]) == 1 && toks[j] != "." {
			j++
		}
		if j-i >= 3 {
			var b strings.Builder
			for _, t := range toks[i:j] {
				c := t[0]
				if m, ok := leetMap[c]; ok && !(c >= 'a' && c <= 'z') {
					c = m
				}
				b.WriteByte(c)
			}
			if words, ok := lex.segment(b.String()); ok {
				out = append(out, words...)
				i = j
				continue
			}
		}
		if j == i {
			out = append(out, toks[i])
			i++
			continue
		}
		out = append(out, toks[i:j]...)
		i = j
	}
	return out
}

// slangPhrases rewrite filter slang to plain words (matched on whole tokens,
// after repairs). Longer phrases first.
var slangPhrases = []struct {
	from []string
	to   []string
}{
	{[]string{"kermit", "sewer", "slide"}, []string{"commit", "suicide"}},
	{[]string{"kermit", "sewerslide"}, []string{"commit", "suicide"}},
	{[]string{"sewer", "slide"}, []string{"suicide"}},
	{[]string{"sewerslide"}, []string{"suicide"}},
	{[]string{"sewerside"}, []string{"suicide"}},
	{[]string{"toaster", "bath"}, []string{"suicide"}},
	{[]string{"self", "delete"}, []string{"kill", "myself"}},
	// "Topping myself" is British slang for suicide; "top myself up" is a
	// drink (longer phrases first, so it stays).
	{[]string{"top", "myself", "up"}, []string{"top", "myself", "up"}},
	{[]string{"topping", "myself", "up"}, []string{"topping", "myself", "up"}},
	{[]string{"topped", "myself", "up"}, []string{"topped", "myself", "up"}},
	{[]string{"top", "myself"}, []string{"kill", "myself"}},
	{[]string{"topping", "myself"}, []string{"killing", "myself"}},
	{[]string{"topped", "myself"}, []string{"killed", "myself"}},
	{[]string{"self", "deleting"}, []string{"killing", "myself"}},
	{[]string{"yeet", "myself"}, []string{"throw", "myself"}},
	{[]string{"yeeting", "myself"}, []string{"throwing", "myself"}},
	{[]string{"yeeted", "myself"}, []string{"threw", "myself"}},
	{[]string{"to", "unalive", "myself"}, []string{"to", "kill", "myself"}},
	{[]string{"to", "unalive", "me"}, []string{"to", "kill", "me"}},
	// Without an object "unalive" is the state or the act of dying:
	// "ready to be unalive", "i just want to unalive", "my unalive plan".
	{[]string{"be", "unalive"}, []string{"be", "dead"}},
	{[]string{"being", "unalive"}, []string{"being", "dead"}},
	{[]string{"to", "unalive"}, []string{"to", "die"}},
	{[]string{"wanna", "unalive"}, []string{"wanna", "die"}},
	{[]string{"gonna", "unalive"}, []string{"gonna", "kill", "myself"}},
	{[]string{"unalive", "plan"}, []string{"suicide", "plan"}},
	{[]string{"unalive", "myself"}, []string{"kill", "myself"}},
	{[]string{"unaliving", "myself"}, []string{"killing", "myself"}},
	{[]string{"unalived", "myself"}, []string{"killed", "myself"}},
	{[]string{"unalive"}, []string{"kill"}},
	{[]string{"unaliving"}, []string{"killing"}},
	{[]string{"unalived"}, []string{"killed"}},
	{[]string{"kms"}, []string{"kill", "myself"}},
	{[]string{"kmsl"}, []string{"kill", "myself"}},
	{[]string{"killmyself"}, []string{"kill", "myself"}},
	{[]string{"killingmyself"}, []string{"killing", "myself"}},
	{[]string{"endmylife"}, []string{"end", "my", "life"}},
	{[]string{"ctb"}, []string{"kill", "myself"}},
	{[]string{"off", "myself"}, []string{"kill", "myself"}},
	// "to of myself" is never English: a stretched "off" squeezed to "of".
	{[]string{"to", "of", "myself"}, []string{"to", "kill", "myself"}},
	{[]string{"offing", "myself"}, []string{"killing", "myself"}},
	{[]string{"neck", "myself"}, []string{"kill", "myself"}},
	{[]string{"an", "hero"}, []string{"kill", "myself"}},
	{[]string{"suicde"}, []string{"suicide"}},
	{[]string{"sucide"}, []string{"suicide"}}, //nolint:misspell // a common misspelling, read as the word
	{[]string{"suiside"}, []string{"suicide"}},
	{[]string{"suicid"}, []string{"suicide"}},
	{[]string{"sucidal"}, []string{"suicidal"}},
	{[]string{"suicdal"}, []string{"suicidal"}},
	{[]string{"selfharm"}, []string{"self", "harm"}},
	{[]string{"selfharming"}, []string{"self", "harming"}},
	{[]string{"wanna"}, []string{"want", "to"}},
	{[]string{"gonna"}, []string{"going", "to"}},
	{[]string{"gotta"}, []string{"got", "to"}},
	{[]string{"tryna"}, []string{"trying", "to"}},
	{[]string{"finna"}, []string{"going", "to"}},
	{[]string{"ima"}, []string{"im", "going", "to"}},
	{[]string{"imma"}, []string{"im", "going", "to"}},
	{[]string{"tn"}, []string{"tonight"}},
	{[]string{"offed", "myself"}, []string{"killed", "myself"}},
	{[]string{"off", "myself"}, []string{"kill", "myself"}},
	{[]string{"offing", "myself"}, []string{"killing", "myself"}},
	{[]string{"dont"}, []string{"dont"}},
	{[]string{"don"}, []string{"dont"}},
	{[]string{"do", "not"}, []string{"dont"}},
	{[]string{"does", "not"}, []string{"doesnt"}},
	{[]string{"did", "not"}, []string{"didnt"}},
	{[]string{"can", "not"}, []string{"cant"}},
	{[]string{"cannot"}, []string{"cant"}},
	{[]string{"will", "not"}, []string{"wont"}},
	{[]string{"would", "not"}, []string{"wouldnt"}},
	{[]string{"i", "am"}, []string{"im"}},
	{[]string{"i", "will"}, []string{"ill"}},
	{[]string{"i", "would"}, []string{"id"}},
	// "i have to" is obligation, not a perfect: it stays apart.
	{[]string{"i", "have", "to"}, []string{"i", "have", "to"}},
	{[]string{"i", "have"}, []string{"ive"}},
	{[]string{"u"}, []string{"you"}},
	{[]string{"ur"}, []string{"your"}},
	{[]string{"rn"}, []string{"right", "now"}},
	{[]string{"tmrw"}, []string{"tomorrow"}},
	{[]string{"tmr"}, []string{"tomorrow"}},
	{[]string{"tonite"}, []string{"tonight"}},
	{[]string{"2nite"}, []string{"tonight"}},
	{[]string{"2night"}, []string{"tonight"}},
	{[]string{"2day"}, []string{"today"}},
	{[]string{"2moro"}, []string{"tomorrow"}},
	{[]string{"js"}, []string{"just"}},
	{[]string{"jus"}, []string{"just"}},
	{[]string{"bc"}, []string{"because"}},
	{[]string{"cuz"}, []string{"because"}},
	{[]string{"abt"}, []string{"about"}},
	{[]string{"w"}, []string{"with"}},
	{[]string{"anymore"}, []string{"anymore"}},
	{[]string{"any", "more"}, []string{"anymore"}},
	{[]string{"myslef"}, []string{"myself"}},
	// "my self-harm" is a noun with its owner, not "myself harm".
	{[]string{"my", "self", "harm"}, []string{"my", "self", "harm"}},
	{[]string{"my", "self", "harming"}, []string{"my", "self", "harming"}},
	{[]string{"my", "self", "injury"}, []string{"my", "self", "injury"}},
	{[]string{"my", "self", "hatred"}, []string{"my", "self", "hatred"}},
	{[]string{"my", "self", "loathing"}, []string{"my", "self", "loathing"}},
	{[]string{"my", "self", "esteem"}, []string{"my", "self", "esteem"}},
	{[]string{"my", "self", "worth"}, []string{"my", "self", "worth"}},
	{[]string{"my", "self"}, []string{"myself"}},
	{[]string{"mysel"}, []string{"myself"}},
	{[]string{"ending", "myself"}, []string{"killing", "myself"}},
	{[]string{"end", "myself"}, []string{"kill", "myself"}},
	{[]string{"od"}, []string{"overdose"}},
	{[]string{"oding"}, []string{"overdosing"}},
	{[]string{"oded"}, []string{"overdosed"}},
	{[]string{"im", "gonna"}, []string{"im", "going", "to"}},
	// "should of been", "could of", "would of": the perfect as heard.
	{[]string{"should", "of"}, []string{"should", "have"}},
	{[]string{"could", "of"}, []string{"could", "have"}},
	{[]string{"would", "of"}, []string{"would", "have"}},
}

// slangIndex maps a first token to the phrases that start with it.
var slangIndex = func() map[string][]int {
	m := map[string][]int{}
	for i, p := range slangPhrases {
		m[p.from[0]] = append(m[p.from[0]], i)
	}
	return m
}()

// applySlang rewrites slang phrases; it runs to a fixed point over one pass
// (a rewrite's output is not rewritten again except for contractions).
func applySlang(toks []string) []string {
	out := make([]string, 0, len(toks)+4)
	for i := 0; i < len(toks); {
		matched := false
		for _, pi := range slangIndex[toks[i]] {
			p := slangPhrases[pi]
			if i+len(p.from) > len(toks) {
				continue
			}
			ok := true
			for k, w := range p.from {
				if toks[i+k] != w {
					ok = false
					break
				}
			}
			if ok {
				out = append(out, p.to...)
				i += len(p.from)
				matched = true
				break
			}
		}
		if !matched {
			out = append(out, toks[i])
			i++
		}
	}
	// Second pass for contractions produced by the first ("i" "am" after
	// "wanna" rewrites do not occur, but "do not" inside phrases may).
	return out
}

// emojiWords are the emoji that stand as the noun of a means ("🔫 to my
// head", "took a bunch of 💊"), read as that word. Faces and hearts stay
// word breaks: they carry tone, not content. A knife or a drop of blood is
// as often a decoration between the words of a phrase, where a word would
// break the phrase, so they stay breaks too.
var emojiWords = map[rune]string{
	'\U0001F52B': "gun",   // pistol
	'\U0001F48A': "pills", // pill
}
