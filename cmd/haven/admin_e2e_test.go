package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
)

// TestAdminCommandsOnTelegramChangeHowTheGroupIsAnswered runs the real
// binary's serve against the fake Bot API: a group administrator sets the
// policy and pauses the group; answers to them go to their DM.
func TestAdminCommandsOnTelegramChangeHowTheGroupIsAnswered(t *testing.T) {
	const token = "123456:test-token-abcdefghijklmnopqrstuvwxyz"
	srv := telegramtest.NewServer(token)
	defer srv.Close()
	group := telegramtest.SupergroupChat(-100900, "Circle")
	srv.AddChat(group)
	admin, bob := tgbotapi.User{ID: 7, FirstName: "Ada"}, tgbotapi.User{ID: 8, FirstName: "Bob"}
	srv.StartPrivate(admin)
	srv.StartPrivate(bob)
	srv.SetMemberStatus(group.ID, admin.ID, "administrator")
	env := map[string]string{
		"HAVEN_TELEGRAM_TOKEN":         token,
		"HAVEN_TELEGRAM_API_URL":       srv.APIEndpoint(),
		"HAVEN_DATABASE_PATH":          filepath.Join(t.TempDir(), "h.db"),
		"HAVEN_LOG_LEVEL":              "error",
		"HAVEN_SAFETY_DEFAULT_COUNTRY": "US",
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	var out, errb bytes.Buffer
	go func() {
		done <- run(ctx, []string{"serve"}, stdio{in: strings.NewReader(""), out: &out, err: &errb}, func(k string) (string, bool) {
			v, ok := env[k]
			return v, ok
		})
	}()
	waitCtx, waitCancel := context.WithTimeout(ctx, time.Minute)
	defer waitCancel()
	mention := "@" + srv.Bot().UserName + " "
	step := func(n int, from tgbotapi.User, text string) []telegramtest.Sent {
		t.Helper()
		srv.Inject(srv.NewMessage(group, from, text))
		sent, err := srv.WaitSent(waitCtx, n)
		if err != nil {
			t.Fatalf("waiting for %d messages after %q: %v; stderr:\n%s", n, text, err, errb.String())
		}
		return sent
	}
	sent := step(1, bob, mention+"/haven pause")
	if s := sent[0]; s.ChatID != bob.ID || !strings.Contains(s.Plain, "Only an admin") {
		t.Fatalf("a member's /haven pause got %+v, want the refusal in their DM", s)
	}
	sent = step(2, admin, mention+"/haven policy all")
	if s := sent[1]; s.ChatID != admin.ID || !strings.Contains(s.Plain, "Policy set to all") {
		t.Fatalf("the admin's /haven policy all got %+v, want the answer in their DM", s)
	}
	sent = step(3, bob, "anyone around tonight?")
	if s := sent[2]; s.ChatID != group.ID {
		t.Fatalf("an unaddressed message under policy all got %+v, want an answer in the group", s)
	}
	sent = step(4, admin, mention+"/haven pause")
	if s := sent[3]; s.ChatID != admin.ID || !strings.Contains(s.Plain, "Paused") {
		t.Fatalf("the admin's /haven pause got %+v", s)
	}
	srv.Inject(srv.NewMessage(group, bob, mention+"are you still there?"))
	sent = step(5, bob, mention+"I want to kill myself")
	if s := sent[4]; s.ChatID != bob.ID || !strings.Contains(s.Plain, "988") {
		t.Fatalf("a crisis in the paused group got %+v, want the crisis reply in the person's DM", s)
	}
	step(6, admin, mention+"/haven resume")
	sent = step(7, bob, mention+"/help")
	var group2 []string
	for _, s := range sent {
		if s.ChatID == group.ID {
			group2 = append(group2, s.Plain)
		}
	}
	// The group's turns run and deliver in order: had the paused group's
	// message been answered, that answer would come before /help's.
	if len(group2) != 2 || !strings.Contains(group2[1], "/memory") {
		t.Errorf("the group got %q, want 2 messages: the answer under policy all, then /help's after resume", group2)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("serve exited %d; stderr:\n%s", code, errb.String())
	}
}
