package therapy

import (
	"strings"
	"testing"

	"github.com/havenbot/haven/core/therapy/exercises"
)

func TestPlainFarewellIsOnlyAGoodbyeForNow(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"ok I need to go now, bye", true},
		{"bye", true},
		{"thanks, talk later!", true},
		{"sorry gotta go. see you tomorrow", true},
		{"I have to go now", true},
		{"good night x", true},
		{"anyway bye, I'm a burden to everyone", false},
		{"I need to go now, goodbye forever", false},
		{"bye everyone, thank you for everything", false},
		{"it's time for me to go. bye", false},
		{"I said bye to my sister at the station and cried", false},
		{"I need to go to the doctor about my anxiety", false},
		{"ok bye, I won't be around anymore", false},
	}
	for _, tt := range tests {
		if got := PlainFarewell(tt.text); got != tt.want {
			t.Errorf("PlainFarewell(%q) = %t, want %t", tt.text, got, tt.want)
		}
	}
}

func TestNoteSafetyCheckRemembersAClearAnswerUntilNewRisk(t *testing.T) {
	tests := []struct {
		name           string
		in             State
		answered, asks bool
		want           bool
		wantStabilize  int
	}{
		{"a clear answer is remembered and steps down", State{Stabilize: 3}, true, false, true, 0},
		{"an ordinary message keeps it", State{SafetyAnswered: true, Stabilize: 0}, false, false, true, 0},
		{"new warning signs forget it", State{SafetyAnswered: true}, false, true, false, 0},
		{"nothing asked, nothing remembered", State{Stabilize: 2}, false, false, false, 2},
	}
	for _, tt := range tests {
		got := noteSafetyCheck(tt.in, tt.answered, tt.asks)
		if got.SafetyAnswered != tt.want || got.Stabilize != tt.wantStabilize {
			t.Errorf("%s: answered %t stabilize %d, want %t %d", tt.name, got.SafetyAnswered, got.Stabilize, tt.want, tt.wantStabilize)
		}
	}
	if s := AfterCrisis(State{SafetyAnswered: true}); s.SafetyAnswered {
		t.Error("a crisis turn must forget an earlier clear answer")
	}
}

func TestAClearSafetyAnswerGetsThanksAndAnOrdinaryQuestion(t *testing.T) {
	for _, risk := range []int{1, 2} {
		r := Respond(Request{Text: "no I'm not going to do anything", TurnCount: 2, SessionMaxRisk: risk, SafetyAnswer: true,
			State: AfterCrisis(State{Stage: StageDeepening})})
		if !r.State.SafetyAnswered || r.State.Stabilize != 0 || r.State.Stage == StageStabilizing {
			t.Errorf("risk %d: answered %t stabilize %d stage %s, want a step down", risk, r.State.SafetyAnswered, r.State.Stabilize, r.State.Stage)
		}
		if strings.Count(r.Text, "?") != 1 || strings.Contains(r.Text, "safe") && !strings.Contains(r.Text, "unsafe") {
			t.Errorf("risk %d: %q, want one ordinary question and no safety check", risk, r.Text)
		}
		if risk >= 2 && !strings.Contains(r.Text, "lines I shared") && !strings.Contains(r.Text, "numbers I gave") {
			t.Errorf("risk %d: %q should point back to the resources once", risk, r.Text)
		}
	}
}

func TestExerciseAnswerFitsTheExercise(t *testing.T) {
	box, pmr := exercises.Get(exercises.BoxBreathing), exercises.Get(exercises.MuscleRelaxation)
	tests := []struct {
		ex      *exercises.Exercise
		text    string
		wantKey string
	}{
		{box, "wait, is it normal to feel dizzy when doing this?", "dizzy"},
		{box, "do I have to hold my breath that long?", "hold"},
		{box, "should I count out loud?", "count"},
		{box, "is it ok to breathe through my mouth?", "nose"},
		{pmr, "what if it hurts my back?", "pain"},
		{pmr, "should my eyes be closed?", "eyes"},
		{box, "is it normal that I want to cry?", "feelings"},
		{box, "what's the capital of France?", ""},
	}
	for _, tt := range tests {
		key, _, ok := exerciseAnswer(tt.ex, tt.ex.Steps[1], tt.text)
		if key != tt.wantKey || ok != (tt.wantKey != "") {
			t.Errorf("exerciseAnswer(%s, %q) = %q %t, want %q", tt.ex.ID, tt.text, key, ok, tt.wantKey)
		}
	}
}

func TestReliefAfterACrisisIsMetQuietly(t *testing.T) {
	for _, text := range []string{
		"thanks. i'm safe, my partner is home now and i feel a bit better",
		"feeling so much better, my sister came over",
	} {
		r := Respond(Request{Text: text, TurnCount: 3, SessionMaxRisk: 2, State: AfterCrisis(State{Stage: StageDeepening})})
		low := strings.ToLower(r.Text)
		for _, jar := range []string{"congratulations", "brilliant", "big deal", "so pleased", "love hearing"} {
			if strings.Contains(low, jar) {
				t.Errorf("%q after a crisis answered %q, want relief met quietly (not %q)", text, r.Text, jar)
			}
		}
		if !strings.Contains(r.Text, "lines I shared") && !strings.Contains(r.Text, "numbers I gave") {
			t.Errorf("%q after a crisis answered %q, want the resources pointed to again", text, r.Text)
		}
	}
}
