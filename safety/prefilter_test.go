package safety

import (
	"regexp/syntax"
	"testing"
)

func TestRequiresDigitReadsEveryBranch(t *testing.T) {
	cases := []struct {
		pattern string
		want    bool
	}{
		{`\d+ pills`, true},
		{`(?:took|swallowed) [0-9]+`, true},
		{`on the \d+(?:st|nd|rd|th)|in \d+ hours`, true},
		{`in \d+ hours|tonight`, false},
		{`pills(?: \d+)?`, false},
		{`\w+ pills`, false},
		{`[0-9a-z]`, false},
	}
	for _, c := range cases {
		re, err := syntax.Parse(c.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := requiresDigit(re); got != c.want {
			t.Errorf("requiresDigit(%q) = %v, want %v", c.pattern, got, c.want)
		}
	}
}

// TestEveryRuleSeesWhatTheWholeTextScanSees checks the prefilter against
// plain regexp search: a rule skipped by its prefilter (digits, literal
// sets, one pass for the sentences and the whole text) never had a match.
func TestEveryRuleSeesWhatTheWholeTextScanSees(t *testing.T) {
	texts := []string{
		"does 3pm work for you . i feel so alone",
		"will 30 of my pills be enough . i want it over tonight",
		"i took 12 tablets an hour ago . im scared",
		"im on the 8th floor . is it high enough",
		"if i died tomorrow i wouldnt mind . nobody would notice",
		"i have been feeling really low lately . some days i dont see the point",
		"in 2 days it will be over . goodbye",
	}
	for _, canon := range texts {
		clauses := clauseBounds(canon)
		all, sent := sentenceHits(canon, clauses)
		for i := range compiledRules {
			r := &compiledRules[i]
			want := r.re.MatchString(canon)
			if want && !r.fre.ok(all) {
				t.Errorf("%s matches %q but its prefilter skips the text", r.id, canon)
			}
			if r.whole {
				continue
			}
			for ci, cs := range clauses {
				ce := len(canon)
				if ci+1 < len(clauses) {
					ce = clauses[ci+1] - 3
				}
				if r.re.MatchString(canon[cs:ce]) && !r.fre.ok(sent[ci]) {
					t.Errorf("%s matches sentence %d of %q but its prefilter skips it", r.id, ci, canon)
				}
			}
		}
		for name, re := range map[string]filteredRe{"timing": timingRe, "timingNum": timingNumRe, "prep": prepRe, "suicideTalk": suicideTalkRe} {
			whole := re.re.MatchString(canon)
			if got := matchSentences(re, canon, clauses, sent, all); got != whole {
				t.Errorf("%s on %q: sentences %v, whole text %v", name, canon, got, whole)
			}
		}
	}
}

func TestADigitPatternSkipsTextWithoutDigits(t *testing.T) {
	// timingNumRe needs " days" or " hours" and a digit: the words alone
	// do not pass its prefilter.
	if timingNumRe.ok(findHits("it will be over in a few days")) {
		t.Error("a text without a digit passes the prefilter of a pattern that needs one")
	}
	if !timingNumRe.ok(findHits("it will be over in 2 days")) {
		t.Error("a text with the digit is skipped")
	}
}
