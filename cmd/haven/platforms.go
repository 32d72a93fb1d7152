package main

import (
	"fmt"
	"log/slog"
	"net/http"

	"github.com/havenbot/haven/adapters/discord"
	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/telegram"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/configs"
	"github.com/havenbot/haven/memory/sqlite"
)

// platform is one row of the table of chat platforms Haven can serve.
type platform struct {
	// name is the platform's name and its configuration section's key.
	name string
	// settings is the section's settings, owned by the adapter package:
	// its defaults until configs.Load fills it.
	settings configs.Settings
	// start builds the adapter from the loaded settings. A webhook, when
	// not nil, must be served for the adapter to receive anything.
	start func(platformDeps) (channels.Adapter, *webhook, error)
}

// platformDeps is what the adapters get besides their own settings.
type platformDeps struct {
	admins []string
	store  *sqlite.Store
	log    *slog.Logger
	// httpClient, when set, gives an adapter the HTTP client for its
	// platform's API (metrics count its calls); nil leaves the adapter's own.
	httpClient func(platform string) *http.Client
	// registered, when set, is told of each adapter registered with the Hub.
	registered func(platform string, a channels.Adapter)
}

// webhook is an HTTP handler an adapter needs served on addr.
type webhook struct {
	addr    string
	handler http.Handler
}

// platforms returns the table of chat platforms, each row holding its
// settings' defaults. Adding a platform is its adapter package plus one row.
func platforms() []platform {
	tg := telegram.DefaultConfig()
	sl := slack.DefaultConfig()
	dc := discord.DefaultConfig()
	return []platform{
		{name: telegram.Platform, settings: &tg, start: func(d platformDeps) (channels.Adapter, *webhook, error) {
			return startTelegram(tg, d)
		}},
		{name: slack.Platform, settings: &sl, start: func(d platformDeps) (channels.Adapter, *webhook, error) { return startSlack(sl, d) }},
		{name: discord.Platform, settings: &dc, start: discordStart(&dc)},
	}
}

// sections returns the configuration sections of ps, for configs.Load.
func sections(ps []platform) []configs.Section {
	out := make([]configs.Section, len(ps))
	for i, p := range ps {
		out[i] = configs.Section{Name: p.name, Settings: p.settings}
	}
	return out
}

func startTelegram(cfg telegram.Config, d platformDeps) (channels.Adapter, *webhook, error) {
	opts := cfg.Options()
	opts.Admins, opts.Offsets, opts.Logger = d.admins, d.store, d.log
	if d.httpClient != nil {
		opts.HTTPClient = d.httpClient(telegram.Platform)
	}
	a, err := telegram.New(opts)
	if err != nil {
		return nil, nil, err
	}
	if cfg.Mode == telegram.ModeWebhook {
		return a, &webhook{addr: cfg.WebhookListen, handler: a.Handler()}, nil
	}
	return a, nil, nil
}

// registerPlatforms adds the adapter of every platform in ps whose secrets
// are set, and returns the HTTP handlers that must be served for them
// (webhook modes), keyed by listen address.
func registerPlatforms(hub *channels.Hub, ps []platform, d platformDeps) (map[string]http.Handler, error) {
	handlers := map[string]http.Handler{}
	owner := map[string]string{}
	for _, p := range ps {
		if !p.settings.Enabled() {
			continue
		}
		pd := d
		pd.log = d.log.With(slog.String("platform", p.name))
		a, hook, err := p.start(pd)
		if err != nil {
			return nil, fmt.Errorf("configure %s: %w", p.name, err)
		}
		if hook != nil {
			if other, ok := owner[hook.addr]; ok {
				return nil, fmt.Errorf("configure %s: %s already listens on %s: give each webhook its own address", p.name, other, hook.addr)
			}
			owner[hook.addr], handlers[hook.addr] = p.name, hook.handler
		}
		hub.Register(a)
		if d.registered != nil {
			d.registered(p.name, a)
		}
	}
	return handlers, nil
}
