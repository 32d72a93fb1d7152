package sqlite

import (
	"context"
	"path/filepath"
	"testing"

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
