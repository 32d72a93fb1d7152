package channels

import (
	"sync/atomic"
	"time"
)

// LiveRecorder keeps an adapter's Liveness as it changes. The zero value
// is ready to use (not connected, nothing heard yet); it is safe for
// concurrent use, and an adapter's Liveness method can return its
// Liveness directly.
type LiveRecorder struct {
	connected atomic.Bool
	event     atomic.Int64 // unix nanoseconds; 0 for never
	beat      atomic.Int64
}

// SetConnected records whether the adapter holds a working connection.
func (r *LiveRecorder) SetConnected(up bool) { r.connected.Store(up) }

// Event records that an inbound event arrived at t. An event proves the
// platform is there, so it counts as a heartbeat too.
func (r *LiveRecorder) Event(t time.Time) {
	r.event.Store(t.UnixNano())
	r.beat.Store(t.UnixNano())
}

// Heartbeat records that the platform proved it is there at t.
func (r *LiveRecorder) Heartbeat(t time.Time) { r.beat.Store(t.UnixNano()) }

// Liveness returns what was recorded.
func (r *LiveRecorder) Liveness() Liveness {
	return Liveness{Connected: r.connected.Load(), LastEvent: fromNanos(r.event.Load()), LastHeartbeat: fromNanos(r.beat.Load())}
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}
