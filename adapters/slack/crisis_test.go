package slack_test

// These tests run the whole of Haven's turn (real core, crisis gate and
// SQLite store) behind the adapter, so this file, with bench_test.go, is
// where the adapter's tests import core, memory and safety: the adapter
// package itself does not.

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/havenbot/haven/adapters/slack"
	"github.com/havenbot/haven/adapters/slack/slacktest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
	"github.com/havenbot/haven/core"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// runHaven runs the real core on a SQLite file behind h's adapter.
func runHaven(t *testing.T, h *harness, path string) *hubRun {
	t.Helper()
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	engine, err := core.New(core.Options{Store: store, Memories: store, Gate: safety.NewGate(safety.GateOptions{}), Logger: h.a.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	r := runHub(t, h, engine, store, store)
	hubStop := r.stop
	r.stop = func() error {
		err := hubStop()
		store.Close()
		return err
	}
	t.Cleanup(func() { _ = r.stop() })
	return r
}

func TestCrisisInAChannelGoesToTheDMWithAPublicNoteAndTheRightCountrysLine(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil)
	runHaven(t, h, filepath.Join(t.TempDir(), "h.db"))
	h.srv.CannotDM(cy.ID)
	tests := []struct {
		who       slacktest.User
		line      string // a number the person's country's reply must name
		ephemeral bool   // the DM cannot be opened
	}{
		{ana, "988", false},     // America/Chicago
		{ben, "116 123", false}, // Europe/London, though his Slack is in en-US
		{cy, "", true},
	}
	seen := 0
	for _, tt := range tests {
		t.Run(tt.who.Name, func(t *testing.T) {
			ev := h.srv.Message(slacktest.Message{Channel: general.ID, User: tt.who.ID, Text: mention("I want to kill myself")})
			posts, err := h.srv.WaitPosts(ctxT(t), seen+2)
			if err != nil {
				t.Fatal(err)
			}
			mine := posts[seen:]
			seen = len(posts)
			private := slices.IndexFunc(mine, func(p slacktest.Post) bool { return p.Channel != general.ID || p.Ephemeral })
			public := slices.IndexFunc(mine, func(p slacktest.Post) bool { return p.Channel == general.ID && !p.Ephemeral })
			if private < 0 || public < 0 {
				t.Fatalf("posted %+v, want the details privately and a note in #general", mine)
			}
			p := mine[private]
			switch {
			case tt.ephemeral && (!p.Ephemeral || p.User != tt.who.ID || p.Channel != general.ID):
				t.Errorf("details %+v, want them ephemeral to %s in #general", p, tt.who.Name)
			case !tt.ephemeral && p.Channel != h.srv.DM(tt.who.ID):
				t.Errorf("details %+v, want them in %s's DM", p, tt.who.Name)
			}
			if tt.line != "" && !strings.Contains(p.Plain, tt.line) {
				t.Errorf("the crisis reply to %s does not name %s:\n%s", tt.who.Name, tt.line, p.Plain)
			}
			note := mine[public]
			if note.ThreadTS != ev.TS || strings.Contains(note.Plain, "988") || strings.Contains(note.Plain, "116") {
				t.Errorf("public note %+v, want a short note without resources, in the thread of the message", note)
			}
			if !strings.Contains(strings.ToLower(note.Plain), "message") {
				t.Errorf("public note %q does not point to a private message", note.Plain)
			}
		})
	}
	if strings.Contains(h.logs.String(), "kill myself") {
		t.Error("crisis text reached the adapter's log")
	}
}

func TestMemoryAnswersInAChannelArePrivate(t *testing.T) {
	h := newHarness(t, nil, slack.ModeSocket, nil)
	runHaven(t, h, filepath.Join(t.TempDir(), "h.db"))
	h.srv.Message(slacktest.Message{Channel: general.ID, User: ana.ID, Text: mention("/memory")})
	h.srv.Message(slacktest.Message{Channel: general.ID, User: ana.ID, Text: mention("/export")})
	posts, err := h.srv.WaitPosts(ctxT(t), 3)
	if err != nil {
		t.Fatal(err)
	}
	files, err := h.srv.WaitFiles(ctxT(t), 1)
	if err != nil {
		t.Fatalf("%v; posts %+v", err, posts)
	}
	if files[0].Channel != "D0ANA" || !strings.HasSuffix(files[0].Name, ".json") {
		t.Errorf("export %+v, want a JSON file in Ana's DM", files[0])
	}
	for _, p := range posts {
		if p.Channel == general.ID && (strings.Contains(p.Plain, "remember about you:") || strings.Contains(p.Plain, "anything about you yet")) {
			t.Errorf("a memory answer was shown in #general: %q", p.Plain)
		}
	}
	if !slices.ContainsFunc(posts, func(p slacktest.Post) bool { return p.Channel == "D0ANA" }) ||
		!slices.ContainsFunc(posts, func(p slacktest.Post) bool { return p.Channel == general.ID && strings.Contains(p.Plain, "privately") }) {
		t.Errorf("posted %+v, want the answer in Ana's DM and a note in #general", posts)
	}
}

func TestARedeliveredEventIsAnsweredOnceAlsoAcrossARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	srv := newFake(t)
	h := newHarness(t, srv, slack.ModeSocket, nil)
	first := runHaven(t, h, path)
	ev := srv.Message(slacktest.Message{Channel: srv.DM(ana.ID), User: ana.ID, Text: "I have been so stressed about work"})
	if _, err := srv.WaitPosts(ctxT(t), 1); err != nil {
		t.Fatal(err)
	}
	if err := first.stop(); err != nil {
		t.Fatal(err)
	}
	// A new process: a new adapter (whose memory of event ids is empty)
	// on the same database; Slack redelivers the event.
	h2 := newHarness(t, srv, slack.ModeSocket, nil)
	second := runHaven(t, h2, path)
	srv.Redeliver(ev.ID)
	h2.marker(t)
	posts, err := srv.WaitPosts(ctxT(t), 2)
	if err != nil {
		t.Fatal(err)
	}
	// The marker was answered, so the redelivery before it was offered to
	// the hub, which took it for a duplicate (its inbox is the database).
	if st := second.hub.Stats(); st.Duplicates != 1 || st.Accepted != 1 {
		t.Errorf("after the restart the hub counted %d duplicates and %d accepted, want 1 and 1 (the marker)", st.Duplicates, st.Accepted)
	}
	if posts[0].Channel != "D0ANA" || posts[1].Channel != "D0CY" {
		t.Errorf("posted %+v, want one reply to Ana, then the marker's", posts)
	}
}

// slashCore is the shared ScenarioCore behind the slash command: the
// core's admin router will read "/haven pause" as the admin command pause,
// which ScenarioCore knows as "/pause".
type slashCore struct{ *channelstest.ScenarioCore }

func (c slashCore) Handle(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	if args, ok := strings.CutPrefix(in.Text, slack.DefaultCommand+" "); ok {
		in.Text = "/" + args
	}
	return c.ScenarioCore.Handle(ctx, in)
}

func TestANonAdminSlashCommandIsRefusedEphemerallyWithoutEffect(t *testing.T) {
	for _, mode := range []string{slack.ModeSocket, slack.ModeHTTP} {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, nil, mode, nil)
			core := slashCore{&channelstest.ScenarioCore{Limit: h.a.MessageLimit()}}
			runHub(t, h, core, nil, nil)
			h.srv.Slash(general.ID, ana.ID, "/haven", "pause")
			posts, err := h.srv.WaitPosts(ctxT(t), 1)
			if err != nil {
				t.Fatal(err)
			}
			if p := posts[0]; !p.Ephemeral || p.User != ana.ID || p.Plain != channelstest.DeniedText || core.Pauses() != 0 {
				t.Fatalf("posted %+v with %d pauses, want the denial shown to Ana only and no effect", p, core.Pauses())
			}
			h.srv.SetAdmin(ben.ID, true)
			h.srv.Slash(general.ID, ben.ID, "/haven", "pause")
			posts, err = h.srv.WaitPosts(ctxT(t), 2)
			if err != nil {
				t.Fatal(err)
			}
			if p := posts[1]; !p.Ephemeral || p.User != ben.ID || p.Plain != channelstest.PausedText || core.Pauses() != 1 {
				t.Errorf("posted %+v with %d pauses, want the admin's answer shown to Ben only, and the pause", p, core.Pauses())
			}
		})
	}
}
