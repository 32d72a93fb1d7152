package textmatch

import (
	"regexp"
	"slices"
	"testing"
)

var patterns = []string{
	`(?i)\b(?:i feel|i am|i'm) (?:so )?(sad|low|down)\b`,
	`(?i)\bthank(?:s| you)\b`,
	`(?i)^(?:hi|hello|hey)\b`,
	`\bmy (sister|brother) ([A-Z][a-z]+)\b`,
	`(?i)\b(?:bye|good ?night|see you)\b`,
	`(?i)k+`,
	`a*`,
	`(?i)(?:work|job|boss)(?:load)?`,
	`(?i)\bstre(?:ss|ssed)\b`,
	`(?i)café`,
	`x{2,3}y`,
}

var texts = []string{
	"", "I feel so sad today", "i'm DOWN", "Thanks!", "THANK YOU so much", "hello there", "oh hi",
	"my sister Grace lives here", "my SISTER grace", "Good night", "goodnight", "the \u212aelvin sign",
	"KKK", "aaa", "workload is heavy", "my Boss", "STRESSED out", "CAFÉ au lait", "café", "xxy", "xxxxy",
	"nothing to see", "ſtressed", "straße", "I’m so low",
}

func TestMatchesAgreeWithRegexp(t *testing.T) {
	for _, p := range patterns {
		fast, slow := MustCompile(p), regexp.MustCompile(p)
		for _, s := range texts {
			if got, want := fast.MatchString(s), slow.MatchString(s); got != want {
				t.Errorf("%q MatchString(%q) = %v, regexp says %v", p, s, got, want)
			}
			if got, want := fast.FindAllStringSubmatchIndex(s, -1), slow.FindAllStringSubmatchIndex(s, -1); !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("%q FindAllStringSubmatchIndex(%q) = %v, regexp says %v", p, s, got, want)
			}
			if got, want := fast.ReplaceAllString(s, "<$0>"), slow.ReplaceAllString(s, "<$0>"); got != want {
				t.Errorf("%q ReplaceAllString(%q) = %q, regexp says %q", p, s, got, want)
			}
		}
	}
}

func TestPrefilterNeedsWhatEveryMatchHolds(t *testing.T) {
	tests := []struct {
		pattern string
		want    []string // nil: no prefilter
	}{
		{`(?i)\bthank(?:s| you)\b`, []string{"thank"}},
		{`(?i)\b(?:bye|good ?night)\b`, []string{"bye", "night"}},
		{`a*`, nil},
		{`\w+`, nil},
		{`(?i)café`, []string{"caf"}},
		{`(?i)(?:sad|café)`, []string{"sad", "caf"}},
		{`(?:x|y?)z`, []string{"z"}},
	}
	for _, tt := range tests {
		var got []string
		for _, n := range needed(tt.pattern) {
			got = append(got, string(n))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("needed(%q) = %q, want %q", tt.pattern, got, tt.want)
		}
	}
}

func FuzzMatchAgreesWithRegexp(f *testing.F) {
	for i, p := range patterns {
		f.Add(p, texts[i%len(texts)])
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		slow, err := regexp.Compile(pattern)
		if err != nil || len(pattern) > 200 || len(text) > 1000 {
			return
		}
		fast := MustCompile(pattern)
		if got, want := fast.MatchString(text), slow.MatchString(text); got != want {
			t.Fatalf("%q MatchString(%q) = %v, regexp says %v", pattern, text, got, want)
		}
		if got, want := fast.FindAllStringSubmatchIndex(text, -1), slow.FindAllStringSubmatchIndex(text, -1); !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("%q FindAllStringSubmatchIndex(%q) = %v, regexp says %v", pattern, text, got, want)
		}
	})
}

func BenchmarkPrefilterRejects(b *testing.B) {
	p := `(?i)\b(?:i feel|i am|i'm) (?:so )?(sad|low|down|empty|hopeless|numb|lost)\b`
	text := "Work has been a lot this week, and my manager keeps adding things on top of what I already have."
	b.Run("regexp", func(b *testing.B) {
		re := regexp.MustCompile(p)
		for b.Loop() {
			re.MatchString(text)
		}
	})
	b.Run("textmatch", func(b *testing.B) {
		re := MustCompile(p)
		for b.Loop() {
			re.MatchString(text)
		}
	})
}
