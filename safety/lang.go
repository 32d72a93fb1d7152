package safety

import (
	"strings"

	"github.com/abadojack/whatlanggo"
)

// This file gives the floor its reading of languages other than English.
//
// The English rules run first and exactly as before; withLanguages only
// adds to their verdict. It does two independent things:
//
//   - It reads the message with the crisis lexicon of every language it
//     carries (lang_lexicon.go), whatever language the message seems to be
//     in: identification is unreliable on a three-word message, and a
//     disclosure in Spanish inside an English sentence must still count. A
//     phrase may only raise the level.
//   - It identifies the message's language, to tell core whether the floor
//     read it fully (English) or only partly (everything else), and in which
//     language to answer. Frequent words of each language decide short
//     messages; whatlanggo (trigram profiles of 84 languages) names the
//     language of longer text that has none of them, so that a Swedish or
//     Vietnamese message is not taken for English.

// phraseKind is what a lexicon phrase says.
type phraseKind uint8

const (
	pkDie      phraseKind = iota + 1 // wish to be dead, not wanting to live
	pkSuicide                        // thoughts of killing oneself
	pkIntent                         // intent or a plan to act
	pkAttempt                        // an attempt or an ingestion
	pkGoodbye                        // a farewell
	pkSelfHarm                       // self-injury
	pkThird                          // someone else at risk
)

func (k phraseKind) level() Level {
	switch k {
	case pkIntent, pkAttempt, pkGoodbye:
		return LevelImminent
	case pkThird:
		return LevelNone
	}
	return LevelIdeation
}

func (k phraseKind) String() string {
	switch k {
	case pkDie:
		return "die"
	case pkSuicide:
		return "suicide"
	case pkIntent:
		return "intent"
	case pkAttempt:
		return "attempt"
	case pkGoodbye:
		return "goodbye"
	case pkSelfHarm:
		return "selfharm"
	case pkThird:
		return "third"
	}
	return "?"
}

// reason is the text-free reason for a phrase's level.
func (k phraseKind) reason() string {
	switch k {
	case pkDie:
		return "wish to be dead, first person"
	case pkSuicide:
		return "suicidal thoughts, first person"
	case pkIntent:
		return "intent or plan, first person"
	case pkAttempt:
		return "attempt"
	case pkGoodbye:
		return "goodbye or finality"
	case pkSelfHarm:
		return "self-injury"
	}
	return "someone else may be at risk"
}

// lexPhrase is one phrase of a language's lexicon.
type lexPhrase struct {
	// p is the pattern: for word languages the words, with "a|b"
	// alternatives, a trailing "?" (optional word), a trailing "*" (prefix)
	// and "~" (up to two words); for languages written without spaces a
	// substring (spaces in it are ignored).
	p string
	k phraseKind
	// notAfter and notBefore are patterns (";"-separated) that, right after
	// or right before the phrase, make it something else: "me corto el
	// pelo", "je vais me tuer à la tâche", "想死你了".
	notAfter, notBefore string
}

// lexLang is the crisis lexicon of one language. The word lists are
// space-separated (";"-separated where an entry is several words).
type lexLang struct {
	code, name string
	// chars: match substrings of the text with spaces removed (Japanese,
	// Chinese, Korean) instead of words.
	chars   bool
	phrases []lexPhrase
	// negators cancel a phrase when one of the three words before it is
	// one (for chars languages: a substring right before it), unless a
	// doubt word stands between ("no sé si quiero morir").
	negators, doubt string
	// negAfter (chars languages) cancel a phrase right after it
	// ("死にたいわけじゃない").
	negAfter string
	// third are subjects that make the phrase about someone else when they
	// stand in the three words before it.
	third string
	// idiomAfter and idiomBefore make the phrase a figure of speech ("me
	// quiero morir de vergüenza").
	idiomAfter, idiomBefore string
	// timing (anywhere in the message) raises ideation to level 3; past
	// lowers an attempt or intent to level 2; conditional words before or
	// after a phrase in its clause lower intent to level 2 (1 with
	// laughter).
	timing, past, conditional string
	// laugh are word prefixes of laughter ("jaja", "mdr").
	laugh string
	// words are frequent words that identify the language.
	words string
	// yes, unsure and no are short answers to a safety question.
	yes, unsure, no string
}

// langLexicon is a compiled lexLang.
type langLexicon struct {
	code, name string
	idx        int
	bit        uint32
	chars      bool
	phrases    []*langPhrase
	negators   map[string]bool
	doubt      map[string]bool
	third      map[string]bool
	cond       map[string]bool
	negChars, negAfterChars, thirdChars, condChars,
	idiomAfterChars, idiomBeforeChars, timingChars, pastChars, laughs []string
	idiomAfter, idiomBefore, timing, past [][]ptok
	yes, unsure, no                       [][]ptok
	yesChars, unsureChars, noChars        []string
}

// langPhrase is a compiled lexPhrase.
type langPhrase struct {
	lang                  *langLexicon
	k                     phraseKind
	words                 []ptok
	chars                 string
	notAfter, notBefore   [][]ptok
	notAfterC, notBefore2 []string
}

// vocabEntry is what one folded word means to the lexicons.
type vocabEntry struct {
	// langs has the bit of every language whose frequent words include it
	// (englishBit for English).
	langs uint32
	// first lists the word phrases that can start with it.
	first []*langPhrase
	// timing has the bit of every language with a timing pattern that
	// starts with it.
	timing uint32
}

const englishBit = 1 << 31

// langIndex is every compiled lexicon.
type langIndex struct {
	langs  []*langLexicon
	byCode map[string]*langLexicon
	vocab  map[string]*vocabEntry
	chars  []*langLexicon
}

var defaultLangIndex = compileLangs(lexicons)

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ";") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func compileList(s string) [][]ptok {
	var out [][]ptok
	for _, f := range splitList(s) {
		out = append(out, compileWords(f))
	}
	return out
}

func charsList(s string) []string {
	var out []string
	for _, f := range splitList(s) {
		out = append(out, foldChars(f))
	}
	return out
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[foldPhraseWord(f)] = true
	}
	return m
}

// compileLangs compiles the lexicons and builds the word index. It panics
// on a malformed pattern, which the tests rule out.
func compileLangs(src []lexLang) *langIndex {
	ix := &langIndex{byCode: map[string]*langLexicon{}, vocab: map[string]*vocabEntry{}}
	entry := func(w string) *vocabEntry {
		e := ix.vocab[w]
		if e == nil {
			e = &vocabEntry{}
			ix.vocab[w] = e
		}
		return e
	}
	for _, w := range strings.Fields(englishWords) {
		entry(foldPhraseWord(w)).langs |= englishBit
	}
	for i, l := range src {
		if i >= 31 {
			panic("safety: too many lexicon languages")
		}
		c := &langLexicon{code: l.code, name: l.name, idx: i, bit: 1 << i, chars: l.chars,
			negators: wordSet(l.negators), doubt: wordSet(l.doubt), third: wordSet(l.third), cond: wordSet(l.conditional),
			laughs: strings.Fields(l.laugh)}
		if l.chars {
			c.negChars, c.negAfterChars, c.thirdChars = charsList(l.negators), charsList(l.negAfter), charsList(l.third)
			c.condChars, c.idiomAfterChars, c.idiomBeforeChars = charsList(l.conditional), charsList(l.idiomAfter), charsList(l.idiomBefore)
			c.timingChars, c.pastChars = charsList(l.timing), charsList(l.past)
			c.yesChars, c.unsureChars, c.noChars = charsList(l.yes), charsList(l.unsure), charsList(l.no)
		} else {
			c.idiomAfter, c.idiomBefore = compileList(l.idiomAfter), compileList(l.idiomBefore)
			c.timing, c.past = compileList(l.timing), compileList(l.past)
			c.yes, c.unsure, c.no = compileList(l.yes), compileList(l.unsure), compileList(l.no)
		}
		for _, p := range l.phrases {
			lp := &langPhrase{lang: c, k: p.k}
			if l.chars {
				lp.chars = foldChars(p.p)
				lp.notAfterC, lp.notBefore2 = charsList(p.notAfter), charsList(p.notBefore)
			} else {
				lp.words = compileWords(p.p)
				lp.notAfter, lp.notBefore = compileList(p.notAfter), compileList(p.notBefore)
				first := lp.words[0]
				if first.gap || first.opt || first.prefix {
					panic("safety: lexicon phrase " + l.code + " " + p.p + ": the first word must be a plain word")
				}
				for _, a := range first.alts {
					e := entry(a)
					e.first = append(e.first, lp)
				}
			}
			c.phrases = append(c.phrases, lp)
		}
		if !l.chars {
			// The words of the lexicon's own patterns and lists identify
			// the language too ("me muero de risa" has "risa"), unless
			// English has them ("plan", "will").
			for _, src := range append([]string{l.negators, l.idiomAfter, l.idiomBefore, l.timing, l.past, l.yes, l.unsure, l.no}, phraseSources(l.phrases)...) {
				for _, w := range lexWords(src) {
					if e := ix.vocab[w]; len(w) >= 3 && (e == nil || e.langs&englishBit == 0) {
						entry(w).langs |= c.bit
					}
				}
			}
			for _, w := range strings.Fields(l.words) {
				if w = foldPhraseWord(w); len(w) > 1 {
					// One letter ("a", "e", "i", "o", "w") is too many
					// languages' word.
					entry(w).langs |= c.bit
				}
			}
			for _, p := range c.timing {
				for _, a := range p[0].alts {
					entry(a).timing |= c.bit
				}
			}
		}
		ix.langs = append(ix.langs, c)
		ix.byCode[c.code] = c
		if c.chars {
			ix.chars = append(ix.chars, c)
		}
	}
	return ix
}

// phraseSources lists the patterns of phrases.
func phraseSources(ps []lexPhrase) []string {
	out := make([]string, 0, 2*len(ps))
	for _, p := range ps {
		out = append(out, p.p, p.notAfter, p.notBefore)
	}
	return out
}

// lexWords returns the folded words of a lexicon pattern list.
func lexWords(s string) []string {
	var out []string
	for _, f := range strings.Fields(strings.ReplaceAll(s, ";", " ")) {
		if f == "~" {
			continue
		}
		for _, a := range strings.Split(strings.TrimRight(f, "?*"), "|") {
			out = append(out, foldPhraseWord(a))
		}
	}
	return out
}

// wordVotes counts the words of a message that are English and those of
// each lexicon language.
type wordVotes struct {
	english int
	langs   [31]int
}

func (v *wordVotes) add(e *vocabEntry, ix *langIndex) {
	if e.langs == 0 {
		return
	}
	if e.langs&englishBit != 0 {
		v.english++
	}
	for i, l := range ix.langs {
		if e.langs&l.bit != 0 {
			v.langs[i]++
		}
	}
}

// langHit is one lexicon phrase found in a message, after its modifiers.
type langHit struct {
	phrase *langPhrase
	level  Level
	mod    string
	// at is where the phrase starts: a word index, or a byte offset of
	// the text without spaces for chars languages.
	at int
}

// langRead is what the lexicons and the identifier made of one message.
type langRead struct {
	hits []langHit
	// code is the identified language ("" when unknown or English);
	// foreign says the message is not English (code may still be "").
	code    string
	foreign bool
	// decided is true when identification had evidence (words, a script,
	// a lexicon phrase); false for "ok", a name, an emoji.
	decided bool
	// tied is true when the words fit several lexicon languages equally
	// ("si" is Spanish, Italian and French).
	tied bool
}

func (r langRead) best() langHit {
	var b langHit
	for _, h := range r.hits {
		if h.level > b.level {
			b = h
		}
	}
	return b
}

// read scans lt with every lexicon.
// It also counts, for identify, the words of each language (one map
// lookup a word serves both).
func (ix *langIndex) read(lt *langText) []langHit {
	var hits []langHit
	toks := lt.toks
	lt.votes, lt.counted = wordVotes{}, true
	for i, t := range toks {
		e := ix.vocab[t]
		if e == nil {
			continue
		}
		lt.votes.add(e, ix)
		if len(e.first) == 0 {
			continue
		}
		for _, p := range e.first {
			end, gapNeg, ok := matchWords(p.words, toks, i, p.lang.negators)
			if !ok {
				continue
			}
			h := p.lang.judgeWords(p, toks, i, end, gapNeg)
			h.at = i
			hits = append(hits, h)
		}
	}
	if lt.chars != "" {
		for _, l := range ix.chars {
			for _, p := range l.phrases {
				for off := 0; ; {
					k := strings.Index(lt.chars[off:], p.chars)
					if k < 0 {
						break
					}
					s := off + k
					h := l.judgeChars(p, lt.chars, s, s+len(p.chars))
					h.at = s
					hits = append(hits, h)
					off = s + len(p.chars)
				}
			}
		}
	}
	if len(hits) == 0 {
		return nil
	}
	// Timing anywhere in the message makes ideation in that language
	// imminent, as "I want to die tonight" is in English.
	for i, h := range hits {
		if h.level != LevelIdeation || h.mod != "" {
			continue
		}
		l := h.phrase.lang
		if (l.chars && containsAny(lt.chars, l.timingChars)) || (!l.chars && anyIn(l.timing, toks)) {
			hits[i].level, hits[i].mod = LevelImminent, "timing"
		}
	}
	return hits
}

// clauseStart returns the index of the first word of the clause that
// contains toks[i].
func clauseStart(toks []string, i int) int {
	for k := i - 1; k >= 0; k-- {
		if toks[k] == "." || toks[k] == "," {
			return k + 1
		}
	}
	return 0
}

func clauseEnd(toks []string, i int) int {
	for k := i; k < len(toks); k++ {
		if toks[k] == "." || toks[k] == "," {
			return k
		}
	}
	return len(toks)
}

// judgeWords applies the modifiers to a word phrase found at toks[s:e].
func (l *langLexicon) judgeWords(p *langPhrase, toks []string, s, e int, gapNeg bool) langHit {
	h := langHit{phrase: p, level: p.k.level()}
	cs, ce := clauseStart(toks, s), clauseEnd(toks, e)
	before := toks[max(cs, s-3):s]
	switch {
	case anyAt(p.notAfter, toks, e) || anyAt(l.idiomAfter, toks, e) || anyEndsAt(p.notBefore, toks[:s], s) || anyEndsAt(l.idiomBefore, toks[:s], s):
		h.level, h.mod = 0, "idiom"
	case gapNeg || l.negatedBefore(before):
		h.level, h.mod = 0, "negated"
	case p.k == pkThird || l.thirdBefore(before):
		h.level, h.mod = 0, "third_party"
	case h.level == LevelImminent && anyIn(l.past, toks[cs:ce]):
		h.level, h.mod = LevelIdeation, "past"
	case h.level == LevelImminent && p.k == pkIntent && l.conditionalNear(toks, cs, s, e, ce):
		h.level, h.mod = LevelIdeation, "conditional"
		if l.laughIn(toks) {
			h.level, h.mod = LevelWarning, "conditional_laughter"
		}
	}
	return h
}

func (l *langLexicon) negatedBefore(before []string) bool {
	for k := len(before) - 1; k >= 0; k-- {
		if l.doubt[before[k]] {
			return false
		}
		if l.negators[before[k]] {
			return true
		}
	}
	return false
}

func (l *langLexicon) thirdBefore(before []string) bool {
	for _, w := range before {
		if l.third[w] {
			return true
		}
	}
	return false
}

func (l *langLexicon) conditionalNear(toks []string, cs, s, e, ce int) bool {
	for _, w := range toks[cs:s] {
		if l.cond[w] {
			return true
		}
	}
	for _, w := range toks[e:min(ce, e+2)] {
		if l.cond[w] {
			return true
		}
	}
	return false
}

func (l *langLexicon) laughIn(toks []string) bool {
	for _, t := range toks {
		for _, p := range l.laughs {
			if strings.HasPrefix(t, p) {
				return true
			}
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

func hasPrefixAny(s string, ps []string) bool {
	for _, p := range ps {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func hasSuffixAny(s string, ps []string) bool {
	for _, p := range ps {
		if strings.HasSuffix(s, p) {
			return true
		}
	}
	return false
}

// judgeChars applies the modifiers to a phrase found at chars[s:e] of a
// language written without spaces. The clause is the text between marks.
func (l *langLexicon) judgeChars(p *langPhrase, chars string, s, e int) langHit {
	h := langHit{phrase: p, level: p.k.level()}
	cs := strings.LastIndexAny(chars[:s], ".,") + 1
	ce := len(chars)
	if k := strings.IndexAny(chars[e:], ".,"); k >= 0 {
		ce = e + k
	}
	before, after, clause := chars[cs:s], chars[e:ce], chars[cs:ce]
	switch {
	case hasPrefixAny(after, p.notAfterC) || hasSuffixAny(before, p.notBefore2) ||
		hasPrefixAny(after, l.idiomAfterChars) || containsAny(before, l.idiomBeforeChars):
		h.level, h.mod = 0, "idiom"
	case hasSuffixAny(before, l.negChars) || hasPrefixAny(after, l.negAfterChars):
		h.level, h.mod = 0, "negated"
	case p.k == pkThird || containsAny(lastRunes(before, 6), l.thirdChars):
		h.level, h.mod = 0, "third_party"
	case h.level == LevelImminent && containsAny(clause, l.pastChars):
		h.level, h.mod = LevelIdeation, "past"
	case h.level == LevelImminent && p.k == pkIntent && containsAny(clause, l.condChars):
		h.level, h.mod = LevelIdeation, "conditional"
		if containsAny(chars, l.laughs) {
			h.level, h.mod = LevelWarning, "conditional_laughter"
		}
	}
	return h
}

// lastRunes returns the last n runes of s.
func lastRunes(s string, n int) string {
	i := len(s)
	for ; n > 0 && i > 0; n-- {
		_, size := lastRune(s[:i])
		i -= size
	}
	return s[i:]
}

func lastRune(s string) (rune, int) {
	for k := len(s) - 1; k >= 0 && k >= len(s)-4; k-- {
		if s[k]&0xc0 != 0x80 {
			r := []rune(s[k:])
			return r[0], len(s) - k
		}
	}
	return 0, 1
}

// identify names the language of a message: the script first; for Latin
// text, the frequent words of each language (lexicon phrases count double),
// English winning ties; whatlanggo for text with no known word at all, and
// to tell apart the languages of one non-Latin script. tieBreak is a
// language code that wins ties (the conversation's language).
func (ix *langIndex) identify(lt langText, hits []langHit, tieBreak string) langRead {
	r := langRead{hits: hits}
	n := lt.letters
	total := n.total()
	if total == 0 {
		return r
	}
	if !lt.counted {
		for _, t := range lt.toks {
			if e := ix.vocab[t]; e != nil {
				lt.votes.add(e, ix)
			}
		}
	}
	english, votes := lt.votes.english, lt.votes.langs[:len(ix.langs)]
	for _, h := range hits {
		votes[h.phrase.lang.idx] += 2
	}
	set := func(code string) langRead {
		r.code, r.foreign, r.decided = code, true, true
		return r
	}
	switch half := total / 2; {
	case n.kana > 0 && n.kana+n.han > half:
		return set("ja")
	case n.hangul > half:
		return set("ko")
	case n.han > half:
		return set("zh")
	case n.arabic > half:
		if c := ix.vote(votes, "ar"); c != "" {
			return set(c)
		}
		return set(wlCode(lt, "ar", whatlanggo.Arb, whatlanggo.Pes, whatlanggo.Urd))
	case n.devanagari > half:
		if c := ix.vote(votes, "hi"); c != "" {
			return set(c)
		}
		return set(wlCode(lt, "hi", whatlanggo.Hin, whatlanggo.Mar, whatlanggo.Nep))
	case n.cyrillic > half:
		switch {
		case n.ukrainian > n.russian:
			return set("uk")
		case n.russian > n.ukrainian:
			return set("ru")
		}
		uk, ru := votes[ix.byCode["uk"].idx], votes[ix.byCode["ru"].idx]
		switch {
		case uk > ru:
			return set("uk")
		case ru > uk:
			return set("ru")
		case tieBreak == "uk" || tieBreak == "ru":
			return set(tieBreak)
		}
		return set(wlCode(lt, "ru", whatlanggo.Rus, whatlanggo.Ukr, whatlanggo.Bul, whatlanggo.Srp, whatlanggo.Mkd, whatlanggo.Bel))
	case n.latin < half:
		// Greek, Hebrew, Thai, Tamil, ...: a language the lexicon does not
		// carry.
		code := ""
		if info := whatlanggo.Detect(lt.raw); info.Lang >= 0 {
			code = info.Lang.Iso6391()
		}
		return set(code)
	}
	// Latin script.
	best, bestVotes, tie := -1, 0, false
	for i, v := range votes {
		switch {
		case v > bestVotes:
			best, bestVotes, tie = i, v, false
		case v == bestVotes && v > 0:
			tie = true
			if ix.langs[i].code == tieBreak {
				best, tie = i, false
			} else if ix.langs[best].code == tieBreak {
				tie = false
			}
		}
	}
	words := 0
	for _, t := range lt.toks {
		if t != "." && t != "," {
			words++
		}
	}
	// One word of another language in a long English-looking text (a
	// name, a link, "no") is not evidence; in a message of three words it
	// is ("hola", "gracias").
	strong := bestVotes >= 2 || (bestVotes == 1 && words <= 3)
	switch {
	case english > 0 && english >= bestVotes:
		r.decided = true
		return r
	case strong && tie:
		// Lexicon languages with as many words each: whatlanggo picks
		// between them (readMessage asks the conversation first).
		r.tied = true
		var cand []whatlanggo.Lang
		for i, v := range votes {
			if v == bestVotes {
				if wl, ok := wlLangs[ix.langs[i].code]; ok {
					cand = append(cand, wl)
				}
			}
		}
		return set(wlCode(lt, ix.langs[best].code, cand...))
	case strong:
		return set(ix.langs[best].code)
	case english > 0:
		r.decided = true
		return r
	}
	// No word of English and not enough of a lexicon language: whatlanggo
	// names longer text when it is sure, and accented letters English
	// seldom writes say "not English" even when it cannot tell which
	// language.
	if n.latin >= 12 && words >= 2 {
		info := whatlanggo.Detect(lt.raw)
		if info.Lang >= 0 && info.Lang != whatlanggo.Eng {
			switch {
			case info.Confidence >= 0.5 && n.latin >= 20:
				return set(info.Lang.Iso6391())
			case n.accented >= 2 && info.Confidence >= 0.3:
				return set(info.Lang.Iso6391())
			case n.accented >= 2:
				return set("")
			}
		}
	}
	return r
}

// vote returns code if its lexicon has at least one vote.
func (ix *langIndex) vote(votes []int, code string) string {
	if l := ix.byCode[code]; l != nil && votes[l.idx] > 0 {
		return code
	}
	return ""
}

// wlLangs maps lexicon codes to whatlanggo's languages.
var wlLangs = map[string]whatlanggo.Lang{
	"es": whatlanggo.Spa, "pt": whatlanggo.Por, "fr": whatlanggo.Fra, "de": whatlanggo.Deu, "it": whatlanggo.Ita,
	"nl": whatlanggo.Nld, "pl": whatlanggo.Pol, "tr": whatlanggo.Tur, "id": whatlanggo.Ind, "hi": whatlanggo.Hin,
}

// wlCode asks whatlanggo to choose among cands; def when it cannot.
func wlCode(lt langText, def string, cands ...whatlanggo.Lang) string {
	if len(cands) == 0 {
		return def
	}
	opts := whatlanggo.Options{Whitelist: map[whatlanggo.Lang]bool{}}
	for _, c := range cands {
		opts.Whitelist[c] = true
	}
	info := whatlanggo.DetectWithOptions(lt.raw, opts)
	if info.Lang < 0 || info.Confidence < 0.2 {
		return def
	}
	return info.Lang.Iso6391()
}

// languageName returns the English name of a language code ("" for an
// unknown one).
func languageName(code string) string {
	if l := defaultLangIndex.byCode[code]; l != nil {
		return l.name
	}
	if code == "" {
		return ""
	}
	return wlNames[code]
}

// wlNames maps whatlanggo's languages' ISO 639-1 codes to English names.
var wlNames = func() map[string]string {
	m := map[string]string{}
	for l, name := range whatlanggo.Langs {
		if c := l.Iso6391(); c != "" {
			m[c] = name
		}
	}
	return m
}()

// readMessage identifies and scans one message. A message that has no
// evidence of its own ("ok", an emoji), or whose words fit several lexicon
// languages equally ("si"), takes the language of the latest earlier
// message that has one.
func (ix *langIndex) readMessage(text string, history []string) (langRead, langText) {
	lt := readLangText(text)
	hits := ix.read(&lt)
	r := ix.identify(lt, hits, "")
	if (r.decided && !r.tied) || len(history) == 0 {
		return r, lt
	}
	for k := len(history) - 1; k >= 0 && k >= len(history)-windowTurns; k-- {
		h := ix.identify(readLangText(history[k]), nil, "")
		if !h.decided {
			continue
		}
		switch {
		case !r.decided:
			r.code, r.foreign = h.code, h.foreign
		case h.code != "":
			r = ix.identify(lt, hits, h.code)
		}
		break
	}
	return r, lt
}

// withLanguages adds the reading of other languages to the English
// verdict a. It never lowers a, except where English itself would: a
// clear "yes" in another language to "are you safe?".
func (f *Floor) withLanguages(in Input, a Assessment) Assessment {
	ix := defaultLangIndex
	r, lt := ix.readMessage(in.Text, in.History)
	r.hits = preferLanguage(r.hits, r.code)
	if r.foreign {
		a.Language, a.PartialReading = r.code, true
	}
	b := r.best()
	if b.phrase != nil && b.level > a.Level {
		a.Level = b.level
		a.Confidence = 0.8
		if b.mod != "" {
			a.Confidence = 0.75
		}
		a.Reason = b.phrase.k.reason() + " (" + b.phrase.lang.name + " lexicon)"
	}
	for _, h := range r.hits {
		tag := "lang:" + h.phrase.lang.code + "." + h.phrase.k.String()
		if h.mod != "" {
			tag += "/" + h.mod
		}
		a.Path = appendOnce(a.Path, tag)
		if h.phrase.k == pkSelfHarm && h.level >= LevelIdeation {
			a.Flags.SelfInjury = true
		}
		if h.mod == "third_party" {
			a.Flags.ThirdParty = true
		}
	}
	if in.AskedIfSafe || in.AskedSafetyQuestion {
		a = ix.answer(in, a)
	}
	if len(in.History) > 0 && a.Level < LevelImminent {
		a = ix.window(in.History, lt, a)
	}
	return a.Finish()
}

// preferLanguage keeps, where phrases of several languages start at the
// same word ("me corto" is Spanish and Portuguese), only those of the
// message's language: its idioms and negations are the ones that apply.
func preferLanguage(hits []langHit, code string) []langHit {
	if code == "" || len(hits) < 2 {
		return hits
	}
	out := hits[:0:0]
	for _, h := range hits {
		keep := true
		if h.phrase.lang.code != code {
			for _, o := range hits {
				if o.at == h.at && o.phrase.lang.chars == h.phrase.lang.chars && o.phrase.lang.code == code {
					keep = false
					break
				}
			}
		}
		if keep {
			out = append(out, h)
		}
	}
	return out
}

// answer reads a short answer in another language to Haven's safety
// question, as the English floor reads "yes", "no" and "I don't know".
func (ix *langIndex) answer(in Input, a Assessment) Assessment {
	lt := readLangText(in.Text)
	if len(lt.toks) == 0 || len(lt.toks) > 6 {
		return a
	}
	kind := ""
	for _, l := range ix.langs {
		switch {
		case l.isAnswer(lt, l.unsure, l.unsureChars):
			kind = "unsure"
		case l.isAnswer(lt, l.no, l.noChars):
			if kind == "" {
				kind = "no"
			}
		case l.isAnswer(lt, l.yes, l.yesChars):
			if kind == "" {
				kind = "yes"
			}
		}
	}
	switch {
	case kind == "":
		return a
	case in.AskedIfSafe && (kind == "no" || kind == "unsure") && a.Level < LevelImminent:
		a.Level, a.Confidence = LevelImminent, 0.85
		a.Reason = "not safe, in answer to a safety question"
		a.Path = append(a.Path, "lang:unsafe_after_question")
	case in.AskedIfSafe && kind == "yes" && pathHas(a.Path, "unclear_after_safety_question"):
		// English "yes" here keeps the rules' level; a bare yes has none.
		a.Level, a.Confidence = LevelNone, 0.7
		a.Reason = "safe, in answer to a safety question"
		a.Path = append(a.Path, "lang:safe_after_question")
	case in.AskedSafetyQuestion && !in.AskedIfSafe && (kind == "yes" || kind == "unsure") && a.Level < LevelIdeation:
		a.Level, a.Confidence = LevelIdeation, 0.75
		a.Reason = "affirmed after a safety question"
		a.Path = append(a.Path, "lang:affirm_after_question")
	}
	return a
}

func pathHas(path []string, p string) bool {
	for _, x := range path {
		if x == p {
			return true
		}
	}
	return false
}

// isAnswer reports whether the whole message is one of the answers (with
// laughter or a trailing word of politeness ignored).
func (l *langLexicon) isAnswer(lt langText, ws [][]ptok, cs []string) bool {
	if l.chars {
		if lt.chars == "" {
			return false
		}
		s := strings.TrimRight(lt.chars, ".,")
		for _, c := range cs {
			if s == c {
				return true
			}
		}
		return false
	}
	toks := lt.toks
	for len(toks) > 0 && (toks[len(toks)-1] == "." || toks[len(toks)-1] == ",") {
		toks = toks[:len(toks)-1]
	}
	for _, p := range ws {
		if e, _, ok := matchWords(p, toks, 0, nil); ok && e == len(toks) {
			return true
		}
	}
	return false
}

// window reads a time named now ("hoy lo hago") after ideation said
// earlier in the same language ("me quiero morir"): level 3, as the English
// window does.
func (ix *langIndex) window(history []string, cur langText, a Assessment) Assessment {
	var timed uint32
	for _, t := range cur.toks {
		if e := ix.vocab[t]; e != nil {
			timed |= e.timing
		}
	}
	if cur.chars != "" {
		for _, l := range ix.chars {
			if containsAny(cur.chars, l.timingChars) {
				timed |= l.bit
			}
		}
	}
	if timed == 0 {
		return a
	}
	for _, h := range history[max(0, len(history)-windowTurns):] {
		hlt := readLangText(h)
		for _, hit := range ix.read(&hlt) {
			l := hit.phrase.lang
			if hit.level < LevelIdeation || timed&l.bit == 0 {
				continue
			}
			if (l.chars && containsAny(cur.chars, l.timingChars)) || (!l.chars && anyIn(l.timing, cur.toks)) {
				a.Level, a.Confidence = LevelImminent, 0.75
				a.Reason = "ideation earlier, timing now (" + l.name + " lexicon)"
				a.Path = append(a.Path, "lang:window")
				return a
			}
		}
	}
	return a
}
