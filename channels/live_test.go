package channels

import (
	"testing"
	"time"
)

func TestLiveRecorderStartsDisconnectedAndRecordsEachSignal(t *testing.T) {
	var r LiveRecorder
	if got := r.Liveness(); got.Connected || !got.LastEvent.IsZero() || !got.LastHeartbeat.IsZero() {
		t.Fatalf("zero recorder = %+v, want nothing recorded", got)
	}
	t0 := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	r.SetConnected(true)
	r.Heartbeat(t0)
	got := r.Liveness()
	if !got.Connected || !got.LastHeartbeat.Equal(t0) || !got.LastEvent.IsZero() {
		t.Fatalf("after a heartbeat = %+v, want connected, heartbeat %s, no event", got, t0)
	}
	t1 := t0.Add(time.Minute)
	r.Event(t1)
	r.SetConnected(false)
	got = r.Liveness()
	if got.Connected || !got.LastEvent.Equal(t1) || !got.LastHeartbeat.Equal(t1) {
		t.Fatalf("after an event and a disconnect = %+v, want disconnected, event and heartbeat %s", got, t1)
	}
}
