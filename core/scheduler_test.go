package core

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// proactiveRun is one run of Haven's process on a SQLite file: the store,
// the engine, the Hub with a test adapter, and the scheduler, all stopped
// by stop. It is made inside a synctest bubble.
type proactiveRun struct {
	store   *sqlite.Store
	adapter *channelstest.Adapter
	sched   *Scheduler
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	mu      sync.Mutex
	reports []TurnReport
}

func startRun(t *testing.T, path string, quiet tasks.QuietHours) *proactiveRun {
	t.Helper()
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	r := &proactiveRun{store: store, adapter: channelstest.NewAdapter("test", 4000)}
	e, err := New(Options{Store: store, Gate: safety.NewGate(safety.GateOptions{}), Logger: slog.New(slog.DiscardHandler),
		Observe: func(rep TurnReport) { r.mu.Lock(); r.reports = append(r.reports, rep); r.mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	hub := channels.NewHub(e, store, store, channels.HubOptions{NoRateLimit: true, Logger: slog.New(slog.DiscardHandler)})
	hub.Register(r.adapter)
	// An hour's poll: what is set through the capabilities wakes the loop.
	r.sched, err = NewScheduler(SchedulerOptions{Store: store, Sender: hub, QuietHours: quiet, Poll: time.Hour, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.wg.Go(func() {
		if err := hub.Run(ctx); err != nil {
			t.Errorf("hub: %v", err)
		}
	})
	r.wg.Go(func() { r.sched.Run(ctx) })
	return r
}

// stop ends the run as a process ends: the loops stop, the store closes.
func (r *proactiveRun) stop(t *testing.T) {
	t.Helper()
	r.cancel()
	r.wg.Wait()
	if err := r.store.Close(); err != nil {
		t.Fatal(err)
	}
}

func (r *proactiveRun) sent() []channels.Outbound { return r.adapter.Sent() }

// setReminder runs a reminder capability as a turn at the current (fake)
// time does, in zone loc, waking the run's scheduler as core's wiring does.
func setReminder(t *testing.T, run *proactiveRun, capName string, args tasks.Args, loc *time.Location) {
	t.Helper()
	p, err := run.store.ResolvePerson(context.Background(), "test", "test::alice", "Alice")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ReminderCapabilities(run.store, run.sched.Wake) {
		if c.Name != capName {
			continue
		}
		req := &tasks.Request{Now: time.Now(), Location: loc, PersonID: p.ID, Private: true, Context: tasks.Context{},
			Target: tasks.Target{Platform: "test", ConversationID: "test::dm-1", Kind: "dm"}}
		if _, err := c.Execute(context.Background(), req, args); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Fatalf("no capability %s", capName)
}

// at sleeps in the bubble until the fake clock reads h:m on day d of
// January 2000 (UTC), then lets every goroutine settle.
func at(t *testing.T, d, h, m int) {
	t.Helper()
	until := time.Date(2000, 1, d, h, m, 0, 0, time.UTC)
	if d := time.Until(until); d < 0 {
		t.Fatalf("the clock is past %s", until)
	}
	time.Sleep(time.Until(until))
	synctest.Wait()
}

func noQuiet() tasks.QuietHours { return tasks.QuietHours{} }

func defaultQuiet(t *testing.T) tasks.QuietHours {
	q, err := tasks.ParseQuietHours(tasks.DefaultQuietHours)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestAReminderInTwoMinutesFiresOnceAtItsTimeAcrossARestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "haven.db")
		at(t, 1, 14, 0)
		run := startRun(t, path, defaultQuiet(t))
		setReminder(t, run, "reminder.set", tasks.Args{"what": "stretch", "when": "in 2 minutes"}, time.UTC)
		at(t, 1, 14, 1)
		if n := len(run.sent()); n != 0 {
			t.Fatalf("%d messages sent a minute early", n)
		}
		run.stop(t) // the process stops...

		time.Sleep(30 * time.Second)
		run = startRun(t, path, defaultQuiet(t)) // ...and a new one starts on the same file
		time.Sleep(time.Until(time.Date(2000, 1, 1, 14, 2, 0, 0, time.UTC)) - time.Second)
		synctest.Wait()
		if n := len(run.sent()); n != 0 {
			t.Fatalf("%d messages sent a second early", n)
		}
		at(t, 1, 14, 2)
		sent := run.sent()
		if len(sent) != 1 || sent[0].Kind != channels.OutProactive || !strings.Contains(sent[0].Text, "stretch") || sent[0].Conversation.ID != "test::dm-1" {
			t.Fatalf("at 14:02 sent %+v, want the reminder once", sent)
		}
		at(t, 1, 15, 0)
		run.stop(t)

		run = startRun(t, path, defaultQuiet(t))
		at(t, 2, 15, 0)
		if n := len(run.sent()); n != 0 {
			t.Fatalf("a restart sent %d messages again", n)
		}
		run.stop(t)
	})
}

func TestQuietHoursHoldAReminderUnlessItWasAskedForThen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "haven.db")
		quiet, err := tasks.ParseQuietHours("18:30-08:00")
		if err != nil {
			t.Fatal(err)
		}
		at(t, 1, 17, 0)
		run := startRun(t, path, quiet)
		setReminder(t, run, "reminder.set", tasks.Args{"what": "go to sleep", "when": "at 23:00"}, time.UTC)
		setReminder(t, run, "reminder.set", tasks.Args{"what": "take the bins out", "when": "at 21:00"}, time.UTC)
		// "tonight" names no clock time: 20:00, not asked for exactly.
		setReminder(t, run, "checkin.set", tasks.Args{"when": "tonight"}, time.UTC)
		at(t, 1, 20, 0)
		if n := len(run.sent()); n != 0 {
			t.Fatalf("%d messages at 20:00, want the check-in held for quiet hours", n)
		}
		run.stop(t) // down from 20:00 to 22:59: the 21:00 reminder is missed

		at(t, 1, 22, 59)
		run = startRun(t, path, quiet)
		at(t, 1, 23, 0)
		sent := run.sent()
		if len(sent) != 1 || !strings.Contains(sent[0].Text, "go to sleep") {
			t.Fatalf("at 23:00 sent %+v, want only the reminder asked for 23:00", sent)
		}
		at(t, 2, 7, 59)
		if n := len(run.sent()); n != 1 {
			t.Fatalf("%d messages by 07:59, want the others held for quiet hours", n)
		}
		at(t, 2, 8, 0)
		sent = run.sent()
		if len(sent) != 3 || !strings.Contains(sent[1].Text, "bins") || !strings.Contains(sent[2].Text, "Checking in") {
			t.Fatalf("at 08:00 sent %+v, want the held reminder and check-in", sent)
		}
		run.stop(t)
	})
}

func TestPauseStopsAndAPermanentFailureSuspendsAPersonsReminders(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "haven.db")
		at(t, 1, 9, 0)
		run := startRun(t, path, noQuiet())
		setReminder(t, run, "reminder.set", tasks.Args{"what": "drink water", "when": "every day at 10"}, time.UTC)
		setReminder(t, run, "proactive.pause", nil, time.UTC)
		at(t, 1, 11, 0)
		if n := len(run.sent()); n != 0 {
			t.Fatalf("%d messages sent while paused", n)
		}
		setReminder(t, run, "proactive.resume", nil, time.UTC)
		synctest.Wait() // /resume wakes the scheduler: the one due while paused goes now
		if n := len(run.sent()); n != 1 {
			t.Fatalf("%d messages after /resume, want the one due", n)
		}
		pid, _ := run.store.ResolvePerson(context.Background(), "test", "test::alice", "")
		// The person blocks Haven: tomorrow's send fails for good.
		run.adapter.FailNext(channels.Permanent(errors.New("bot was blocked by the user")))
		at(t, 2, 10, 1)
		st, err := run.store.ProactiveSettings(context.Background(), pid.ID)
		if err != nil || !st.Suspended {
			t.Fatalf("settings after a permanent failure %+v, %v; want suspended", st, err)
		}
		at(t, 4, 12, 0)
		if n := len(run.adapter.Attempts()); n != 2 {
			t.Fatalf("%d send attempts, want none after the suspension", n)
		}
		run.stop(t)
	})
}

func TestACheckInAnswerFlowsIntoTheTherapeuticBranchAndACrisisAnswerGetsTheCrisisReply(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "haven.db")
		at(t, 1, 17, 0)
		run := startRun(t, path, defaultQuiet(t))
		setReminder(t, run, "checkin.set", tasks.Args{"when": "this evening"}, time.UTC)
		at(t, 1, 18, 0)
		if sent := run.sent(); len(sent) != 1 || !strings.Contains(sent[0].Text, "Checking in") {
			t.Fatalf("at 18:00 sent %+v, want the check-in", sent)
		}
		answer := func(text string) {
			in := dm(text)
			in.ReceivedAt = time.Now()
			run.adapter.Push(in)
		}
		answer("honestly it has been a hard day, I feel worn out and a bit lonely")
		synctest.Wait()
		answer("I want to kill myself")
		synctest.Wait()
		sent := run.sent()
		if len(sent) != 3 {
			t.Fatalf("sent %d messages, want the check-in and two answers", len(sent))
		}
		if sent[1].Kind != channels.OutReply || sent[2].Kind != channels.OutCrisis {
			t.Fatalf("answers of kinds %s and %s, want a reply and the crisis reply", sent[1].Kind, sent[2].Kind)
		}
		run.mu.Lock()
		reports := run.reports
		run.mu.Unlock()
		if len(reports) != 2 || reports[0].Route != RouteTherapeutic || reports[1].Route != RouteCrisis {
			t.Fatalf("turn reports %+v, want the first answer through the therapeutic branch and the second the crisis one", reports)
		}
		run.stop(t)
	})
}
