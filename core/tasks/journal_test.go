package tasks

import (
	"testing"
	"time"
)

func capNamed(caps []Capability, name string) Capability {
	for _, c := range caps {
		if c.Name == name {
			return c
		}
	}
	panic("no capability " + name)
}

func TestJournalRulesReadWritesAndReadsButNotTalkAboutAJournal(t *testing.T) {
	caps := JournalCapabilities(nil)
	write, read := capNamed(caps, "journal.write"), capNamed(caps, "journal.read")
	tests := []struct {
		text        string
		write, read bool
		arg         string
	}{
		{"write in my journal: called my sister", true, false, "called my sister"},
		{"Please add this to my diary - a good day", true, false, "a good day"},
		{"dear diary, the rain stopped", true, false, "the rain stopped"},
		{"write in my journal", true, false, ""},
		{"what did I write last week?", false, true, "last week"},
		{"show me my journal", false, true, ""},
		{"What did I write in the last 3 days", false, true, "last 3 days"},
		{"I used to keep a journal but stopped", false, false, ""},
		{"my therapist said I should write in a journal", false, false, ""},
	}
	for _, tt := range tests {
		req := &Request{Text: tt.text}
		wa, w := write.Match(req)
		ra, r := read.Match(req)
		if w != tt.write || r != tt.read {
			t.Errorf("%q: write %t read %t, want %t %t", tt.text, w, r, tt.write, tt.read)
			continue
		}
		if w && wa["text"] != tt.arg || r && ra["period"] != tt.arg {
			t.Errorf("%q: args %v %v, want %q", tt.text, wa, ra, tt.arg)
		}
	}
}

func TestPeriodRangeIsInThePersonsZone(t *testing.T) {
	loc := time.FixedZone("UTC+10", 10*3600)
	now := time.Date(2026, 1, 14, 8, 0, 0, 0, loc) // a Wednesday morning
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, loc) }
	tests := []struct {
		period   string
		from, to time.Time
	}{
		{"today", day(14), time.Time{}},
		{"yesterday", day(13), day(14)},
		{"this week", day(12), time.Time{}},
		{"last week", day(5), day(12)},
		{"this month", day(1), time.Time{}},
		{"last month", time.Date(2025, 12, 1, 0, 0, 0, 0, loc), day(1)},
		{"last 3 days", day(12), time.Time{}},
		{"", time.Time{}, time.Time{}},
	}
	for _, tt := range tests {
		from, to, _ := periodRange(tt.period, now)
		if !from.Equal(tt.from) || !to.Equal(tt.to) {
			t.Errorf("%q: [%v, %v), want [%v, %v)", tt.period, from, to, tt.from, tt.to)
		}
	}
}

func TestHelplineRuleReadsRequestsNotStories(t *testing.T) {
	c := ResourcesCapability(nil)
	for text, want := range map[string]bool{
		"what's the helpline in Ireland?":               true,
		"Is there a crisis line in Canada":              true,
		"can you give me the suicide hotline number":    true,
		"emergency number in Spain?":                    true,
		"I called a helpline last year and it did help": false,
		"the hotline kept me on hold for an hour":       false,
	} {
		if _, got := c.Match(&Request{Text: text}); got != want {
			t.Errorf("%q: match %t, want %t", text, got, want)
		}
	}
}

// BenchmarkMatchRules measures dispatch's rule pass over the built-in
// capabilities for a message none of them claims (the common case).
func BenchmarkMatchRules(b *testing.B) {
	r := NewRegistry()
	for _, c := range append(JournalCapabilities(nil), ResourcesCapability(nil)) {
		if err := r.Register(c); err != nil {
			b.Fatal(err)
		}
	}
	br := NewBranch(r, BranchOptions{})
	req := &Request{Text: "I have been so tired lately and work keeps piling up, I don't know what to do with myself anymore"}
	for b.Loop() {
		if _, _, ok := br.MatchRules(req); ok {
			b.Fatal("matched")
		}
	}
}
