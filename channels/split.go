package channels

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Split cuts text into chunks of at most limit.Max units each, counted by
// limit.Measure, for platforms that cap the length of one message.
//
// Text that fits (or limit.Max <= 0, meaning no limit) comes back unchanged
// as the only chunk; empty text gives no chunks. Otherwise Split cuts at the
// last good break within the limit, preferring, in this order, a paragraph
// break (a blank line), a line break, a word break (spaces or tabs) and, only
// when a stretch has none, a hard break between runes. A break is only taken
// when it keeps at least half of the room in use; otherwise the latest break
// of any kind is taken. Hard breaks never split a UTF-8 sequence and avoid
// splitting a grapheme cluster (combining marks, variation selectors,
// zero-width joiners, skin-tone modifiers, emoji tags, flag pairs) unless
// one cluster alone is longer than the room.
//
// Code fences (lines starting with three or more backticks, CommonMark
// style) are kept balanced: when a chunk would end inside a fence, Split
// appends a closing marker ("\n" plus the fence's backticks) and starts the
// next chunk with the opening marker again (backticks, info string, "\n").
// Those added runes count within the limit. A fence whose marker lines are
// too long to repeat (their units plus two exceed limit.Max/2) is not
// balanced; tiny limits thus fall back to plain splitting.
//
// The invariant, which the tests check on random input for every measure:
// each chunk is open_i + body_i + close_i, where open_i is empty or an added
// opening marker and close_i is empty or an added closing marker, and
//
//	text == gap_0 + body_1 + gap_1 + body_2 + ... + body_n + gap_n
//
// where every gap is a (possibly empty) run of ASCII whitespace (space, tab,
// \n, \r, \v, \f) taken at a break point. A gap that holds a line break ends
// at that line break, so the indentation of the next line is kept. No other
// character is dropped, changed or reordered; every chunk is at most
// limit.Max units long, except that a chunk holds at least one rune, so a
// limit narrower than one rune (under 2 UTF-16 units or 4 bytes) lets a
// chunk of that one rune through; a chunk is valid UTF-8 when text is.
// Every chunk but the last ends outside any balanced fence, and the last one
// ends as text does.
func Split(text string, limit Limit) []string {
	parts := splitParts(text, limit)
	if parts == nil {
		return nil
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.open + p.body + p.close
	}
	return out
}

// part is one chunk of Split: an added opening fence marker, a piece of the
// original text, and an added closing fence marker.
type part struct {
	open, body, close string
}

// fence is one fenced code block of the text, as byte offsets.
type fence struct {
	os, oEnd int    // opener line start and end of its non-space content
	cs, cEnd int    // closer line start and end of its content; len(text) and max int when unclosed
	ticks    string // the backtick run of the opener
	info     string // the info string after it
	balanced bool   // whether Split repeats its markers across chunks
}

func (f *fence) reopen() string { return f.ticks + f.info + "\n" }
func (f *fence) closer() string { return "\n" + f.ticks }

// tickLine is a line that starts (after up to three spaces) with three
// backticks: a cut strictly inside one would change how chunks parse.
type tickLine struct{ start, end int } // end excludes trailing whitespace

type splitter struct {
	text   string
	limit  int
	m      Measure
	fences []fence
	ticks  []tickLine
}

func isSpaceByte(b byte) bool {
	switch b {
	case ' ', '\t', '\n', '\r', '\v', '\f':
		return true
	}
	return false
}

func splitParts(text string, limit Limit) []part {
	if text == "" {
		return nil
	}
	if limit.Fits(text) {
		return []part{{body: text}}
	}
	s := &splitter{text: text, limit: limit.Max, m: limit.Measure}
	s.parseFences()
	var parts []part
	p := s.skipLeadingGap(0)
	for p < len(text) {
		var open string
		if f := s.fenceStartingInside(p); f != nil {
			open = f.reopen()
		}
		budget := s.limit - s.m.Len(open)
		// The rest is the last chunk when it fits, or when it fits once
		// the whitespace it ends with (a gap like any other) is dropped:
		// a last chunk ends as the text does, so it must not be cut, and
		// closed, only to leave a remainder of blanks.
		rest := text[p:]
		if s.m.fits(rest, budget) {
			parts = append(parts, part{open: open, body: rest})
			break
		}
		if body := strings.TrimRightFunc(rest, func(r rune) bool { return r < utf8.RuneSelf && isSpaceByte(byte(r)) }); s.m.fits(body, budget) {
			parts = append(parts, part{open: open, body: body})
			break
		}
		c, n, closeMark := s.cutWithFence(p, budget)
		parts = append(parts, part{open: open, body: text[p:c], close: closeMark})
		p = s.skipLeadingGap(n)
	}
	return parts
}

// skipLeadingGap skips a whitespace run at p that holds a line break, up to
// its last line break, or the whole run when it reaches the end of the text.
func (s *splitter) skipLeadingGap(p int) int {
	end, lastNL := p, -1
	for end < len(s.text) && isSpaceByte(s.text[end]) {
		if s.text[end] == '\n' {
			lastNL = end
		}
		end++
	}
	if end == len(s.text) {
		return end
	}
	if lastNL >= 0 {
		return lastNL + 1
	}
	return p
}

// cutWithFence finds the cut for a chunk whose body starts at p with room
// for budget units, reserving room for a closing marker when the cut falls
// inside a balanced fence. It returns the body end, the next body start and
// the closing marker to add.
func (s *splitter) cutWithFence(p, budget int) (c, n int, closeMark string) {
	reserve := 0
	for {
		c, n = s.cut(p, budget-reserve)
		f := s.fenceEndingInside(c)
		if f == nil {
			return c, n, ""
		}
		cm := f.closer()
		need := s.m.Len(cm)
		if need <= reserve {
			return c, n, cm
		}
		reserve = need
	}
}

// Break classes, best first.
const (
	breakParagraph = iota
	breakLine
	breakWord
	breakClasses
)

// cut picks the body end c and the next body start n for a body starting at
// p with room for budget (>= 1) units; text[p:] is longer than that.
func (s *splitter) cut(p, budget int) (c, n int) {
	text := s.text
	// w is the byte offset just after the runes from p that fit in budget
	// units, and at least one rune.
	w := p
	for w < len(text) {
		r, size := rune(text[w]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[w:])
		}
		budget -= s.m.width(r, size)
		if budget < 0 && w > p {
			break
		}
		w += size
		if budget <= 0 {
			break
		}
	}
	var best [breakClasses]int
	var bestNext [breakClasses]int
	latest, latestNext := -1, -1
	for i := range best {
		best[i] = -1
	}
	for i := p + 1; i <= w && i < len(text); i++ {
		if !isSpaceByte(text[i]) || isSpaceByte(text[i-1]) {
			continue
		}
		// A whitespace run starts at i: a candidate break.
		end, lastNL, nls := i, -1, 0
		for end < len(text) && isSpaceByte(text[end]) {
			if text[end] == '\n' {
				lastNL = end
				nls++
			}
			end++
		}
		next := end
		if end < len(text) && lastNL >= 0 {
			next = lastNL + 1
		}
		if !s.goodBreak(i, next, nls > 0) {
			continue
		}
		class := breakWord
		switch {
		case nls >= 2:
			class = breakParagraph
		case nls == 1:
			class = breakLine
		}
		best[class], bestNext[class] = i, next
		latest, latestNext = i, next
	}
	half := (w - p) / 2
	for class := range breakClasses {
		if best[class] >= 0 && best[class]-p >= half {
			return best[class], bestNext[class]
		}
	}
	if latest >= 0 {
		return latest, latestNext
	}
	c = s.hardCut(p, w)
	return c, c
}

// goodBreak reports whether a break with body end c and next body start n
// keeps every chunk parsing as the text does and avoids empty code blocks.
func (s *splitter) goodBreak(c, n int, lineBreak bool) bool {
	if s.insideTickLine(c) {
		return false
	}
	if n < len(s.text) && s.text[n-1] != '\n' && strings.HasPrefix(s.text[n:], "```") {
		return false // a mid-line ``` would become a fence line
	}
	if f := s.fenceAround(c); lineBreak && f != nil && f.balanced && c == f.oEnd {
		return false // the chunk would end with an empty code block
	}
	if f := s.fenceAround(n); f != nil && f.balanced && n == f.cs && n < len(s.text) {
		return false // the next chunk would start with an empty code block
	}
	return true
}

// hardCut returns a cut in (p, w] that splits no UTF-8 sequence, avoids
// splitting a grapheme cluster, a backtick run or a fence line.
func (s *splitter) hardCut(p, w int) int {
	text := s.text
	if w >= len(text) {
		return len(text)
	}
	c := w
	for c > p && !clusterBoundary(text, c) {
		_, size := utf8.DecodeLastRuneInString(text[:c])
		c -= size
	}
	if c <= p {
		c = w
	}
	if text[c-1] == '`' || strings.HasPrefix(text[c:], "```") {
		// Move before the whole backtick run, then one more rune, so the
		// next chunk does not start with backticks mid-line.
		d := c
		for d > p && text[d-1] == '`' {
			d--
		}
		if d > p && text[d-1] != '\n' {
			_, size := utf8.DecodeLastRuneInString(text[:d])
			d -= size
		}
		if d > p {
			c = d
		}
	}
	if t := s.tickLineAt(c); t != nil && t.start > p {
		c = t.start
	}
	return c
}

// clusterBoundary reports whether a cut at byte offset i (0 < i < len)
// falls between two grapheme clusters, as far as a cheap check can tell.
func clusterBoundary(text string, i int) bool {
	next, _ := utf8.DecodeRuneInString(text[i:])
	prev, _ := utf8.DecodeLastRuneInString(text[:i])
	if prev == '\u200d' || isExtend(next) {
		return false
	}
	if isRegionalIndicator(prev) && isRegionalIndicator(next) {
		// Flags pair regional indicators; count the run before i.
		count := 0
		for j := i; j > 0 && count < 64; {
			r, size := utf8.DecodeLastRuneInString(text[:j])
			if !isRegionalIndicator(r) {
				break
			}
			count++
			j -= size
		}
		return count%2 == 0
	}
	return true
}

func isExtend(r rune) bool {
	switch {
	case r == '\u200d', r == '\u20e3':
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
		return true // variation selectors
	case r >= 0x1f3fb && r <= 0x1f3ff:
		return true // skin-tone modifiers
	case r >= 0xe0020 && r <= 0xe007f:
		return true // emoji tag characters
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Mc)
}

func isRegionalIndicator(r rune) bool { return r >= 0x1f1e6 && r <= 0x1f1ff }

// parseFences finds the fenced code blocks and the backtick lines.
func (s *splitter) parseFences() {
	text := s.text
	var open *fence
	for ls := 0; ls < len(text); {
		le := strings.IndexByte(text[ls:], '\n')
		if le < 0 {
			le = len(text)
		} else {
			le += ls
		}
		line := text[ls:le]
		ind := 0
		for ind < 3 && ind < len(line) && line[ind] == ' ' {
			ind++
		}
		body := line[ind:]
		if strings.HasPrefix(body, "```") {
			contentEnd := ls + len(strings.TrimRight(line, " \t\r\v\f"))
			s.ticks = append(s.ticks, tickLine{start: ls, end: contentEnd})
			nt := 0
			for nt < len(body) && body[nt] == '`' {
				nt++
			}
			rest := strings.TrimSpace(body[nt:])
			switch {
			case open == nil && !strings.Contains(rest, "`"):
				open = &fence{os: ls, oEnd: contentEnd, ticks: body[:nt], info: rest}
			case open != nil && rest == "" && nt >= len(open.ticks):
				open.cs, open.cEnd = ls, contentEnd
				s.fences = append(s.fences, *open)
				open = nil
			}
		}
		ls = le + 1
	}
	if open != nil {
		open.cs, open.cEnd = len(text), int(^uint(0)>>1)
		s.fences = append(s.fences, *open)
	}
	for i := range s.fences {
		f := &s.fences[i]
		opener := s.m.Len(text[f.os:f.oEnd])
		closer := len(f.ticks)
		if f.cs < len(text) {
			closer = s.m.Len(text[f.cs:f.cEnd])
		}
		f.balanced = s.m.Len(f.reopen())+opener+closer+2 <= s.limit/2
	}
}

// fenceStartingInside returns the balanced fence whose content a body
// starting at n begins inside, if any.
func (s *splitter) fenceStartingInside(n int) *fence {
	f := s.fenceAround(n)
	if f != nil && f.balanced && n > f.oEnd && n <= f.cs {
		return f
	}
	return nil
}

// fenceEndingInside returns the balanced fence a body ending at c ends
// inside, if any.
func (s *splitter) fenceEndingInside(c int) *fence {
	f := s.fenceAround(c)
	if f != nil && f.balanced && c >= f.oEnd && c < f.cEnd && c < len(s.text) {
		return f
	}
	return nil
}

// fenceAround returns the fence whose span [os, cEnd] holds offset i.
func (s *splitter) fenceAround(i int) *fence {
	k := sort.Search(len(s.fences), func(k int) bool { return s.fences[k].cEnd >= i })
	if k < len(s.fences) && s.fences[k].os <= i {
		return &s.fences[k]
	}
	return nil
}

func (s *splitter) tickLineAt(i int) *tickLine {
	k := sort.Search(len(s.ticks), func(k int) bool { return s.ticks[k].end > i })
	if k < len(s.ticks) && s.ticks[k].start < i {
		return &s.ticks[k]
	}
	return nil
}

func (s *splitter) insideTickLine(i int) bool { return s.tickLineAt(i) != nil }
