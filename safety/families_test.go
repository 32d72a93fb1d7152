package safety

import "testing"

// TestRuleFamilies covers each rule family with everyday wording (none of
// it from the tuning data).
// levelCase is a phrase and the range of levels the floor may give it.
type levelCase struct {
	text     string
	min, max Level
}

// checkLevels assesses every phrase of every family with the floor alone.
func checkLevels(t *testing.T, families map[string][]levelCase) {
	t.Helper()
	f := NewFloor()
	for fam, cases := range families {
		for _, cs := range cases {
			a := f.Assess(Input{Text: cs.text})
			if a.Level < cs.min || a.Level > cs.max {
				t.Errorf("%s: %q: level %d (path %v), want %d..%d", fam, cs.text, a.Level, a.Path, cs.min, cs.max)
			}
		}
	}
}

func TestRuleFamilies(t *testing.T) {
	checkLevels(t, map[string][]levelCase{
		"imminent": {
			{"I'm going to do it tonight, I already have the pills", 3, 3},
			{"I've decided to end my life this weekend", 3, 3},
			{"I have a plan to kill myself", 3, 3},
			{"I've been saving up my pills for this", 3, 3},
			{"this is my goodbye, I love you all", 3, 3},
			{"by the time you read this I'll be gone", 3, 3},
			{"I tried to kill myself last night", 3, 3},
			{"I just took a whole bottle of pills", 3, 3},
			{"I'm standing on the bridge right now", 3, 3},
			{"I gave away my cat and all my things", 3, 3},
		},
		"active ideation": {
			{"I keep thinking about killing myself", 2, 3},
			{"I want to end my life", 2, 3},
			{"I've been having suicidal thoughts", 2, 3},
			{"suicide feels like the only way out", 2, 3},
			{"how many pills would it take to die", 2, 3},
			{"I think about suicide every day", 2, 3},
		},
		"passive ideation": {
			{"I wish I were dead", 2, 3},
			{"I don't want to be alive anymore", 2, 3},
			{"everyone would be better off if I was gone", 2, 3},
			{"I hope I don't wake up tomorrow", 2, 3},
			{"I have no reason to live", 2, 3},
			{"I'd be better off dead", 2, 3},
			{"what's the point of living", 2, 3},
		},
		"self-injury": {
			{"I relapsed and cut again", 2, 3},
			{"I burned myself with a lighter to feel something", 2, 3},
			{"I want to hurt myself", 2, 3},
			{"my fresh cuts on my thighs sting", 2, 3},
		},
		"warning signs": {
			{"I feel like such a burden to everyone", 1, 1},
			{"I feel trapped and there's no way out", 1, 1},
			{"I just want to disappear", 1, 1},
			{"nothing is ever going to get better", 1, 1},
		},
		"idioms": {
			{"this traffic is killing me", 0, 0},
			{"I'm dying to see that movie", 0, 0},
			{"my battery is dead", 0, 0},
			{"I nearly died laughing at that video", 0, 0},
			{"we killed it at the gig last night", 0, 0},
			{"I'd kill for a pizza right now", 0, 0},
			{"I'm bored to death in this meeting", 0, 0},
			{"the deadline is killing me", 0, 0},
			{"How do I kill all child processes in bash", 0, 0},
			{"how do I cut a mango", 0, 0},
			{"I could murder a burger", 0, 0},
			{"im killing myself trying to keep everyone happy", 0, 0},
			{"keep killing myself over this thesis and nobody notices", 0, 0},
			{"I want to carve out a career in design", 0, 0},
		},
		"negation": {
			{"I would never kill myself", 0, 0},
			{"I'm not suicidal, just stressed about work", 0, 1},
			{"I'm not going to hurt myself", 0, 0},
		},
		"past versus present": {
			{"I used to want to die, I'm in a better place now", 0, 0},
			{"Years ago I was suicidal but I got help and I'm doing well now", 0, 0},
		},
		"third party": {
			{"my brother said he wants to die", 0, 0},
			{"my friend is talking about killing herself, what should I do", 0, 0},
			{"how do I help a suicidal friend", 0, 0},
		},
		"topic questions": {
			{"what is the suicide rate in Japan", 0, 0},
			{"What is suicide?", 0, 0},
			{"Why do people die by suicide?", 0, 0},
			{"I'm writing an essay on suicide prevention", 0, 0},
			{"what are the warning signs of suicide", 0, 0},
		},
		"harm to others and abuse": {
			{"my boyfriend hits me and I'm scared to go home", 0, 1},
		},
	})
}

func TestThirdPartyAndAbuseFlags(t *testing.T) {
	f := NewFloor()
	cases := []struct {
		text string
		want Flags
	}{
		{"my brother said he wants to die", Flags{ThirdParty: true}},
		{"how do I help a suicidal friend", Flags{ThirdParty: true}},
		{"my boyfriend hits me and I'm scared to go home", Flags{AbuseOrDanger: true}},
		{"I want to kill my neighbour", Flags{HarmToOthers: true}},
		{"I'm scared my boyfriend will hurt me again", Flags{AbuseOrDanger: true}},
		{"sometimes I think about hurting my roommate", Flags{HarmToOthers: true}},
		{"what are the signs someone is suicidal", Flags{ThirdParty: true}},
		{"I think someone in my class is suicidal", Flags{ThirdParty: true}},
	}
	for _, c := range cases {
		a := f.Assess(Input{Text: c.text})
		got := a.Flags
		if c.want.ThirdParty && !got.ThirdParty || c.want.AbuseOrDanger && !got.AbuseOrDanger || c.want.HarmToOthers && !got.HarmToOthers {
			t.Errorf("%q: flags %+v, want %+v", c.text, got, c.want)
		}
	}
}

func TestWindowSeesRiskSpreadOverMessages(t *testing.T) {
	f := NewFloor()
	cases := []struct {
		name string
		in   Input
		want Level
	}{
		{"timing after earlier ideation", Input{Text: "tonight's the night", History: []string{"I keep thinking about killing myself"}}, 3},
		{"warning sign after earlier ideation", Input{Text: "I can't go on like this", History: []string{"I wish I was dead"}}, 2},
		{"preparation after earlier talk of dying", Input{Text: "I wrote the letters already", History: []string{"I don't want to be alive anymore"}}, 3},
		{"unrelated history does not raise", Input{Text: "what should I cook", History: []string{"work was fine today"}}, 0},
		{"old ideation does not keep flagging a neutral message", Input{Text: "thanks, that recipe looks good", History: []string{"I wanted to die"}}, 0},
	}
	for _, c := range cases {
		if a := f.Assess(c.in); a.Level != c.want {
			t.Errorf("%s: level %d (path %v), want %d", c.name, a.Level, a.Path, c.want)
		}
	}
}

func TestDenialAfterSafetyQuestion(t *testing.T) {
	f := NewFloor()
	for _, s := range []string{"no", "No, I'm not.", "nope, I'm just tired", "no I would never do that", "I'm safe, thanks"} {
		if a := f.Assess(Input{Text: s, AskedSafetyQuestion: true}); a.Level != 0 || !hasPath(a, "denial_after_question") {
			t.Errorf("%q after a safety question: %+v, want level 0 by denial", s, a)
		}
	}
	// Without a question, "no" is just "no"; with a new disclosure it is not a denial.
	if a := f.Assess(Input{Text: "no. I want to die", AskedSafetyQuestion: true}); a.Level < 2 {
		t.Errorf("denial plus disclosure: level %d, want >= 2", a.Level)
	}
	for _, s := range []string{"yes", "yeah sometimes", "I think so"} {
		if a := f.Assess(Input{Text: s, AskedSafetyQuestion: true}); a.Level < 2 {
			t.Errorf("%q after a safety question: level %d, want >= 2", s, a.Level)
		}
	}
}

func TestAConditionalThreatIsNotHarmToOthers(t *testing.T) {
	a := NewFloor().Assess(Input{Text: "I'm going to kill my brother if he eats my leftovers again"})
	if a.Flags.HarmToOthers {
		t.Fatalf("a conditional joke set harm_to_others: %v", a.Path)
	}
}
