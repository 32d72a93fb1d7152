package emotion

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxBytes is how much of a message is read: the first MaxBytes bytes
// (cut back to a whole character). Feelings are stated early; a long paste
// costs no more than this.
const MaxBytes = 4096

// Canonical is the form of a text the model reads (see linear.AppendHashes):
// lowercase words of letters and digits (an apostrophe inside a word is
// dropped: "don't" is "dont"), "!" and "?" as words of their own ("!!" for
// two or more), each emoji or other symbol as a word, and " . " between
// sentences. Everything else separates words. Invalid UTF-8 is a
// separator. Only the first MaxBytes bytes of text are read.
func Canonical(text string) string {
	if len(text) > MaxBytes {
		cut := MaxBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	var b strings.Builder
	b.Grow(len(text) + 8)
	// pending is the separator owed before the next token: 0 none, ' ' a
	// space, '.' a sentence mark.
	var pending byte
	inWord := false
	emit := func(tok string) {
		if b.Len() > 0 {
			if pending == '.' {
				b.WriteString(" . ")
			} else {
				b.WriteByte(' ')
			}
		}
		pending = 0
		b.WriteString(tok)
	}
	sep := func(mark byte) {
		inWord = false
		if mark == '.' || pending == 0 {
			pending = mark
		}
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			sep(' ')
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if !inWord {
				if pending == 0 && b.Len() > 0 {
					pending = ' '
				}
				emit("")
				inWord = true
			}
			b.WriteRune(unicode.ToLower(r))
		case (r == '\'' || r == '’') && inWord && i+size < len(text) && isWordByte(text[i+size:]):
			// Inside a word: "don't" -> "dont".
		case r == '!' || r == '?':
			j := i + size
			for j < len(text) && (text[j] == byte(r) || text[j] == '!' || text[j] == '?') {
				j++
			}
			tok := string(r)
			if j-i > 1 {
				tok += tok
			}
			inWord = false
			emit(tok)
			pending = '.'
			size = j - i
		case r == '.' || r == '\n' || r == ';' || r == ':':
			sep('.')
		case unicode.Is(unicode.So, r) || unicode.Is(unicode.Sk, r) && r > 0x7f:
			inWord = false
			emit(string(r))
			pending = ' '
		default:
			sep(' ')
		}
		i += size
	}
	return b.String()
}

// isWordByte reports whether s starts with a letter or digit.
func isWordByte(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}
