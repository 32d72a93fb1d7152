package telegram_test

import (
	"strings"
	"testing"

	"github.com/havenbot/haven/adapters/telegram"
)

// validConfig is a served Telegram configuration.
func validConfig() telegram.Config {
	c := telegram.DefaultConfig()
	c.Token = "123456:AAbb_cc-DD"
	return c
}

func TestConfigDefaultsAndValidSettingsPass(t *testing.T) {
	d := telegram.DefaultConfig()
	if d.Enabled() || d.APIURL != "https://api.telegram.org/bot%s/%s" || d.Mode != telegram.ModePolling || d.WebhookListen != ":8443" {
		t.Errorf("DefaultConfig = %+v", d)
	}
	if err := d.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
	c := validConfig()
	if err := c.Validate(); err != nil || !c.Enabled() {
		t.Fatalf("Validate = %v, Enabled = %v", err, c.Enabled())
	}
	c.Mode, c.WebhookURL, c.WebhookSecret = telegram.ModeWebhook, "https://h.example/tg", "abc_DEF-1"
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate webhook mode: %v", err)
	}
}

func TestConfigValidateSaysWhatToFix(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*telegram.Config)
		want string
	}{
		{"api url without placeholders", func(c *telegram.Config) { c.APIURL = "http://127.0.0.1:1/bot" }, "must contain %s twice"},
		{"api url bad scheme", func(c *telegram.Config) { c.APIURL = "ftp://x/bot%s/%s" }, `telegram.api_url "ftp://x/bot%s/%s" is not an http(s) URL`},
		{"mode", func(c *telegram.Config) { c.Mode = "push" }, `telegram.mode "push" is unknown: use polling or webhook (HAVEN_TELEGRAM_MODE)`},
		{"token shape", func(c *telegram.Config) { c.Token = "not a token" }, "HAVEN_TELEGRAM_TOKEN does not look like a bot token"},
		{"secret without token", func(c *telegram.Config) { c.Token, c.WebhookSecret = "", "s" }, "HAVEN_TELEGRAM_WEBHOOK_SECRET is set but HAVEN_TELEGRAM_TOKEN is not"},
		{"webhook without url", func(c *telegram.Config) {
			c.Mode, c.WebhookSecret = telegram.ModeWebhook, "s"
		}, "telegram.webhook_url is empty but telegram.mode is webhook"},
		{"webhook url not http", func(c *telegram.Config) {
			c.Mode, c.WebhookSecret, c.WebhookURL = telegram.ModeWebhook, "s", "h.example/tg"
		}, `telegram.webhook_url "h.example/tg" is not an http(s) URL`},
		{"webhook without secret", func(c *telegram.Config) {
			c.Mode, c.WebhookURL = telegram.ModeWebhook, "https://h/tg"
		}, "HAVEN_TELEGRAM_WEBHOOK_SECRET is empty"},
		{"webhook secret charset", func(c *telegram.Config) {
			c.Mode, c.WebhookURL, c.WebhookSecret = telegram.ModeWebhook, "https://h/tg", "has space"
		}, "must be 1-256 characters"},
		{"webhook listen", func(c *telegram.Config) {
			c.Mode, c.WebhookURL, c.WebhookSecret, c.WebhookListen = telegram.ModeWebhook, "https://h/tg", "s", "8443"
		}, `telegram.webhook_listen "8443" is not a listen address`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := validConfig()
			tt.mod(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate = %v, want it to contain %q", err, tt.want)
			}
			for _, secret := range []string{"AAbb_cc", "not a token", "has space"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error leaks a secret %q: %v", secret, err)
				}
			}
		})
	}
}

func TestConfigValidateReportsEveryProblem(t *testing.T) {
	c := validConfig()
	c.APIURL, c.Mode, c.Token = "x", "push", "bad"
	err := c.Validate()
	for _, w := range []string{"telegram.api_url", "telegram.mode", "HAVEN_TELEGRAM_TOKEN"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Validate = %v, want it to mention %s", err, w)
		}
	}
}

// TestNewAppliesTheRulesOfTheConfig shows the rules live in one place: New
// refuses what Validate refuses, with the same words.
func TestNewAppliesTheRulesOfTheConfig(t *testing.T) {
	for _, mod := range []func(*telegram.Config){
		func(c *telegram.Config) { c.APIURL = "http://127.0.0.1:1/bot" },
		func(c *telegram.Config) { c.APIURL = "ftp://x/bot%s/%s" },
		func(c *telegram.Config) { c.Mode = "push" },
		func(c *telegram.Config) { c.Token = "1:a/b" },
		func(c *telegram.Config) {
			c.Mode, c.WebhookURL, c.WebhookSecret = telegram.ModeWebhook, "https://h/tg", "a b"
		},
		func(c *telegram.Config) { c.Mode, c.WebhookURL = telegram.ModeWebhook, "https://h/tg" },
	} {
		c := validConfig()
		mod(&c)
		verr := c.Validate()
		_, nerr := telegram.New(c.Options())
		if verr == nil || nerr == nil || !strings.Contains(nerr.Error(), verr.Error()) {
			t.Errorf("Validate = %v, New = %v: want the same refusal", verr, nerr)
		}
	}
	c := validConfig()
	if _, err := telegram.New(c.Options()); err != nil {
		t.Errorf("New refuses a valid configuration: %v", err)
	}
}
