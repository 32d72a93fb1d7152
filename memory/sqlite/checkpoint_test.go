package sqlite

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
)

func TestTheWriterLeavesWALCheckpointsToTheCheckpointConnection(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	var auto int
	if err := s.w.QueryRowContext(ctx, `PRAGMA wal_autocheckpoint`).Scan(&auto); err != nil {
		t.Fatal(err)
	}
	if auto != writerAutoCheckpoint {
		t.Errorf("writer wal_autocheckpoint = %d, want the backstop %d", auto, writerAutoCheckpoint)
	}
	for i := range 20 {
		in := channels.Inbound{DeliveryKey: "k" + string(rune('a'+i)), Platform: "test", Text: "hello"}
		if _, err := s.Record(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	frames, copied, err := s.ck.checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	if frames == 0 || copied != frames {
		t.Errorf("checkpoint after 20 writes: %d of %d WAL frames copied, want all of some", copied, frames)
	}
}

func TestTheCheckpointerStartsTheWALOverOnceItReachesRestartAt(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	record := func(n int, prefix string) {
		t.Helper()
		for i := range n {
			in := channels.Inbound{DeliveryKey: prefix + itoa(i), Platform: "test", Text: "hello"}
			if _, err := s.Record(ctx, in); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A checkpointer of the test's own, which no commit kicks: the test
	// runs its steps.
	ck, err := startCheckpointer(ctx, s.dsn(false), time.Hour, s.w, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer ck.close()
	record(40, "a")
	frames, _, err := ck.checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	ck.restartAt = frames + 1000
	if ck.step() {
		t.Errorf("the checkpointer caught up at %d frames, below restartAt %d", frames, ck.restartAt)
	}
	record(40, "b")
	if frames, _, err = ck.checkpoint(); err != nil {
		t.Fatal(err)
	}
	ck.restartAt = frames
	if !ck.step() {
		t.Fatalf("the checkpointer did not catch up at restartAt (%d frames)", frames)
	}
	record(1, "c")
	after, copied, err := ck.checkpoint()
	if err != nil {
		t.Fatal(err)
	}
	if after >= frames || copied != after {
		t.Errorf("after the catch-up and one write the WAL holds %d frames (%d copied), want it started over (< %d) and copied", after, copied, frames)
	}
}
