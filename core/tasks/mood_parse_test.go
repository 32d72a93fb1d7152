package tasks

import (
	"maps"
	"strings"
	"testing"
)

func TestMoodLogReadsAMoodSaidInPlainWords(t *testing.T) {
	tests := []struct {
		text string
		want Args // nil: not a mood
	}{
		{"/mood 6 tired but ok", Args{"score": "6", "note": "tired but ok"}},
		{"/mood 7/10", Args{"score": "7", "scale": "10"}},
		{"/mood 3 - Rough day at Work", Args{"score": "3", "note": "Rough day at Work"}},
		{"log my mood as 4", Args{"score": "4"}},
		{"Log my mood as four, slept badly", Args{"score": "4", "note": "slept badly"}},
		{"please record my mood: 8", Args{"score": "8"}},
		{"mood 7", Args{"score": "7"}},
		{"Mood: 5, meh", Args{"score": "5", "note": "meh"}},
		{"my mood today is a 5/10", Args{"score": "5", "scale": "10"}},
		{"my mood is 6 out of ten today", Args{"score": "6", "scale": "10"}},
		{"I'd rate my mood a 3 today", Args{"score": "3"}},
		{"I’d rate my mood a 3 today because of the rain", Args{"score": "3", "note": "because of the rain"}},
		{"i would rate my day a 9", Args{"score": "9"}},
		{"mood 0", Args{"score": "0"}},
		// Off the scale: read as said, refused by mood.log, never clamped.
		{"/mood 12 amazing", Args{"score": "12", "note": "amazing"}},
		{"mood -1", Args{"score": "-1"}},
		{"mood 6.5", Args{"score": "6.5"}},
		{"log my mood as 3 out of 5", Args{"score": "3", "scale": "5"}},
		// Asking to log without a score: the branch asks for it.
		{"log my mood", Args{}},
		{"/mood", Args{}},
		{"Please record my mood.", Args{}},
		// Not a mood.
		{"I'm in a bad mood", nil},
		{"my mood has been low for weeks", nil},
		{"moody 7", nil},
		{"I have 3 kids", nil},
		{"remind me to log my mood at 9", nil},
		{"/mood week", nil},
		{"/mood chart", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, ok := matchMoodLog(&Request{Text: tt.text})
			if tt.want == nil {
				if ok {
					t.Fatalf("matchMoodLog(%q) = %v, want no match", tt.text, got)
				}
				return
			}
			if !ok || !maps.Equal(got, tt.want) {
				t.Fatalf("matchMoodLog(%q) = %v, %v; want %v", tt.text, got, ok, tt.want)
			}
		})
	}
}

func TestMoodBodyIsTheTextAfterTheCommand(t *testing.T) {
	tests := []struct {
		body string
		want Args
	}{
		{"6 tired but ok", Args{"score": "6", "note": "tired but ok"}},
		{"10", Args{"score": "10"}},
		{"eight: Good Sleep", Args{"score": "8", "note": "Good Sleep"}},
		{"11", Args{"score": "11"}},
		{"tired", nil},
	}
	for _, tt := range tests {
		got, ok := parseMoodBody(tt.body)
		if tt.want == nil {
			if ok {
				t.Errorf("parseMoodBody(%q) = %v, want no match", tt.body, got)
			}
			continue
		}
		if !ok || !maps.Equal(got, tt.want) {
			t.Errorf("parseMoodBody(%q) = %v, %v; want %v", tt.body, got, ok, tt.want)
		}
	}
}

func TestMoodScoreAsksClearlyInsteadOfClamping(t *testing.T) {
	tests := []struct {
		args    Args
		want    int
		askHas  string // "" means accepted
		askName string
	}{
		{Args{"score": "0"}, 0, "", ""},
		{Args{"score": "10", "scale": "10"}, 10, "", ""},
		{Args{"score": "6"}, 6, "", ""},
		{Args{"score": "11"}, 0, "can't log 11", "above the scale"},
		{Args{"score": "-1"}, 0, "can't log -1", "below the scale"},
		{Args{"score": "6.5"}, 0, "whole numbers", "a decimal"},
		{Args{"score": "3", "scale": "5"}, 0, "3 out of 5", "another scale"},
		{Args{"score": "lots"}, 0, "from 0 (the worst) to 10", "not a number"},
		{Args{"score": "Seven"}, 7, "", ""},
		{Args{"score": "8/10"}, 8, "", ""},
	}
	for _, tt := range tests {
		got, ask := moodScore(tt.args)
		if tt.askHas == "" {
			if ask != "" || got != tt.want {
				t.Errorf("moodScore(%v) = %d, %q; want %d", tt.args, got, ask, tt.want)
			}
			continue
		}
		if !strings.Contains(ask, tt.askHas) || !strings.HasSuffix(ask, "?") {
			t.Errorf("moodScore(%v) (%s) asks %q, want a question naming %q", tt.args, tt.askName, ask, tt.askHas)
		}
	}
}

func TestMoodViewsAreRecognised(t *testing.T) {
	tests := []struct {
		text      string
		week      bool
		chart     bool
		chartDays string
	}{
		{"/mood week", true, false, ""},
		{"how was my mood this week?", true, false, ""},
		{"show me my moods for the last 7 days", true, false, ""},
		{"my mood this week", true, false, ""},
		{"/mood chart", false, true, ""},
		{"/mood chart 14", false, true, "14"},
		{"show me my mood chart", false, true, ""},
		{"graph my mood for the last two weeks", false, true, "two weeks"},
		{"send me a mood graph please", false, true, ""},
		{"mood 7", false, false, ""},
		{"what's the weather this week", false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if _, ok := matchMoodWeek(&Request{Text: tt.text}); ok != tt.week {
				t.Errorf("matchMoodWeek = %v, want %v", ok, tt.week)
			}
			args, ok := matchMoodChart(&Request{Text: tt.text})
			if ok != tt.chart || args["days"] != tt.chartDays {
				t.Errorf("matchMoodChart = %v, %v; want %v with days %q", args, ok, tt.chart, tt.chartDays)
			}
		})
	}
}

func TestChartDaysTakesSevenToNinetyDays(t *testing.T) {
	tests := []struct {
		raw  string
		want int // 0: asked
	}{
		{"", 30}, {"14", 14}, {"7 days", 7}, {"week", 7}, {"two weeks", 14}, {"3 weeks", 21},
		{"month", 30}, {"three months", 90}, {"90d", 90}, {"6", 0}, {"365", 0}, {"forever", 0},
	}
	for _, tt := range tests {
		got, ask := chartDays(tt.raw)
		if tt.want == 0 {
			if ask == "" || !strings.Contains(ask, "7 to 90 days") {
				t.Errorf("chartDays(%q) = %d, %q; want the question naming 7 to 90 days", tt.raw, got, ask)
			}
			continue
		}
		if got != tt.want || ask != "" {
			t.Errorf("chartDays(%q) = %d, %q; want %d", tt.raw, got, ask, tt.want)
		}
	}
}
