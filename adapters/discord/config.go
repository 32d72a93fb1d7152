package discord

import (
	"fmt"
	"strings"

	"github.com/havenbot/haven/adapters/internal/confcheck"
)

// Platform is the adapter's platform name and its configuration section.
const Platform = "discord"

// Config is the discord section of Haven's configuration, which the
// adapter owns: cmd/haven hands it to configs.Load, which reads each key
// from the file and from HAVEN_DISCORD_<KEY>; the token comes only from the
// environment. Discord is served when Token is set.
type Config struct {
	// APIURL is the REST API root with its trailing slash (discordgo's
	// EndpointAPI, "https://discord.com/api/v9/"); the gateway URL comes
	// from its /gateway endpoint.
	APIURL string `yaml:"api_url"`
	// Token is the bot token (HAVEN_DISCORD_TOKEN only).
	Token string `yaml:"token" secret:"true"`
}

// DefaultConfig returns the settings used for every key that neither the
// file nor the environment sets: Discord's own API.
func DefaultConfig() Config { return Config{APIURL: "https://discord.com/api/v9/"} }

// Enabled reports whether Discord is served: the token is set.
func (c Config) Enabled() bool { return c.Token != "" }

// Validate reports every problem in c at once (errors.Join), naming the
// key and what to fix; it never quotes the token.
func (c Config) Validate() error {
	if err := confcheck.HTTPURL("discord.api_url", "HAVEN_DISCORD_API_URL", c.APIURL, "https://discord.com/api/v9/"); err != nil {
		return err
	}
	if !strings.HasSuffix(c.APIURL, "/") {
		return fmt.Errorf("discord.api_url %q must end with a slash, e.g. https://discord.com/api/v9/ (HAVEN_DISCORD_API_URL)", c.APIURL)
	}
	return nil
}
