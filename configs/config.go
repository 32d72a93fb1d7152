package configs

import (
	"log/slog"
	"reflect"
	"time"
)

// Config is Haven's own configuration. The yaml tags are the file keys;
// the environment variable of a key derives from its path (see Keys).
// Fields tagged secret:"true" come only from the environment. The chat
// platforms' sections belong to their adapters (see Section); a Config
// from Load holds them too.
type Config struct {
	// Database is where Haven keeps its state.
	Database Database `yaml:"database"`
	// LLM is the optional OpenAI-compatible model server.
	LLM LLM `yaml:"llm"`
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
	// Metrics configures the operator's HTTP endpoint: Prometheus metrics
	// and the health checks.
	Metrics Metrics `yaml:"metrics"`
	// Reminders tunes reminders and check-ins.
	Reminders Reminders `yaml:"reminders"`

	sections []section // the sections Load was given, filled
}

// Section returns the settings of the section named name that Load filled,
// or nil when Load was given no such section.
func (c Config) Section(name string) Settings {
	if s := c.section(name); s != nil {
		return s.Settings
	}
	return nil
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
	// ReplyMaxAge bounds the retries of an ordinary reply in time: one
	// still failing this long after it was made is given up on, logged and
	// counted. Crisis replies are never given up on.
	ReplyMaxAge time.Duration `yaml:"reply_max_age"`
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

// Metrics configures the operator's HTTP endpoint.
type Metrics struct {
	// Listen is the address ("127.0.0.1:9464", ":9464") serving /metrics
	// (Prometheus), /healthz (the process is alive) and /readyz (ready to
	// answer people); empty serves none of them.
	Listen string `yaml:"listen"`
}

// Reminders tunes the messages Haven sends later: reminders and check-ins.
type Reminders struct {
	// QuietHours is when, in each person's time zone, Haven holds anything
	// not asked for at that time until the end of the span: "HH:MM-HH:MM"
	// (24-hour, across midnight when the end is earlier) or "off".
	QuietHours string `yaml:"quiet_hours"`
}

// Defaults returns the configuration used for every key neither the file
// nor the environment sets: the console on ./data/haven.db, no LLM. (The
// platforms' defaults are their adapters'.)
func Defaults() Config {
	return Config{
		Database: Database{Path: "./data/haven.db"},
		LLM:      LLM{Timeout: 20 * time.Second},
		Hub:      Hub{Workers: 8, MaxQueued: 1024, DrainTimeout: 15 * time.Second, ReplyMaxAge: 6 * time.Hour},
		Safety:   Safety{LLMDeadline: 3 * time.Second},
		Memory: Memory{
			IdleTimeout:        30 * time.Minute,
			TokenBudget:        400,
			InactiveRetention:  90 * 24 * time.Hour,
			CrisisLogRetention: 365 * 24 * time.Hour,
			DeliveryRetention:  7 * 24 * time.Hour,
		},
		Admins:    []string{},
		Log:       Log{Level: "info", Format: "text"},
		Reminders: Reminders{QuietHours: "22:00-08:00"},
	}
}

// LLMEnabled reports whether a model server is configured (llm.base_url).
func (c Config) LLMEnabled() bool { return c.LLM.BaseURL != "" }

// AnyPlatformEnabled reports whether any section Load was given is
// Enabled; when none is, haven runs the console.
func (c Config) AnyPlatformEnabled() bool {
	for _, s := range c.sections {
		if s.Settings.Enabled() {
			return true
		}
	}
	return false
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

// Redacted returns a copy, with copies of the sections' settings, in which
// every secret that is set is replaced by "[redacted]", safe to log or
// print.
func (c Config) Redacted() Config {
	secs := make([]section, len(c.sections))
	for i, s := range c.sections {
		cp := reflect.New(s.typ)
		cp.Elem().Set(reflect.ValueOf(s.Settings).Elem())
		s.Settings = cp.Interface().(Settings)
		secs[i] = s
	}
	if c.sections != nil {
		c.sections = secs
	}
	for _, k := range allKeys(c.sections) {
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
