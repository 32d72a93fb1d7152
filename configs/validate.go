package configs

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"
)

// Validate reports every problem in c and its sections at once
// (errors.Join), each naming the key or environment variable and saying
// what to fix. Secret values never appear in the messages. A section that
// is in the file but not Enabled (its secrets are not in the environment)
// is a problem: its settings would be silently ignored.
func (c Config) Validate() error {
	v := &validator{}
	c.validateDatabase(v)
	c.validateLLM(v)
	c.validateSections(v)
	c.validateHub(v)
	c.validateSafety(v)
	c.validateMemory(v)
	c.validateMetrics(v)
	c.validateReminders(v)
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

func (c Config) validateSections(v *validator) {
	for _, s := range c.sections {
		for _, err := range flatten(s.Settings.Validate()) {
			v.problems = append(v.problems, fmt.Errorf("configs: %w", err))
		}
		if s.line == 0 || s.Settings.Enabled() {
			continue
		}
		var unset []string
		for _, k := range s.keys {
			if k.Secret && fieldOf(&c, k).String() == "" {
				unset = append(unset, k.Env)
			}
		}
		v.add("%s line %d: a %s section is in the file, but %s is served only when its secrets are set, and they come only from the environment (unset: %s): set them, or remove the section",
			s.file, s.line, s.Name, s.Name, strings.Join(unset, ", "))
	}
}

// flatten returns the errors joined in err (errors.Join), or err alone.
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

func (c Config) validateHub(v *validator) {
	h := c.Hub
	v.positive("hub.workers", h.Workers > 0, h.Workers, "8")
	v.positive("hub.max_queued", h.MaxQueued > 0, h.MaxQueued, "1024")
	v.positive("hub.drain_timeout", h.DrainTimeout > 0, h.DrainTimeout, "15s")
	if h.ReplyMaxAge < time.Minute {
		v.add("hub.reply_max_age is %v: replies need at least 1m to ride out a short outage, e.g. 6h (%s)", h.ReplyMaxAge, EnvName("hub.reply_max_age"))
	}
}

func (c Config) validateSafety(v *validator) {
	s := c.Safety
	v.positive("safety.llm_deadline", s.LLMDeadline > 0, s.LLMDeadline, "3s")
	if cc := s.DefaultCountry; cc != "" {
		if msg := countryProblem(cc); msg != "" {
			v.add("safety.default_country %q %s (HAVEN_SAFETY_DEFAULT_COUNTRY)", cc, msg)
		}
	}
	if a := s.AlertConversation; a != "" && !namespaced(a) {
		v.add("safety.alert_conversation %q is not a namespaced conversation id: write platform:workspace:conversation, e.g. slack:T0123:C0456, or leave it empty (HAVEN_SAFETY_ALERT_CONVERSATION)", a)
	}
}

// quietHoursRE is the strict form of reminders.quiet_hours (core/tasks'
// ParseQuietHours reads the same).
var quietHoursRE = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$`)

func (c Config) validateReminders(v *validator) {
	q := c.Reminders.QuietHours
	switch {
	case q == "off":
	case !quietHoursRE.MatchString(q):
		v.add("reminders.quiet_hours %q is not a span of the 24-hour clock: write HH:MM-HH:MM such as 22:00-08:00, or off (%s)", q, EnvName("reminders.quiet_hours"))
	case q[:5] == q[6:]:
		v.add("reminders.quiet_hours %q starts and ends at the same time: write a span such as 22:00-08:00, or off (%s)", q, EnvName("reminders.quiet_hours"))
	}
}

// countryProblem says what is wrong with an ISO 3166-1 alpha-2 country
// code, or returns "" for a code that names a country. Whether the crisis
// directory has lines for it is the safety package's to say.
func countryProblem(cc string) string {
	if len(cc) != 2 || cc[0] < 'A' || cc[0] > 'Z' || cc[1] < 'A' || cc[1] > 'Z' {
		return "is not an ISO 3166-1 alpha-2 code: use two capital letters such as US, GB or DE, or leave it empty"
	}
	r, err := language.ParseRegion(cc)
	if err != nil || !r.IsCountry() {
		return "is not a country in ISO 3166-1: use a country's two-letter code such as US, GB or DE, or leave it empty"
	}
	if canon := r.Canonicalize().String(); canon != cc {
		return fmt.Sprintf("is not the ISO 3166-1 code of the country: write %s", canon)
	}
	return ""
}

func (c Config) validateMetrics(v *validator) {
	addr := c.Metrics.Listen
	if addr == "" {
		return
	}
	_, port, err := net.SplitHostPort(addr)
	if n, perr := strconv.Atoi(port); err != nil || perr != nil || n < 0 || n > 65535 {
		v.add("metrics.listen %q is not a listen address: write host:port such as 127.0.0.1:9464 or :9464, or leave it empty to serve no metrics (HAVEN_METRICS_LISTEN)", addr)
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
