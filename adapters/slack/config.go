package slack

import (
	"errors"
	"fmt"
	"strings"

	"github.com/havenbot/haven/adapters/internal/confcheck"
)

// Platform is the adapter's platform name and its configuration section.
const Platform = "slack"

// The receive modes.
const (
	// ModeSocket receives events over Socket Mode: no public URL needed.
	ModeSocket = "socket"
	// ModeHTTP receives events from the Events API over HTTP.
	ModeHTTP = "http"
)

// Config is the slack section of Haven's configuration, which the adapter
// owns: cmd/haven hands it to configs.Load, which reads each key from the
// file and from HAVEN_SLACK_<KEY>; the secrets come only from the
// environment. Slack is served when BotToken is set.
type Config struct {
	// APIURL is the Web API root, with its trailing slash.
	APIURL string `yaml:"api_url"`
	// BotToken is the xoxb- bot token (HAVEN_SLACK_BOT_TOKEN only).
	BotToken string `yaml:"bot_token" secret:"true"`
	// AppToken is the xapp- app-level token for Socket Mode
	// (HAVEN_SLACK_APP_TOKEN only).
	AppToken string `yaml:"app_token" secret:"true"`
	// SigningSecret verifies Events API requests in http mode
	// (HAVEN_SLACK_SIGNING_SECRET only).
	SigningSecret string `yaml:"signing_secret" secret:"true"`
	// Mode is "socket" (Socket Mode) or "http" (Events API over HTTP).
	Mode string `yaml:"mode"`
	// HTTPListen is the local address the Events API server listens on
	// (http mode).
	HTTPListen string `yaml:"http_listen"`
}

// DefaultConfig returns the settings used for every key that neither the
// file nor the environment sets: Slack's own Web API, Socket Mode.
func DefaultConfig() Config {
	return Config{APIURL: "https://slack.com/api/", Mode: ModeSocket, HTTPListen: ":3000"}
}

// Enabled reports whether Slack is served: the bot token is set.
func (c Config) Enabled() bool { return c.BotToken != "" }

// Validate reports every problem in c at once (errors.Join), naming the
// key or environment variable and what to fix; it never quotes a secret.
func (c Config) Validate() error {
	var problems []error
	add := func(err error) {
		if err != nil {
			problems = append(problems, err)
		}
	}
	if err := confcheck.HTTPURL("slack.api_url", "HAVEN_SLACK_API_URL", c.APIURL, "https://slack.com/api/"); err != nil {
		add(err)
	} else if !strings.HasSuffix(c.APIURL, "/") {
		add(fmt.Errorf("slack.api_url %q must end with a slash, e.g. https://slack.com/api/ (HAVEN_SLACK_API_URL)", c.APIURL))
	}
	switch c.Mode {
	case ModeSocket, ModeHTTP:
	default:
		add(fmt.Errorf("slack.mode %q is unknown: use socket or http (HAVEN_SLACK_MODE)", c.Mode))
	}
	if c.BotToken == "" {
		if c.AppToken != "" || c.SigningSecret != "" {
			add(errors.New("HAVEN_SLACK_APP_TOKEN or HAVEN_SLACK_SIGNING_SECRET is set but HAVEN_SLACK_BOT_TOKEN is not: set the xoxb- bot token too, or unset them"))
		}
		return errors.Join(problems...)
	}
	if !strings.HasPrefix(c.BotToken, "xoxb-") {
		add(errors.New("HAVEN_SLACK_BOT_TOKEN must be a bot token starting with xoxb- (OAuth & Permissions → Bot User OAuth Token)"))
	}
	if c.AppToken != "" && !strings.HasPrefix(c.AppToken, "xapp-") {
		add(errors.New("HAVEN_SLACK_APP_TOKEN must be an app-level token starting with xapp- (Basic Information → App-Level Tokens, scope connections:write)"))
	}
	switch c.Mode {
	case ModeSocket:
		if c.AppToken == "" {
			add(errors.New("HAVEN_SLACK_APP_TOKEN is empty but slack.mode is socket: set the xapp- app-level token, or set slack.mode to http"))
		}
	case ModeHTTP:
		if c.SigningSecret == "" {
			add(errors.New("HAVEN_SLACK_SIGNING_SECRET is empty but slack.mode is http: set it from Basic Information → Signing Secret so requests can be verified"))
		}
		add(confcheck.Listen("slack.http_listen", "HAVEN_SLACK_HTTP_LISTEN", c.HTTPListen))
	}
	return errors.Join(problems...)
}

// Options returns the adapter options these settings give. The caller
// adds what is not configuration: admins, logger, HTTP client.
func (c Config) Options() Options {
	return Options{
		BotToken:      c.BotToken,
		AppToken:      c.AppToken,
		SigningSecret: c.SigningSecret,
		Mode:          c.Mode,
		APIURL:        c.APIURL,
	}
}
