package main

import (
	"testing"
	"time"
)

func TestShutdownDrainsShareOneDeadlineCountedFromTheStop(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 10, 0, time.UTC)
	tests := []struct {
		name      string
		stopAsked time.Time
		want      time.Time
	}{
		{"stopped by a signal 10s ago: what is left of 15s", now.Add(-10 * time.Second), now.Add(5 * time.Second)},
		{"stopped longer ago than the timeout: already past", now.Add(-20 * time.Second), now.Add(-5 * time.Second)},
		{"ended without a stop (end of input): the whole timeout", time.Time{}, now.Add(15 * time.Second)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := drainDeadline(tt.stopAsked, now, 15*time.Second); !got.Equal(tt.want) {
				t.Errorf("drainDeadline = %v, want %v", got, tt.want)
			}
		})
	}
}
