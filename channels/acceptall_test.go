package channels_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

// batchInbox is a MemInbox that records a batch in one call, all or
// nothing, and remembers the keys of each call.
type batchInbox struct {
	*channelstest.MemInbox
	mu    sync.Mutex
	calls [][]string
}

func (b *batchInbox) RecordAll(ctx context.Context, ins []channels.Inbound) ([]bool, error) {
	if b.Err != nil {
		return nil, b.Err
	}
	var keys []string
	fresh := make([]bool, len(ins))
	for i, in := range ins {
		f, err := b.Record(ctx, in)
		if err != nil {
			return nil, err
		}
		fresh[i] = f
		keys = append(keys, in.DeliveryKey)
	}
	b.mu.Lock()
	b.calls = append(b.calls, keys)
	b.mu.Unlock()
	return fresh, nil
}

func (b *batchInbox) recorded(t *testing.T) []string {
	t.Helper()
	un, err := b.Unfinished(t.Context(), "test")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, in := range un {
		keys = append(keys, in.DeliveryKey)
	}
	return keys
}

func TestHubAcceptAllRecordsABatchInOneWriteAndDropsWhatAcceptWould(t *testing.T) {
	inbox := &batchInbox{MemInbox: channelstest.NewMemInbox()}
	hub := channels.NewHub(echo, inbox, channelstest.NewMemOutbox(), fastOpts())
	hub.Register(channelstest.NewAdapter("test", 100))
	ctx := t.Context()
	if err := hub.Accept(ctx, dm("a", 0)); err != nil {
		t.Fatal(err)
	}
	unaddressed := inbound("test", "g", channels.KindGroup, 9)
	batch := []channels.Inbound{dm("a", 0), dm("a", 1), dm("b", 1), unaddressed, dm("a", 2), dm("b", 1)}
	if err := hub.AcceptAll(ctx, batch); err != nil {
		t.Fatalf("AcceptAll: %v", err)
	}
	// The redelivered a/0 and the repeated b/1 go to the inbox, which says
	// they are not fresh; the unaddressed group message never does.
	want := [][]string{{"test/a/0", "test/a/1", "test/b/1", "test/a/2", "test/b/1"}}
	if !slices.EqualFunc(inbox.calls, want, slices.Equal) {
		t.Errorf("RecordAll calls = %v, want one with %v", inbox.calls, want[0])
	}
	if got, want := inbox.recorded(t), []string{"test/a/0", "test/a/1", "test/b/1", "test/a/2"}; !slices.Equal(got, want) {
		t.Errorf("recorded %v, want %v", got, want)
	}
	st := hub.Stats()
	if st.Accepted != 4 || st.Duplicates != 2 || st.Ignored != 1 || st.Queued != 4 {
		t.Errorf("stats = accepted %d, duplicates %d, ignored %d, queued %d; want 4, 2, 1, 4", st.Accepted, st.Duplicates, st.Ignored, st.Queued)
	}
}

func TestHubAcceptAllTakesWhatFitsTheQueueAndLeavesTheRestUntouched(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		opts := fastOpts()
		opts.MaxQueued = 2
		inbox := &batchInbox{MemInbox: channelstest.NewMemInbox()}
		hub := channels.NewHub(echo, inbox, channelstest.NewMemOutbox(), opts)
		hub.Register(channelstest.NewAdapter("test", 100))
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		err := hub.AcceptAll(ctx, []channels.Inbound{dm("a", 1), dm("b", 1), dm("a", 2)})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("AcceptAll with room for 2 of 3: %v, want it to wait for room until the deadline", err)
		}
		if got, want := inbox.recorded(t), []string{"test/a/1", "test/b/1"}; !slices.Equal(got, want) {
			t.Errorf("recorded %v, want the two that fit, and not the third", got)
		}
		if st := hub.Stats(); st.Accepted != 2 || st.Queued != 2 {
			t.Errorf("stats = accepted %d, queued %d; want 2, 2", st.Accepted, st.Queued)
		}
	})
}

func TestHubAcceptAllRecordsNothingOfABatchItCannotTake(t *testing.T) {
	tests := []struct {
		name  string
		batch func() []channels.Inbound
		inErr error
		want  string
	}{
		{"a malformed message among good ones", func() []channels.Inbound {
			bad := dm("b", 1)
			bad.Conversation.ID = ""
			return []channels.Inbound{dm("a", 1), bad, dm("a", 2)}
		}, nil, "no conversation id"},
		{"an inbox that cannot write", func() []channels.Inbound {
			return []channels.Inbound{dm("a", 1), dm("a", 2)}
		}, errors.New("disk full"), "disk full"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := fastOpts()
			opts.MaxQueued = 2
			inbox := &batchInbox{MemInbox: channelstest.NewMemInbox()}
			inbox.Err = tt.inErr
			hub := channels.NewHub(echo, inbox, channelstest.NewMemOutbox(), opts)
			hub.Register(channelstest.NewAdapter("test", 100))
			err := hub.AcceptAll(t.Context(), tt.batch())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("AcceptAll: %v, want an error saying %q", err, tt.want)
			}
			inbox.Err = nil
			if got := inbox.recorded(t); len(got) != 0 {
				t.Errorf("recorded %v, want nothing", got)
			}
			// Every queue slot is free again: two messages fit.
			for n := range 2 {
				ctx, cancel := context.WithTimeout(t.Context(), time.Second)
				err := hub.Accept(ctx, dm("c", n))
				cancel()
				if err != nil {
					t.Fatalf("Accept %d after the failed batch: %v", n, err)
				}
			}
		})
	}
}
