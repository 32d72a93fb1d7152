package therapy

import (
	"strings"
	"testing"
)

func TestReflectTurnsFirstPersonIntoSecond(t *testing.T) {
	tests := []struct{ in, want string }{
		{"I have been so stressed about work", "you've been so stressed about work"},
		{"I'm so tired of my boss yelling at me", "you're so tired of your boss yelling at you"},
		{"honestly I feel like nobody listens to me.", "you feel like nobody listens to you"},
		{"I miss my dad", "you miss your dad"},
		{"ok", ""},
		{"the weather is nice", ""},
	}
	for _, tt := range tests {
		if got := reflect(tt.in); got != tt.want {
			t.Errorf("reflect(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

var conversation = []string{
	"hi",
	"I have been so stressed about work",
	"my manager keeps piling things on",
	"I feel like nobody listens to me",
	"idk",
	"my mum passed away last month and I miss her",
	"I'm exhausted",
	"thanks",
	"are you a real person?",
	"bye",
}

func TestRespondAsksAtMostOneQuestionAndNeverRepeatsItself(t *testing.T) {
	var recent []string
	prev := ""
	for i, msg := range conversation {
		r := Respond(Request{Text: msg, TurnCount: i, FirstContact: i == 0, RecentKeys: recent})
		if r.Text == "" {
			t.Fatalf("turn %d: empty reply", i)
		}
		if n := strings.Count(r.Text, "?"); n > 1 {
			t.Errorf("turn %d: %d questions in %q", i, n, r.Text)
		}
		if r.Text == prev {
			t.Errorf("turn %d: same reply twice in a row: %q", i, r.Text)
		}
		if strings.Contains(strings.ToLower(r.Text), strings.ToLower(msg)) && len(msg) > 12 && !strings.Contains(r.Text, "you") {
			t.Errorf("turn %d: reply echoes the message: %q", i, r.Text)
		}
		prev, recent = r.Text, r.Keys
	}
}

func TestRespondRepeatedMessageGetsDifferentWording(t *testing.T) {
	req := Request{Text: "I have been so stressed about work", TurnCount: 3}
	first := Respond(req)
	req.RecentKeys = first.Keys
	second := Respond(req)
	if first.Text == second.Text {
		t.Fatalf("same message twice got the same reply: %q", first.Text)
	}
}

func TestRespondSaysWhatHavenIs(t *testing.T) {
	for _, msg := range []string{"hello", "are you human?", "who are you"} {
		r := Respond(Request{Text: msg, FirstContact: true})
		low := strings.ToLower(r.Text)
		if !strings.Contains(low, "ai companion") || !strings.Contains(low, "not a therapist") {
			t.Errorf("%q: reply does not say Haven is an AI companion and not a therapist: %q", msg, r.Text)
		}
	}
}

func TestRespondSaysWhatHavenIsEvenWhenItAsksTheSafetyQuestion(t *testing.T) {
	const q = "Are you having thoughts of ending your life?"
	for _, msg := range []string{"I keep thinking about it and nothing helps", "bye, I'm done with all of this"} {
		r := Respond(Request{Text: msg, FirstContact: true, SafetyQuestion: q})
		low := strings.ToLower(r.Text)
		if !strings.Contains(low, "ai companion") || !strings.Contains(low, "not a therapist") || !strings.HasSuffix(r.Text, q) {
			t.Errorf("%q: first reply %q must say Haven is an AI companion and end with the safety question", msg, r.Text)
		}
	}
}

func TestRespondSafetyQuestionReplacesTheClosingQuestion(t *testing.T) {
	const q = "Are you having thoughts of ending your life?"
	r := Respond(Request{Text: "I have been so stressed about work", SafetyQuestion: q})
	if !strings.HasSuffix(r.Text, q) || strings.Count(r.Text, "?") != 1 {
		t.Fatalf("reply %q should end with the one safety question", r.Text)
	}
}

func TestRespondModes(t *testing.T) {
	tests := []struct {
		msg      string
		mode     Mode
		modality Modality
	}{
		{"I have been so stressed about work", ModeReflective, ModalityCBT},
		{"work is a lot right now", ModeSupportive, ModalityNone},
		{"my grandad died on sunday", ModeSupportive, ModalityGrief},
		{"meh", ModeClarifying, ModalityNone},
		{"goodbye for now", ModeClosing, ModalityNone},
	}
	for _, tt := range tests {
		r := Respond(Request{Text: tt.msg, TurnCount: 2})
		if r.Mode != tt.mode || r.Modality != tt.modality {
			t.Errorf("%q: mode %s/%s, want %s/%s", tt.msg, r.Mode, r.Modality, tt.mode, tt.modality)
		}
	}
}
