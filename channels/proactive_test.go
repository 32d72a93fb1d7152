package channels_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
)

// proactiveOutbox is a MemOutbox that records proactive messages with
// their writes, and refuses writes whose claim is taken.
type proactiveOutbox struct {
	*channelstest.MemOutbox
	taken error
}

func (o *proactiveOutbox) FinishProactive(ctx context.Context, outs []channels.Outbound, w channels.TurnWrites) ([]int64, error) {
	if o.taken != nil {
		return nil, o.taken
	}
	return o.Add(ctx, outs)
}

func reminder(text string) channels.Outbound {
	return channels.Outbound{Platform: "test", Conversation: channels.Conversation{ID: "test::c1", Kind: channels.KindDM}, Kind: channels.OutProactive, Text: text}
}

func TestProactiveDeliversOnlyWhileTheHubRunsAndNothingWhenItsWritesFail(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		out := &proactiveOutbox{MemOutbox: channelstest.NewMemOutbox()}
		a := channelstest.NewAdapter("test", 100)
		hub := channels.NewHub(echo, channelstest.NewMemInbox(), out, fastOpts())
		hub.Register(a)
		w := &writes{committed: make(chan error, 1)}
		if err := hub.Proactive(t.Context(), []channels.Outbound{reminder("early")}, w); !errors.Is(err, channels.ErrHubNotRunning) {
			t.Fatalf("Proactive before Run = %v, want ErrHubNotRunning", err)
		}
		done := make(chan error)
		go func() { done <- hub.Run(t.Context()) }()
		synctest.Wait()

		if err := hub.Proactive(t.Context(), []channels.Outbound{{Text: "nowhere"}}, w); err == nil {
			t.Fatal("Proactive took a message without platform or conversation")
		}
		if err := hub.Proactive(t.Context(), []channels.Outbound{reminder("walk")}, w); err != nil {
			t.Fatal(err)
		}
		if err := <-w.committed; err != nil {
			t.Fatalf("Committed(%v), want nil", err)
		}
		out.taken = errors.New("reminder changed")
		if err := hub.Proactive(t.Context(), []channels.Outbound{reminder("twice")}, w); err == nil {
			t.Fatal("Proactive with writes refused returned nil")
		}
		if err := <-w.committed; err == nil {
			t.Fatal("Committed(nil) for refused writes")
		}
		synctest.Wait()
		a.End()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if sent := a.Sent(); len(sent) != 1 || sent[0].Text != "walk" {
			t.Fatalf("sent %+v, want the one message whose writes committed", sent)
		}
		if recs := out.Records(); len(recs) != 1 || recs[0].State != channelstest.OutSent {
			t.Fatalf("outbox %+v, want the one message, sent", recs)
		}
		out.taken = nil
		if err := hub.Proactive(t.Context(), []channels.Outbound{reminder("late")}, w); !errors.Is(err, channels.ErrHubClosed) {
			t.Fatalf("Proactive after Run = %v, want ErrHubClosed", err)
		}
	})
}

func TestProactiveNeedsAnOutboxThatCanFinishIt(t *testing.T) {
	hub := channels.NewHub(echo, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), fastOpts())
	if err := hub.Proactive(t.Context(), []channels.Outbound{reminder("walk")}, nil); !errors.Is(err, channels.ErrNoProactiveFinisher) {
		t.Fatalf("Proactive = %v, want ErrNoProactiveFinisher", err)
	}
}
