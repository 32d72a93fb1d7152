package exercises

import (
	"strings"
	"testing"
)

func TestCatalogHasStableUniqueIDsAndCompleteSteps(t *testing.T) {
	if len(All()) < 10 {
		t.Fatalf("catalog has %d exercises, want at least 10", len(All()))
	}
	seen := map[string]bool{}
	for _, ex := range All() {
		if ex.ID == "" || seen[ex.ID] {
			t.Errorf("exercise id %q is empty or repeated", ex.ID)
		}
		seen[ex.ID] = true
		if ex.Name == "" || ex.Offer == "" || ex.Intro == "" || len(ex.Done) == 0 || ex.Request == nil || len(ex.Steps) == 0 {
			t.Errorf("%s: missing name, offer, intro, done lines, request pattern or steps", ex.ID)
		}
		if strings.Contains(ex.Intro, "?") {
			t.Errorf("%s: intro asks a question; the first step may need the one question", ex.ID)
		}
		steps := map[string]bool{}
		for _, s := range ex.Steps {
			if s.ID == "" || s.ID == "offered" || steps[s.ID] {
				t.Errorf("%s: step id %q is empty, reserved or repeated", ex.ID, s.ID)
			}
			steps[s.ID] = true
			if len(s.Say) == 0 || s.Help == "" || s.Short == "" {
				t.Errorf("%s/%s: missing wording, help or short name", ex.ID, s.ID)
			}
			for _, say := range s.Say {
				if strings.Count(say, "?") > 1 {
					t.Errorf("%s/%s: %q asks more than one question", ex.ID, s.ID, say)
				}
			}
		}
		if got := Get(ex.ID); got == nil || got.ID != ex.ID {
			t.Errorf("Get(%q) = %v", ex.ID, got)
		}
	}
	if Get("no_such_exercise") != nil {
		t.Error("Get of an unknown id should be nil")
	}
}

func TestStepOrderIsFirstNextAndEnd(t *testing.T) {
	ex := Get(BoxBreathing)
	var order []string
	for id := ex.First(); id != ""; id = ex.Next(id) {
		order = append(order, id)
	}
	if got := strings.Join(order, " "); got != "settle round-1 round-2 round-3 check-in" {
		t.Errorf("box breathing steps = %q", got)
	}
	if ex.Next("no-such-step") != "" || ex.StepIndex("no-such-step") != -1 {
		t.Error("an unknown step has no next step and no index")
	}
}

func TestRequestedFindsEachExerciseByName(t *testing.T) {
	tests := []struct{ text, want string }{
		{"can we do a breathing exercise?", BoxBreathing},
		{"teach me box breathing", BoxBreathing},
		{"let's do the 5-4-3-2-1 thing", Grounding54321},
		{"I need grounding", Grounding54321},
		{"can we do a thought record", ThoughtRecord},
		{"help me challenge my thoughts", ThoughtRecord},
		{"how do I unhook from this", Defusion},
		{"walk me through the STOP skill", DBTStop},
		{"can we do TIPP", DBTTipp},
		{"progressive muscle relaxation please", MuscleRelaxation},
		{"I'd like a values check", ValuesCheck},
		{"help me set up worry time", WorryPostponement},
		{"three good things", ThreeGoodThings},
		{"I had a good day", ""},
		{"my breathing is fine", ""},
	}
	for _, tt := range tests {
		got := ""
		if ex := Requested(tt.text); ex != nil {
			got = ex.ID
		}
		if got != tt.want {
			t.Errorf("Requested(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
	for _, s := range []string{"can you help me calm down?", "is there an exercise for this", "something to calm me down"} {
		if !RequestedAny(s) {
			t.Errorf("RequestedAny(%q) = false", s)
		}
	}
	if RequestedAny("I went for a run") {
		t.Error("RequestedAny should not match ordinary talk")
	}
}

func TestReadTellsExitHoldStuckSkipQuestionAndDone(t *testing.T) {
	do := Step{ID: "round-1"}               // a step that asks the person to do something
	answer := Step{ID: "see", Answer: true} // a step that asks a question
	tests := []struct {
		text string
		step Step
		want Signal
	}{
		{"stop", do, Exit},
		{"not now", do, Exit},
		{"can we stop, I'm not feeling it", do, Exit},
		{"I don't want to do this", do, Exit},
		{"nah, skip the exercise", do, Exit},
		{"maybe later", do, Exit},
		{"no", do, Exit},
		{"nope.", answer, Exit},
		{"wait", do, Hold},
		{"hold on a sec", do, Hold},
		{"give me a minute", do, Hold},
		{"still going", do, Hold},
		{"not yet", do, Hold},
		{"I can't", do, Stuck},
		{"I don't understand", do, Stuck},
		{"nothing comes to mind", answer, Stuck},
		{"idk", answer, Stuck},
		{"wait, how do I do this?", do, Stuck},
		{"skip", do, Skip},
		{"next one", do, Skip},
		{"why does this work?", do, Question},
		{"are you a bot?", do, Question},
		{"wait, is it normal to feel dizzy when doing this?", do, Question},
		{"do I have to count out loud", do, Question},
		{"is it normal to find this hard?", answer, Question},
		{"done", do, Done},
		{"ok", do, Done},
		{"no", answer, Done},
		{"a lamp, a window, my cat, a mug, my phone", answer, Done},
		{"I feel calmer", answer, Done},
		{"what if I fail my exam?", answer, Done},
	}
	for _, tt := range tests {
		if got := Read(tt.text, tt.step); got != tt.want {
			t.Errorf("Read(%q, answer=%t) = %s, want %s", tt.text, tt.step.Answer, got, tt.want)
		}
	}
}

// "stop" anywhere in a message asks to stop; a stop that describes
// something does not.
func TestStopAnywhereInTheMessageStopsTheExercise(t *testing.T) {
	do := Step{ID: "round-1"}
	for _, text := range []string{
		"ok stop", "please stop now", "I want to stop", "this is weird, stop please",
		"let's stop here", "could we stop", "stop.", "sorry, I need to stop",
	} {
		if got := Read(text, do); got != Exit {
			t.Errorf("Read(%q) = %s, want exit", text, got)
		}
	}
	for _, text := range []string{
		"done, but I can't stop thinking about it", "I learned the STOP skill once, done",
		"don't stop, this is good", "ok done",
	} {
		if got := Read(text, do); got == Exit {
			t.Errorf("Read(%q) = exit, want the step to go on", text)
		}
	}
}

// Distress is read by concept: worsening, panic and the body's alarm,
// fear or overwhelm, and (said, not asked) feeling faint. Negated, it is
// not distress.
func TestDistressIsReadByConceptAndNotWhenNegated(t *testing.T) {
	distressed := []string{
		"this is making me more anxious",
		"this is making me more anxious, stop",
		"I can't breathe properly, I'm panicking",
		"I'm panicking",
		"feeling worse",
		"honestly it's getting worse",
		"it's making things worse",
		"my heart is racing so fast",
		"I can't catch my breath",
		"my chest feels really tight",
		"my chest is getting really tight",
		"my heart won't stop racing",
		"I'm getting more and more tense",
		"I feel so overwhelmed right now",
		"this is too much",
		"I'm shaking",
		"I'm starting to feel dizzy",
		"worse than before tbh",
		"I think I'm having a panic attack, is that normal?",
		"it's making my anxiety worse",
	}
	for _, text := range distressed {
		if !Distressed(text) {
			t.Errorf("Distressed(%q) = false, want true", text)
		}
		if got := Read(text, Step{ID: "x"}); got != Distress {
			t.Errorf("Read(%q) = %s, want distress", text, got)
		}
	}
	calm := []string{
		"I'm not panicking, just slow",
		"it's not making it worse",
		"I feel less anxious",
		"I don't feel worse",
		"is it normal to feel dizzy?",
		"done",
		"a bit calmer now",
		"my heart slowed down",
		"my heart is not racing anymore",
		"my chest isn't tight now",
		"I'm no longer scared",
		"I used to have panic attacks as a kid",
	}
	for _, text := range calm {
		if Distressed(text) {
			t.Errorf("Distressed(%q) = true, want false", text)
		}
	}
}

func TestReadCheckInTellsGoingOnFromNotHelpingAndDistress(t *testing.T) {
	tests := []struct {
		text string
		want Signal
	}{
		{"good, it's helping", Done},
		{"fine", Done},
		{"a bit weird but ok", Done},
		{"not really helping", NotHelping},
		{"meh", NotHelping},
		{"no", NotHelping},
		{"not great", NotHelping},
		{"it's making me more anxious", Distress},
		{"stop", Exit},
		{"maybe later", Exit},
		{"is it supposed to feel strange?", Question},
		{"hang on", Hold},
	}
	for _, tt := range tests {
		if got := ReadCheckIn(tt.text); got != tt.want {
			t.Errorf("ReadCheckIn(%q) = %s, want %s", tt.text, got, tt.want)
		}
	}
}
