package safety

import (
	"strings"
	"testing"
	"unicode"
)

// obfuscations rewrite a message the ways people write past filters.
var obfuscations = []struct {
	name string
	f    func(string) string
}{
	{"plain", func(s string) string { return s }},
	{"upper case", strings.ToUpper},
	{"accents", func(s string) string {
		r := strings.NewReplacer("a", "á", "e", "é", "i", "í", "o", "ö", "u", "ü")
		return r.Replace(s)
	}},
	{"fullwidth", func(s string) string {
		return strings.Map(func(r rune) rune {
			if r > ' ' && r < 0x7f {
				return r - 0x21 + 0xff01
			}
			return r
		}, s)
	}},
	{"zero-width", func(s string) string {
		var b strings.Builder
		for _, r := range s {
			b.WriteRune(r)
			if unicode.IsLetter(r) {
				b.WriteString("\u200b")
			}
		}
		return b.String()
	}},
	{"soft hyphen and joiners", func(s string) string {
		return strings.NewReplacer("i", "i\u00ad", "e", "e\u200d", "o", "o\u2060").Replace(s)
	}},
	{"cyrillic homoglyphs", func(s string) string {
		return strings.NewReplacer("a", "а", "e", "е", "o", "о", "i", "і", "c", "с", "p", "р", "x", "х", "y", "у", "s", "ѕ").Replace(s)
	}},
	{"greek and math homoglyphs", func(s string) string {
		return strings.NewReplacer("k", "𝐤", "l", "ⅼ", "o", "ο", "i", "ι", "d", "ԁ").Replace(s)
	}},
	{"leetspeak", func(s string) string {
		return mapInWords(s, map[rune]string{'i': "1", 'e': "3", 'a': "4", 'o': "0", 's': "5"})
	}},
	{"leet symbols", func(s string) string {
		return mapInWords(s, map[rune]string{'a': "@", 's': "$", 'i': "!"})
	}},
	{"repeated letters", func(s string) string {
		return strings.NewReplacer("a", "aaa", "e", "eee", "i", "iii", "o", "ooo", "l", "lll").Replace(s)
	}},
	{"spaced letters", func(s string) string {
		var parts []string
		for _, r := range strings.ReplaceAll(s, "'", "") {
			if r != ' ' {
				parts = append(parts, string(r))
			}
		}
		return strings.Join(parts, " ")
	}},
	{"dotted letters", func(s string) string {
		words := strings.Fields(strings.ReplaceAll(s, "'", ""))
		for i, w := range words {
			words[i] = strings.Join(strings.Split(w, ""), ".")
		}
		return strings.Join(words, " ")
	}},
	{"emoji between words", func(s string) string { return strings.ReplaceAll(s, " ", " 🥀 ") }},
	{"emoji glued between words", func(s string) string { return strings.ReplaceAll(s, " ", "🖤") }},
}

// mapInWords applies leet substitutions only to letters inside words of two
// or more letters (a lone "I" stays), as people write it.
func mapInWords(s string, m map[rune]string) string {
	words := strings.Split(s, " ")
	for i, w := range words {
		if len(w) < 2 {
			continue
		}
		var b strings.Builder
		for j, r := range w {
			if rep, ok := m[unicode.ToLower(r)]; ok && j > 0 {
				b.WriteString(rep)
			} else {
				b.WriteRune(r)
			}
		}
		words[i] = b.String()
	}
	return strings.Join(words, " ")
}

var evasionClear = []string{
	"I want to kill myself",
	"I want to die",
	"I'm going to end my life tonight",
	"I wish I was dead",
	"I don't want to live anymore",
	"I've been cutting myself again",
	"I wrote my suicide note",
	"I am suicidal",
	"I wish I could sleep and never wake up",
}

var evasionSlang = []string{
	"kms",
	"I want to unalive myself",
	"thinking about sewerslide",
	"I'm going to ctb tonight",
	"I just want to end it all",
	"I want to off myself",
	"I want to kms fr",
	"im so ready to be unalive",
	"i just want to unalive",
}

var evasionIdioms = []string{
	"this exam is killing me",
	"kill me lol",
	"What are good ways of killing time at the airport",
	"How can I kill a Python process",
	"I'm dying laughing",
	"my phone is dying",
	"I'm dead lol",
	"I could kill for a coffee",
	"I would never kill myself",
}

func TestEvasionClearPhrasesStillCaught(t *testing.T) {
	f := NewFloor()
	for _, o := range obfuscations {
		for _, p := range append(append([]string(nil), evasionClear...), evasionSlang...) {
			in := o.f(p)
			if a := f.Assess(Input{Text: in}); a.Level < LevelIdeation {
				t.Errorf("%s of %q: level %d (canonical %q), want >= 2", o.name, p, a.Level, Normalize(in))
			}
		}
	}
}

func TestEvasionIdiomsStillNotCrisis(t *testing.T) {
	f := NewFloor()
	for _, o := range obfuscations {
		for _, p := range evasionIdioms {
			in := o.f(p)
			if a := f.Assess(Input{Text: in}); a.Level >= LevelIdeation {
				t.Errorf("%s of %q: level %d (canonical %q, path %v), want < 2", o.name, p, a.Level, Normalize(in), a.Path)
			}
		}
	}
}

func TestNormalizeUndoesEvasion(t *testing.T) {
	cases := map[string]string{
		"ＫＩＬＬ ＭＹＳＥＬＦ":            "kill myself",
		"k\u200bi\u200bl\u200bl": "kill",
		"kіll mysеlf":            "kill myself",
		"k1ll mys3lf":            "kill myself",
		"su1c1d3":                "suicide",
		"su*cide":                "suicide",
		"diiiiie":                "die",
		"k i l l m y s e l f":    "kill myself",
		"k.i.l.l":                "kill",
		"I'm sad. Really sad":    "im sad . really sad",
		"24hrs and 30mg":         "24hrs and 30mg",
		"kms":                    "kill myself",
		"I don't want to":        "i dont want to",
		"café":                   "cafe",
	}
	checkNormalized(t, cases)
}

func TestPatternsAreFixedPointsOfTheFold(t *testing.T) {
	for _, r := range allRules() {
		src := macros.Replace(r.src)
		if got := foldPattern(src); got != src {
			t.Errorf("rule %s: pattern changes under the homoglyph fold; write patterns in lowercase ASCII", r.id)
		}
		for _, c := range src {
			if c >= 'A' && c <= 'Z' {
				t.Errorf("rule %s: capital letter %q in pattern", r.id, c)
				break
			}
		}
	}
}
