// Package textmatch speeds up the regular expressions that read people's
// messages, most of which match few texts: a compiled pattern knows the
// literal pieces one of which any match must contain, and a text holding
// none of them (compared without regard to case) is answered "no match"
// without running the regexp. Results are always those of package regexp.
package textmatch

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Regexp is a regexp.Regexp with a literal prefilter. Its Match and Find
// methods give the results of regexp's; the methods it does not
// override are regexp's own, unfiltered.
type Regexp struct {
	*regexp.Regexp
	// need holds lower-case ASCII pieces, one of which every match
	// contains (ignoring case); nil when the pattern has no such set.
	need [][]byte
}

// MustCompile compiles pattern as regexp.MustCompile does, and works out
// its prefilter. It panics on a bad pattern.
func MustCompile(pattern string) *Regexp {
	re := regexp.MustCompile(pattern)
	return &Regexp{Regexp: re, need: needed(pattern)}
}

// maxNeeds bounds the prefilter: past it, checking every piece costs more
// than it saves.
const maxNeeds = 48

// needed returns the pieces of which every match of pattern holds one, or
// nil when it cannot say.
func needed(pattern string) [][]byte {
	t, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil
	}
	set := required(t.Simplify())
	if set == nil {
		return nil
	}
	// A piece that holds another piece is implied by it.
	slices.SortFunc(set, func(a, b string) int { return len(a) - len(b) })
	var out [][]byte
	for _, s := range set {
		implied := false
		for _, o := range out {
			if strings.Contains(s, string(o)) {
				implied = true
				break
			}
		}
		if !implied {
			out = append(out, []byte(s))
		}
	}
	return out
}

// required returns lower-case ASCII strings such that every match of re
// contains at least one of them, or nil when there is no such set worth
// checking.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		// The literal's longest ASCII run: a match holds it (the text's
		// letters that fold to ASCII ones are handled in mayMatch).
		s := longestASCII(strings.ToLower(string(re.Rune)))
		if s == "" {
			return nil
		}
		return []string{s}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		// The best child: the one whose shortest piece is longest.
		var best []string
		bestLen := 0
		for _, sub := range re.Sub {
			set := required(sub)
			if set == nil {
				continue
			}
			shortest := len(set[0])
			for _, s := range set {
				shortest = min(shortest, len(s))
			}
			if shortest > bestLen || (shortest == bestLen && len(set) < len(best)) {
				best, bestLen = set, shortest
			}
		}
		return best
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			set := required(sub)
			if set == nil {
				return nil
			}
			all = append(all, set...)
			if len(all) > maxNeeds {
				return nil
			}
		}
		return all
	}
	return nil
}

// longestASCII returns the longest run of ASCII characters in s.
func longestASCII(s string) string {
	best, start := "", 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] >= utf8.RuneSelf {
			if i-start > len(best) {
				best = s[start:i]
			}
			start = i + 1
		}
	}
	return best
}

var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// mayMatch reports whether s holds one of the needed pieces, ignoring
// case; true when the pattern has no prefilter.
func (r *Regexp) mayMatch(s string) bool {
	if r.need == nil {
		return true
	}
	// Two non-ASCII letters fold to ASCII ones (U+212A Kelvin to k, U+017F
	// long s to s): a text holding either goes to the regexp.
	if strings.Contains(s, "\u212a") || strings.Contains(s, "\u017f") {
		return true
	}
	bp := buffers.Get().(*[]byte)
	lower := (*bp)[:0]
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower = append(lower, c)
	}
	found := false
	for _, n := range r.need {
		if bytes.Contains(lower, n) {
			found = true
			break
		}
	}
	*bp = lower
	buffers.Put(bp)
	return found
}

// MatchString reports whether s holds a match.
func (r *Regexp) MatchString(s string) bool { return r.mayMatch(s) && r.Regexp.MatchString(s) }

// FindString returns the leftmost match in s, as regexp's does.
func (r *Regexp) FindString(s string) string {
	if !r.mayMatch(s) {
		return ""
	}
	return r.Regexp.FindString(s)
}

// FindStringIndex returns the location of the leftmost match in s, or nil.
func (r *Regexp) FindStringIndex(s string) []int {
	if !r.mayMatch(s) {
		return nil
	}
	return r.Regexp.FindStringIndex(s)
}

// FindStringSubmatch returns the leftmost match and its submatches, or nil.
func (r *Regexp) FindStringSubmatch(s string) []string {
	if !r.mayMatch(s) {
		return nil
	}
	return r.Regexp.FindStringSubmatch(s)
}

// FindStringSubmatchIndex returns the locations of the leftmost match and
// its submatches, or nil.
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	if !r.mayMatch(s) {
		return nil
	}
	return r.Regexp.FindStringSubmatchIndex(s)
}

// FindAllString returns up to n successive matches (all when n < 0), or nil.
func (r *Regexp) FindAllString(s string, n int) []string {
	if !r.mayMatch(s) {
		return nil
	}
	return r.Regexp.FindAllString(s, n)
}

// FindAllStringIndex returns the locations of up to n successive matches,
// or nil.
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	if !r.mayMatch(s) {
		return nil
	}
	return r.Regexp.FindAllStringIndex(s, n)
}

// FindAllStringSubmatch returns up to n successive matches with their
// submatches, or nil.
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	if !r.mayMatch(s) {
		return nil
	}
	return r.Regexp.FindAllStringSubmatch(s, n)
}

// FindAllStringSubmatchIndex returns the locations of up to n successive
// matches and their submatches, or nil.
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if !r.mayMatch(s) {
		return nil
	}
	return r.Regexp.FindAllStringSubmatchIndex(s, n)
}

// ReplaceAllString replaces every match in src with repl, as regexp's does.
func (r *Regexp) ReplaceAllString(src, repl string) string {
	if !r.mayMatch(src) {
		return src
	}
	return r.Regexp.ReplaceAllString(src, repl)
}

// ReplaceAllStringFunc replaces every match in src with repl's result.
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	if !r.mayMatch(src) {
		return src
	}
	return r.Regexp.ReplaceAllStringFunc(src, repl)
}
