package slack

import "testing"

func TestOnlySlacksResponseURLsAreSentAPressedMessagesText(t *testing.T) {
	a, err := New(Options{BotToken: "xoxb-1", AppToken: "xapp-1", APIURL: "http://127.0.0.1:8080/api/"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		url  string
		want bool
	}{
		{"https://hooks.slack.com/actions/T0/1/abc", true},
		{"https://hooks.slack-gov.com/actions/T0/1/abc", true},
		{"http://127.0.0.1:8080/actions/1.2.press", true}, // the configured API's host
		{"http://hooks.slack.com/actions/T0/1/abc", false},
		{"https://hooks.slack.com.evil.example/actions", false},
		{"https://user@hooks.slack.com/actions", false},
		{"http://127.0.0.1:9999/actions/1", false},
		{"", false},
		{"::not a url", false},
	}
	for _, tt := range tests {
		if got := a.trustedResponseURL(tt.url); got != tt.want {
			t.Errorf("trustedResponseURL(%q) = %v, want %v", tt.url, got, tt.want)
		}
	}
}
