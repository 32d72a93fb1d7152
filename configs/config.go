// Package configs is Haven's configuration: the schema, its defaults, the
// loader and validation. One YAML file (haven.example.yaml is the annotated
// reference) is parsed strictly: an unknown key is an error naming it and
// its line. Every key can be overridden by an environment variable named
// HAVEN_ plus the key's path in upper snake case (telegram.api_url is
// HAVEN_TELEGRAM_API_URL). Secrets are read only from the environment.
//
// Load parses; Validate reports every problem at once with what to fix.
package configs

import (
	"log/slog"
	"time"
)

// Config is Haven's whole configuration. The yaml tags are the file keys;
// the environment variable of a key derives from its path (see Keys).
// Fields tagged secret:"true" come only from the environment.
type Config struct {
	// Database is where Haven keeps its state.
	Database Database `yaml:"database"`
	// LLM is the optional OpenAI-compatible model server.
	LLM LLM `yaml:"llm"`
	// Telegram is served when HAVEN_TELEGRAM_TOKEN is set.
	Telegram Telegram `yaml:"telegram"`
	// Slack is served when HAVEN_SLACK_BOT_TOKEN is set.
	Slack Slack `yaml:"slack"`
	// Discord is served when HAVEN_DISCORD_TOKEN is set.
	Discord Discord `yaml:"discord"`
	// Hub sizes the message hub.
	Hub Hub `yaml:"hub"`
	// Safety tunes the crisis gate.
	Safety Safety `yaml:"safety"`
	// Memory tunes long-term memory: sessions, retrieval, retention and
	// embeddings.
	Memory Memory `yaml:"memory"`
	// Admins are the namespaced platform user ids ("slack:T123:U456",
	// "telegram::42") allowed to run admin commands.
	Admins []string `yaml:"admins"`
	// Log configures log/slog output.
	Log Log `yaml:"log"`
	// Console configures the terminal adapter.
	Console Console `yaml:"console"`
}

// Database configures the embedded SQLite store.
type Database struct {
	// Path is the SQLite file; its directory is created if missing.
	Path string `yaml:"path"`
}

// LLM configures the OpenAI-compatible model server. With no BaseURL Haven
// runs without a model.
type LLM struct {
	// BaseURL is the API root including /v1 ("http://localhost:11434/v1").
	BaseURL string `yaml:"base_url"`
	// Model is the model name the server serves.
	Model string `yaml:"model"`
	// Timeout bounds one model call.
	Timeout time.Duration `yaml:"timeout"`
	// APIKey is sent as a bearer token (HAVEN_LLM_API_KEY only).
	APIKey string `yaml:"api_key" secret:"true"`
}

// Telegram configures the Telegram Bot API adapter.
type Telegram struct {
	// APIURL is the Bot API endpoint format with two %s, for the token and
	// the method ("https://api.telegram.org/bot%s/%s").
	APIURL string `yaml:"api_url"`
	// Token is the bot token from @BotFather (HAVEN_TELEGRAM_TOKEN only).
	Token string `yaml:"token" secret:"true"`
	// Mode is "polling" (getUpdates) or "webhook".
	Mode string `yaml:"mode"`
	// WebhookListen is the local address the webhook server listens on
	// (webhook mode).
	WebhookListen string `yaml:"webhook_listen"`
	// WebhookURL is the public HTTPS URL Telegram posts updates to
	// (webhook mode).
	WebhookURL string `yaml:"webhook_url"`
	// WebhookSecret is the secret_token Telegram echoes in every webhook
	// call (HAVEN_TELEGRAM_WEBHOOK_SECRET only; webhook mode).
	WebhookSecret string `yaml:"webhook_secret" secret:"true"`
}

// Telegram modes.
const (
	TelegramPolling = "polling"
	TelegramWebhook = "webhook"
)

// Slack configures the Slack adapter.
type Slack struct {
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

// Slack modes.
const (
	SlackSocket = "socket"
	SlackHTTP   = "http"
)

// Discord configures the Discord adapter.
type Discord struct {
	// APIURL is the REST API root with its trailing slash; the gateway URL
	// comes from its /gateway endpoint.
	APIURL string `yaml:"api_url"`
	// Token is the bot token (HAVEN_DISCORD_TOKEN only).
	Token string `yaml:"token" secret:"true"`
}

// Hub sizes the message hub.
type Hub struct {
	// Workers is the number of turns processed at once, across
	// conversations.
	Workers int `yaml:"workers"`
	// MaxQueued is the most inbound messages waiting across all
	// conversations; beyond it new messages are refused and left to the
	// platform's redelivery.
	MaxQueued int `yaml:"max_queued"`
	// DrainTimeout bounds how long shutdown waits for queued turns.
	DrainTimeout time.Duration `yaml:"drain_timeout"`
}

// Safety tunes the crisis gate.
type Safety struct {
	// LLMDeadline bounds the LLM assessor; past it the deterministic floor
	// stands (fail closed).
	LLMDeadline time.Duration `yaml:"llm_deadline"`
	// DefaultCountry is the ISO 3166-1 alpha-2 code ("US", "GB") whose
	// crisis resources are offered when the person's country is unknown;
	// empty offers the location-free fallback.
	DefaultCountry string `yaml:"default_country"`
	// AlertConversation is the namespaced conversation id of a private
	// operators' channel alerted on crisis turns; empty sends no alerts.
	AlertConversation string `yaml:"alert_conversation"`
}

// Memory tunes long-term memory.
type Memory struct {
	// IdleTimeout ends a session with no message for this long; its
	// episode is then written.
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	// TokenBudget bounds the remembered text put into one turn.
	TokenBudget int `yaml:"token_budget"`
	// TranscriptRetention deletes transcript lines older than this; 0 keeps
	// them.
	TranscriptRetention time.Duration `yaml:"transcript_retention"`
	// InactiveRetention deletes superseded facts this long after they were
	// replaced; 0 keeps them.
	InactiveRetention time.Duration `yaml:"inactive_retention"`
	// CrisisLogRetention deletes crisis log rows older than this; 0 keeps
	// them.
	CrisisLogRetention time.Duration `yaml:"crisis_log_retention"`
	// DeliveryRetention deletes handled inbox and delivered outbox rows
	// (kept for dedupe and retries; they hold platform ids) this long after
	// they were handled; 0 keeps them.
	DeliveryRetention time.Duration `yaml:"delivery_retention"`
	// EmbeddingsBaseURL is the OpenAI-compatible API root serving
	// /embeddings; empty uses llm.base_url.
	EmbeddingsBaseURL string `yaml:"embeddings_base_url"`
	// EmbeddingsModel turns on vector search with this embedding model;
	// empty searches by text only.
	EmbeddingsModel string `yaml:"embeddings_model"`
}

// EmbeddingsEnabled reports whether vector search is configured.
func (c Config) EmbeddingsEnabled() bool { return c.Memory.EmbeddingsModel != "" }

// EmbeddingsURL returns the API root for embeddings.
func (c Config) EmbeddingsURL() string {
	if c.Memory.EmbeddingsBaseURL != "" {
		return c.Memory.EmbeddingsBaseURL
	}
	return c.LLM.BaseURL
}

// Log configures log/slog.
type Log struct {
	// Level is debug, info, warn or error.
	Level string `yaml:"level"`
	// Format is text or json.
	Format string `yaml:"format"`
}

// Console configures the terminal adapter.
type Console struct {
	// Name is the display name of the person at the terminal; empty lets
	// the console choose (the OS user name).
	Name string `yaml:"name"`
}

// Defaults returns the configuration used for every key neither the file
// nor the environment sets: the console on ./data/haven.db, no LLM, no
// platforms.
func Defaults() Config {
	return Config{
		Database: Database{Path: "./data/haven.db"},
		LLM:      LLM{Timeout: 20 * time.Second},
		Telegram: Telegram{
			APIURL:        "https://api.telegram.org/bot%s/%s",
			Mode:          TelegramPolling,
			WebhookListen: ":8443",
		},
		Slack: Slack{
			APIURL:     "https://slack.com/api/",
			Mode:       SlackSocket,
			HTTPListen: ":3000",
		},
		Discord: Discord{APIURL: "https://discord.com/api/v9/"},
		Hub:     Hub{Workers: 8, MaxQueued: 1024, DrainTimeout: 15 * time.Second},
		Safety:  Safety{LLMDeadline: 3 * time.Second},
		Memory: Memory{
			IdleTimeout:        30 * time.Minute,
			TokenBudget:        400,
			InactiveRetention:  90 * 24 * time.Hour,
			CrisisLogRetention: 365 * 24 * time.Hour,
			DeliveryRetention:  7 * 24 * time.Hour,
		},
		Admins: []string{},
		Log:    Log{Level: "info", Format: "text"},
	}
}

// LLMEnabled reports whether a model server is configured (llm.base_url).
func (c Config) LLMEnabled() bool { return c.LLM.BaseURL != "" }

// TelegramEnabled reports whether Telegram is served (its token is set).
func (c Config) TelegramEnabled() bool { return c.Telegram.Token != "" }

// SlackEnabled reports whether Slack is served (its bot token is set).
func (c Config) SlackEnabled() bool { return c.Slack.BotToken != "" }

// DiscordEnabled reports whether Discord is served (its token is set).
func (c Config) DiscordEnabled() bool { return c.Discord.Token != "" }

// AnyPlatformEnabled reports whether any chat platform is served; when
// none is, haven runs the console.
func (c Config) AnyPlatformEnabled() bool {
	return c.TelegramEnabled() || c.SlackEnabled() || c.DiscordEnabled()
}

// SlogLevel returns Log.Level as a slog.Level; an unknown level (which
// Validate rejects) is Info.
func (c Config) SlogLevel() slog.Level {
	switch c.Log.Level {
	case "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	default:
		return slog.LevelInfo
	}
}

// Redacted returns a copy with every secret that is set replaced by
// "[redacted]", safe to log or print.
func (c Config) Redacted() Config {
	for _, k := range keys {
		if !k.Secret {
			continue
		}
		f := fieldOf(&c, k)
		if f.String() != "" {
			f.SetString("[redacted]")
		}
	}
	c.Admins = append([]string(nil), c.Admins...)
	return c
}
