package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
)

func TestBackupWhileServingIsACopyHavenCanChatOn(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	if code, _, errOut := haven(t, "hi\nI have been so stressed about work\n", noEnv, "chat", "--db", db); code != 0 {
		t.Fatalf("chat: exit %d\n%s", code, errOut)
	}

	// Serve Telegram on the same file, and back it up while a turn is written.
	const token = "123456:test-token-abcdefghijklmnopqrstuvwxyz"
	srv := telegramtest.NewServer(token)
	defer srv.Close()
	env := envOf(map[string]string{"HAVEN_TELEGRAM_TOKEN": token, "HAVEN_TELEGRAM_API_URL": srv.APIEndpoint(), "HAVEN_DATABASE_PATH": db})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	logs, done := serveConnected(t, ctx, env)
	person := tgbotapi.User{ID: 42, FirstName: "Sam"}
	srv.Inject(srv.NewMessage(telegramtest.PrivateChat(person), person, "hello there"))
	copyPath := filepath.Join(dir, "backups", "copy.db")
	if err := os.Mkdir(filepath.Dir(copyPath), 0o700); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := haven(t, "", noEnv, "backup", "--db", db, copyPath)
	if code != 0 || !strings.Contains(out, "backed up "+db+" to "+copyPath) {
		t.Fatalf("backup while serving: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	waitCtx, waitCancel := context.WithTimeout(ctx, time.Minute)
	defer waitCancel()
	if _, err := srv.WaitSent(waitCtx, 1); err != nil {
		t.Fatal(err)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("serve exited %d:\n%s", code, logs)
	}

	fi, err := os.Stat(copyPath)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the copy: %v, mode %v; want 0600", err, fi.Mode())
	}
	code, out, errOut = haven(t, "", noEnv, "migrate", "status", "--db", copyPath)
	if code != 0 || !strings.Contains(out, "up to date") {
		t.Errorf("migrate status of the copy: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = haven(t, "/whoami\n", noEnv, "chat", "--db", copyPath)
	if r := replies(out); code != 0 || len(r) != 1 || !strings.Contains(r[0], "2 turns") {
		t.Errorf("chat on the copy: exit %d, replies %q (want the terminal session's 2 turns)\n%s", code, r, errOut)
	}
	code, _, errOut = haven(t, "", noEnv, "backup", "--db", db, copyPath)
	if code != 1 || !strings.Contains(errOut, copyPath+" already exists") {
		t.Errorf("a second backup onto the copy: exit %d, want 1 and a refusal naming it:\n%s", code, errOut)
	}
}

func TestMigrateCreatesReportsAndRefusesWhatItCannotDo(t *testing.T) {
	db := filepath.Join(t.TempDir(), "h.db")
	code, _, errOut := haven(t, "", noEnv, "migrate", "--db", db)
	if code != 1 || !strings.Contains(errOut, "no such file") || !strings.Contains(errOut, db) {
		t.Errorf("status of a missing database: exit %d, want 1 naming it:\n%s", code, errOut)
	}
	if _, err := os.Stat(db); err == nil {
		t.Fatal("migrate status created the database")
	}
	code, out, errOut := haven(t, "", noEnv, "migrate", "up", "--db", db)
	if code != 0 || !strings.Contains(out, "created "+db+" at schema version") {
		t.Fatalf("migrate up of a missing database: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = haven(t, "", noEnv, "migrate", "up", "--db", db)
	if code != 0 || !strings.Contains(out, "is up to date") {
		t.Errorf("migrate up again: exit %d\n%s", code, out)
	}
	code, out, _ = haven(t, "", noEnv, "migrate", "--db", db)
	if code != 0 || !strings.Contains(out, "status:          up to date") {
		t.Errorf("migrate status: exit %d\n%s", code, out)
	}
	if code, _, errOut = haven(t, "", noEnv, "migrate", "down", "--db", db); code != 2 || !strings.Contains(errOut, `not "down"`) {
		t.Errorf("migrate down: exit %d, want a usage error:\n%s", code, errOut)
	}
}
