package main

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

func TestShutdownDeadlineIsOneDrainAfterTheStopSignal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		d := newShutdownDeadline(ctx, time.Minute)
		defer d.release()
		if at := d.at(); !at.Equal(time.Now().Add(time.Minute)) {
			t.Fatalf("before the stop, at() = %v, want a drain from now", at)
		}
		time.Sleep(10 * time.Second) // fake time: the process serves a while
		cancel()
		synctest.Wait()
		stopped := time.Now()
		time.Sleep(20 * time.Second) // the Hub drains for a while
		if at := d.at(); !at.Equal(stopped.Add(time.Minute)) {
			t.Fatalf("after the stop, at() = %v, want a drain after the stop (%v): the deadline must not slide", at, stopped.Add(time.Minute))
		}
	})
}
