package safety

import "testing"

// Tests for the recall work: normalizer and pattern-compiler fixes, and the
// phrasing families added after studying which kinds of wording the floor
// missed. Every phrase here is written for the test.

func TestPatternEndingInSentenceMarkMatches(t *testing.T) {
	re, err := compilePattern(`(?:im|i am) done(?: \.|$)`)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"im done . im tired", "ok im done", "im done"} {
		if !re.MatchString(s) {
			t.Errorf("pattern ending in a sentence mark does not match %q", s)
		}
	}
	for _, s := range []string{"im doneness", "im done with lunch"} {
		if re.MatchString(s) {
			t.Errorf("pattern matches %q", s)
		}
	}
}

func TestNormalizeKeepsObligationHaveTo(t *testing.T) {
	cases := map[string]string{
		"I have to go":      "i have to go",
		"I have a dog":      "ive a dog",
		"I've to admit":     "ive to admit",
		"I HAVE TO die":     "i have to die",
		"i have tons to do": "ive tons to do",
	}
	for in, want := range cases {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
	f := NewFloor()
	for _, s := range []string{"I feel like I have to die", "I don't want to die but I feel like I have to"} {
		if a := f.Assess(Input{Text: s}); a.Level < 2 {
			t.Errorf("%q: level %d (path %v), want >= 2", s, a.Level, a.Path)
		}
	}
	if a := f.Assess(Input{Text: "I have to finish this report by Friday"}); a.Level != 0 {
		t.Errorf("obligation about work: level %d (path %v), want 0", a.Level, a.Path)
	}
}
