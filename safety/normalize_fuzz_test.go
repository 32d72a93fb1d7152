package safety

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzNormalize checks the canonical form on any input, valid UTF-8 or
// not: Normalize does not panic, and its output is valid UTF-8 of
// lowercase tokens separated by single spaces, whose only ASCII characters
// are a-z, 0-9 and the sentence mark "." standing alone, never first, last
// or twice in a row.
//
// Normalize is not idempotent, and is not meant to be: each pass undoes
// one layer of disguise, so a second pass can find more (seven 7s become
// the letter t seven times in the first pass, which the second reads as a
// repeated letter). The rules only ever see one pass.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"", "I want to k1ll myself", "k1ll mys3lf", "su1c1d3", "su*cide", "diiiiie",
		"k i l l m y s e l f", "k.i.l.l", "I'm sad. Really sad", "24hrs and 30mg", "kms",
		"I don't want to", "café", "end my self", "unalive", "sewerslide", "ctb tonight",
		"ｋｉｌｌ ｍｙｓｅｌｆ", "k\u200bi\u200bl\u200bl", "kíll mysélf", "this exam is killing me 😂",
		"...!!!???", "a!b c@t $ave", "ױ", "\xff\xfe invalid \xc3", "AA*777 000", "ß İ ǅ ﬁ", "日本語 mixed 😭",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Normalize(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Normalize(%q) = %q: not valid UTF-8", s, out)
		}
		if out == "" {
			return
		}
		toks := strings.Split(out, " ")
		for i, tok := range toks {
			if tok == "" {
				t.Fatalf("Normalize(%q) = %q: an empty token (a space at an end or two in a row)", s, out)
			}
			if tok == "." {
				if i == 0 || i == len(toks)-1 || toks[i-1] == "." {
					t.Fatalf("Normalize(%q) = %q: a sentence mark first, last or repeated", s, out)
				}
				continue
			}
			for _, r := range tok {
				if unicode.IsSpace(r) {
					t.Fatalf("Normalize(%q) = %q: token %q holds white space %q", s, out, tok, r)
				}
				if unicode.IsUpper(r) {
					t.Fatalf("Normalize(%q) = %q: token %q is not lowercase", s, out, tok)
				}
			}
		}
	})
}
