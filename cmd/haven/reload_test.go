package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/configs"
	"github.com/havenbot/haven/core"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

func TestReloadAppliesAdminsAndTheCountryAndNamesWhatNeedsARestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "haven.yaml")
	write := func(body string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("admins: [\"test::root\"]\nhub:\n  workers: 4\n")
	flags := commonFlags{config: file, db: filepath.Join(dir, "h.db")}
	load := func() (configs.Config, []string, error) {
		fresh := platforms()
		names := make([]string, len(fresh))
		for i, p := range fresh {
			names[i] = p.name
		}
		c, err := loadConfigWith(flags, noEnv, fresh)
		return c, names, err
	}
	cfg, _, err := load()
	if err != nil {
		t.Fatal(err)
	}
	store, err := sqlite.Open(ctx, cfg.Database.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	r := &configReloader{current: cfg, load: load}
	engine, err := core.New(core.Options{Store: store, Gate: safety.NewGate(safety.GateOptions{}), Admins: cfg.Admins,
		Reloader: r, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	r.apply = engine
	say := func(author, text string) string {
		t.Helper()
		in := channels.Inbound{Platform: "test", Conversation: channels.Conversation{ID: "test::dm-" + author, Kind: channels.KindDM},
			MessageID: "test::" + text, DeliveryKey: text, Author: channels.Author{ID: "test::" + author}, Text: text, ReceivedAt: time.Now()}
		out, err := engine.Handle(ctx, in)
		if err != nil || len(out) != 1 {
			t.Fatalf("Handle(%q) = %+v, %v", text, out, err)
		}
		return out[0].Text
	}
	if got := say("ana", "/haven help"); !strings.Contains(got, "Only an admin") {
		t.Fatalf("ana before the reload: %q, want the refusal", got)
	}
	if got := say("root", "/haven reload"); got != "Configuration reloaded: nothing changed." {
		t.Fatalf("reload of an unchanged file: %q", got)
	}

	write("admins: [\"test::ana\"]\nsafety:\n  default_country: GB\nhub:\n  workers: 2\n")
	got := say("root", "/haven reload")
	for _, want := range []string{"In effect now: admins, safety.default_country.", "only after a restart: hub.workers.", "stays one on Telegram"} {
		if !strings.Contains(got, want) {
			t.Errorf("reload answer lacks %q:\n%s", want, got)
		}
	}
	if got := say("ana", "/haven help"); !strings.Contains(got, "/haven reload") {
		t.Errorf("ana after the reload made her an admin: %q, want the admin help", got)
	}
	if got := say("root", "/haven help"); !strings.Contains(got, "Only an admin") {
		t.Errorf("root after the reload removed them: %q, want the refusal", got)
	}
	if got := say("ana", "I want to kill myself"); !strings.Contains(got, "116 123") {
		t.Errorf("the reloaded default country (GB) is not used for crisis resources:\n%s", got)
	}
	// What needs a restart stays named; what was applied is not repeated.
	if got := say("ana", "/haven reload"); !strings.Contains(got, "only after a restart: hub.workers.") || strings.Contains(got, "In effect now") {
		t.Errorf("second reload: %q", got)
	}
	write("hub:\n  workers: many\n")
	if got := say("ana", "/haven reload"); !strings.Contains(got, "nothing changed") || !strings.Contains(got, "workers") {
		t.Errorf("reload of an invalid file: %q, want the error and nothing changed", got)
	}
	if got := say("ana", "/haven help"); !strings.Contains(got, "/haven reload") {
		t.Errorf("a failed reload changed the admins: %q", got)
	}
}
