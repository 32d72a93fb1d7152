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
	tests := []struct {
		text string
		want Signal
	}{
		{"stop", Exit},
		{"not now", Exit},
		{"can we stop, I'm not feeling it", Exit},
		{"I don't want to do this", Exit},
		{"nah, skip the exercise", Exit},
		{"wait", Hold},
		{"hold on a sec", Hold},
		{"give me a minute", Hold},
		{"still going", Hold},
		{"I can't", Stuck},
		{"I don't understand", Stuck},
		{"nothing comes to mind", Stuck},
		{"idk", Stuck},
		{"skip", Skip},
		{"next one", Skip},
		{"why does this work?", Question},
		{"are you a bot?", Question},
		{"done", Done},
		{"ok", Done},
		{"a lamp, a window, my cat, a mug, my phone", Done},
		{"I feel calmer", Done},
	}
	for _, tt := range tests {
		if got := Read(tt.text); got != tt.want {
			t.Errorf("Read(%q) = %s, want %s", tt.text, got, tt.want)
		}
	}
}
