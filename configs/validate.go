package configs

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Validate reports every problem in c at once (errors.Join), each naming
// the key or environment variable and saying what to fix. Secret values
// never appear in the messages.
func (c Config) Validate() error {
	v := &validator{}
	c.validateDatabase(v)
	c.validateLLM(v)
	c.validateTelegram(v)
	c.validateSlack(v)
	c.validateDiscord(v)
	c.validateHub(v)
	c.validateSafety(v)
	c.validateMemory(v)
	for i, id := range c.Admins {
		if !namespaced(id) {
			v.add("admins[%d] = %q is not a namespaced user id: write platform:workspace:user, e.g. slack:T0123:U0456 or telegram::12345", i, id)
		}
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		v.add("log.level %q is unknown: use debug, info, warn or error (HAVEN_LOG_LEVEL)", c.Log.Level)
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		v.add("log.format %q is unknown: use text or json (HAVEN_LOG_FORMAT)", c.Log.Format)
	}
	return errors.Join(v.problems...)
}

type validator struct{ problems []error }

func (v *validator) add(format string, args ...any) {
	v.problems = append(v.problems, fmt.Errorf("configs: "+format, args...))
}

// httpURL checks that s parses as an absolute http(s) URL with a host.
func (v *validator) httpURL(key, s, example string) bool {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		v.add("%s %q is not an http(s) URL: use the form %s (%s)", key, s, example, EnvName(key))
		return false
	}
	return true
}

// listen checks a host:port listen address.
func (v *validator) listen(key, s string) {
	if _, port, err := net.SplitHostPort(s); err != nil || port == "" {
		v.add("%s %q is not a listen address: use host:port or :port, e.g. :8443 (%s)", key, s, EnvName(key))
	}
}

func (v *validator) positive(key string, ok bool, value any, example string) {
	if !ok {
		v.add("%s is %v: it must be greater than zero, e.g. %s (%s)", key, value, example, EnvName(key))
	}
}

// namespaced reports whether id has the platform:workspace:id form
// (channels.SplitID; the workspace may be empty).
func namespaced(id string) bool {
	platform, rest, ok1 := strings.Cut(id, ":")
	_, local, ok2 := strings.Cut(rest, ":")
	return ok1 && ok2 && platform != "" && local != "" && strings.TrimSpace(id) == id
}

func (c Config) validateDatabase(v *validator) {
	if strings.TrimSpace(c.Database.Path) == "" {
		v.add("database.path is empty: set it to the SQLite file, e.g. ./data/haven.db (HAVEN_DATABASE_PATH)")
	}
}

func (c Config) validateLLM(v *validator) {
	l := c.LLM
	if l.BaseURL == "" {
		if l.Model != "" {
			v.add("llm.model is set but llm.base_url is empty: set llm.base_url (HAVEN_LLM_BASE_URL) to the server's API root, e.g. http://localhost:11434/v1, or remove llm.model")
		}
		if l.APIKey != "" {
			v.add("HAVEN_LLM_API_KEY is set but llm.base_url is empty: set llm.base_url (HAVEN_LLM_BASE_URL), e.g. https://api.openai.com/v1, or unset HAVEN_LLM_API_KEY")
		}
	} else {
		v.httpURL("llm.base_url", l.BaseURL, "http://localhost:11434/v1")
		if strings.TrimSpace(l.Model) == "" {
			v.add("llm.model is empty but llm.base_url is set: set llm.model (HAVEN_LLM_MODEL) to a model the server serves, e.g. llama3.1:8b")
		}
	}
	v.positive("llm.timeout", l.Timeout > 0, l.Timeout, "20s")
}

func (c Config) validateTelegram(v *validator) {
	t := c.Telegram
	if strings.Count(t.APIURL, "%s") != 2 {
		v.add("telegram.api_url %q must contain %%s twice, for the token and the method: e.g. https://api.telegram.org/bot%%s/%%s (HAVEN_TELEGRAM_API_URL)", t.APIURL)
	} else {
		v.httpURL("telegram.api_url", strings.ReplaceAll(t.APIURL, "%s", "x"), "https://api.telegram.org/bot%s/%s")
	}
	switch t.Mode {
	case TelegramPolling, TelegramWebhook:
	default:
		v.add("telegram.mode %q is unknown: use polling or webhook (HAVEN_TELEGRAM_MODE)", t.Mode)
	}
	if t.Token == "" {
		if t.WebhookSecret != "" {
			v.add("HAVEN_TELEGRAM_WEBHOOK_SECRET is set but HAVEN_TELEGRAM_TOKEN is not: set the bot token too, or unset the secret")
		}
		return
	}
	if !telegramToken(t.Token) {
		v.add("HAVEN_TELEGRAM_TOKEN does not look like a bot token (digits, a colon, then letters, digits, _ or -): copy it from @BotFather")
	}
	if t.Mode != TelegramWebhook {
		return
	}
	v.listen("telegram.webhook_listen", t.WebhookListen)
	if t.WebhookURL == "" {
		v.add("telegram.webhook_url is empty but telegram.mode is webhook: set the public HTTPS URL Telegram posts to (HAVEN_TELEGRAM_WEBHOOK_URL)")
	} else {
		v.httpURL("telegram.webhook_url", t.WebhookURL, "https://haven.example.org/telegram")
	}
	switch {
	case t.WebhookSecret == "":
		v.add("HAVEN_TELEGRAM_WEBHOOK_SECRET is empty but telegram.mode is webhook: set it to 1-256 characters of A-Z, a-z, 0-9, _ or - so forged updates are refused")
	case !webhookSecret(t.WebhookSecret):
		v.add("HAVEN_TELEGRAM_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ or - (Telegram's secret_token rule)")
	}
}

func telegramToken(s string) bool {
	id, rest, ok := strings.Cut(s, ":")
	if !ok || id == "" || rest == "" {
		return false
	}
	for _, r := range id {
		if r < '0' || r > '9' {
			return false
		}
	}
	return webhookSecret(rest)
}

func webhookSecret(s string) bool {
	if len(s) == 0 || len(s) > 256 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func (c Config) validateSlack(v *validator) {
	s := c.Slack
	if v.httpURL("slack.api_url", s.APIURL, "https://slack.com/api/") && !strings.HasSuffix(s.APIURL, "/") {
		v.add("slack.api_url %q must end with a slash, e.g. https://slack.com/api/ (HAVEN_SLACK_API_URL)", s.APIURL)
	}
	switch s.Mode {
	case SlackSocket, SlackHTTP:
	default:
		v.add("slack.mode %q is unknown: use socket or http (HAVEN_SLACK_MODE)", s.Mode)
	}
	if s.BotToken == "" {
		if s.AppToken != "" || s.SigningSecret != "" {
			v.add("HAVEN_SLACK_APP_TOKEN or HAVEN_SLACK_SIGNING_SECRET is set but HAVEN_SLACK_BOT_TOKEN is not: set the xoxb- bot token too, or unset them")
		}
		return
	}
	if !strings.HasPrefix(s.BotToken, "xoxb-") {
		v.add("HAVEN_SLACK_BOT_TOKEN must be a bot token starting with xoxb- (OAuth & Permissions → Bot User OAuth Token)")
	}
	if s.AppToken != "" && !strings.HasPrefix(s.AppToken, "xapp-") {
		v.add("HAVEN_SLACK_APP_TOKEN must be an app-level token starting with xapp- (Basic Information → App-Level Tokens, scope connections:write)")
	}
	switch s.Mode {
	case SlackSocket:
		if s.AppToken == "" {
			v.add("HAVEN_SLACK_APP_TOKEN is empty but slack.mode is socket: set the xapp- app-level token, or set slack.mode to http")
		}
	case SlackHTTP:
		if s.SigningSecret == "" {
			v.add("HAVEN_SLACK_SIGNING_SECRET is empty but slack.mode is http: set it from Basic Information → Signing Secret so requests can be verified")
		}
		v.listen("slack.http_listen", s.HTTPListen)
	}
}

func (c Config) validateDiscord(v *validator) {
	d := c.Discord
	if v.httpURL("discord.api_url", d.APIURL, "https://discord.com/api/v9/") && !strings.HasSuffix(d.APIURL, "/") {
		v.add("discord.api_url %q must end with a slash, e.g. https://discord.com/api/v9/ (HAVEN_DISCORD_API_URL)", d.APIURL)
	}
}

func (c Config) validateHub(v *validator) {
	h := c.Hub
	v.positive("hub.workers", h.Workers > 0, h.Workers, "8")
	v.positive("hub.max_queued", h.MaxQueued > 0, h.MaxQueued, "1024")
	v.positive("hub.drain_timeout", h.DrainTimeout > 0, h.DrainTimeout, "15s")
}

func (c Config) validateSafety(v *validator) {
	s := c.Safety
	v.positive("safety.llm_deadline", s.LLMDeadline > 0, s.LLMDeadline, "3s")
	if cc := s.DefaultCountry; cc != "" && (len(cc) != 2 || cc[0] < 'A' || cc[0] > 'Z' || cc[1] < 'A' || cc[1] > 'Z') {
		v.add("safety.default_country %q is not an ISO 3166-1 alpha-2 code: use two capital letters such as US, GB or DE, or leave it empty (HAVEN_SAFETY_DEFAULT_COUNTRY)", cc)
	}
	if a := s.AlertConversation; a != "" && !namespaced(a) {
		v.add("safety.alert_conversation %q is not a namespaced conversation id: write platform:workspace:conversation, e.g. slack:T0123:C0456, or leave it empty (HAVEN_SAFETY_ALERT_CONVERSATION)", a)
	}
}

func (c Config) validateMemory(v *validator) {
	m := c.Memory
	v.positive("memory.idle_timeout", m.IdleTimeout > 0, m.IdleTimeout, "30m")
	v.positive("memory.token_budget", m.TokenBudget > 0, m.TokenBudget, "400")
	for _, r := range []struct {
		key string
		d   any
		ok  bool
	}{
		{"memory.transcript_retention", m.TranscriptRetention, m.TranscriptRetention >= 0},
		{"memory.inactive_retention", m.InactiveRetention, m.InactiveRetention >= 0},
		{"memory.crisis_log_retention", m.CrisisLogRetention, m.CrisisLogRetention >= 0},
	} {
		if !r.ok {
			v.add("%s is %v: use a positive duration such as 2160h, or 0 to keep forever (%s)", r.key, r.d, EnvName(r.key))
		}
	}
	if m.EmbeddingsBaseURL != "" {
		v.httpURL("memory.embeddings_base_url", m.EmbeddingsBaseURL, "http://localhost:11434/v1")
	}
	if m.EmbeddingsModel != "" && c.EmbeddingsURL() == "" {
		v.add("memory.embeddings_model is set but neither memory.embeddings_base_url nor llm.base_url is: set one to the server serving /embeddings (HAVEN_MEMORY_EMBEDDINGS_BASE_URL)")
	}
}
