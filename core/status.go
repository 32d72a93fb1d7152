package core

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/havenbot/haven/channels"
)

// DefaultLiveWindow is how long an adapter may go without a heartbeat or
// an event before /haven status calls it not live.
const DefaultLiveWindow = 2 * time.Minute

// StatusSource tells /haven status how the running Haven is
// (Options.Status); cmd/haven implements it. Status must answer within
// ctx, and says nothing about any single person.
type StatusSource interface {
	Status(ctx context.Context) Status
}

// Status is the running Haven at one moment.
type Status struct {
	// Version is the build's version; Started when this process started.
	Version string
	Started time.Time
	// Adapters are the served platforms, in the order they were wired.
	Adapters []AdapterStatus
	// Hub is the message hub's counters: queued turns, pending replies.
	Hub channels.Stats
	// Model is the model probe's result.
	Model ModelStatus
	// DatabaseBytes is the database's size on disk (with its WAL), 0 when
	// unknown; LastBackup when `haven backup` last copied it, zero for
	// never.
	DatabaseBytes int64
	LastBackup    time.Time
}

// AdapterStatus is one platform adapter's health.
type AdapterStatus struct {
	Platform string
	// Reports is false for an adapter that cannot tell its liveness.
	Reports  bool
	Liveness channels.Liveness
}

// ModelStatus is what a quick model probe found.
type ModelStatus struct {
	// Configured is false when Haven runs without a model.
	Configured bool
	// Latency is how long the probe took; Err why it failed (nil: it
	// answered).
	Latency time.Duration
	Err     error
}

// statusText renders st for an admin, at now.
func statusText(st Status, now time.Time, window time.Duration) string {
	var b strings.Builder
	version := st.Version
	if version == "" {
		version = "unknown"
	}
	fmt.Fprintf(&b, "Haven %s, up %s.\n", version, roundAge(now.Sub(st.Started)))
	b.WriteString("Platforms:\n")
	if len(st.Adapters) == 0 {
		b.WriteString("- none registered\n")
	}
	for _, a := range st.Adapters {
		fmt.Fprintf(&b, "- %s: %s\n", a.Platform, adapterText(a, now, window))
	}
	h := st.Hub
	fmt.Fprintf(&b, "Queues: %d %s waiting or running, %d %s waiting to be sent (outbox backlog); %d turns run, %d failed, %d replies given up on.\n",
		h.Queued, plural(int(h.Queued), "turn", "turns"), h.Pending, plural(int(h.Pending), "reply", "replies"), h.Turns, h.TurnErrors, h.Abandoned)
	switch m := st.Model; {
	case !m.Configured:
		b.WriteString("Model: no model configured (scripted replies; the crisis gate uses its rules).\n")
	case m.Err != nil:
		fmt.Fprintf(&b, "Model: NOT answering (%v, after %s): replies are scripted meanwhile.\n", m.Err, m.Latency.Round(time.Millisecond))
	default:
		fmt.Fprintf(&b, "Model: answering (probe took %s).\n", m.Latency.Round(time.Millisecond))
	}
	b.WriteString("Database: ")
	if st.DatabaseBytes > 0 {
		b.WriteString(channels.FormatSize(int(st.DatabaseBytes)))
	} else {
		b.WriteString("size unknown")
	}
	if st.LastBackup.IsZero() {
		b.WriteString("; no backup recorded (haven backup FILE makes one).")
	} else {
		fmt.Fprintf(&b, "; last backup %s ago (%s).", roundAge(now.Sub(st.LastBackup)), st.LastBackup.UTC().Format("2 Jan 2006 15:04 MST"))
	}
	return b.String()
}

// adapterText says whether an adapter is connected and live: connected,
// and heard from (a heartbeat or an event) within window.
func adapterText(a AdapterStatus, now time.Time, window time.Duration) string {
	if !a.Reports {
		return "running (it does not report liveness)"
	}
	l := a.Liveness
	last := l.LastHeartbeat
	if l.LastEvent.After(last) {
		last = l.LastEvent
	}
	heard := "never heard from"
	if !last.IsZero() {
		heard = fmt.Sprintf("last heartbeat %s ago", roundAge(now.Sub(last)))
	}
	if !l.LastEvent.IsZero() {
		heard += fmt.Sprintf(", last event %s ago", roundAge(now.Sub(l.LastEvent)))
	}
	switch {
	case !l.Connected:
		return "NOT connected, " + heard
	case last.IsZero() || now.Sub(last) > window:
		return "connected but NOT live, " + heard
	}
	return "live, " + heard
}

// roundAge rounds a duration for people: seconds under two minutes, then
// minutes, then hours.
func roundAge(d time.Duration) string {
	switch {
	case d < 0:
		d = 0
	case d >= 48*time.Hour:
		return fmt.Sprintf("%dd%dh", int(d.Hours())/24, int(d.Hours())%24)
	case d >= 2*time.Hour:
		return d.Round(time.Minute).String()
	case d >= 2*time.Minute:
		return d.Round(time.Second).String()
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}
