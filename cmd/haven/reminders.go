package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/havenbot/haven/configs"
	"github.com/havenbot/haven/core"
	"github.com/havenbot/haven/core/tasks"
)

// startScheduler starts the loop that sends due reminders and check-ins
// through hub, with the configured quiet hours. The returned stop ends
// it and waits for it; it is owned by serve and stopped when serve
// returns.
func startScheduler(ctx context.Context, cfg configs.Config, store core.ScheduleStore, hub core.ProactiveSender, log *slog.Logger, ref *schedulerRef) (stop func(), err error) {
	quiet, err := tasks.ParseQuietHours(cfg.Reminders.QuietHours)
	if err != nil {
		return nil, fmt.Errorf("reminders: %w", err)
	}
	sched, err := core.NewScheduler(core.SchedulerOptions{Store: store, Sender: hub, QuietHours: quiet, Logger: log})
	if err != nil {
		return nil, err
	}
	ref.p.Store(sched)
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { sched.Run(ctx) })
	return func() { cancel(); wg.Wait() }, nil
}

// schedulerRef lets the engine, made before the scheduler, wake it.
type schedulerRef struct {
	p atomic.Pointer[core.Scheduler]
}

// wake wakes the scheduler once it is started (core.Options.ReminderWake).
func (r *schedulerRef) wake() {
	if s := r.p.Load(); s != nil {
		s.Wake()
	}
}
