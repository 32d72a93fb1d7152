package configs_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/havenbot/haven/configs"
)

func noEnv(string) (string, bool) { return "", false }

// chatSettings is a platform section as an adapter package defines one.
type chatSettings struct {
	APIURL  string        `yaml:"api_url"`
	Token   string        `yaml:"token" secret:"true"`
	Mode    string        `yaml:"mode"`
	Timeout time.Duration `yaml:"timeout"`
	Hook    struct {
		URL    string `yaml:"url"`
		Secret string `yaml:"secret" secret:"true"`
	} `yaml:"hook"`
}

func defaultChat() *chatSettings {
	return &chatSettings{APIURL: "https://chat.example/api/", Mode: "poll", Timeout: 5 * time.Second}
}

func (c chatSettings) Enabled() bool { return c.Token != "" }

func (c chatSettings) Validate() error {
	var errs []error
	if c.Mode != "poll" && c.Mode != "push" {
		errs = append(errs, fmt.Errorf("chat.mode %q is unknown: use poll or push (HAVEN_CHAT_MODE)", c.Mode))
	}
	if c.Token != "" && !strings.HasPrefix(c.Token, "tok-") {
		errs = append(errs, errors.New("HAVEN_CHAT_TOKEN must start with tok-"))
	}
	return errors.Join(errs...)
}

func chatSection(s *chatSettings) configs.Section { return configs.Section{Name: "chat", Settings: s} }

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

func writeFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "haven.yaml")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDefaultsApplyWithNoFileAndNoEnv(t *testing.T) {
	cfg, err := configs.Load("", noEnv)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if !reflect.DeepEqual(cfg, configs.Defaults()) {
		t.Errorf("Load(\"\") = %+v, want Defaults()", cfg)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("defaults do not validate: %v", err)
	}
	if cfg.Database.Path != "./data/haven.db" || cfg.Safety.LLMDeadline != 3*time.Second || cfg.LLM.Timeout != 20*time.Second ||
		cfg.Log.Level != "info" || cfg.Hub.Workers <= 0 {
		t.Errorf("defaults = %+v", cfg)
	}
	if cfg.LLMEnabled() || cfg.AnyPlatformEnabled() {
		t.Error("defaults enable an LLM or a platform; want console only")
	}
}

func TestExampleFileParsesCleanlyToTheDefaults(t *testing.T) {
	cfg, err := configs.Load("haven.example.yaml", noEnv)
	if err != nil {
		t.Fatalf("Load example: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("example does not validate: %v", err)
	}
	if !reflect.DeepEqual(cfg, configs.Defaults()) {
		t.Errorf("example shows values other than the defaults:\n got %+v\nwant %+v", cfg, configs.Defaults())
	}
}

func TestExampleFileMentionsEveryKey(t *testing.T) {
	data, err := os.ReadFile("haven.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range configs.Keys() {
		if k.Secret {
			if !strings.Contains(string(data), k.Env) {
				t.Errorf("secret %s: example does not list %s", k.Path, k.Env)
			}
			continue
		}
		if lookup(doc.Content[0], strings.Split(k.Path, ".")) == nil {
			t.Errorf("example has no key %s", k.Path)
		}
	}
}

func lookup(n *yaml.Node, path []string) *yaml.Node {
	if len(path) == 0 {
		return n
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == path[0] {
			return lookup(n.Content[i+1], path[1:])
		}
	}
	return nil
}

func TestKeysDeriveEnvNamesFromPaths(t *testing.T) {
	want := map[string]string{
		"chat.api_url":        "HAVEN_CHAT_API_URL",
		"chat.hook.url":       "HAVEN_CHAT_HOOK_URL",
		"hub.workers":         "HAVEN_HUB_WORKERS",
		"database.path":       "HAVEN_DATABASE_PATH",
		"admins":              "HAVEN_ADMINS",
		"safety.llm_deadline": "HAVEN_SAFETY_LLM_DEADLINE",
	}
	got := map[string]string{}
	var secrets []string
	for _, k := range configs.Keys(chatSection(defaultChat())) {
		got[k.Path] = k.Env
		if k.Secret {
			secrets = append(secrets, k.Env)
		}
	}
	for path, env := range want {
		if got[path] != env {
			t.Errorf("key %s: env %q, want %q", path, got[path], env)
		}
	}
	wantSecrets := []string{"HAVEN_CHAT_HOOK_SECRET", "HAVEN_CHAT_TOKEN", "HAVEN_LLM_API_KEY"}
	slices.Sort(secrets)
	if !slices.Equal(secrets, wantSecrets) {
		t.Errorf("secret env vars = %v, want %v", secrets, wantSecrets)
	}
}

func TestUnknownKeyErrorNamesKeyAndLine(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		wants []string
	}{
		{
			"nested typo",
			"database:\n  path: x.db\n\nhub:\n  workers: 2\nchat:\n  tokn: abc\n",
			[]string{"haven.yaml line 7", `unknown key "chat.tokn"`, `did you mean "chat.token"?`, "keys under chat: api_url, mode, timeout, hook"},
		},
		{
			"typo deep in a section",
			"chat:\n  hook:\n    ulr: https://x\n",
			[]string{"line 3", `unknown key "chat.hook.ulr"`, `did you mean "chat.hook.url"?`},
		},
		{
			"top-level unknown",
			"log:\n  level: info\nlogging: {}\n",
			[]string{"line 3", `unknown key "logging"`, "keys at the top level: database, llm", "console, metrics, reminders, chat)"},
		},
		{
			"typo of a section's name",
			"chta:\n  mode: push\n",
			[]string{"line 1", `unknown key "chta"`, `did you mean "chat"?`},
		},
		{
			"typo of a plain key suggests it",
			"hub:\n  worker: 3\n",
			[]string{"line 2", `unknown key "hub.worker"`, `did you mean "hub.workers"?`, "keys under hub: workers, max_queued, drain_timeout, reply_max_age"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := configs.Load(writeFile(t, tt.file), noEnv, chatSection(defaultChat()))
			if err == nil {
				t.Fatal("Load succeeded, want an unknown-key error")
			}
			for _, w := range tt.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestEveryUnknownKeyIsReported(t *testing.T) {
	_, err := configs.Load(writeFile(t, "hub:\n  wrkers: 1\nchat:\n  mod: push\n"), noEnv, chatSection(defaultChat()))
	if err == nil || !strings.Contains(err.Error(), `line 2: unknown key "hub.wrkers"`) || !strings.Contains(err.Error(), `line 4: unknown key "chat.mod"`) {
		t.Fatalf("error = %v, want both unknown keys with their lines", err)
	}
}

func TestSecretInFileIsAnErrorPointingToTheEnvVar(t *testing.T) {
	for _, k := range configs.Keys(chatSection(defaultChat())) {
		if !k.Secret {
			continue
		}
		t.Run(k.Path, func(t *testing.T) {
			// Each part of the path nests one level deeper.
			file := "log:\n  level: info\n"
			parts := strings.Split(k.Path, ".")
			for i, p := range parts {
				file += strings.Repeat("  ", i) + p + ":"
				if i < len(parts)-1 {
					file += "\n"
				}
			}
			file += " sekrit-value-123\n"
			_, err := configs.Load(writeFile(t, file), noEnv, chatSection(defaultChat()))
			if err == nil {
				t.Fatal("Load accepted a secret in the file")
			}
			msg := err.Error()
			for _, w := range []string{fmt.Sprintf("line %d", 2+len(parts)), k.Path + " is a secret", k.Env} {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
			if strings.Contains(msg, "sekrit") {
				t.Errorf("error leaks the secret: %q", msg)
			}
		})
	}
}

func TestWrongTypesInFileNameKeyAndLine(t *testing.T) {
	tests := []struct {
		name, file string
		wants      []string
	}{
		{"int", "hub:\n  workers: many\n", []string{"line 2", `hub.workers: "many" is not a whole number`}},
		{"duration without unit", "safety:\n  llm_deadline: 3\n", []string{"line 2", `safety.llm_deadline: "3" is not a duration`, `"3s"`}},
		{"duration garbage", "llm:\n  timeout: soon\n", []string{"line 2", "llm.timeout", "not a duration"}},
		{"list given a string", "admins: slack:T1:U2\n", []string{"line 1", "admins", "not a list of strings"}},
		{"string given a list", "log:\n  level: [info]\n", []string{"line 2", "log.level: a list is not a string"}},
		{"section given a scalar", "hub: yes\n", []string{"line 1", `"hub" must be a mapping`}},
		{"platform section given a scalar", "chat: yes\n", []string{"line 1", `"chat" must be a mapping`}},
		{"platform key of the wrong type", "chat:\n  timeout: 5\n", []string{"line 2", `chat.timeout: "5" is not a duration`}},
		{"top level not a mapping", "- a\n- b\n", []string{"line 1", "the top level must be a mapping"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := configs.Load(writeFile(t, tt.file), noEnv, chatSection(defaultChat()))
			if err == nil {
				t.Fatal("Load succeeded, want a type error")
			}
			for _, w := range tt.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestFileEdgeCases(t *testing.T) {
	tests := []struct {
		name, file string
		wantErr    string
	}{
		{"empty file is defaults", "", ""},
		{"comments only is defaults", "# nothing here\n", ""},
		{"empty sections keep defaults", "database:\nhub:\n", ""},
		{"syntax error names file and line", "hub:\n  workers: 1\n bad indent: [\n", "haven.yaml: line"},
		{"second document", "hub:\n  workers: 1\n---\nlog:\n  level: info\n", "line 3: a second YAML document"},
		{"duplicate key", "hub:\n  workers: 1\n  workers: 2\n", `"workers" already defined`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := configs.Load(writeFile(t, tt.file), noEnv)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				if !reflect.DeepEqual(cfg, configs.Defaults()) {
					t.Errorf("config = %+v, want defaults", cfg)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestMissingFileIsAnError(t *testing.T) {
	_, err := configs.Load(filepath.Join(t.TempDir(), "nope.yaml"), noEnv)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "nope.yaml") {
		t.Fatalf("error = %v, want not-exist naming the file", err)
	}
}

func TestFileValuesOverrideDefaultsAndEnvOverridesFile(t *testing.T) {
	file := writeFile(t, `
hub:
  workers: 4
  drain_timeout: 1m
llm:
  base_url: http://localhost:11434/v1
  model: llama3.1:8b
admins: ["slack:T1:U1"]
`)
	cfg, err := configs.Load(file, envOf(map[string]string{"HAVEN_HUB_WORKERS": "6", "HAVEN_LLM_API_KEY": "sk-1"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Hub.Workers != 6 || cfg.Hub.DrainTimeout != time.Minute || cfg.Hub.MaxQueued != configs.Defaults().Hub.MaxQueued {
		t.Errorf("hub = %+v", cfg.Hub)
	}
	if !cfg.LLMEnabled() || cfg.LLM.Model != "llama3.1:8b" || cfg.LLM.APIKey != "sk-1" || cfg.LLM.Timeout != 20*time.Second {
		t.Errorf("llm = %+v", cfg.LLM)
	}
	if !slices.Equal(cfg.Admins, []string{"slack:T1:U1"}) {
		t.Errorf("admins = %v", cfg.Admins)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestEnvOverridesEachKeyType(t *testing.T) {
	tests := []struct {
		env, value string
		check      func(configs.Config) bool
	}{
		{"HAVEN_DATABASE_PATH", "/var/lib/haven/h.db", func(c configs.Config) bool { return c.Database.Path == "/var/lib/haven/h.db" }},
		{"HAVEN_CHAT_API_URL", "http://127.0.0.1:9/api/", func(c configs.Config) bool {
			return c.Section("chat").(*chatSettings).APIURL == "http://127.0.0.1:9/api/"
		}},
		{"HAVEN_HUB_WORKERS", " 16 ", func(c configs.Config) bool { return c.Hub.Workers == 16 }},
		{"HAVEN_SAFETY_LLM_DEADLINE", "750ms", func(c configs.Config) bool { return c.Safety.LLMDeadline == 750*time.Millisecond }},
		{"HAVEN_ADMINS", "slack:T1:U1, telegram::42,,", func(c configs.Config) bool {
			return slices.Equal(c.Admins, []string{"slack:T1:U1", "telegram::42"})
		}},
		{"HAVEN_ADMINS", "", func(c configs.Config) bool { return len(c.Admins) == 0 }},
		{"HAVEN_CHAT_TOKEN", "tok-1", func(c configs.Config) bool {
			return c.Section("chat").(*chatSettings).Token == "tok-1" && c.AnyPlatformEnabled()
		}},
		{"HAVEN_CHAT_HOOK_SECRET", "s3cr3t", func(c configs.Config) bool { return c.Section("chat").(*chatSettings).Hook.Secret == "s3cr3t" }},
		{"HAVEN_CHAT_TIMEOUT", "1m", func(c configs.Config) bool { return c.Section("chat").(*chatSettings).Timeout == time.Minute }},
		{"HAVEN_LLM_BASE_URL", "", func(c configs.Config) bool { return c.LLM.BaseURL == "" }},
	}
	for _, tt := range tests {
		t.Run(tt.env+"="+tt.value, func(t *testing.T) {
			cfg, err := configs.Load("", envOf(map[string]string{tt.env: tt.value}), chatSection(defaultChat()))
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if !tt.check(cfg) {
				t.Errorf("%s=%q not applied: %+v", tt.env, tt.value, cfg)
			}
		})
	}
}

func TestBadEnvValuesNameTheVariable(t *testing.T) {
	_, err := configs.Load("", envOf(map[string]string{
		"HAVEN_HUB_WORKERS":         "many",
		"HAVEN_SAFETY_LLM_DEADLINE": "3",
		"HAVEN_HUB_MAX_QUEUED":      "",
	}))
	if err == nil {
		t.Fatal("Load accepted bad environment values")
	}
	for _, w := range []string{
		`HAVEN_HUB_WORKERS="many" is not a whole number`,
		`HAVEN_SAFETY_LLM_DEADLINE="3" is not a duration`,
		`HAVEN_HUB_MAX_QUEUED="" is not a whole number`,
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
}

// valid returns a configuration with the LLM on.
func valid() configs.Config {
	c := configs.Defaults()
	c.LLM.BaseURL, c.LLM.Model, c.LLM.APIKey = "http://127.0.0.1:11434/v1", "m", "sk-x"
	c.Admins = []string{"slack:T1:U1", "telegram::42"}
	c.Safety.DefaultCountry = "GB"
	c.Safety.AlertConversation = "slack:T1:C9"
	return c
}

func TestValidConfigurationPasses(t *testing.T) {
	c := valid()
	if err := c.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if !c.LLMEnabled() || c.AnyPlatformEnabled() {
		t.Error("enabled flags wrong for a configuration with an LLM and no platform")
	}
}

func TestValidateSaysWhatToFix(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*configs.Config)
		want string
	}{
		{"empty db path", func(c *configs.Config) { c.Database.Path = " " }, "database.path is empty"},
		{"llm base url not http", func(c *configs.Config) { c.LLM.BaseURL = "localhost:11434" }, `llm.base_url "localhost:11434" is not an http(s) URL`},
		{"llm model missing", func(c *configs.Config) { c.LLM.Model = "" }, "llm.model is empty but llm.base_url is set"},
		{"llm key without url", func(c *configs.Config) { c.LLM.BaseURL, c.LLM.Model = "", "" }, "HAVEN_LLM_API_KEY is set but llm.base_url is empty"},
		{"llm model without url", func(c *configs.Config) { c.LLM.BaseURL, c.LLM.APIKey = "", "" }, "llm.model is set but llm.base_url is empty"},
		{"llm timeout", func(c *configs.Config) { c.LLM.Timeout = 0 }, "llm.timeout is 0s: it must be greater than zero"},
		{"workers", func(c *configs.Config) { c.Hub.Workers = 0 }, "hub.workers is 0: it must be greater than zero"},
		{"max queued", func(c *configs.Config) { c.Hub.MaxQueued = -1 }, "hub.max_queued is -1"},
		{"drain timeout", func(c *configs.Config) { c.Hub.DrainTimeout = -time.Second }, "hub.drain_timeout is -1s"},
		{"reply max age", func(c *configs.Config) { c.Hub.ReplyMaxAge = 30 * time.Second }, "hub.reply_max_age is 30s: replies need at least 1m"},
		{"llm deadline", func(c *configs.Config) { c.Safety.LLMDeadline = 0 }, "safety.llm_deadline is 0s"},
		{"country", func(c *configs.Config) { c.Safety.DefaultCountry = "uk" }, `safety.default_country "uk" is not an ISO 3166-1 alpha-2 code`},
		{"alert conversation", func(c *configs.Config) { c.Safety.AlertConversation = "#crisis" }, `safety.alert_conversation "#crisis" is not a namespaced conversation id`},
		{"admin id", func(c *configs.Config) { c.Admins = append(c.Admins, "U0456") }, `admins[2] = "U0456" is not a namespaced user id`},
		{"memory idle timeout", func(c *configs.Config) { c.Memory.IdleTimeout = 0 }, "memory.idle_timeout is 0s: it must be greater than zero"},
		{"memory token budget", func(c *configs.Config) { c.Memory.TokenBudget = -5 }, "memory.token_budget is -5"},
		{"memory negative retention", func(c *configs.Config) { c.Memory.CrisisLogRetention = -time.Hour }, "memory.crisis_log_retention is -1h0m0s: use a positive duration"},
		{"memory embeddings url", func(c *configs.Config) { c.Memory.EmbeddingsBaseURL = "localhost:11434" }, `memory.embeddings_base_url "localhost:11434" is not an http(s) URL`},
		{"memory embeddings without any url", func(c *configs.Config) {
			c.LLM.BaseURL, c.LLM.Model, c.LLM.APIKey, c.Memory.EmbeddingsModel = "", "", "", "nomic-embed-text"
		}, "memory.embeddings_model is set but neither"},
		{"log level", func(c *configs.Config) { c.Log.Level = "verbose" }, `log.level "verbose" is unknown: use debug, info, warn or error`},
		{"log format", func(c *configs.Config) { c.Log.Format = "xml" }, `log.format "xml" is unknown`},
		{"quiet hours loose", func(c *configs.Config) { c.Reminders.QuietHours = "10pm-8am" }, `reminders.quiet_hours "10pm-8am" is not a span of the 24-hour clock`},
		{"quiet hours one digit", func(c *configs.Config) { c.Reminders.QuietHours = "22:00-8:00" }, "HAVEN_REMINDERS_QUIET_HOURS"},
		{"quiet hours empty", func(c *configs.Config) { c.Reminders.QuietHours = "" }, `reminders.quiet_hours "" is not a span`},
		{"quiet hours 24:00", func(c *configs.Config) { c.Reminders.QuietHours = "22:00-24:00" }, `reminders.quiet_hours "22:00-24:00"`},
		{"quiet hours same", func(c *configs.Config) { c.Reminders.QuietHours = "08:00-08:00" }, "starts and ends at the same time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := valid()
			tt.mod(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate = %v, want it to contain %q", err, tt.want)
			}
			for _, secret := range []string{"sk-x"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("error leaks a secret %q: %v", secret, err)
				}
			}
		})
	}
}

func TestValidateReportsEveryProblem(t *testing.T) {
	c := configs.Defaults()
	c.Hub.Workers = 0
	c.Log.Level = "loud"
	c.LLM.BaseURL = "http://127.0.0.1:1/v1"
	err := c.Validate()
	for _, w := range []string{"hub.workers", "log.level", "llm.model"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Validate = %v, want it to mention %s", err, w)
		}
	}
}

func TestRedactedHidesSetSecrets(t *testing.T) {
	c, err := configs.Load("", envOf(map[string]string{"HAVEN_LLM_API_KEY": "sk-x", "HAVEN_CHAT_TOKEN": "tok-1"}), chatSection(defaultChat()))
	if err != nil {
		t.Fatal(err)
	}
	c.Admins = []string{"slack:T1:U1"}
	r := c.Redacted()
	chat := r.Section("chat").(*chatSettings)
	if r.LLM.APIKey != "[redacted]" || chat.Token != "[redacted]" || chat.Hook.Secret != "" || chat.Mode != "poll" {
		t.Errorf("Redacted = %+v, chat %+v", r, chat)
	}
	if c.LLM.APIKey != "sk-x" || c.Section("chat").(*chatSettings).Token != "tok-1" {
		t.Error("Redacted changed the original")
	}
	r.Admins[0] = "changed"
	if c.Admins[0] != "slack:T1:U1" {
		t.Error("Redacted shares the admins slice")
	}
}

func TestSectionsLoadFromTheFileAndTheEnvironment(t *testing.T) {
	chat := defaultChat()
	file := writeFile(t, "hub:\n  workers: 3\nchat:\n  mode: push\n  hook:\n    url: https://h.example/hook\n")
	cfg, err := configs.Load(file, envOf(map[string]string{"HAVEN_CHAT_TOKEN": "tok-1", "HAVEN_CHAT_MODE": "poll", "HAVEN_CHAT_HOOK_SECRET": "s"}), chatSection(chat))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if cfg.Section("chat") != chat {
		t.Error("Section does not return the settings Load filled")
	}
	if chat.Mode != "poll" || chat.Hook.URL != "https://h.example/hook" || chat.Token != "tok-1" || chat.Hook.Secret != "s" ||
		chat.APIURL != defaultChat().APIURL || chat.Timeout != 5*time.Second || cfg.Hub.Workers != 3 {
		t.Errorf("chat = %+v, hub = %+v: want file values, environment over file, defaults for the rest", chat, cfg.Hub)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
}

func TestPlatformSectionInTheFileWithoutItsSecretsIsAnError(t *testing.T) {
	file := writeFile(t, "log:\n  level: info\nchat:\n  mode: push\n")
	cfg, err := configs.Load(file, noEnv, chatSection(defaultChat()))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	err = cfg.Validate()
	for _, w := range []string{"haven.yaml line 3: a chat section is in the file", "unset: HAVEN_CHAT_TOKEN, HAVEN_CHAT_HOOK_SECRET", "or remove the section"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Validate = %v, want it to contain %q", err, w)
		}
	}
	// An empty section counts too: it says the platform was meant.
	cfg, err = configs.Load(writeFile(t, "chat:\n"), noEnv, chatSection(defaultChat()))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "a chat section is in the file") {
		t.Errorf("empty section: Validate = %v", err)
	}
	// With its secret, or without the section, all is well.
	cfg, err = configs.Load(file, envOf(map[string]string{"HAVEN_CHAT_TOKEN": "tok-1"}), chatSection(defaultChat()))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("with its token: Validate = %v", err)
	}
	cfg, err = configs.Load(writeFile(t, "log:\n  level: info\n"), noEnv, chatSection(defaultChat()))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("without the section: Validate = %v", err)
	}
}

func TestSectionProblemsAreReportedWithEveryOther(t *testing.T) {
	cfg, err := configs.Load("", envOf(map[string]string{"HAVEN_CHAT_MODE": "pull", "HAVEN_CHAT_TOKEN": "bad", "HAVEN_HUB_WORKERS": "0"}), chatSection(defaultChat()))
	if err != nil {
		t.Fatal(err)
	}
	err = cfg.Validate()
	for _, w := range []string{"configs: hub.workers is 0", `configs: chat.mode "pull" is unknown`, "configs: HAVEN_CHAT_TOKEN must start with tok-"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("Validate = %v, want it to contain %q", err, w)
		}
	}
}

func TestSectionDefinedTwiceIsAnError(t *testing.T) {
	_, err := configs.Load(writeFile(t, "chat:\n  mode: push\nchat:\n  mode: poll\n"), noEnv, chatSection(defaultChat()))
	if err == nil || !strings.Contains(err.Error(), `line 3: "chat" is already defined at line 1`) {
		t.Fatalf("Load = %v, want the second section refused with its line", err)
	}
}

type badSettings struct {
	Extra map[string]string `yaml:"extra"`
}

func (badSettings) Enabled() bool   { return false }
func (badSettings) Validate() error { return nil }

func TestMalformedSectionsAreRefused(t *testing.T) {
	tests := []struct {
		name     string
		sections []configs.Section
		want     string
	}{
		{"nil settings", []configs.Section{{Name: "chat"}}, "non-nil pointer to a struct"},
		{"settings not a pointer", []configs.Section{{Name: "chat", Settings: chatSettings{}}}, "non-nil pointer to a struct"},
		{"a name of Haven's own", []configs.Section{{Name: "hub", Settings: defaultChat()}}, `"hub" is empty or one of Haven's own keys`},
		{"two sections of one name", []configs.Section{chatSection(defaultChat()), chatSection(defaultChat())}, `two sections are named "chat"`},
		{"an unsupported type", []configs.Section{{Name: "bad", Settings: &badSettings{}}}, "bad.extra has unsupported type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := configs.Load("", noEnv, tt.sections...); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}
