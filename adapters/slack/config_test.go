package slack_test

import (
	"strings"
	"testing"

	"github.com/havenbot/haven/adapters/slack"
)

func validConfig() slack.Config {
	c := slack.DefaultConfig()
	c.BotToken, c.AppToken = "xoxb-1-2", "xapp-1-2"
	return c
}

func TestConfigDefaultsAndValidSettingsPass(t *testing.T) {
	d := slack.DefaultConfig()
	if d.Enabled() || d.APIURL != "https://slack.com/api/" || d.Mode != slack.ModeSocket || d.HTTPListen != ":3000" {
		t.Errorf("DefaultConfig = %+v", d)
	}
	if err := d.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
	c := validConfig()
	if err := c.Validate(); err != nil || !c.Enabled() {
		t.Fatalf("Validate = %v, Enabled = %v", err, c.Enabled())
	}
	c.Mode, c.SigningSecret = slack.ModeHTTP, "sig"
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate http mode: %v", err)
	}
}

func TestConfigValidateSaysWhatToFix(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*slack.Config)
		want string
	}{
		{"bot token prefix", func(c *slack.Config) { c.BotToken = "xoxp-123" }, "HAVEN_SLACK_BOT_TOKEN must be a bot token starting with xoxb-"},
		{"app token prefix", func(c *slack.Config) { c.AppToken = "xoxb-123" }, "HAVEN_SLACK_APP_TOKEN must be an app-level token starting with xapp-"},
		{"socket without app token", func(c *slack.Config) { c.AppToken = "" }, "HAVEN_SLACK_APP_TOKEN is empty but slack.mode is socket"},
		{"http without signing secret", func(c *slack.Config) { c.Mode = "http" }, "HAVEN_SLACK_SIGNING_SECRET is empty but slack.mode is http"},
		{"http listen", func(c *slack.Config) { c.Mode, c.SigningSecret, c.HTTPListen = "http", "s", "3000" }, `slack.http_listen "3000" is not a listen address`},
		{"app token without bot token", func(c *slack.Config) { c.BotToken = "" }, "HAVEN_SLACK_BOT_TOKEN is not"},
		{"api url slash", func(c *slack.Config) { c.APIURL = "https://slack.com/api" }, `slack.api_url "https://slack.com/api" must end with a slash`},
		{"api url not http", func(c *slack.Config) { c.APIURL = "slack.com/api/" }, `slack.api_url "slack.com/api/" is not an http(s) URL`},
		{"mode", func(c *slack.Config) { c.Mode = "rtm" }, `slack.mode "rtm" is unknown`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := validConfig()
			tt.mod(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate = %v, want it to contain %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "xoxp-123") || strings.Contains(err.Error(), "xoxb-1-2") {
				t.Errorf("error leaks a secret: %v", err)
			}
		})
	}
}
