package discord_test

import (
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
