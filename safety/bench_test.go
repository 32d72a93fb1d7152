package safety

import "testing"

// bench300 is a 300-character message with warning signs and no ideation.
const bench300 = "I have been feeling really low lately and work keeps piling up, my manager adds tasks every day and I can't sleep. Honestly some days I don't see the point of any of it, but I'm trying to keep going for my kids. Could you help me plan my week so it feels less overwhelming? Thanks, it means a lot to me."

// BenchmarkFloorAssess300 is the default floor, rules and learned scorer:
// the message is level 1 with no rule decision, so the scorer reads it.
func BenchmarkFloorAssess300(b *testing.B) {
	f := NewFloor()
	in := Input{Text: bench300}
	if !f.AssessRules(in).NeedsScore() {
		b.Fatal("the benchmark message does not reach the scorer")
	}
	b.ReportAllocs()
	for b.Loop() {
		f.Assess(in)
	}
}

// BenchmarkFloorAssess300RulesOnly is the same message through the rules
// alone, for comparison.
func BenchmarkFloorAssess300RulesOnly(b *testing.B) {
	f := NewFloorWith(FloorOptions{})
	in := Input{Text: bench300}
	b.ReportAllocs()
	for b.Loop() {
		f.Assess(in)
	}
}

// BenchmarkModelScore300 is the embedded model alone on the canonical form
// of the message.
func BenchmarkModelScore300(b *testing.B) {
	m := EmbeddedModel()
	canon := Normalize(bench300)
	b.ReportAllocs()
	for b.Loop() {
		m.Score(canon)
	}
}

func BenchmarkNormalize300(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Normalize(bench300)
	}
}

// shortUnsure is a short message the rules find nothing in: both learned
// scorers read it (TestShortUnsureReachesBothScorers keeps it so when the
// rules change).
var shortUnsure = Input{Text: "lately i just lie in bed and stare at the ceiling for hours"}

func TestShortUnsureReachesBothScorers(t *testing.T) {
	if v := NewFloor().AssessRules(shortUnsure); !v.NeedsScore() || !v.NeedsShortScore() {
		t.Fatalf("the benchmark message does not reach both scorers: level %v, path %v", v.Level, v.Path)
	}
}

// BenchmarkFloorAssessShortUnsure times shortUnsure: the rules, then both
// learned scorers.
func BenchmarkFloorAssessShortUnsure(b *testing.B) {
	f := NewFloor()
	in := shortUnsure
	b.ReportAllocs()
	for b.Loop() {
		f.Assess(in)
	}
}

func BenchmarkFloorAssessShortCrisis(b *testing.B) {
	f := NewFloor()
	in := Input{Text: "I want to kill myself"}
	b.ReportAllocs()
	for b.Loop() {
		f.Assess(in)
	}
}

func BenchmarkFloorAssessWithHistory(b *testing.B) {
	f := NewFloor()
	in := Input{Text: "tonight's the night", History: []string{"I keep thinking about killing myself", "nobody would even notice", "work was awful"}}
	b.ReportAllocs()
	for b.Loop() {
		f.Assess(in)
	}
}

// BenchmarkFloorAssessOrdinaryConversation is an everyday message after
// everyday ones: the window and the conversation reading both run.
func BenchmarkFloorAssessOrdinaryConversation(b *testing.B) {
	f := NewFloor()
	in := Input{Text: "then I think I'll make pasta and watch something", History: []string{"work was long today", "my manager moved the deadline again"}}
	b.ReportAllocs()
	for b.Loop() {
		f.Assess(in)
	}
}
