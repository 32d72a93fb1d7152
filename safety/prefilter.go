package safety

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// A prefilter skips a regexp on texts that cannot match it: from the
// pattern's syntax tree it derives a set of literal strings one of which
// every match must contain (as code search does with trigrams). Checking a
// few substrings is far cheaper than running a large regexp, so most rules
// never run on most messages.

// requiredLiterals returns a conjunction of literal sets: every match of
// src contains at least one literal of each set. nil means no useful
// requirement (then the regexp always runs).
func requiredLiterals(src string) [][]string {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil
	}
	var out [][]string
	for _, set := range mustContainAll(re.Simplify()) {
		// Sets with short or common literals filter nothing.
		if minLen(set) >= 3 && setScore(set) > 0 {
			out = append(out, dedupe(set))
		}
	}
	if requiresDigit(re) {
		// Digits are rare in messages: a pattern that needs one ("30
		// pills", "the 8th floor") runs only on texts that have one.
		out = append(out, strings.Split("0123456789", ""))
	}
	return out
}

// requiresDigit reports whether every match of re contains a digit.
func requiresDigit(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return false
		}
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i] < '0' || re.Rune[i+1] > '9' {
				return false
			}
		}
		return true
	case syntax.OpCapture, syntax.OpPlus:
		return requiresDigit(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min >= 1 && requiresDigit(re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if requiresDigit(s) {
				return true
			}
		}
		return false
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if !requiresDigit(s) {
				return false
			}
		}
		return len(re.Sub) > 0
	}
	return false
}

// mustContainAll returns sets of which a match contains one literal each.
func mustContainAll(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return mustContainAll(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return mustContainAll(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		// Runs of children with a small finite set of strings (literals,
		// factored alternations, optional parts) are joined by cross
		// product, so "do(?: it|ing it)" yields "do it" and "doing it".
		var out [][]string
		var run []string
		inRun := false
		flush := func() {
			if inRun {
				out = append(out, run)
			}
			run, inRun = nil, false
		}
		for _, s := range re.Sub {
			if ex, ok := exact(s); ok {
				if !inRun {
					run, inRun = []string{""}, true
				}
				if p, ok := cross(run, ex); ok {
					run = p
					continue
				}
				flush()
				run, inRun = ex, true
				continue
			}
			flush()
			out = append(out, mustContainAll(s)...)
		}
		flush()
		return out
	}
	if l := mustContain(re); l != nil {
		return [][]string{l}
	}
	return nil
}

// maxExact bounds the finite string sets the prefilter builds.
const maxExact = 256

// exact returns the finite set of strings re matches, when it is small.
func exact(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpEmptyMatch, syntax.OpWordBoundary, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
		return []string{""}, true
	case syntax.OpCapture:
		return exact(re.Sub[0])
	case syntax.OpQuest:
		ex, ok := exact(re.Sub[0])
		if !ok {
			return nil, false
		}
		return append([]string{""}, ex...), true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				out = append(out, string(r))
				if len(out) > 8 {
					return nil, false
				}
			}
		}
		return out, true
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			ex, ok := exact(s)
			if !ok {
				return nil, false
			}
			out = append(out, ex...)
			if len(out) > maxExact {
				return nil, false
			}
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range re.Sub {
			ex, ok := exact(s)
			if !ok {
				return nil, false
			}
			if out, ok = cross(out, ex); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

// cross returns every a+b, or false when there would be too many.
func cross(as, bs []string) ([]string, bool) {
	if len(as)*len(bs) > maxExact {
		return nil, false
	}
	out := make([]string, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return out, true
}

// mustContain returns one set of literals of which every match contains
// one; nil means "no requirement known".
func mustContain(re *syntax.Regexp) []string {
	if ex, ok := exact(re); ok {
		for _, e := range ex {
			if e == "" {
				return nil
			}
		}
		return ex
	}
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil
		}
		return []string{string(re.Rune)}
	case syntax.OpCapture, syntax.OpPlus:
		return mustContain(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return mustContain(re.Sub[0])
		}
		return nil
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			l := mustContain(s)
			if l == nil {
				return nil
			}
			out = append(out, l...)
		}
		return out
	case syntax.OpConcat:
		// The set with the longest shortest literal wins.
		var best []string
		bestScore := -1
		for _, set := range mustContainAll(re) {
			if s := setScore(set); s > bestScore {
				best, bestScore = set, s
			}
		}
		return best
	}
	return nil
}

// commonLits are literals that almost every message contains; a set with
// one of them filters nothing.
var commonLits = map[string]bool{
	"my": true, "to": true, "the": true, "it": true, "and": true, "want": true, "want to": true, "going": true,
	"going to": true, "ant": true, "ant to": true, "ook": true, "ive": true, "have": true, "will": true, "just": true,
	"you": true, "me": true, "for": true, "but": true, "not": true, "this": true, "that": true, "all": true,
	"ould": true, "would": true, "can": true, "get": true, "got": true, "be": true, "was": true, "with": true, "myself": false,
}

// setScore ranks a literal set by how well it filters: its shortest
// literal's length, zero when any literal is a common word.
func setScore(set []string) int {
	for _, l := range set {
		if commonLits[strings.TrimSpace(l)] {
			return 0
		}
	}
	return minLen(set)*64 - len(set)/8
}

func minLen(l []string) int {
	m := -1
	for _, s := range l {
		if m < 0 || len(s) < m {
			m = len(s)
		}
	}
	return m
}

func dedupe(l []string) []string {
	seen := map[string]bool{}
	out := l[:0]
	for _, s := range l {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// All prefilter literals of all patterns are found in one pass of an
// Aho-Corasick automaton; each literal set gets an id, and a text's hits are
// a bitset of set ids.

// litSets holds every registered literal set; ids index it.
var litSets [][]string

// filteredRe is a regexp with its prefilter: the ids of the literal sets
// every match hits one literal of.
type filteredRe struct {
	re  *regexp.Regexp
	ids []int
}

// newFilteredRe registers re's literal sets. It must run during package
// initialization, before the automaton is built in init.
func newFilteredRe(re *regexp.Regexp) filteredRe {
	f := filteredRe{re: re}
	for _, set := range requiredLiterals(re.String()) {
		f.ids = append(f.ids, len(litSets))
		litSets = append(litSets, set)
	}
	return f
}

// hits is a bitset of literal-set ids found in a text.
type hits []uint64

func (h hits) has(id int) bool { return h[id/64]&(1<<(id%64)) != 0 }

// ok reports whether every set of f was hit (always true with no sets).
func (f filteredRe) ok(h hits) bool {
	for _, id := range f.ids {
		if !h.has(id) {
			return false
		}
	}
	return true
}

// MatchString is re.MatchString behind the prefilter, computing hits.
func (f filteredRe) MatchString(s string) bool {
	return f.ok(findHits(s)) && f.re.MatchString(s)
}

// matchHits is re.MatchString when h (hits of s or of a text containing
// s) passes the prefilter.
func (f filteredRe) matchHits(s string, h hits) bool {
	return f.ok(h) && f.re.MatchString(s)
}

// The automaton works on byte classes: letters, digits, space, dot, other.
const acClasses = 39

func byteClass(b byte) int {
	switch {
	case b >= 'a' && b <= 'z':
		return int(b - 'a')
	case b >= '0' && b <= '9':
		return 26 + int(b-'0')
	case b == ' ':
		return 36
	case b == '.':
		return 37
	}
	return 38
}

type acAutomaton struct {
	next [][acClasses]int32
	// outIDs[outStart[st]:outStart[st+1]] are the literal sets state st
	// completes. Flat, pointer-free arrays rather than a slice per state:
	// the garbage collector never scans them (a [][]int32 of 250,000
	// states put a quarter of a million pointers in every GC cycle).
	outStart []int32
	outIDs   []int32
}

// outputs returns the literal sets state st completes.
func (a *acAutomaton) outputs(st int32) []int32 {
	return a.outIDs[a.outStart[st]:a.outStart[st+1]]
}

var automaton *acAutomaton

func init() { automaton = buildAutomaton(litSets) }

func buildAutomaton(sets [][]string) *acAutomaton {
	a := &acAutomaton{next: make([][acClasses]int32, 1)}
	out := make([][]int32, 1)
	for id, set := range sets {
		for _, lit := range set {
			st := int32(0)
			for i := 0; i < len(lit); i++ {
				c := byteClass(lit[i])
				if a.next[st][c] == 0 {
					a.next = append(a.next, [acClasses]int32{})
					out = append(out, nil)
					a.next[st][c] = int32(len(a.next) - 1)
				}
				st = a.next[st][c]
			}
			out[st] = append(out[st], int32(id))
		}
	}
	// Breadth-first: failure links, resolved into full transitions.
	fail := make([]int32, len(a.next))
	var queue []int32
	for c := 0; c < acClasses; c++ {
		if s := a.next[0][c]; s != 0 {
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		out[st] = append(out[st], out[fail[st]]...)
		for c := 0; c < acClasses; c++ {
			if s := a.next[st][c]; s != 0 {
				fail[s] = a.next[fail[st]][c]
				queue = append(queue, s)
			} else {
				a.next[st][c] = a.next[fail[st]][c]
			}
		}
	}
	a.outStart = make([]int32, len(out)+1)
	total := 0
	for _, o := range out {
		total += len(o)
	}
	a.outIDs = make([]int32, 0, total)
	for st, o := range out {
		a.outIDs = append(a.outIDs, o...)
		a.outStart[st+1] = int32(len(a.outIDs))
	}
	return a
}

// findHits returns the literal sets hit in s.
func findHits(s string) hits {
	h := make(hits, (len(litSets)+63)/64)
	addHits(h, s)
	return h
}

// sentenceHits returns the literal sets hit in canon and in each of its
// sentences (starting at clauses), in one pass. A literal that crosses a
// sentence mark counts for the whole text and for the sentence where it
// ends: a sentence's hits may hold more than its own text does, which only
// lets a regexp run that then finds nothing.
func sentenceHits(canon string, clauses []int) (hits, []hits) {
	n := (len(litSets) + 63) / 64
	buf := make(hits, n*(len(clauses)+1))
	all := buf[:n:n]
	sent := make([]hits, len(clauses))
	for ci := range clauses {
		sent[ci] = buf[n*(ci+1) : n*(ci+2) : n*(ci+2)]
	}
	a := automaton
	st := int32(0)
	ci := 0
	h := sent[0]
	for i := 0; i < len(canon); i++ {
		for ci+1 < len(clauses) && i >= clauses[ci+1] {
			ci++
			h = sent[ci]
		}
		st = a.next[st][byteClass(canon[i])]
		for _, id := range a.outputs(st) {
			all[id/64] |= 1 << (id % 64)
			h[id/64] |= 1 << (id % 64)
		}
	}
	return all, sent
}

func addHits(h hits, s string) {
	a := automaton
	st := int32(0)
	for i := 0; i < len(s); i++ {
		st = a.next[st][byteClass(s[i])]
		for _, id := range a.outputs(st) {
			h[id/64] |= 1 << (id % 64)
		}
	}
}
