package therapy

import "testing"

// BenchmarkRespond measures one scripted reply: dispatch rules, the exercise
// machine and composition, with no model.
func BenchmarkRespond(b *testing.B) {
	msgs := []string{"hi", "I have been so stressed about work", "my manager keeps piling things on and I can't say no",
		"why does anxiety make my heart race?", "my mum passed away last month and I miss her"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		Respond(Request{Text: msgs[i%len(msgs)], TurnCount: 3, State: State{Stage: StageDeepening}})
		i++
	}
}
