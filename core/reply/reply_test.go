package reply

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAssembleOrdersThePartsAndPutsTheRecallAfterAGreeting(t *testing.T) {
	tests := []struct {
		name string
		d    Draft
		want string
		keys []string
	}{
		{"body only", Draft{Body: []Part{{Text: "that sounds hard.", Key: "a/0"}}}, "That sounds hard.", []string{"a/0"}},
		{"all parts", Draft{
			Body:     []Part{{Text: "That sounds hard.", Key: "a/0"}},
			Recall:   Part{Text: "I remember you work as a nurse.", Key: "recall:fact:1"},
			Question: Part{Text: "What happened?", Key: "q/1"},
			Notice:   Part{Text: "Call 999 if you are in danger.", Essential: true},
		}, "I remember you work as a nurse. That sounds hard. What happened? Call 999 if you are in danger.",
			[]string{"recall:fact:1", "a/0", "q/1"}},
		{"greeting first", Draft{
			Body:   []Part{{Text: "Hi Sam, good to see you again. How has the week been?", Key: "hi/0"}},
			Recall: Part{Text: "Last time we talked about work.", Key: "recall:episode:2"},
		}, "Hi Sam, good to see you again. Last time we talked about work. How has the week been?",
			[]string{"hi/0", "recall:episode:2"}},
		{"empty parts are skipped", Draft{Body: []Part{{Text: "  "}, {Text: "okay."}}}, "Okay.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Assemble(tt.d, 0)
			if a.Text != tt.want || !slices.Equal(a.Keys, tt.keys) || !a.Fits {
				t.Errorf("Assemble = %q %v fits=%t\nwant %q %v", a.Text, a.Keys, a.Fits, tt.want, tt.keys)
			}
		})
	}
}

func TestAssembleCutsTheRecallFirstThenOptionalPartsButNeverTheNotice(t *testing.T) {
	d := Draft{
		Body: []Part{
			{Text: "Let's begin.", Key: "begin/0"},
			{Text: "Breathe in for four.", Key: "step/0", Essential: true},
			{Text: "Take your time.", Key: "time/0"},
		},
		Recall:   Part{Text: "I remember you like swimming.", Key: "recall:fact:3"},
		Question: Part{Text: "Ready?", Key: "q/0"},
		Notice:   Part{Text: "If you're in danger, call 112.", Essential: true},
	}
	full := Assemble(d, 0).Text
	for limit := utf8.RuneCountInString(full); limit > 0; limit-- {
		a := Assemble(d, limit)
		if !a.Fits {
			// Only the essentials are left, and they do not fit.
			if a.Text != "Breathe in for four. Ready? If you're in danger, call 112." {
				t.Fatalf("limit %d: what is left is %q", limit, a.Text)
			}
			return
		}
		if utf8.RuneCountInString(a.Text) > limit {
			t.Fatalf("limit %d: %d runes", limit, utf8.RuneCountInString(a.Text))
		}
		if !slices.Contains(a.Keys, "step/0") || !strings.Contains(a.Text, "call 112") {
			t.Fatalf("limit %d: an essential part was cut: %q", limit, a.Text)
		}
		if strings.Contains(a.Text, "Let's begin") && !strings.Contains(a.Text, "swimming") && strings.Contains(full, "swimming") && limit == utf8.RuneCountInString(full) {
			t.Fatalf("limit %d: cut the body before the recall", limit)
		}
		if !strings.Contains(a.Text, "swimming") && slices.Contains(a.Keys, "recall:fact:3") {
			t.Fatalf("limit %d: key of a cut recall kept", limit)
		}
		if strings.Contains(a.Text, "swimming") && !strings.Contains(a.Text, "Let's begin") {
			t.Fatalf("limit %d: cut a statement while the recall stayed: %q", limit, a.Text)
		}
	}
	t.Fatal("never reached the essentials")
}
