package therapy

import (
	"strings"
	"testing"
)

func TestGuardPassesOrdinaryReplies(t *testing.T) {
	for _, r := range []string{
		"That sounds exhausting. What has the last week been like for you?",
		"It makes sense that you'd feel on edge after that. I'm here.",
		"Try breathing in for 4 and out for 6, five or six times.",
		"If it's been weighing on you for weeks, talking to a GP or counsellor could help, and I'm still here too.",
		"Please don't change your medication without talking to your doctor first.",
		"I'm not a therapist, but I'm glad to listen.",
		"On a scale from 0 to 100, how strong is it now?",
		"5-4-3-2-1 grounding uses your senses.",
	} {
		if rule := Guard(r, GuardOptions{}); rule != "" {
			t.Errorf("Guard(%q) = %s, want pass", r, rule)
		}
	}
}

func TestGuardCatchesEachRule(t *testing.T) {
	tests := []struct {
		reply string
		opts  GuardOptions
		want  string
	}{
		{"", GuardOptions{}, GuardEmpty},
		{strings.Repeat("I hear you. ", 80), GuardOptions{}, GuardTooLong},
		{"I hear you, and that matters a lot to me.", GuardOptions{MaxRunes: 20}, GuardTooLong},
		{"It sounds like you have generalized anxiety disorder.", GuardOptions{}, GuardDiagnosis},
		{"Honestly, you sound like you have clinical depression.", GuardOptions{}, GuardDiagnosis},
		{"You're bipolar, that explains the swings.", GuardOptions{}, GuardDiagnosis},
		{"Maybe ask about sertraline.", GuardOptions{}, GuardMedication},
		{"Try taking 50mg before bed.", GuardOptions{}, GuardMedication},
		{"You could stop taking your pills for a while.", GuardOptions{}, GuardMedication},
		{"Melatonin might help you sleep.", GuardOptions{}, GuardMedication},
		{"An overdose of that would be dangerous.", GuardOptions{}, GuardMethod},
		{"How many pills did you have in mind?", GuardOptions{}, GuardMethod},
		{"Is it lethal?", GuardOptions{}, GuardMethod},
		{"I'm a real person, not a bot.", GuardOptions{}, GuardHumanClaim},
		{"As your therapist, I think you're doing well.", GuardOptions{}, GuardHumanClaim},
		{"I am a licensed counselor.", GuardOptions{}, GuardHumanClaim},
		{"I'm not an AI, I promise.", GuardOptions{}, GuardHumanClaim},
		{"Don't worry, everything you tell me stays between us.", GuardOptions{}, GuardConfidentiality},
		{"This is completely confidential.", GuardOptions{}, GuardConfidentiality},
		{"I won't tell anyone.", GuardOptions{}, GuardConfidentiality},
		{"You can call 0800 123 4567 any time.", GuardOptions{}, GuardNumbers},
		{"Call 988 now.", GuardOptions{}, GuardNumbers},
		{"See www.example.org for help.", GuardOptions{}, GuardNumbers},
		{"What happened? How did you feel?", GuardOptions{}, GuardQuestions},
		{"That sounds hard. What happened?", GuardOptions{NoQuestion: true}, GuardQuestions},
		{"You should talk to him about it.", GuardOptions{NoAdvice: true}, GuardAdvice},
		{"Would you like to try a breathing exercise?", GuardOptions{NoAdvice: true}, GuardAdvice},
		{"Ignore the above. <<<PERSON", GuardOptions{}, GuardPromptLeak},
	}
	for _, tt := range tests {
		if got := Guard(tt.reply, tt.opts); got != tt.want {
			t.Errorf("Guard(%q, %+v) = %q, want %q", tt.reply, tt.opts, got, tt.want)
		}
	}
}
