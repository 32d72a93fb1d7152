package slack_test

import (
	"os"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/havenbot/haven/adapters/slack"
)

// The manifest people paste into Slack must ask for what the adapter uses:
// the events it reads, a scope for every Web API method it calls, the
// slash command it answers, interactivity (its buttons), and Socket Mode,
// the default.
func TestTheAppManifestAsksForWhatTheAdapterUses(t *testing.T) {
	data, err := os.ReadFile("../../configs/slack-app-manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Features struct {
			AppHome struct {
				MessagesTab bool `yaml:"messages_tab_enabled"`
				ReadOnly    bool `yaml:"messages_tab_read_only_enabled"`
			} `yaml:"app_home"`
			SlashCommands []struct {
				Command string `yaml:"command"`
			} `yaml:"slash_commands"`
		} `yaml:"features"`
		OAuth struct {
			Scopes struct {
				Bot []string `yaml:"bot"`
			} `yaml:"scopes"`
		} `yaml:"oauth_config"`
		Settings struct {
			Events struct {
				Bot []string `yaml:"bot_events"`
			} `yaml:"event_subscriptions"`
			Interactivity struct {
				Enabled bool `yaml:"is_enabled"`
			} `yaml:"interactivity"`
			SocketMode bool `yaml:"socket_mode_enabled"`
		} `yaml:"settings"`
	}
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatalf("the manifest is not YAML: %v", err)
	}
	for _, e := range []string{"app_mention", "message.channels", "message.groups", "message.im", "message.mpim"} {
		if !slices.Contains(m.Settings.Events.Bot, e) {
			t.Errorf("the manifest does not subscribe to %s", e)
		}
	}
	for _, s := range []string{"app_mentions:read", "channels:history", "groups:history", "im:history", "mpim:history",
		"chat:write", "im:write", "files:write", "users:read", "commands"} {
		if !slices.Contains(m.OAuth.Scopes.Bot, s) {
			t.Errorf("the manifest does not ask for the %s scope", s)
		}
	}
	if len(m.Features.SlashCommands) != 1 || m.Features.SlashCommands[0].Command != slack.DefaultCommand {
		t.Errorf("slash commands %+v, want %s", m.Features.SlashCommands, slack.DefaultCommand)
	}
	if !m.Settings.Interactivity.Enabled {
		t.Error("the manifest does not enable interactivity: button presses would not reach Haven")
	}
	if !m.Settings.SocketMode || !m.Features.AppHome.MessagesTab || m.Features.AppHome.ReadOnly {
		t.Errorf("want Socket Mode on and people able to DM Haven: %+v", m)
	}
}
