package core

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/llm/llmtest"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// The SQLite store is what gives the engine its reminder capabilities.
var _ ReminderBackend = (*sqlite.Store)(nil)

// chicago is the zone the Slack-like platform reports for the person.
const chicago = "America/Chicago"

// reminderEngine is an engine with the built-in capabilities on the SQLite
// file at path, on clock c; llmc, when set, is its model.
func reminderEngine(t *testing.T, path string, c *clock, llmc llm.Client) (*Engine, *sqlite.Store) {
	t.Helper()
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	o := Options{Store: store, Gate: safety.NewGate(safety.GateOptions{}), Logger: slog.New(slog.DiscardHandler), Clock: c.Now}
	if llmc != nil {
		o.LLM, o.LLMDeadline = llmc, 5*time.Second
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return e, store
}

// tell runs one turn from the person, on a platform that gives their zone,
// through Handle (committed as the Hub would), and returns its reply.
func tell(t *testing.T, e *Engine, in channels.Inbound) channels.Outbound {
	t.Helper()
	in.TimeZone = chicago
	out, err := e.Handle(context.Background(), in)
	if err != nil || len(out) != 1 {
		t.Fatalf("Handle(%q) = %+v, %v; want one reply", in.Text, out, err)
	}
	return out[0]
}

func personReminders(t *testing.T, store *sqlite.Store) []memory.Reminder {
	t.Helper()
	p, err := store.ResolvePerson(context.Background(), "test", "test::alice", "")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := store.Reminders(context.Background(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func TestRemindersEndToEndThroughTheEngine(t *testing.T) {
	loc, _ := time.LoadLocation(chicago)
	c := &clock{now: time.Date(2026, 11, 24, 14, 30, 0, 0, loc)}
	path := filepath.Join(t.TempDir(), "haven.db")
	e, store := reminderEngine(t, path, c, nil)

	out := tell(t, e, dm("remind me to take a walk at 6"))
	if !strings.Contains(out.Text, "Shall I remind you to take a walk at 6?") || len(personReminders(t, store)) != 0 {
		t.Fatalf("a reminder in words: %q; want the approval question and nothing set yet", out.Text)
	}
	// The approval survives a restart.
	store.Close()
	e, store = reminderEngine(t, path, c, nil)
	if out := tell(t, e, dm("yes")); !strings.Contains(out.Text, "remind you to take a walk at 18:00 today") {
		t.Fatalf("yes after a restart: %q", out.Text)
	}
	rs := personReminders(t, store)
	if len(rs) != 1 || !rs[0].Due.Equal(time.Date(2026, 11, 24, 18, 0, 0, 0, loc)) || rs[0].Zone != chicago {
		t.Fatalf("stored %+v; want 18:00 in Chicago, the platform's zone", rs)
	}

	if out := tell(t, e, dm("move that to 7")); !strings.Contains(out.Text, "take a walk is now at 19:00 today") {
		t.Fatalf("move that to 7: %q", out.Text)
	}
	if rs := personReminders(t, store); !rs[0].Due.Equal(time.Date(2026, 11, 24, 19, 0, 0, 0, loc)) {
		t.Fatalf("moved to %s", rs[0].Due.In(loc))
	}

	if out := tell(t, e, dm("/remind in 2 hours to stretch")); !strings.Contains(out.Text, "remind you to stretch at 16:30 today") {
		t.Fatalf("/remind (no approval): %q", out.Text)
	}
	if out := tell(t, e, dm("/reminders")); !strings.Contains(out.Text, "take a walk, at 19:00 today") || !strings.Contains(out.Text, "stretch, at 16:30 today") {
		t.Fatalf("/reminders: %q", out.Text)
	}
	if out := tell(t, e, inGroup("test::alice", "/reminders")); strings.Contains(out.Text, "walk") {
		t.Fatalf("/reminders in a group showed them: %q", out.Text)
	}
	if out := tell(t, e, dm("cancel the walk reminder")); !strings.Contains(out.Text, "Cancelled the reminder to take a walk") {
		t.Fatalf("cancel: %q", out.Text)
	}
	if rs := personReminders(t, store); len(rs) != 1 || rs[0].What != "stretch" {
		t.Fatalf("after cancel: %+v", rs)
	}

	if out := tell(t, e, dm("check in on me tomorrow evening")); !strings.Contains(out.Text, "Shall I check in on you tomorrow evening?") {
		t.Fatalf("check-in: %q", out.Text)
	}
	if out := tell(t, e, dm("yes")); !strings.Contains(out.Text, "check in on you at 18:00 tomorrow") {
		t.Fatalf("check-in yes: %q", out.Text)
	}

	if out := tell(t, e, dm("/timezone Europe/Dublin")); !strings.Contains(out.Text, "your time zone is Europe/Dublin") {
		t.Fatalf("/timezone: %q", out.Text)
	}
	if rs := personReminders(t, store); rs[0].Zone != "Europe/Dublin" {
		t.Fatalf("a reminder's zone after /timezone: %q", rs[0].Zone)
	}
	if out := tell(t, e, dm("/pause")); !strings.Contains(out.Text, "/resume") {
		t.Fatalf("/pause: %q", out.Text)
	}
	if out := tell(t, e, dm("/resume")); !strings.Contains(out.Text, "back on") {
		t.Fatalf("/resume: %q", out.Text)
	}
	help := tell(t, e, dm("/help")).Text
	for _, s := range []string{"/remind in 2 hours to stretch", "/reminders", "/pause", "/resume", "/checkin tomorrow evening"} {
		if !strings.Contains(help, s) {
			t.Errorf("/help lacks %q:\n%s", s, help)
		}
	}
}

// A turn run again (the process died before its commit) sets the
// reminder once.
func TestAReminderTurnRunAgainSetsItOnce(t *testing.T) {
	c := &clock{now: time.Date(2026, 11, 24, 14, 30, 0, 0, time.UTC)}
	e, store := reminderEngine(t, filepath.Join(t.TempDir(), "haven.db"), c, nil)
	in := dm("/remind in 2 hours to stretch")
	for range 2 {
		if _, _, err := e.HandleDeferred(context.Background(), in); err != nil { // never committed
			t.Fatal(err)
		}
	}
	if rs := personReminders(t, store); len(rs) != 1 {
		t.Fatalf("%d reminders after the turn ran twice, want 1", len(rs))
	}
}

func TestTheModelCanSetAReminderAfterApproval(t *testing.T) {
	srv := llmtest.NewServer(t)
	byCall(srv, llmtest.Reply{Content: `{"capability":"reminder.set","args":{"what":"call the dentist","when":"tomorrow at 9"}}`})
	mc, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), Model: "test"})
	if err != nil {
		t.Fatal(err)
	}
	loc, _ := time.LoadLocation(chicago)
	c := &clock{now: time.Date(2026, 11, 24, 14, 30, 0, 0, loc)}
	e, store := reminderEngine(t, filepath.Join(t.TempDir(), "haven.db"), c, mc)
	if out := tell(t, e, dm("could you nudge me about the dentist tomorrow at 9")); !strings.Contains(out.Text, "Shall I remind you to call the dentist tomorrow at 9?") {
		t.Fatalf("model extraction: %q", out.Text)
	}
	if out := tell(t, e, dm("yes")); !strings.Contains(out.Text, "call the dentist at 09:00 tomorrow") {
		t.Fatalf("yes: %q", out.Text)
	}
	if rs := personReminders(t, store); len(rs) != 1 || !rs[0].Due.Equal(time.Date(2026, 11, 25, 9, 0, 0, 0, loc)) {
		t.Fatalf("stored %+v", rs)
	}
}

// The crisis gate reads a reminder request like any message: at crisis
// level the person gets the crisis reply and nothing is scheduled.
func TestAReminderAtCrisisLevelGetsTheCrisisReplyAndIsNotSet(t *testing.T) {
	c := &clock{now: time.Date(2026, 11, 24, 14, 30, 0, 0, time.UTC)}
	e, store := reminderEngine(t, filepath.Join(t.TempDir(), "haven.db"), c, nil)
	for _, text := range []string{"/remind at 6 that I want to kill myself", "remind me tonight that I want to kill myself"} {
		if out := tell(t, e, dm(text)); out.Kind != channels.OutCrisis {
			t.Fatalf("%q: reply of kind %s, want the crisis reply", text, out.Kind)
		}
	}
	if rs := personReminders(t, store); len(rs) != 0 {
		t.Fatalf("%d reminders set from crisis messages", len(rs))
	}
}
