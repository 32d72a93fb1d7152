package discord

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"

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
	// CommandGuilds are the ids of the guilds (servers) where the /haven
	// command is registered directly, which takes effect at once; empty
	// registers it globally, in every guild and in DMs.
	CommandGuilds []string `yaml:"command_guilds"`
	// Token is the bot token (HAVEN_DISCORD_TOKEN only).
	Token string `yaml:"token" secret:"true"`
}

// DefaultConfig returns the settings used for every key that neither the
// file nor the environment sets: Discord's own API, /haven registered
// globally.
func DefaultConfig() Config { return Config{APIURL: DefaultAPIURL, CommandGuilds: []string{}} }

// DefaultAPIURL is Discord's REST API root, discordgo's EndpointAPI.
const DefaultAPIURL = "https://discord.com/api/v9/"

// Enabled reports whether Discord is served: the token is set.
func (c Config) Enabled() bool { return c.Token != "" }

// Validate reports every problem in c at once (errors.Join), naming the
// key and what to fix; it never quotes the token.
func (c Config) Validate() error {
	var problems []error
	add := func(err error) {
		if err != nil {
			problems = append(problems, err)
		}
	}
	_, err := checkAPIURL(c.APIURL)
	add(err)
	for _, g := range c.CommandGuilds {
		add(checkSnowflake("discord.command_guilds", "HAVEN_DISCORD_COMMAND_GUILDS", g))
	}
	if c.Token != "" {
		add(checkToken(c.Token))
	}
	return errors.Join(problems...)
}

// Options returns the adapter options c sets. The caller adds what is not
// configuration (admins, logger, HTTP client).
func (c Config) Options() Options {
	return Options{Token: c.Token, APIURL: c.APIURL, CommandGuilds: c.CommandGuilds}
}

// checkAPIURL checks an API root and returns it parsed.
func checkAPIURL(s string) (*url.URL, error) {
	if err := confcheck.HTTPURL("discord.api_url", "HAVEN_DISCORD_API_URL", s, DefaultAPIURL); err != nil {
		return nil, err
	}
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, fmt.Errorf("discord.api_url %q: %w (HAVEN_DISCORD_API_URL)", s, err)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.User != nil:
		return nil, fmt.Errorf("discord.api_url %q must be a plain URL without credentials, query or fragment, e.g. %s (HAVEN_DISCORD_API_URL)", s, DefaultAPIURL)
	case !strings.HasSuffix(u.Path, "/"):
		return nil, fmt.Errorf("discord.api_url %q must end with a slash, e.g. %s (HAVEN_DISCORD_API_URL)", s, DefaultAPIURL)
	}
	return u, nil
}

// checkToken checks the form of a bot token without quoting it: the token
// as the Developer Portal shows it, optionally with a "Bot " prefix.
func checkToken(t string) error {
	raw := strings.TrimPrefix(t, "Bot ")
	switch {
	case raw == "":
		return errors.New("HAVEN_DISCORD_TOKEN holds only \"Bot \": set it to the token from the Developer Portal (Bot, Reset Token)")
	case strings.ContainsFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || r > unicode.MaxASCII }):
		return errors.New("HAVEN_DISCORD_TOKEN holds spaces, control or non-ASCII characters: set it to the token exactly as the Developer Portal shows it (Bot, Reset Token)")
	}
	return nil
}

// checkSnowflake checks that id is a Discord id (a decimal number).
func checkSnowflake(key, env, id string) error {
	if id == "" || len(id) > 20 || strings.ContainsFunc(id, func(r rune) bool { return r < '0' || r > '9' }) {
		return fmt.Errorf("%s: %q is not a Discord id (a number such as 123456789012345678; in Discord, Developer Mode, right-click the server, Copy Server ID) (%s)", key, id, env)
	}
	return nil
}
