package main

import (
	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/channels"
)

// startSlack builds the Slack adapter from its settings. In http mode its
// Events API handler must be served on slack.http_listen.
func startSlack(cfg slack.Config, d platformDeps) (channels.Adapter, *webhook, error) {
	opts := cfg.Options()
	opts.Admins, opts.Logger = d.admins, d.log
	if d.httpClient != nil {
		opts.HTTPClient = d.httpClient(slack.Platform)
	}
	a, err := slack.New(opts)
	if err != nil {
		return nil, nil, err
	}
	if cfg.Mode == slack.ModeHTTP {
		return a, &webhook{addr: cfg.HTTPListen, handler: a.Handler()}, nil
	}
	return a, nil, nil
}
