package discord_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/havenbot/haven/adapters/discord"
)

func TestConfigValidateChecksTheAPIURL(t *testing.T) {
	d := discord.DefaultConfig()
	if d.Enabled() || d.APIURL != "https://discord.com/api/v9/" {
		t.Errorf("DefaultConfig = %+v", d)
	}
	d.Token = "discord-token"
	if err := d.Validate(); err != nil || !d.Enabled() {
		t.Fatalf("Validate = %v, Enabled = %v", err, d.Enabled())
	}
	for url, want := range map[string]string{
		"discord.com/api/v9/":        `discord.api_url "discord.com/api/v9/" is not an http(s) URL`,
		"https://discord.com/api/v9": "must end with a slash",
	} {
		c := d
		c.APIURL = url
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "discord-token") {
			t.Errorf("Validate(%q) = %v, want it to contain %q and not the token", url, err, want)
		}
	}
}

func TestConfigValidateChecksTheTokenAndTheCommandGuilds(t *testing.T) {
	tests := []struct {
		name string
		c    discord.Config
		want string // "" for valid
	}{
		{"a token as the portal shows it", discord.Config{APIURL: discord.DefaultAPIURL, Token: "MTA.abc.def-_"}, ""},
		{"a token with the Bot prefix", discord.Config{APIURL: discord.DefaultAPIURL, Token: "Bot MTA.abc.def"}, ""},
		{"a token with a space", discord.Config{APIURL: discord.DefaultAPIURL, Token: "MTA abc"}, "HAVEN_DISCORD_TOKEN holds spaces"},
		{"a token with a newline", discord.Config{APIURL: discord.DefaultAPIURL, Token: "MTA.abc\n"}, "HAVEN_DISCORD_TOKEN holds spaces"},
		{"only the prefix", discord.Config{APIURL: discord.DefaultAPIURL, Token: "Bot "}, "holds only \"Bot \""},
		{"command guilds", discord.Config{APIURL: discord.DefaultAPIURL, CommandGuilds: []string{"123456789012345678"}}, ""},
		{"a command guild that is a name", discord.Config{APIURL: discord.DefaultAPIURL, CommandGuilds: []string{"my server"}}, "discord.command_guilds: \"my server\" is not a Discord id"},
		{"an API URL with a query", discord.Config{APIURL: "https://discord.com/api/v9/?x=1"}, "without credentials, query or fragment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.c.Validate()
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Validate = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Validate = %v, want it to contain %q", err, tt.want)
			case err != nil && tt.c.Token != "" && strings.Contains(err.Error(), strings.TrimSpace(tt.c.Token)) && tt.c.Token != "Bot ":
				t.Errorf("Validate quotes the token: %v", err)
			}
		})
	}
	c := discord.Config{APIURL: "http://127.0.0.1:1/api/v9/", Token: "t", CommandGuilds: []string{"1"}}
	if o := c.Options(); o.Token != "t" || o.APIURL != c.APIURL || len(o.CommandGuilds) != 1 {
		t.Errorf("Options = %+v", o)
	}
}

func TestTheREADMEsInviteURLAsksForInvitePermissions(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := "&permissions=" + strconv.FormatInt(discord.InvitePermissions, 10)
	if !strings.Contains(string(b), want) {
		t.Errorf("README.md's invite URL does not hold %s", want)
	}
}
