package core

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/sqlite"
)

// capsHarness runs the reminder capabilities on a real SQLite file the way
// the task branch does: the first capability whose rule matches, its
// approval question, then Execute with the session's capability context.
type capsHarness struct {
	t      *testing.T
	store  *sqlite.Store
	reg    *tasks.Registry
	person string
	ctx    tasks.Context
	now    time.Time
	loc    *time.Location
}

func newCapsHarness(t *testing.T, path string) *capsHarness {
	t.Helper()
	if path == "" {
		path = filepath.Join(t.TempDir(), "haven.db")
	}
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	p, err := store.ResolvePerson(context.Background(), "test", "test::alice", "Alice")
	if err != nil {
		t.Fatal(err)
	}
	reg := tasks.NewRegistry()
	for _, c := range tasks.ReminderCapabilities(ReminderStore(store, nil)) {
		if err := reg.Register(c); err != nil {
			t.Fatal(err)
		}
	}
	loc, _ := time.LoadLocation("Europe/Dublin")
	return &capsHarness{t: t, store: store, reg: reg, person: p.ID, ctx: tasks.Context{},
		now: time.Date(2026, 11, 24, 14, 30, 0, 0, loc), loc: loc}
}

func (h *capsHarness) request(text string, private bool) *tasks.Request {
	kind := "dm"
	if !private {
		kind = "group"
	}
	return &tasks.Request{Text: text, Now: h.now, Location: h.loc, PersonID: h.person, Private: private, Context: h.ctx,
		Target: tasks.Target{Platform: "test", ConversationID: "test::dm-1", Kind: kind}}
}

// say runs text and returns the capability that took it, whether it asked
// for approval, and its reply.
func (h *capsHarness) say(text string, private bool) (name string, approval bool, reply string) {
	h.t.Helper()
	req := h.request(text, private)
	for _, c := range h.reg.All() {
		if c.Match == nil {
			continue
		}
		args, ok := c.Match(req)
		if !ok {
			continue
		}
		if c.Approval != nil {
			_, approval = c.Approval(args)
		}
		res, err := c.Execute(context.Background(), req, args)
		if err != nil {
			h.t.Fatalf("%s: Execute(%q): %v", c.Name, text, err)
		}
		return c.Name, approval, res.Text
	}
	h.t.Fatalf("no capability took %q", text)
	return "", false, ""
}

func (h *capsHarness) command(cmd, rest string) (approval bool, reply string) {
	h.t.Helper()
	c := h.reg.ByCommand(cmd)
	if c == nil {
		h.t.Fatalf("no capability has /%s", cmd)
	}
	req := h.request(rest, true)
	req.Command = cmd
	args := tasks.Args{}
	if c.Match != nil {
		args, _ = c.Match(req)
	}
	if c.Approval != nil {
		_, approval = c.Approval(args)
	}
	res, err := c.Execute(context.Background(), req, args)
	if err != nil {
		h.t.Fatalf("/%s %s: %v", cmd, rest, err)
	}
	return approval, res.Text
}

func (h *capsHarness) reminders() []memory.Reminder {
	h.t.Helper()
	rs, err := h.store.Reminders(context.Background(), h.person)
	if err != nil {
		h.t.Fatal(err)
	}
	return rs
}

func TestAReminderIsSetMovedListedAndCancelled(t *testing.T) {
	h := newCapsHarness(t, "")
	name, approval, reply := h.say("remind me to take a walk at 6", true)
	if name != "reminder.set" || !approval || !strings.Contains(reply, "take a walk at 18:00 today") {
		t.Fatalf("set: %s approval=%v %q", name, approval, reply)
	}
	rs := h.reminders()
	if len(rs) != 1 || rs[0].What != "take a walk" || !rs[0].Due.Equal(time.Date(2026, 11, 24, 18, 0, 0, 0, h.loc)) || rs[0].Zone != "Europe/Dublin" || !rs[0].Exact {
		t.Fatalf("stored %+v", rs)
	}
	if f := h.ctx.Get(tasks.ContextReminder, "1"); f["what"] != "take a walk" || f["when"] != "at 18:00 today" {
		t.Fatalf("capability context = %v", h.ctx)
	}

	name, approval, reply = h.say("move that to 7", true)
	if name != "reminder.move" || approval || !strings.Contains(reply, "at 19:00 today") {
		t.Fatalf("move: %s approval=%v %q", name, approval, reply)
	}
	if rs := h.reminders(); !rs[0].Due.Equal(time.Date(2026, 11, 24, 19, 0, 0, 0, h.loc)) {
		t.Fatalf("moved to %s, want 19:00", rs[0].Due.In(h.loc))
	}

	if _, _, reply := h.say("remind me every weekday at 9 to take my meds", true); !strings.Contains(reply, "every weekday at 09:00") {
		t.Fatalf("recurring: %q", reply)
	}
	_, _, reply = h.say("show my reminders", true)
	if !strings.Contains(reply, "take a walk, at 19:00 today") || !strings.Contains(reply, "take my meds, every weekday at 09:00") {
		t.Fatalf("list: %q", reply)
	}
	if _, _, reply := h.say("show my reminders", false); strings.Contains(reply, "walk") || !strings.Contains(reply, "direct message") {
		t.Fatalf("list in a group showed them: %q", reply)
	}

	if _, _, reply := h.say("move the walk reminder to 8", false); strings.Contains(reply, "walk") || !strings.Contains(reply, "that reminder is now at 20:00 today") {
		t.Fatalf("a move in a group named the reminder: %q", reply)
	}
	if _, _, reply := h.say("cancel the take reminder", false); strings.Contains(reply, "walk") || strings.Contains(reply, "meds") {
		t.Fatalf("an unclear cancel in a group listed reminders: %q", reply)
	}
	name, _, reply = h.say("cancel the walk reminder", true)
	if name != "reminder.cancel" || !strings.Contains(reply, "Cancelled the reminder to take a walk") {
		t.Fatalf("cancel: %s %q", name, reply)
	}
	if rs := h.reminders(); len(rs) != 1 || rs[0].What != "take my meds" {
		t.Fatalf("after cancel: %+v", rs)
	}
	if h.ctx.Get(tasks.ContextReminder, "1") != nil {
		t.Fatal("the cancelled reminder is still in the capability context")
	}
}

func TestTheRemindCommandNeedsNoApprovalAndWordsDo(t *testing.T) {
	h := newCapsHarness(t, "")
	approval, reply := h.command("remind", "in 2 hours to stretch")
	if approval || !strings.Contains(reply, "remind you to stretch at 16:30 today") {
		t.Fatalf("/remind: approval=%v %q", approval, reply)
	}
	if _, approval, _ := h.say("remind me in 2 minutes to breathe", true); !approval {
		t.Fatal("a reminder in words set without approval")
	}
	name, approval, reply := h.say("check in on me tomorrow evening", true)
	if name != "checkin.set" || !approval || !strings.Contains(reply, "check in on you at 18:00 tomorrow") {
		t.Fatalf("check-in: %s %v %q", name, approval, reply)
	}
	rs := h.reminders()
	if len(rs) != 3 || rs[2].Kind != memory.KindCheckIn || rs[2].Exact {
		t.Fatalf("stored %+v; want the check-in last, not exact", rs)
	}
}

func TestWithoutAZoneHavenAsksOnceAndMovesTheReminderToTheZoneGiven(t *testing.T) {
	h := newCapsHarness(t, "")
	h.loc = nil
	h.now = time.Date(2026, 11, 24, 14, 30, 0, 0, time.UTC)
	_, _, reply := h.say("remind me to take a walk at 6", true)
	if !strings.Contains(reply, "Which time zone are you in?") {
		t.Fatalf("first reminder without a zone did not ask: %q", reply)
	}
	_, _, reply = h.say("remind me to call mum at 8pm", true)
	if strings.Contains(reply, "Which time zone") || !strings.Contains(reply, "UTC") {
		t.Fatalf("second reminder asked again: %q", reply)
	}
	_, _, reply = h.say("remind me in 2 hours to stretch", true)
	if strings.Contains(reply, "UTC") {
		t.Fatalf("a relative reminder talked of zones: %q", reply)
	}
	name, _, reply := h.say("I'm in Chicago", true)
	if name != "timezone.set" || !strings.Contains(reply, "America/Chicago") || !strings.Contains(reply, "moved 2 reminders") {
		t.Fatalf("zone: %s %q", name, reply)
	}
	chicago, _ := time.LoadLocation("America/Chicago")
	for _, r := range h.reminders() {
		if r.What == "take a walk" && !r.Due.Equal(time.Date(2026, 11, 24, 18, 0, 0, 0, chicago)) {
			t.Errorf("walk now due %s, want 18:00 in Chicago", r.Due)
		}
		if r.What == "stretch" && !r.Due.Equal(h.now.Add(2*time.Hour)) {
			t.Errorf("the relative reminder moved to %s", r.Due)
		}
	}
	st, _ := h.store.ProactiveSettings(context.Background(), h.person)
	if st.TimeZone != "America/Chicago" {
		t.Fatalf("zone stored %q", st.TimeZone)
	}
}

func TestTimeZoneWordsAndTheirLookups(t *testing.T) {
	for words, want := range map[string]string{"Dublin": "Europe/Dublin", "europe/dublin": "Europe/Dublin", "new york": "America/New_York", "UTC": "UTC", "Buenos Aires": "America/Buenos_Aires"} {
		if loc, ok := tasks.LookupZone(words); !ok || loc.String() != want {
			t.Errorf("LookupZone(%q) = %v, %v; want %s", words, loc, ok, want)
		}
	}
	for _, words := range []string{"a bad place", "pain", "../etc/passwd", ""} {
		if loc, ok := tasks.LookupZone(words); ok {
			t.Errorf("LookupZone(%q) = %v", words, loc)
		}
	}
}

func TestReminderRulesLeaveOrdinaryTalkAlone(t *testing.T) {
	h := newCapsHarness(t, "")
	// With a reminder just set, "that" and "it" could point at it.
	h.say("remind me to take a walk at 6", true)
	for _, text := range []string{
		"I'm in a bad place", "it reminds me of my dad", "my mom used to check on me every day",
		"stop it", "forget it", "just stop that", "make it to the party", "in 2 hours I have to see my ex",
		"I have a meeting at 6", "I can't move on from that", "please stop reminding me of it",
	} {
		req := h.request(text, true)
		for _, c := range h.reg.All() {
			if c.Match == nil {
				continue
			}
			if _, ok := c.Match(req); ok {
				t.Errorf("%s took %q", c.Name, text)
			}
		}
	}
	// Without reminders in the conversation, "I'm in London" is talk.
	h2 := newCapsHarness(t, "")
	for _, c := range h2.reg.All() {
		if c.Match != nil {
			if _, ok := c.Match(h2.request("I'm in London", true)); ok {
				t.Errorf("%s took I'm in London with no reminder in sight", c.Name)
			}
		}
	}
}

func TestPauseAndResumeArePersonLevel(t *testing.T) {
	h := newCapsHarness(t, "")
	if _, reply := h.command("pause", ""); !strings.Contains(reply, "/resume") {
		t.Fatalf("/pause: %q", reply)
	}
	if st, _ := h.store.ProactiveSettings(context.Background(), h.person); !st.Paused {
		t.Fatal("/pause did not pause")
	}
	h.command("resume", "")
	if st, _ := h.store.ProactiveSettings(context.Background(), h.person); st.Paused {
		t.Fatal("/resume did not resume")
	}
}
