package channels

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

var (
	openMarkRE  = regexp.MustCompile("^`{3,}[^`\n]*\n$")
	closeMarkRE = regexp.MustCompile("^\n`{3,}$")
)

// measures are every Measure, for tests that run once per measure.
var measures = []Measure{Runes, UTF16, Bytes}

// checkSplit verifies every property Split promises for text at limit and
// reports each broken one.
func checkSplit(t *testing.T, text string, limit Limit) {
	t.Helper()
	parts := splitParts(text, limit)
	chunks := Split(text, limit)
	if len(chunks) != len(parts) {
		t.Fatalf("Split gave %d chunks, splitParts %d parts", len(chunks), len(parts))
	}
	if text == "" {
		if len(chunks) != 0 {
			t.Fatalf("empty text gave %d chunks", len(chunks))
		}
		return
	}
	if limit.Max <= 0 || limit.Measure.Len(text) <= limit.Max {
		if len(chunks) != 1 || chunks[0] != text {
			t.Fatalf("text that fits came back changed: %q", chunks)
		}
		return
	}
	for i, p := range parts {
		chunk := chunks[i]
		if chunk != p.open+p.body+p.close {
			t.Fatalf("chunk %d %q is not open+body+close of %+v", i, chunk, p)
		}
		// A chunk of one rune wider than the limit is the one exception.
		if n := limit.Measure.Len(chunk); n > limit.Max && !(p.open == "" && p.close == "" && utf8.RuneCountInString(chunk) == 1) {
			t.Fatalf("chunk %d has %d %s, limit %s: %q", i, n, limit.Measure, limit, chunk)
		}
		if p.body == "" {
			t.Fatalf("chunk %d has an empty body", i)
		}
		if utf8.ValidString(text) && !utf8.ValidString(chunk) {
			t.Fatalf("chunk %d is not valid UTF-8: %q", i, chunk)
		}
		if p.open != "" && !openMarkRE.MatchString(p.open) {
			t.Fatalf("chunk %d open marker %q is not a fence opener", i, p.open)
		}
		if p.close != "" && !closeMarkRE.MatchString(p.close) {
			t.Fatalf("chunk %d close marker %q is not a fence closer", i, p.close)
		}
	}
	bodies := make([]string, len(parts))
	for i, p := range parts {
		bodies[i] = p.body
	}
	if !rejoins(text, bodies) {
		t.Fatalf("bodies do not rejoin to the text with whitespace gaps\ntext:   %q\nbodies: %q", text, bodies)
	}
	if fencesCheckable(text, limit) {
		for i, chunk := range chunks {
			want := false
			if i == len(chunks)-1 {
				want = endsInFence(text)
			}
			if got := endsInFence(chunk); got != want {
				t.Fatalf("chunk %d ends inside a fence: %v, want %v\nchunk: %q\nall: %q", i, got, want, chunk, chunks)
			}
		}
	}
}

// rejoins reports whether text == gap + bodies[0] + gap + ... + bodies[n-1]
// + gap with every gap a run of ASCII whitespace. It follows every possible
// alignment, so no ambiguity can hide a lost character.
func rejoins(text string, bodies []string) bool {
	// reach[q] says a body may start at q: some earlier match ended at a
	// position from which only whitespace leads to q.
	reach := make([]bool, len(text)+1)
	spread := func(ends []bool) {
		for i := range reach {
			reach[i] = false
		}
		open := false
		for q := 0; q <= len(text); q++ {
			if ends[q] {
				open = true
			}
			reach[q] = open
			if q < len(text) && !isSpaceByte(text[q]) {
				open = false
			}
		}
	}
	ends := make([]bool, len(text)+1)
	ends[0] = true
	spread(ends)
	for _, b := range bodies {
		for i := range ends {
			ends[i] = false
		}
		any := false
		for q := 0; q+len(b) <= len(text); q++ {
			if reach[q] && strings.HasPrefix(text[q:], b) {
				ends[q+len(b)] = true
				any = true
			}
		}
		if !any {
			return false
		}
		spread(ends)
	}
	return reach[len(text)]
}

// fencesCheckable reports whether Split promises balanced fences for text:
// the limit leaves room and every backtick line is short.
func fencesCheckable(text string, limit Limit) bool {
	if limit.Max < 16 {
		return false
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "```") && limit.Measure.Len(line) > limit.Max/8 {
			return false
		}
	}
	return true
}

// endsInFence parses s as CommonMark backtick fences and reports whether it
// ends inside one. It is written independently of the splitter's parser.
func endsInFence(s string) bool {
	inFence, ticks := false, 0
	for _, line := range strings.Split(s, "\n") {
		trimmed := line
		for k := 0; k < 3 && strings.HasPrefix(trimmed, " "); k++ {
			trimmed = trimmed[1:]
		}
		n := len(trimmed) - len(strings.TrimLeft(trimmed, "`"))
		if n < 3 {
			continue
		}
		rest := strings.TrimSpace(trimmed[n:])
		if !inFence && !strings.Contains(rest, "`") {
			inFence, ticks = true, n
		} else if inFence && rest == "" && n >= ticks {
			inFence = false
		}
	}
	return inFence
}

func TestSplitPrefersParagraphThenLineThenWordBreaks(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		limit int
		want  []string
	}{
		{"fits unchanged", "hello world", 20, []string{"hello world"}},
		{"empty gives nothing", "", 5, nil},
		{"no limit", "hello world", 0, []string{"hello world"}},
		{"paragraph break", "first para here.\n\nsecond one.", 20, []string{"first para here.", "second one."}},
		{"paragraph over later line break", "aaaa aaaa\n\nbbbb\ncc", 16, []string{"aaaa aaaa", "bbbb\ncc"}},
		{"line break", "one two three\nfour five", 15, []string{"one two three", "four five"}},
		{"word break", "alpha beta gamma delta", 12, []string{"alpha beta", "gamma delta"}},
		{"hard break", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"indentation kept after line break", "x = 1\n    y = 2", 9, []string{"x = 1", "    y = 2"}},
		{"multibyte runes counted as runes", "ééééé ééééé", 5, []string{"ééééé", "ééééé"}},
		{"zwj emoji not split", "ab👩\u200d💻cd", 4, []string{"ab", "👩\u200d💻c", "d"}},
		{"flag pair not split", "a🇫🇷🇩🇪", 2, []string{"a", "🇫🇷", "🇩🇪"}},
		{"combining accent kept with letter", "abe\u0301cd", 3, []string{"ab", "e\u0301c", "d"}},
		{"trailing blanks after an unclosed fence leave it open", "intro line here\n```\ncode" + strings.Repeat("\n", 30), 40, []string{"intro line here\n```\ncode"}},
		{"trailing blanks dropped from the last chunk", "alpha beta gamma" + strings.Repeat(" ", 10), 20, []string{"alpha beta gamma"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			limit := Limit{Max: tt.limit}
			got := Split(tt.text, limit)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
				t.Fatalf("Split(%q, %d) = %q, want %q", tt.text, tt.limit, got, tt.want)
			}
			checkSplit(t, tt.text, limit)
		})
	}
}

func TestSplitCountsInThePlatformsMeasure(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		limit Limit
		want  []string
	}{
		{"emoji count one rune each", "💛💛💛 💛💛💛", Limit{Max: 3}, []string{"💛💛💛", "💛💛💛"}},
		{"emoji count two UTF-16 units each", "💛💛💛 💛💛💛", Limit{Max: 4, Measure: UTF16}, []string{"💛💛", "💛", "💛💛", "💛"}},
		{"BMP letters count one UTF-16 unit", "ééé ééé", Limit{Max: 3, Measure: UTF16}, []string{"ééé", "ééé"}},
		{"accents count two bytes", "ééé ééé", Limit{Max: 4, Measure: Bytes}, []string{"éé", "é", "éé", "é"}},
		{"a rune wider than the limit goes alone", "a💛b", Limit{Max: 1, Measure: UTF16}, []string{"a", "💛", "b"}},
		{"fits in runes but not in UTF-16 units", "💛💛💛", Limit{Max: 4, Measure: UTF16}, []string{"💛💛", "💛"}},
		{"fits in UTF-16 units", "💛💛💛", Limit{Max: 6, Measure: UTF16}, []string{"💛💛💛"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Split(tt.text, tt.limit)
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tt.want) {
				t.Fatalf("Split(%q, %s) = %q, want %q", tt.text, tt.limit, got, tt.want)
			}
			checkSplit(t, tt.text, tt.limit)
		})
	}
}

func TestSplitKeepsFencesBalancedWhenEmojiFillTheRoom(t *testing.T) {
	// Emoji-heavy code: at 200 UTF-16 units a chunk holds far fewer runes
	// than 200, and every chunk must still close and reopen the fence.
	var b strings.Builder
	b.WriteString("Here is the plan 🌱🌿🌳:\n\n```text\n")
	for i := range 40 {
		fmt.Fprintf(&b, "step %d 💛🎉✨ breathe in 🌬️, out\n", i)
	}
	b.WriteString("```\nThat is all 🙂")
	text := b.String()
	for _, m := range measures {
		t.Run(m.String(), func(t *testing.T) {
			limit := Limit{Max: 200, Measure: m}
			chunks := Split(text, limit)
			if len(chunks) < 3 {
				t.Fatalf("got %d chunks, want several", len(chunks))
			}
			for i, c := range chunks {
				if n := m.Len(c); n > limit.Max {
					t.Errorf("chunk %d is %d %s long", i, n, m)
				}
				if i < len(chunks)-1 && endsInFence(c) {
					t.Errorf("chunk %d ends inside the fence: %q", i, c)
				}
				if i > 0 && i < len(chunks)-1 && !strings.HasPrefix(c, "```text\n") {
					t.Errorf("chunk %d does not reopen the fence: %q", i, c)
				}
			}
			checkSplit(t, text, limit)
		})
	}
}

func TestMeasureLenCountsEachUnit(t *testing.T) {
	tests := []struct {
		s                   string
		runes, units, bytes int
	}{
		{"", 0, 0, 0},
		{"abc", 3, 3, 3},
		{"é", 1, 1, 2},
		{"日本", 2, 2, 6},
		{"💛", 1, 2, 4},
		{"👩\u200d💻", 3, 5, 11},
		{"a\xffb", 3, 3, 3},
	}
	for _, tt := range tests {
		if got := Runes.Len(tt.s); got != tt.runes {
			t.Errorf("Runes.Len(%q) = %d, want %d", tt.s, got, tt.runes)
		}
		if got := UTF16.Len(tt.s); got != tt.units {
			t.Errorf("UTF16.Len(%q) = %d, want %d", tt.s, got, tt.units)
		}
		if got := Bytes.Len(tt.s); got != tt.bytes {
			t.Errorf("Bytes.Len(%q) = %d, want %d", tt.s, got, tt.bytes)
		}
		for _, m := range measures {
			n := m.Len(tt.s)
			if !m.fits(tt.s, n) || (n > 0 && m.fits(tt.s, n-1)) {
				t.Errorf("%s.fits(%q) disagrees with Len %d", m, tt.s, n)
			}
		}
	}
}

func TestSplitKeepsCodeFencesBalanced(t *testing.T) {
	code := "```go\n" + strings.Repeat("fmt.Println(1)\n", 6) + "```\nafter"
	got := Split(code, Limit{Max: 50})
	if len(got) < 2 {
		t.Fatalf("expected several chunks, got %q", got)
	}
	for i, c := range got[:len(got)-1] {
		if endsInFence(c) {
			t.Errorf("chunk %d ends inside a fence: %q", i, c)
		}
	}
	if !strings.HasPrefix(got[1], "```go\n") {
		t.Errorf("second chunk does not reopen the fence with its info string: %q", got[1])
	}
	checkSplit(t, code, Limit{Max: 50})
}

func TestSplitTinyLimitFallsBackWithoutFences(t *testing.T) {
	text := "```python\nprint('hi')\n```"
	for _, m := range measures {
		for n := 1; n <= 12; n++ {
			limit := Limit{Max: n, Measure: m}
			got := Split(text, limit)
			if len(got) == 0 {
				t.Fatalf("limit %s gave no chunks", limit)
			}
			checkSplit(t, text, limit)
		}
	}
}

// genText builds text from pieces that exercise every kind of break.
func genText(r *rand.Rand) string {
	pieces := []string{
		"word", "another", "x", " ", "  ", "\n", "\n\n", "\n\n\n", "\t", "\r\n",
		"```", "```go\n", "```\n", "\n```\n", "````\n", "    indented", "`inline`",
		"é", "日本語の文章", "👩\u200d💻", "🇫🇷", "e\u0301", "👍🏽", "\u00a0",
		"a-long-unbroken-token-without-spaces-0123456789",
	}
	var b strings.Builder
	n := r.IntN(120)
	for range n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func TestSplitPropertiesOnRandomText(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		text := genText(r)
		limit := Limit{Max: 1 + r.IntN(80), Measure: measures[i%len(measures)]}
		if i%4 == 0 {
			limit.Max += 100
		}
		t.Run("", func(t *testing.T) { checkSplit(t, text, limit) })
	}
}

func FuzzSplit(f *testing.F) {
	seeds := []struct {
		text  string
		limit int
	}{
		{"💛💛 ```\n🎉🎉🎉\n```", 5},
		{"```\n" + strings.Repeat("😀 ", 30) + "\n```", 24},
		{"hello world", 5},
		{"first para.\n\nsecond para.\nline two", 12},
		{"```go\nfunc main() {}\n```\ntext after the fence", 20},
		{"````md\n```\ninner\n```\n````", 18},
		{"👩\u200d💻👩\u200d💻👩\u200d💻", 3},
		{"a\xffb\xfe c", 2},
		{strings.Repeat("é", 50), 7},
		{"   leading\n\n\n   spaces   \n", 4},
		{"```\nunclosed fence\nwith lines", 16},
		{"x ```not a fence``` y", 6},
		{"0000000000000000\n```\n0000000000\n\n\n\n\n\n\n\n", 32},
	}
	for i, s := range seeds {
		f.Add(s.text, s.limit, uint8(i%len(measures)))
	}
	f.Fuzz(func(t *testing.T, text string, limit int, measure uint8) {
		if limit > 10000 || limit < -1 || len(text) > 4000 {
			return
		}
		checkSplit(t, text, Limit{Max: limit, Measure: measures[int(measure)%len(measures)]})
	})
}

// BenchmarkSplit splits a 10,000-rune reply with paragraphs and a code
// fence at Discord's limit (2,000 runes).
func BenchmarkSplit(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 9000 {
		sb.WriteString("A sentence that goes on for a while, with words. ")
		if sb.Len()%700 < 60 {
			sb.WriteString("\n\n")
		}
	}
	sb.WriteString("```go\n" + strings.Repeat("fmt.Println(\"x\")\n", 50) + "```\n")
	text := sb.String()
	b.ReportAllocs()
	for b.Loop() {
		Split(text, Limit{Max: 2000})
	}
}

// BenchmarkSplitUTF16 splits an emoji-heavy reply with a code fence in
// UTF-16 units.
func BenchmarkSplitUTF16(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 12000 {
		sb.WriteString("A sentence 💛 with emoji 🎉, and words. ")
		if sb.Len()%700 < 60 {
			sb.WriteString("\n\n")
		}
	}
	sb.WriteString("```\n" + strings.Repeat("💛 step 🌱\n", 80) + "```\n")
	text := sb.String()
	b.ReportAllocs()
	for b.Loop() {
		Split(text, Limit{Max: 2000, Measure: UTF16})
	}
}
