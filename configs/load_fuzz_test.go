package configs

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// fuzzSettings is a platform section for FuzzLoad, with a nested part and
// secrets at both levels.
type fuzzSettings struct {
	APIURL string        `yaml:"api_url"`
	Token  string        `yaml:"token" secret:"true"`
	Mode   string        `yaml:"mode"`
	Wait   time.Duration `yaml:"wait"`
	Hook   struct {
		URL    string   `yaml:"url"`
		Secret string   `yaml:"secret" secret:"true"`
		Allow  []string `yaml:"allow"`
	} `yaml:"hook"`
}

func (s fuzzSettings) Enabled() bool { return s.Token != "" }

func (s fuzzSettings) Validate() error {
	if s.Mode != "a" && s.Mode != "b" {
		return errors.New("chat.mode is unknown: use a or b (HAVEN_CHAT_MODE)")
	}
	return nil
}

// fuzzSecret is the value of every secret FuzzLoad sets; no error may
// quote it.
const fuzzSecret = "SeKrIt-42"

// FuzzLoad feeds Load (load: Load after reading the file) any file, and
// any value for one environment variable
// beside the secrets: Load and Validate must not panic, no error may quote
// a secret, a file Load refuses is refused with the file's name, and an
// environment value it refuses is refused naming the variable.
func FuzzLoad(f *testing.F) {
	example, err := os.ReadFile("haven.example.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for i, file := range []string{
		string(example), "", "# nothing here\n", "database:\nhub:\n",
		"database:\n  path: x.db\n\nhub:\n  workers: 2\nchat:\n  tokn: abc\n",
		"log:\n  level: info\nlogging: {}\n", "hub:\n  worker: 3\n", "chat:\n  token: " + fuzzSecret + "\n",
		"hub:\n  workers: many\n", "safety:\n  llm_deadline: 3\n", "admins: slack:T1:U2\n", "log:\n  level: [info]\n",
		"chat: yes\n", "- a\n- b\n", "hub:\n  workers: 1\n bad indent: [\n", "hub:\n  workers: 1\n---\nlog:\n  level: info\n",
		"hub:\n  workers: 1\n  workers: 2\n", "chat:\n  mode: a\nchat:\n  mode: b\n", "base: &b {workers: 1}\nhub: *b\n",
		"hub:\n  <<: {workers: 1}\n", "chat:\n  hook:\n    allow: [x, y]\n    url: https://h/\n  wait: 1m\n",
		"llm:\n  base_url: http://localhost:11434/v1\n  model: m\n  timeout: 0s\n",
	} {
		f.Add(file, uint8(i), "value-"+string(rune('a'+i)))
	}
	f.Fuzz(func(t *testing.T, file string, which uint8, value string) {
		ks := Keys(Section{Name: "chat", Settings: &fuzzSettings{}})
		var open []Key
		for _, k := range ks {
			if !k.Secret {
				open = append(open, k)
			}
		}
		k := open[int(which)%len(open)]
		env := map[string]string{"HAVEN_LLM_API_KEY": fuzzSecret, "HAVEN_CHAT_TOKEN": fuzzSecret, "HAVEN_CHAT_HOOK_SECRET": fuzzSecret, k.Env: value}
		const path = "haven.yaml"
		settings := &fuzzSettings{Mode: "a"}
		cfg, err := load(path, []byte(file), func(name string) (string, bool) {
			v, ok := env[name]
			return v, ok
		}, []Section{{Name: "chat", Settings: settings}})
		quotable := strings.Contains(file, fuzzSecret) || strings.Contains(value, fuzzSecret)
		if err != nil {
			msg := err.Error()
			if !quotable && strings.Contains(msg, fuzzSecret) {
				t.Fatalf("Load error quotes a secret: %v", err)
			}
			if !strings.Contains(msg, path) && !strings.Contains(msg, k.Env) {
				t.Fatalf("Load error names neither the file nor the variable: %v", err)
			}
			return
		}
		if settings.Token != fuzzSecret || settings.Hook.Secret != fuzzSecret || cfg.LLM.APIKey != fuzzSecret {
			t.Fatalf("the secrets from the environment were not applied: %+v", settings)
		}
		if err := cfg.Validate(); err != nil && !quotable && strings.Contains(err.Error(), fuzzSecret) {
			t.Fatalf("Validate error quotes a secret: %v", err)
		}
		r := cfg.Redacted()
		if s := r.Section("chat").(*fuzzSettings); s.Token == fuzzSecret || r.LLM.APIKey == fuzzSecret {
			t.Fatal("Redacted left a secret")
		}
	})
}
