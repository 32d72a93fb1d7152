package telegram

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/internal/confcheck"
)

// Config is the telegram section of Haven's configuration, which the
// adapter owns: cmd/haven hands it to configs.Load, which reads each key
// from the file and from HAVEN_TELEGRAM_<KEY>; the secrets come only from
// the environment. Telegram is served when Token is set.
type Config struct {
	// APIURL is the Bot API endpoint in the library's form, with two %s
	// for the token and the method ("https://api.telegram.org/bot%s/%s").
	// Point it at a local Bot API server or at telegramtest.
	APIURL string `yaml:"api_url"`
	// Token is the bot token from @BotFather (HAVEN_TELEGRAM_TOKEN only).
	Token string `yaml:"token" secret:"true"`
	// Mode is how updates arrive: polling (the default) or webhook.
	Mode Mode `yaml:"mode"`
	// WebhookListen is the local address the webhook server listens on
	// (webhook mode).
	WebhookListen string `yaml:"webhook_listen"`
	// WebhookURL is the public HTTPS URL Telegram posts updates to
	// (webhook mode); it is registered with setWebhook at start.
	WebhookURL string `yaml:"webhook_url"`
	// WebhookSecret is the secret token Telegram echoes in every webhook
	// call (HAVEN_TELEGRAM_WEBHOOK_SECRET only; webhook mode).
	WebhookSecret string `yaml:"webhook_secret" secret:"true"`
}

// DefaultConfig returns the settings used for every key that neither the
// file nor the environment sets: Telegram's own Bot API, long polling.
func DefaultConfig() Config {
	return Config{APIURL: tgbotapi.APIEndpoint, Mode: ModePolling, WebhookListen: ":8443"}
}

// Enabled reports whether Telegram is served: the bot token is set.
func (c Config) Enabled() bool { return c.Token != "" }

// Validate reports every problem in c at once (errors.Join), naming the
// key or environment variable and what to fix; it never quotes a secret.
// The webhook keys are checked only when Telegram is served in webhook
// mode.
func (c Config) Validate() error {
	var problems []error
	add := func(err error) {
		if err != nil {
			problems = append(problems, err)
		}
	}
	_, err := checkEndpoint(c.APIURL)
	add(err)
	add(checkMode(c.Mode))
	if c.Token == "" {
		if c.WebhookSecret != "" {
			add(errors.New("HAVEN_TELEGRAM_WEBHOOK_SECRET is set but HAVEN_TELEGRAM_TOKEN is not: set the bot token too, or unset the secret"))
		}
		return errors.Join(problems...)
	}
	add(checkToken(c.Token))
	if c.Mode == ModeWebhook {
		add(confcheck.Listen("telegram.webhook_listen", "HAVEN_TELEGRAM_WEBHOOK_LISTEN", c.WebhookListen))
		if c.WebhookURL == "" {
			add(errors.New("telegram.webhook_url is empty but telegram.mode is webhook: set the public HTTPS URL Telegram posts to (HAVEN_TELEGRAM_WEBHOOK_URL)"))
		} else {
			add(confcheck.HTTPURL("telegram.webhook_url", "HAVEN_TELEGRAM_WEBHOOK_URL", c.WebhookURL, "https://haven.example.org/telegram"))
		}
		add(checkSecret(c.WebhookSecret))
	}
	return errors.Join(problems...)
}

// Options returns the adapter options c sets. The caller adds what is not
// configuration: the logger, the offset store, the admins.
func (c Config) Options() Options {
	return Options{
		Token:         c.Token,
		APIEndpoint:   c.APIURL,
		Mode:          c.Mode,
		WebhookURL:    c.WebhookURL,
		WebhookSecret: c.WebhookSecret,
	}
}

// checkToken checks the shape of a bot token: digits, a colon, then
// letters, digits, _ or -.
func checkToken(token string) error {
	if token == "" {
		return errors.New("no bot token: set HAVEN_TELEGRAM_TOKEN to the token @BotFather gave you")
	}
	id, rest, ok := strings.Cut(token, ":")
	if !ok || id == "" || strings.Trim(id, "0123456789") != "" || !secretChars(rest) {
		return errors.New("HAVEN_TELEGRAM_TOKEN does not look like a bot token (digits, a colon, then letters, digits, _ or -): copy it from @BotFather")
	}
	return nil
}

// checkEndpoint checks an endpoint in the library's form and returns its
// scheme and host.
func checkEndpoint(ep string) (string, error) {
	if strings.Count(ep, "%s") != 2 || strings.Count(ep, "%") != 2 {
		return "", fmt.Errorf("telegram.api_url %q must contain %%s twice, for the token and the method: e.g. https://api.telegram.org/bot%%s/%%s (HAVEN_TELEGRAM_API_URL)", ep)
	}
	u, err := url.Parse(fmt.Sprintf(ep, "TOKEN", "getMe"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("telegram.api_url %q is not an http(s) URL of the form https://api.telegram.org/bot%%s/%%s (HAVEN_TELEGRAM_API_URL)", ep)
	}
	return u.Scheme + "://" + u.Host, nil
}

// checkMode checks a receive mode.
func checkMode(m Mode) error {
	switch m {
	case ModePolling, ModeWebhook:
		return nil
	default:
		return fmt.Errorf("telegram.mode %q is unknown: use %s or %s (HAVEN_TELEGRAM_MODE)", m, ModePolling, ModeWebhook)
	}
}

// checkSecret checks a webhook secret against Telegram's secret_token
// rule.
func checkSecret(s string) error {
	switch {
	case s == "":
		return errors.New("HAVEN_TELEGRAM_WEBHOOK_SECRET is empty but telegram.mode is webhook: set it to 1-256 characters of A-Z, a-z, 0-9, _ or - so forged updates are refused")
	case !secretChars(s):
		return errors.New("HAVEN_TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ or - (Telegram's secret_token rule)")
	}
	return nil
}

// secretChars reports whether s is 1-256 of A-Z a-z 0-9 _ -.
func secretChars(s string) bool {
	if len(s) == 0 || len(s) > 256 {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}
