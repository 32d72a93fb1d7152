package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/havenbot/haven/configs"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// openStore opens (creating and migrating) the database at path and checks
// that it can be written, so that a read-only file stops Haven at start,
// before any platform is connected, rather than at the first message.
func openStore(ctx context.Context, path string) (*sqlite.Store, error) {
	store, err := sqlite.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	if err := store.CheckWritable(ctx); err != nil {
		store.Close()
		return nil, fmt.Errorf("open database: %w", err)
	}
	return store, nil
}

// countryNote says what a person in crisis is offered with the configured
// safety.default_country, when that is less than their country's lines: ""
// when the crisis directory has lines for it.
func countryNote(cfg configs.Config) string {
	cc := cfg.Safety.DefaultCountry
	switch {
	case cc == "":
		return "safety.default_country is empty: while a person's country is unknown, a crisis reply can name only the international directory; set it to the country most of your people live in (HAVEN_SAFETY_DEFAULT_COUNTRY=GB)"
	case !safety.DefaultDirectory().Has(cc):
		return fmt.Sprintf("safety.default_country %s has no entry in Haven's crisis directory: while a person's country is unknown, a crisis reply names only the international directory", cc)
	}
	return ""
}

// warnCountry logs countryNote, when there is one: at info for an empty
// safety.default_country (the terminal chat shows warnings, and its one
// person knows where they are), as a warning for a country the directory
// lacks.
func warnCountry(cfg configs.Config, log *slog.Logger) {
	note := countryNote(cfg)
	switch {
	case note == "":
	case cfg.Safety.DefaultCountry == "":
		log.Info(note)
	default:
		log.Warn(note)
	}
}
