package sqlite

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

func walk(personID string, due time.Time) memory.Reminder {
	return memory.Reminder{PersonID: personID, Kind: memory.KindReminder, What: "take a walk", Due: due,
		Platform: "console", ConversationID: "console::me", ConversationKind: "dm", Recipient: "console::me"}
}

func TestRemindersAreListedMovedAndCancelledOnlyByTheirPerson(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	ana, bo := person(t, s, "ana"), person(t, s, "bo")
	t0 := time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)
	id, err := s.AddReminder(ctx, walk(ana.ID, t0))
	if err != nil {
		t.Fatal(err)
	}
	again := walk(ana.ID, t0)
	again.Source = "test:1"
	first, err := s.AddReminder(ctx, again)
	if err != nil {
		t.Fatal(err)
	}
	if second, err := s.AddReminder(ctx, again); err != nil || second != first {
		t.Fatalf("the same message set a second reminder: %d, %d, %v", first, second, err)
	}
	if err := s.CancelReminder(ctx, ana.ID, first); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddReminder(ctx, memory.Reminder{PersonID: ana.ID, Kind: "alarm", Due: t0}); err == nil {
		t.Fatal("AddReminder took an unknown kind")
	}
	if err := s.MoveReminder(ctx, bo.ID, id, t0.Add(time.Hour), "", true); !errors.Is(err, memory.ErrNotFound) {
		t.Fatalf("another person moved it: %v", err)
	}
	if err := s.MoveReminder(ctx, ana.ID, id, t0.Add(time.Hour), "daily 19:00", true); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Reminders(ctx, ana.ID)
	if err != nil || len(rs) != 1 || !rs[0].Due.Equal(t0.Add(time.Hour)) || rs[0].Rule != "daily 19:00" || rs[0].What != "take a walk" {
		t.Fatalf("Reminders = %+v, %v", rs, err)
	}
	if err := s.CancelReminder(ctx, bo.ID, id); !errors.Is(err, memory.ErrNotFound) {
		t.Fatalf("another person cancelled it: %v", err)
	}
	if err := s.CancelReminder(ctx, ana.ID, id); err != nil {
		t.Fatal(err)
	}
	if rs, _ := s.Reminders(ctx, ana.ID); len(rs) != 0 {
		t.Fatalf("a cancelled reminder is still listed: %+v", rs)
	}
}

func TestAReminderFiresOnceWithItsOutboxRow(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	ana := person(t, s, "ana")
	t0 := time.Date(2026, 11, 24, 18, 0, 0, 0, time.UTC)
	id, err := s.AddReminder(ctx, walk(ana.ID, t0))
	if err != nil {
		t.Fatal(err)
	}
	if due, ok, err := s.NextReminderDue(ctx); err != nil || !ok || !due.Equal(t0) {
		t.Fatalf("NextReminderDue = %s, %v, %v", due, ok, err)
	}
	if rs, _ := s.DueReminders(ctx, t0.Add(-time.Second), 10); len(rs) != 0 {
		t.Fatalf("due before its time: %+v", rs)
	}
	rs, err := s.DueReminders(ctx, t0, 10)
	if err != nil || len(rs) != 1 || rs[0].ID != id {
		t.Fatalf("DueReminders = %+v, %v", rs, err)
	}
	out := []channels.Outbound{{Platform: "console", Conversation: channels.Conversation{ID: "console::me", Kind: channels.KindDM}, Kind: channels.OutProactive, Text: "walk"}}
	fire := memory.ReminderFire{ID: id, Due: t0}
	ids, err := s.FinishProactive(ctx, out, fire)
	if err != nil || len(ids) != 1 {
		t.Fatalf("FinishProactive = %v, %v", ids, err)
	}
	// A second claim of the same fire (a scheduler that raced, or ran again) writes nothing.
	if _, err := s.FinishProactive(ctx, out, fire); !errors.Is(err, memory.ErrReminderChanged) {
		t.Fatalf("second FinishProactive = %v, want ErrReminderChanged", err)
	}
	if n := countRows(t, s, `SELECT count(*) FROM outbox WHERE reminder_id = ?`, id); n != 1 {
		t.Fatalf("%d outbox rows for the reminder, want 1", n)
	}
	if _, ok, _ := s.NextReminderDue(ctx); ok {
		t.Fatal("a fired one-off reminder is still due")
	}
}

func TestARecurringReminderMovesToItsNextTime(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	ana := person(t, s, "ana")
	t0 := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	r := walk(ana.ID, t0)
	r.Rule = "daily 09:00"
	id, _ := s.AddReminder(ctx, r)
	out := []channels.Outbound{{Platform: "console", Conversation: channels.Conversation{ID: "console::me"}, Text: "walk"}}
	if _, err := s.FinishProactive(ctx, out, memory.ReminderFire{ID: id, Due: t0, Next: t0.AddDate(0, 0, 1), NextExact: true}); err != nil {
		t.Fatal(err)
	}
	if due, ok, _ := s.NextReminderDue(ctx); !ok || !due.Equal(t0.AddDate(0, 0, 1)) {
		t.Fatalf("next due %s, %v; want tomorrow", due, ok)
	}
}

func TestPauseAndAPermanentSendFailureStopAPersonsSchedule(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	ana := person(t, s, "ana")
	t0 := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	r := walk(ana.ID, t0)
	r.Rule = "daily 09:00"
	id, _ := s.AddReminder(ctx, r)
	if err := s.SetProactivePaused(ctx, ana.ID, true); err != nil {
		t.Fatal(err)
	}
	if rs, _ := s.DueReminders(ctx, t0, 10); len(rs) != 0 {
		t.Fatal("a paused person's reminder is due")
	}
	out := []channels.Outbound{{Platform: "console", Conversation: channels.Conversation{ID: "console::me"}, Text: "walk"}}
	if _, err := s.FinishProactive(ctx, out, memory.ReminderFire{ID: id, Due: t0}); !errors.Is(err, memory.ErrReminderChanged) {
		t.Fatalf("claimed while paused: %v", err)
	}
	if err := s.SetProactivePaused(ctx, ana.ID, false); err != nil {
		t.Fatal(err)
	}
	ids, err := s.FinishProactive(ctx, out, memory.ReminderFire{ID: id, Due: t0, Next: t0.AddDate(0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Abandon(ctx, ids[0], "permanent: bot was blocked by the user"); err != nil {
		t.Fatal(err)
	}
	st, err := s.ProactiveSettings(ctx, ana.ID)
	if err != nil || !st.Suspended || st.Paused {
		t.Fatalf("settings after a permanent failure = %+v, %v; want suspended", st, err)
	}
	if _, ok, _ := s.NextReminderDue(ctx); ok {
		t.Fatal("a suspended person's reminder is still scheduled")
	}
	if err := s.SetProactivePaused(ctx, ana.ID, false); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.NextReminderDue(ctx); !ok {
		t.Fatal("resume did not lift the suspension")
	}
}

func TestTimeZoneIsKeptRemindersAreExportedAndForgettingAPersonDropsThem(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	ana := person(t, s, "ana")
	id, _ := s.AddReminder(ctx, walk(ana.ID, time.Now()))
	if err := s.SetTimeZone(ctx, ana.ID, "Europe/Dublin"); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkZoneAsked(ctx, ana.ID); err != nil {
		t.Fatal(err)
	}
	st, _ := s.ProactiveSettings(ctx, ana.ID)
	if st.TimeZone != "Europe/Dublin" || !st.ZoneAsked {
		t.Fatalf("settings = %+v", st)
	}
	if rs, _ := s.Reminders(ctx, ana.ID); len(rs) != 1 || rs[0].Zone != "Europe/Dublin" {
		t.Fatalf("reminder %d zone not updated: %+v", id, rs)
	}
	ex, err := s.Export(ctx, ana.ID)
	if err != nil || len(ex.Reminders) != 1 || ex.Reminders[0].What != "take a walk" || ex.Proactive.TimeZone != "Europe/Dublin" {
		t.Fatalf("export holds reminders %+v and %+v, %v; want the walk and the zone", ex.Reminders, ex.Proactive, err)
	}
	if err := s.ForgetAll(ctx, ana.ID); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, s, `SELECT count(*) FROM reminders`) + countRows(t, s, `SELECT count(*) FROM proactive_settings`); n != 0 {
		t.Fatalf("%d reminder rows left after forgetting the person", n)
	}
}

// BenchmarkFireReminder is the scheduler's cost per reminder sent: the
// due query, then the claim and its outbox row in one transaction.
func BenchmarkFireReminder(b *testing.B) {
	ctx := context.Background()
	s := openMem(b)
	ana := person(b, s, "ana")
	t0 := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	out := []channels.Outbound{{Platform: "console", Conversation: channels.Conversation{ID: "console::me", Kind: channels.KindDM}, Kind: channels.OutProactive, Text: "walk"}}
	for b.Loop() {
		b.StopTimer()
		if _, err := s.AddReminder(ctx, walk(ana.ID, t0)); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		due, err := s.DueReminders(ctx, t0, 1)
		if err != nil || len(due) != 1 {
			b.Fatalf("due %v, %v", due, err)
		}
		if _, err := s.FinishProactive(ctx, out, memory.ReminderFire{ID: due[0].ID, Due: due[0].Due}); err != nil {
			b.Fatal(err)
		}
	}
}
