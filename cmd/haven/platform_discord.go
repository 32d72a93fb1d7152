package main

import (
	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/channels"
)

// discordStart is the start of the Discord row of the platform table: it
// builds the adapter from *cfg as configs.Load filled it.
func discordStart(cfg *discord.Config) func(platformDeps) (channels.Adapter, *webhook, error) {
	return func(d platformDeps) (channels.Adapter, *webhook, error) { return startDiscord(*cfg, d) }
}

// startDiscord builds the Discord adapter: the gateway needs no webhook.
// Its REST calls go through the metrics' HTTP client when there is one.
func startDiscord(cfg discord.Config, d platformDeps) (channels.Adapter, *webhook, error) {
	opts := cfg.Options()
	opts.Admins, opts.Logger = d.admins, d.log
	if d.httpClient != nil {
		opts.HTTPClient = d.httpClient(discord.Platform)
	}
	a, err := discord.New(opts)
	if err != nil {
		return nil, nil, err
	}
	return a, nil, nil
}
