package main

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
	"github.com/havenbot/haven/configs"
)

// platformSecrets sets a valid secret for every platform of the table.
var platformSecrets = map[string]string{
	"HAVEN_TELEGRAM_TOKEN":  "123456:AAbb_cc-DD",
	"HAVEN_SLACK_BOT_TOKEN": "xoxb-1-2",
	"HAVEN_SLACK_APP_TOKEN": "xapp-1-2",
	"HAVEN_DISCORD_TOKEN":   "discord-token",
}

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		v, ok := m[k]
		return v, ok
	}
}

// uncommentPlatforms returns the example file with its commented-out
// platform sections ("# telegram:" and the "#   " lines after it) made
// live.
func uncommentPlatforms(t *testing.T, example string) string {
	t.Helper()
	lines := strings.Split(example, "\n")
	in, found := false, 0
	for i, l := range lines {
		switch {
		case slices.ContainsFunc(platforms(), func(p platform) bool { return l == "# "+p.name+":" }):
			in, found = true, found+1
			lines[i] = strings.TrimPrefix(l, "# ")
		case in && strings.HasPrefix(l, "#   "):
			lines[i] = strings.TrimPrefix(l, "# ")
		default:
			in = false
		}
	}
	if found != len(platforms()) {
		t.Fatalf("the example has %d commented platform sections, want one per platform (%d)", found, len(platforms()))
	}
	return strings.Join(lines, "\n")
}

func TestExampleFileDocumentsEveryPlatformKeyWithItsDefault(t *testing.T) {
	data, err := os.ReadFile("../../configs/haven.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// As shipped, the example runs the console: no platform section is live.
	ps := platforms()
	cfg, err := configs.Load("../../configs/haven.example.yaml", noEnv, sections(ps)...)
	if err != nil {
		t.Fatalf("Load example: %v", err)
	}
	if err := cfg.Validate(); err != nil || cfg.AnyPlatformEnabled() {
		t.Fatalf("the example as shipped: Validate = %v, a platform enabled = %v", err, cfg.AnyPlatformEnabled())
	}

	live := uncommentPlatforms(t, string(data))
	path := filepath.Join(t.TempDir(), "haven.yaml")
	if err := os.WriteFile(path, []byte(live), 0o600); err != nil {
		t.Fatal(err)
	}
	// Every platform key is in its section, and every secret is named.
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(live), &doc); err != nil {
		t.Fatalf("the uncommented sections are not YAML: %v", err)
	}
	for _, k := range configs.Keys(sections(platforms())...) {
		if k.Secret {
			if !strings.Contains(live, k.Env) {
				t.Errorf("secret %s: the example does not name %s", k.Path, k.Env)
			}
			continue
		}
		if !hasPath(doc.Content[0], strings.Split(k.Path, ".")) {
			t.Errorf("the example has no key %s", k.Path)
		}
	}
	// Uncommented, the sections hold the defaults; without their secrets
	// each is an error, with them the file is valid.
	ps = platforms()
	cfg, err = configs.Load(path, noEnv, sections(ps)...)
	if err != nil {
		t.Fatalf("Load uncommented example: %v", err)
	}
	err = cfg.Validate()
	for _, p := range ps {
		if err == nil || !strings.Contains(err.Error(), "a "+p.name+" section is in the file") {
			t.Errorf("without secrets, Validate = %v; want the %s section refused", err, p.name)
		}
	}
	ps = platforms()
	cfg, err = configs.Load(path, envOf(platformSecrets), sections(ps)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("with secrets, Validate = %v", err)
	}
	tg, sl, dc := telegram.DefaultConfig(), slack.DefaultConfig(), discord.DefaultConfig()
	tg.Token = platformSecrets["HAVEN_TELEGRAM_TOKEN"]
	sl.BotToken, sl.AppToken = platformSecrets["HAVEN_SLACK_BOT_TOKEN"], platformSecrets["HAVEN_SLACK_APP_TOKEN"]
	dc.Token = platformSecrets["HAVEN_DISCORD_TOKEN"]
	for i, want := range []configs.Settings{&tg, &sl, &dc} {
		if !reflect.DeepEqual(ps[i].settings, want) {
			t.Errorf("%s settings from the example = %+v, want the defaults %+v", ps[i].name, ps[i].settings, want)
		}
	}
}

func hasPath(n *yaml.Node, path []string) bool {
	if len(path) == 0 {
		return true
	}
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == path[0] {
			return hasPath(n.Content[i+1], path[1:])
		}
	}
	return false
}

func TestEveryKeyHasAnEnvironmentVariableAndSecretsAreTheTokens(t *testing.T) {
	var secrets []string
	for _, k := range configs.Keys(sections(platforms())...) {
		if k.Env != "HAVEN_"+strings.ToUpper(strings.ReplaceAll(k.Path, ".", "_")) {
			t.Errorf("key %s has variable %s", k.Path, k.Env)
		}
		if k.Secret {
			secrets = append(secrets, k.Env)
		}
	}
	want := []string{"HAVEN_DISCORD_TOKEN", "HAVEN_LLM_API_KEY", "HAVEN_SLACK_APP_TOKEN", "HAVEN_SLACK_BOT_TOKEN",
		"HAVEN_SLACK_SIGNING_SECRET", "HAVEN_TELEGRAM_TOKEN", "HAVEN_TELEGRAM_WEBHOOK_SECRET"}
	slices.Sort(secrets)
	if !slices.Equal(secrets, want) {
		t.Errorf("secret variables = %v, want %v", secrets, want)
	}
}

func TestPlatformSectionWithoutItsSecretsStopsHavenWithWhatToDo(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "haven.yaml")
	if err := os.WriteFile(cfg, []byte("database:\n  path: x.db\ntelegram:\n  mode: webhook\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := haven(t, "hi\n", noEnv, "chat", "--config", cfg)
	if code != 1 || out != "" || !strings.Contains(errOut, "line 3: a telegram section is in the file") ||
		!strings.Contains(errOut, "HAVEN_TELEGRAM_TOKEN") {
		t.Fatalf("exit %d, want 1 and an error naming the section, its line and HAVEN_TELEGRAM_TOKEN; stdout %q, stderr:\n%s", code, out, errOut)
	}
}

func TestTwoWebhooksOnOneAddressAreRefused(t *testing.T) {
	row := func(name string) platform {
		s := telegram.DefaultConfig()
		s.Token = "1:a"
		return platform{name: name, settings: &s, start: func(platformDeps) (channels.Adapter, *webhook, error) {
			return channelstest.NewAdapter(name, 100), &webhook{addr: ":8443", handler: http.NotFoundHandler()}, nil
		}}
	}
	hub := channels.NewHub(channels.HandlerFunc(func(context.Context, channels.Inbound) ([]channels.Outbound, error) { return nil, nil }),
		channelstest.NewMemInbox(), channelstest.NewMemOutbox(), channels.HubOptions{Logger: slog.New(slog.DiscardHandler)})
	_, err := registerPlatforms(hub, []platform{row("one"), row("two")}, platformDeps{log: slog.New(slog.DiscardHandler)})
	if err == nil || !strings.Contains(err.Error(), "one already listens on :8443") {
		t.Fatalf("registerPlatforms = %v, want the second webhook refused", err)
	}
}
