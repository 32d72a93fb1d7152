package safety

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// This file reads messages in the languages of the crisis lexicon
// (lang_lexicon.go). It has its own normalization, apart from Normalize:
// Normalize folds every script to an English skeleton and rewrites English
// slang, which would damage other languages ("w" is Polish for "in", "od"
// for "from"). Here every script keeps its letters; Latin, Cyrillic and
// Greek lose their accents, Arabic its vowel marks and letter variants,
// Devanagari its nukta and candrabindu, and apostrophes join words
// ("j'ai" -> "jai") as they do in Normalize.

// langText is one message read for the lexicon.
type langText struct {
	// toks are the words, lowercased and folded; "." ends a sentence and
	// "," a clause.
	toks []string
	// chars is the text with spaces removed, for the languages written
	// without spaces (Japanese, Chinese) and Korean; "" when the text has
	// none of their letters.
	chars string
	// letters counts letters by script, for language identification.
	letters scriptCount
	// raw is the text as written, for whatlanggo (which needs accents).
	raw string
	// votes counts the words of each language; counted says read filled
	// it.
	votes   wordVotes
	counted bool
}

// scriptCount counts letters by script. A word that mixes Latin with
// Cyrillic or Greek letters is counted as Latin (it is a homoglyph trick,
// not Russian), and so is a Cyrillic word made only of letters that look
// Latin.
type scriptCount struct {
	latin, cyrillic, greek, arabic, devanagari, han, kana, hangul, other int
	// ukrainian and russian count the letters only one of the two uses.
	ukrainian, russian int
	// accented counts Latin letters outside ASCII (é, ư, å), which English
	// seldom writes.
	accented int
}

func (s scriptCount) total() int {
	return s.latin + s.cyrillic + s.greek + s.arabic + s.devanagari + s.han + s.kana + s.hangul + s.other
}

// readLangText tokenizes and folds text. Plain ASCII takes a fast path.
func readLangText(text string) langText {
	var lt langText
	t := withoutLinks(text)
	if isASCII(t) {
		lt = readASCII(t)
	} else {
		lt = readUnicode(norm.NFKC.String(t))
	}
	lt.raw = t
	return lt
}

// withoutLinks blanks out web addresses and @mentions: their pieces are
// no language's words ("t.co" is not Polish).
func withoutLinks(s string) string {
	if !strings.Contains(s, "://") && !strings.Contains(s, "www.") && !strings.Contains(s, "@") {
		return s
	}
	f := strings.Fields(s)
	for i, w := range f {
		if strings.Contains(w, "://") || strings.HasPrefix(w, "www.") || (strings.HasPrefix(w, "@") && len(w) > 1) {
			f[i] = ","
		}
	}
	return strings.Join(f, " ")
}

// readASCII is readLangText for ASCII: one lowercase copy, tokens are
// slices of it.
func readASCII(text string) langText {
	b := make([]byte, 0, len(text)+8)
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		case c == '\'' || c == '`':
			// joins: j'ai -> jai
		case c == '.' || c == '!' || c == '?' || c == ';' || c == '\n':
			b = append(b, " . "...)
		case c == ',' || c == ':' || c == '(' || c == ')':
			b = append(b, " , "...)
		default:
			b = append(b, ' ')
		}
	}
	s := string(b)
	lt := langText{toks: make([]string, 0, len(s)/5+1)}
	for i := 0; i < len(s); {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' {
			j++
		}
		if j > i {
			t := s[i:j]
			lt.toks = append(lt.toks, t)
			if t[0] >= 'a' {
				lt.letters.latin += j - i
			}
		}
		i = j
	}
	lt.toks = squeezeMarks(lt.toks)
	return lt
}

// squeezeMarks drops repeated and leading clause marks.
func squeezeMarks(toks []string) []string {
	out := toks[:0]
	for _, t := range toks {
		if t == "." || t == "," {
			if len(out) == 0 {
				continue
			}
			if last := out[len(out)-1]; last == "." || last == "," {
				if t == "." {
					out[len(out)-1] = "."
				}
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// cyrillicLookalikes are the Cyrillic letters that pass for Latin ones.
const cyrillicLookalikes = "аеорсухіјѕԁһкмнтвзԛԝүӏ"

// readUnicode is readLangText for text with non-ASCII characters (already
// NFKC).
func readUnicode(text string) langText {
	var lt langText
	var b strings.Builder
	b.Grow(len(text) + 8)
	var word struct {
		latin, cyr, cyrReal, greek int
	}
	endWord := func() {
		switch {
		case word.latin > 0:
			lt.letters.latin += word.latin + word.cyr + word.greek
		case word.cyr > 0 && word.cyrReal == 0:
			lt.letters.latin += word.cyr
		default:
			lt.letters.cyrillic += word.cyr
			lt.letters.greek += word.greek
		}
		word.latin, word.cyr, word.cyrReal, word.greek = 0, 0, 0, 0
	}
	cjk := false
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if unicode.Is(unicode.Mn, r) && unicode.Is(unicode.Devanagari, r) {
			// Devanagari vowel signs are part of the word; the nukta goes
			// and the candrabindu is written as an anusvara, as people mix
			// them.
			switch r {
			case '\u093c':
			case '\u0901':
				b.WriteRune('\u0902')
			default:
				b.WriteRune(r)
			}
			continue
		}
		if isInvisible(r) {
			continue
		}
		r = unicode.ToLower(r)
		switch r {
		case '\'', '’', '‘', 'ʼ', '`', '´':
			continue
		case '.', '!', '?', ';', '\n', '…', '。', '？', '！', '؟', '؛', '।':
			endWord()
			b.WriteString(" . ")
			continue
		case ',', ':', '(', ')', '、', '，', '،', '：':
			endWord()
			b.WriteString(" , ")
			continue
		}
		switch {
		case r < utf8.RuneSelf:
			switch {
			case r >= 'a' && r <= 'z':
				word.latin++
				b.WriteRune(r)
			case r >= '0' && r <= '9':
				b.WriteRune(r)
			default:
				endWord()
				b.WriteByte(' ')
			}
		case unicode.Is(unicode.Latin, r):
			word.latin++
			lt.letters.accented++
			b.WriteString(foldLatin(r))
		case unicode.Is(unicode.Cyrillic, r):
			word.cyr++
			if !strings.ContainsRune(cyrillicLookalikes, r) {
				word.cyrReal++
			}
			switch r {
			case 'і', 'ї', 'є', 'ґ':
				lt.letters.ukrainian++
			case 'ы', 'э', 'ъ', 'ё':
				lt.letters.russian++
			}
			b.WriteString(stripMarks(r))
		case unicode.Is(unicode.Greek, r):
			word.greek++
			b.WriteString(stripMarks(r))
		case unicode.Is(unicode.Arabic, r):
			if s, ok := foldArabic(r); ok {
				lt.letters.arabic++
				b.WriteString(s)
			}
		case unicode.Is(unicode.Devanagari, r):
			if unicode.IsLetter(r) {
				lt.letters.devanagari++
			}
			b.WriteRune(r)
		case unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || r == 'ー':
			lt.letters.kana++
			cjk = true
			b.WriteRune(r)
		case unicode.Is(unicode.Han, r):
			lt.letters.han++
			cjk = true
			b.WriteRune(r)
		case unicode.Is(unicode.Hangul, r):
			lt.letters.hangul++
			cjk = true
			b.WriteRune(r)
		case unicode.IsLetter(r):
			lt.letters.other++
			b.WriteRune(r)
		case unicode.IsMark(r):
			// Vowel signs of Indic and other scripts stay with their
			// letter.
			b.WriteRune(r)
		case unicode.IsDigit(r):
			b.WriteRune(r)
		default:
			endWord()
			b.WriteByte(' ')
		}
	}
	endWord()
	lt.toks = squeezeMarks(strings.Fields(b.String()))
	if cjk {
		var c strings.Builder
		for _, t := range lt.toks {
			c.WriteString(t)
		}
		lt.chars = c.String()
	}
	return lt
}

// foldLatin lowercases and strips accents from a Latin letter.
func foldLatin(r rune) string {
	if s, ok := extraFold[r]; ok {
		return s
	}
	return stripMarks(r)
}

// stripMarks decomposes a letter and drops its combining marks.
func stripMarks(r rune) string {
	d := norm.NFD.String(string(r))
	var b strings.Builder
	for _, x := range d {
		if !unicode.Is(unicode.Mn, x) {
			b.WriteRune(x)
		}
	}
	if b.Len() == 0 {
		return string(r)
	}
	return b.String()
}

// foldArabic drops vowel marks and the tatweel and merges the letter
// variants people write interchangeably (alef forms, alef maqsura, ta
// marbuta, hamza seats).
func foldArabic(r rune) (string, bool) {
	switch {
	case r >= 0x064b && r <= 0x065f, r == 0x0670, r == 0x0640:
		return "", false
	}
	switch r {
	case 'أ', 'إ', 'آ', 'ٱ':
		return "ا", true
	case 'ى':
		return "ي", true
	case 'ة':
		return "ه", true
	case 'ؤ':
		return "و", true
	case 'ئ':
		return "ي", true
	}
	if !unicode.IsLetter(r) {
		return "", false
	}
	return string(r), true
}

// foldPhraseWord folds one word of a lexicon pattern the way readLangText
// folds the text.
func foldPhraseWord(w string) string {
	lt := readLangText(w)
	return strings.Join(lt.toks, "")
}

// foldChars folds a pattern of a language written without spaces.
func foldChars(p string) string {
	lt := readLangText(p)
	return strings.Join(lt.toks, "")
}

// ptok is one token of a compiled word pattern.
type ptok struct {
	alts   []string
	prefix bool // alts are prefixes of the word
	opt    bool // the token may be missing
	gap    bool // "~": up to gapMax words of any kind but a clause mark
}

const gapMax = 2

// compileWords compiles a word pattern: words separated by spaces; "a|b"
// alternatives; a trailing "?" makes a word optional, a trailing "*" makes
// it a prefix; "~" skips up to two words.
func compileWords(p string) []ptok {
	var out []ptok
	for _, f := range strings.Fields(p) {
		if f == "~" {
			out = append(out, ptok{gap: true})
			continue
		}
		var t ptok
		if strings.HasSuffix(f, "?") {
			t.opt, f = true, strings.TrimSuffix(f, "?")
		}
		if strings.HasSuffix(f, "*") {
			t.prefix, f = true, strings.TrimSuffix(f, "*")
		}
		for _, a := range strings.Split(f, "|") {
			t.alts = append(t.alts, foldPhraseWord(a))
		}
		out = append(out, t)
	}
	return out
}

func (t ptok) matches(w string) bool {
	if w == "." || w == "," {
		return false
	}
	for _, a := range t.alts {
		if w == a || (t.prefix && strings.HasPrefix(w, a)) {
			return true
		}
	}
	return false
}

// matchWords matches pattern p at toks[i:]. It returns the end of the
// match and whether a skipped word (in a gap) is one of skipStop.
func matchWords(p []ptok, toks []string, i int, skipStop map[string]bool) (end int, stopped, ok bool) {
	if len(p) == 0 {
		return i, false, true
	}
	t := p[0]
	switch {
	case t.gap:
		for k := 0; k <= gapMax; k++ {
			if e, s, ok := matchWords(p[1:], toks, i+k, skipStop); ok {
				for _, w := range toks[i : i+k] {
					s = s || skipStop[w]
				}
				return e, s, true
			}
			if i+k >= len(toks) || toks[i+k] == "." || toks[i+k] == "," {
				break
			}
		}
		return 0, false, false
	case i < len(toks) && t.matches(toks[i]):
		if e, s, ok := matchWords(p[1:], toks, i+1, skipStop); ok {
			return e, s, true
		}
	}
	if t.opt {
		return matchWords(p[1:], toks, i, skipStop)
	}
	return 0, false, false
}

// anyAt reports whether one of the patterns matches at toks[i:].
func anyAt(ps [][]ptok, toks []string, i int) bool {
	for _, p := range ps {
		if _, _, ok := matchWords(p, toks, i, nil); ok {
			return true
		}
	}
	return false
}

// anyIn reports whether one of the patterns matches anywhere in toks.
func anyIn(ps [][]ptok, toks []string) bool {
	for i := range toks {
		if anyAt(ps, toks, i) {
			return true
		}
	}
	return false
}

// anyEndsAt reports whether one of the patterns matches words that end
// exactly at toks[end] (within the clause).
func anyEndsAt(ps [][]ptok, toks []string, end int) bool {
	for start := max(0, end-4); start < end; start++ {
		for _, p := range ps {
			if e, _, ok := matchWords(p, toks, start, nil); ok && e == end {
				return true
			}
		}
	}
	return false
}
