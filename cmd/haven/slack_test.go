package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/adapters/slack/slacktest"
)

// slackFake is a fake Slack with one person, Sam, in Chicago.
func slackFake(t *testing.T) *slacktest.Server {
	t.Helper()
	srv := slacktest.NewServer()
	t.Cleanup(srv.Close)
	srv.AddUser(slacktest.User{ID: "U0SAM", Name: "sam", RealName: "Sam", TZ: "America/Chicago", Locale: "en-US"})
	srv.AddChannel(slacktest.Channel{ID: "C0GENERAL", Name: "general", Type: slacktest.TypeChannel})
	return srv
}

// slackEnv is the environment that serves srv, in mode.
func slackEnv(t *testing.T, srv *slacktest.Server, mode string) map[string]string {
	return map[string]string{
		"HAVEN_SLACK_BOT_TOKEN":      srv.BotToken(),
		"HAVEN_SLACK_APP_TOKEN":      srv.AppToken(),
		"HAVEN_SLACK_SIGNING_SECRET": "test-signing-secret",
		"HAVEN_SLACK_API_URL":        srv.APIURL(),
		"HAVEN_SLACK_MODE":           mode,
		"HAVEN_SLACK_HTTP_LISTEN":    "127.0.0.1:0",
		"HAVEN_DATABASE_PATH":        filepath.Join(t.TempDir(), "h.db"),
		"HAVEN_LOG_FORMAT":           "json",
	}
}

func TestServeAnswersOnSlackThroughTheFake(t *testing.T) {
	for _, mode := range []string{"socket", "http"} {
		t.Run(mode, func(t *testing.T) {
			srv := slackFake(t)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			logs, done := serveConnectedTo(t, ctx, envOf(slackEnv(t, srv, mode)), "slack")
			if mode == "http" {
				addr := logAttr(t, logs.String(), "webhook server listening", "addr")
				srv.SetEventsURL("http://"+addr+"/slack/events", "test-signing-secret")
			}
			dm := srv.DM("U0SAM")
			srv.Message(slacktest.Message{Channel: dm, User: "U0SAM", Text: "I have been so stressed about work"})
			srv.Message(slacktest.Message{Channel: "C0GENERAL", User: "U0SAM", Text: "<@" + srv.BotUser() + "> I want to kill myself"})
			wctx, wcancel := context.WithTimeout(ctx, time.Minute)
			defer wcancel()
			posts, err := srv.WaitPosts(wctx, 3)
			if err != nil {
				t.Fatalf("waiting for replies: %v; posted %+v; log:\n%s", err, posts, logs)
			}
			var ordinary, crisis, note string
			for _, p := range posts {
				switch {
				case p.Channel == dm && strings.Contains(p.Plain, "work"):
					ordinary = p.Plain
				case p.Channel == dm:
					crisis = p.Plain
				case p.Channel == "C0GENERAL":
					note = p.Plain
				}
			}
			if ordinary == "" {
				t.Errorf("no reply attends to the first message: %+v", posts)
			}
			if !namesResource(crisis) || !strings.Contains(crisis, "988") {
				t.Errorf("crisis reply in the DM %q names no US resource (Sam is in America/Chicago)", crisis)
			}
			if note == "" || strings.Contains(note, "988") {
				t.Errorf("public note %q, want a short note without the resources", note)
			}
			if strings.Contains(logs.String(), "kill myself") || strings.Contains(logs.String(), "stressed") {
				t.Errorf("message text reached the log:\n%s", logs)
			}
			cancel()
			if code := <-done; code != 0 {
				t.Fatalf("serve exited %d; log:\n%s", code, logs)
			}
		})
	}
}

func TestServeStopsWhenSlackRefusesATokenNamingTheVariable(t *testing.T) {
	srv := slackFake(t)
	env := slackEnv(t, srv, "socket")
	env["HAVEN_SLACK_APP_TOKEN"] = "xapp-1-wrong"
	code, _, errOut := haven(t, "", envOf(env), "serve")
	if code != 1 || !strings.Contains(errOut, "HAVEN_SLACK_APP_TOKEN") || strings.Contains(errOut, "xapp-1-wrong") {
		t.Fatalf("exit %d, want 1 and an error naming HAVEN_SLACK_APP_TOKEN without quoting it; stderr:\n%s", code, errOut)
	}
}

func TestDoctorChecksTheSlackTokens(t *testing.T) {
	srv := slackFake(t)
	env := slackEnv(t, srv, "socket")
	code, out, errOut := haven(t, "", envOf(env), "doctor")
	if !strings.Contains(out, "ok    slack") || !strings.Contains(out, "the bot is @"+slacktest.DefaultBotName) {
		t.Errorf("exit %d; doctor's report lacks the working Slack tokens:\n%s\n%s", code, out, errOut)
	}
	env["HAVEN_SLACK_BOT_TOKEN"] = "xoxb-wrong"
	_, out, _ = haven(t, "", envOf(env), "doctor")
	if !strings.Contains(out, "FAIL  slack") || !strings.Contains(out, "HAVEN_SLACK_BOT_TOKEN") || strings.Contains(out, "xoxb-wrong") {
		t.Errorf("doctor's report does not name the refused bot token (or quotes it):\n%s", out)
	}
}
