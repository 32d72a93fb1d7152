package safety

import "testing"

// inputCase is a whole floor input (history, the question just asked) and
// the range of levels the floor may give it.
type inputCase struct {
	name            string
	in              Input
	atLeast, atMost Level
}

func checkInputs(t *testing.T, cases []inputCase) {
	t.Helper()
	f := NewFloor()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			if a := f.Assess(tt.in); a.Level < tt.atLeast || a.Level > tt.atMost {
				t.Errorf("level %d (%v), want %d..%d", a.Level, a.Path, tt.atLeast, tt.atMost)
			}
		})
	}
}

func TestBareGoodbyeIsAFarewellOnlyAfterTalkOfDeath(t *testing.T) {
	checkInputs(t, []inputCase{
		{"bye ends a chat", Input{Text: "bye"}, LevelNone, LevelNone},
		{"bye after venting about work ends a chat", Input{Text: "thanks, that helped. bye", History: []string{"I have been so stressed and anxious about work"}}, LevelNone, LevelNone},
		{"bye after wanting to die is a farewell", Input{Text: "bye", History: []string{"I want to die", "there is nothing left for me"}}, LevelIdeation, LevelImminent},
		{"goodbye world is a farewell", Input{Text: "goodbye world"}, LevelImminent, LevelImminent},
	})
}

func TestAnswerToAreYouSafeIsReadByItsPolarity(t *testing.T) {
	history := []string{"I have everything ready and I am going to do it tonight"}
	checkInputs(t, []inputCase{
		{"no to are you safe is danger", Input{Text: "no", AskedIfSafe: true, History: history}, LevelImminent, LevelImminent},
		{"im not to are you safe is danger", Input{Text: "I'm not", AskedIfSafe: true}, LevelImminent, LevelImminent},
		{"not sure to are you safe is danger", Input{Text: "not sure", AskedIfSafe: true}, LevelImminent, LevelImminent},
		{"no plan and never would, to are you safe, is not an emergency", Input{Text: "no i dont have a plan, i'd never actually do it", AskedIfSafe: true, History: history}, LevelIdeation, LevelIdeation},
		{"no plan but alone, to are you safe, is danger", Input{Text: "no i dont have a plan but i'm alone", AskedIfSafe: true, History: history}, LevelImminent, LevelImminent},
		{"alone to is someone with you is danger", Input{Text: "no one, I'm alone", AskedIfSafe: true}, LevelImminent, LevelImminent},
		{"yes to are you safe stands on its words", Input{Text: "yes I'm safe", AskedIfSafe: true, History: history}, LevelNone, LevelWarning},
		{"im with my sister stands on its words", Input{Text: "I'm with my sister", AskedIfSafe: true}, LevelNone, LevelWarning},
		{"ok to are you safe keeps the crisis path", Input{Text: "ok", AskedIfSafe: true, History: history}, LevelIdeation, LevelImminent},
		{"a change of subject after are you safe keeps the crisis path", Input{Text: "can we talk about my exam instead", AskedIfSafe: true}, LevelIdeation, LevelImminent},
		{"no to are you thinking of suicide is a denial", Input{Text: "no", AskedSafetyQuestion: true}, LevelNone, LevelNone},
		{"yes to are you thinking of suicide is ideation", Input{Text: "yes", AskedSafetyQuestion: true}, LevelIdeation, LevelImminent},
		{"a disclosure after yes is still read", Input{Text: "yes, I have the pills ready and I will take them tonight", AskedIfSafe: true}, LevelImminent, LevelImminent},
	})
}
