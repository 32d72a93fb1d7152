package channels_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
	"golang.org/x/time/rate"
)

var quiet = slog.New(slog.DiscardHandler)

func inbound(platform, conv string, kind channels.Kind, n int) channels.Inbound {
	return channels.Inbound{
		Platform:     platform,
		Conversation: channels.Conversation{ID: channels.NamespacedID(platform, "", conv), Kind: kind},
		MessageID:    channels.NamespacedID(platform, "", fmt.Sprintf("%s-m%d", conv, n)),
		DeliveryKey:  fmt.Sprintf("%s/%s/%d", platform, conv, n),
		Author:       channels.Author{ID: channels.NamespacedID(platform, "", "u-"+conv)},
		Text:         fmt.Sprintf("%d", n),
		ReceivedAt:   time.Unix(0, 0),
	}
}

func dm(conv string, n int) channels.Inbound { return inbound("test", conv, channels.KindDM, n) }

// echo replies "re: <text>" to every message.
var echo = channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	return []channels.Outbound{{Kind: channels.OutReply, ReplyTo: in.MessageID, Text: "re: " + in.Text}}, nil
})

func fastOpts() channels.HubOptions {
	return channels.HubOptions{NoRateLimit: true, Logger: quiet}
}

// runHub serves adapters with a fresh Hub until their input ends and
// returns the Hub after Run returned.
func runHub(t *testing.T, h channels.Handler, in *channelstest.MemInbox, out *channelstest.MemOutbox, opts channels.HubOptions, adapters ...*channelstest.Adapter) *channels.Hub {
	t.Helper()
	hub := channels.NewHub(h, in, out, opts)
	for _, a := range adapters {
		hub.Register(a)
		a.End()
	}
	if err := hub.Run(t.Context()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	return hub
}

func TestHubPolicyAnswersDMsAndAddressedMessagesOnly(t *testing.T) {
	base := func(kind channels.Kind) channels.Inbound { return inbound("test", "c", kind, 1) }
	tests := []struct {
		name   string
		in     func() channels.Inbound
		answer bool
	}{
		{"dm is answered", func() channels.Inbound { return base(channels.KindDM) }, true},
		{"group without mention is ignored", func() channels.Inbound { return base(channels.KindGroup) }, false},
		{"group mention is answered", func() channels.Inbound {
			in := base(channels.KindGroup)
			in.MentionsBot = true
			return in
		}, true},
		{"channel without mention is ignored", func() channels.Inbound { return base(channels.KindChannel) }, false},
		{"channel mention is answered", func() channels.Inbound {
			in := base(channels.KindChannel)
			in.MentionsBot = true
			return in
		}, true},
		{"edit in a dm is not run", func() channels.Inbound {
			in := base(channels.KindDM)
			in.Edited = true
			return in
		}, false},
		{"bot author in a dm is ignored", func() channels.Inbound {
			in := base(channels.KindDM)
			in.Author.IsBot = true
			return in
		}, false},
		{"bot mention in a group is ignored", func() channels.Inbound {
			in := base(channels.KindGroup)
			in.MentionsBot, in.Author.IsBot = true, true
			return in
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int64
			h := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
				calls.Add(1)
				return echo(ctx, in)
			})
			a := channelstest.NewAdapter("test", 100)
			a.Push(tt.in())
			inbox := channelstest.NewMemInbox()
			hub := runHub(t, h, inbox, channelstest.NewMemOutbox(), fastOpts(), a)
			want := int64(0)
			if tt.answer {
				want = 1
			}
			if calls.Load() != want || int64(len(a.Sent())) != want {
				t.Fatalf("handler calls %d, sent %d, want %d", calls.Load(), len(a.Sent()), want)
			}
			st := hub.Stats()
			if st.Ignored != 1-want || st.Accepted != want {
				t.Fatalf("stats %+v: want ignored %d accepted %d", st, 1-want, want)
			}
			if !tt.answer && inbox.Len() != 0 {
				t.Fatalf("an ignored message was recorded in the inbox")
			}
		})
	}
}

func TestHubKeepsOrderPerConversationUnderManyConcurrentConversations(t *testing.T) {
	const platforms, convsPer, msgs = 4, 50, 20
	var mu sync.Mutex
	seen := map[string][]string{}
	running := map[string]int{}
	var overlaps atomic.Int64
	h := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
		key := in.Conversation.ID
		mu.Lock()
		running[key]++
		if running[key] > 1 {
			overlaps.Add(1)
		}
		seen[key] = append(seen[key], in.Text)
		mu.Unlock()
		for range rand.IntN(3) {
			runtime.Gosched()
		}
		mu.Lock()
		running[key]--
		mu.Unlock()
		return echo(ctx, in)
	})
	var adapters []*channelstest.Adapter
	for p := range platforms {
		a := channelstest.NewAdapter(fmt.Sprintf("p%d", p), 1000)
		for n := range msgs {
			for c := range convsPer {
				a.Push(inbound(a.Platform(), fmt.Sprintf("c%d", c), channels.KindDM, n))
			}
		}
		adapters = append(adapters, a)
	}
	opts := fastOpts()
	opts.MaxQueued = 64 // exercise backpressure too
	hub := runHub(t, h, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), opts, adapters...)

	if overlaps.Load() != 0 {
		t.Fatalf("%d turns overlapped another turn of their conversation", overlaps.Load())
	}
	if len(seen) != platforms*convsPer {
		t.Fatalf("handled %d conversations, want %d", len(seen), platforms*convsPer)
	}
	for key, texts := range seen {
		for i, txt := range texts {
			if txt != fmt.Sprint(i) {
				t.Fatalf("conversation %s ran turns in order %v", key, texts)
			}
		}
	}
	for _, a := range adapters {
		next := map[string]int{}
		for _, s := range a.Sent() {
			want := fmt.Sprintf("re: %d", next[s.Conversation.ID])
			if s.Text != want {
				t.Fatalf("conversation %s got %q, want %q", s.Conversation.ID, s.Text, want)
			}
			next[s.Conversation.ID]++
		}
		if len(a.Sent()) != convsPer*msgs {
			t.Fatalf("platform %s sent %d, want %d", a.Platform(), len(a.Sent()), convsPer*msgs)
		}
	}
	if st := hub.Stats(); st.Turns != platforms*convsPer*msgs || st.Sent != st.Turns || st.Queued != 0 || st.Pending != 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestHubSlowConversationDoesNotBlockOthers(t *testing.T) {
	release := make(chan struct{})
	slowStarted := make(chan struct{}, 10)
	h := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
		if strings.HasSuffix(in.Conversation.ID, ":slow") {
			slowStarted <- struct{}{}
			<-release
		}
		return echo(ctx, in)
	})
	a := channelstest.NewAdapter("test", 100)
	for n := range 3 {
		a.Push(dm("slow", n))
	}
	for c := range 50 {
		a.Push(dm(fmt.Sprintf("fast%d", c), 0))
	}
	opts := fastOpts()
	opts.Workers = 2
	hub := channels.NewHub(h, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), opts)
	hub.Register(a)
	done := make(chan error, 1)
	go func() { done <- hub.Run(t.Context()) }()

	<-slowStarted
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second) // a guard against hanging, not a speed check
	defer cancel()
	sent, err := a.WaitSent(ctx, 50)
	if err != nil {
		t.Fatalf("other conversations were held up by the slow one: %v (sent %d)", err, len(sent))
	}
	for _, s := range sent {
		if strings.HasSuffix(s.Conversation.ID, ":slow") {
			t.Fatalf("slow conversation answered before it was released")
		}
	}
	close(release)
	a.End()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	var slow []string
	for _, s := range a.Sent() {
		if strings.HasSuffix(s.Conversation.ID, ":slow") {
			slow = append(slow, s.Text)
		}
	}
	if strings.Join(slow, ",") != "re: 0,re: 1,re: 2" {
		t.Fatalf("slow conversation replies %q", slow)
	}
}

func TestHubDuplicateDeliveryKeyGetsOneReplyAlsoAfterRestart(t *testing.T) {
	inbox, outbox := channelstest.NewMemInbox(), channelstest.NewMemOutbox()
	a := channelstest.NewAdapter("test", 100)
	a.Push(dm("c", 1), dm("c", 1))
	hub := runHub(t, echo, inbox, outbox, fastOpts(), a)
	if n := len(a.Sent()); n != 1 {
		t.Fatalf("sent %d replies, want 1", n)
	}
	if st := hub.Stats(); st.Duplicates != 1 {
		t.Fatalf("duplicates %d, want 1", st.Duplicates)
	}

	// Restart: a new Hub and adapter on the same stores; the platform
	// redelivers the event.
	a2 := channelstest.NewAdapter("test", 100)
	a2.Push(dm("c", 1))
	hub2 := runHub(t, echo, inbox, outbox, fastOpts(), a2)
	if n := len(a2.Sent()); n != 0 {
		t.Fatalf("redelivery after restart sent %d replies, want 0", n)
	}
	if st := hub2.Stats(); st.Duplicates != 1 || st.Turns != 0 {
		t.Fatalf("stats after restart %+v", st)
	}
}

func TestHubReplaysUnfinishedWorkAfterRestart(t *testing.T) {
	inbox, outbox := channelstest.NewMemInbox(), channelstest.NewMemOutbox()
	ctx := t.Context()
	// A turn accepted before a crash, never run.
	if _, err := inbox.Record(ctx, dm("c", 1)); err != nil {
		t.Fatal(err)
	}
	// A reply written before a crash, never sent.
	if _, err := outbox.Add(ctx, []channels.Outbound{{Platform: "test", Conversation: dm("d", 1).Conversation, Kind: channels.OutReply, Text: "left over"}}); err != nil {
		t.Fatal(err)
	}
	a := channelstest.NewAdapter("test", 100)
	a.Push(dm("c", 1)) // the platform redelivers it too: still one reply
	hub := runHub(t, echo, inbox, outbox, fastOpts(), a)
	var texts []string
	for _, s := range a.Sent() {
		texts = append(texts, s.Text)
	}
	if strings.Join(texts, "|") != "left over|re: 1" {
		t.Fatalf("sent %q, want the left-over reply then the replayed turn's", texts)
	}
	if st := hub.Stats(); st.Replayed != 1 || st.Duplicates != 1 {
		t.Fatalf("stats %+v", st)
	}
	if un, _ := inbox.Unfinished(ctx, "test"); len(un) != 0 {
		t.Fatalf("inbox still has %d unfinished", len(un))
	}
	if us, _ := outbox.Unsent(ctx, "test"); len(us) != 0 {
		t.Fatalf("outbox still has %d unsent", len(us))
	}
}

func TestHubCapsRetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := channelstest.NewAdapter("test", 100)
		a.FailNext(channels.RateLimited(errors.New("429"), time.Hour))
		a.Push(dm("c", 1))
		opts := fastOpts()
		opts.MaxRetryAfter = 10 * time.Second
		opts.DrainTimeout = time.Minute
		start := time.Now()
		runHub(t, echo, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), opts, a)
		if len(a.Sent()) != 1 {
			t.Fatalf("not delivered within the drain: %d sent", len(a.Sent()))
		}
		if took := time.Since(start); took < 10*time.Second || took > 12*time.Second {
			t.Fatalf("waited %v, want the 10s cap plus jitter", took)
		}
	})
}

func TestHubRetriesTransientErrorsAndAbandonsPermanentOnes(t *testing.T) {
	tests := []struct {
		name      string
		errs      []error
		crisis    bool
		delivered bool
		attempts  int
	}{
		{"transient error is retried", []error{errors.New("connection reset")}, false, true, 1},
		{"several transient errors are retried", []error{errors.New("a"), errors.New("b")}, false, true, 2},
		{"a crisis reply is never abandoned for transient errors", []error{errors.New("a"), errors.New("b"), errors.New("c"), errors.New("d"), errors.New("e")}, true, true, 5},
		{"permanent error is abandoned at once", []error{channels.Permanent(errors.New("chat not found"))}, false, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
					kind := channels.OutReply
					if tt.crisis {
						kind = channels.OutCrisis
					}
					return []channels.Outbound{{Kind: kind, Text: "hello"}}, nil
				})
				a := channelstest.NewAdapter("test", 100)
				a.FailNext(tt.errs...)
				a.Push(dm("c", 1))
				outbox := channelstest.NewMemOutbox()
				opts := fastOpts()
				opts.DrainTimeout = time.Hour
				hub := runHub(t, h, channelstest.NewMemInbox(), outbox, opts, a)
				if got := len(a.Sent()) == 1; got != tt.delivered {
					t.Fatalf("delivered %v, want %v", got, tt.delivered)
				}
				recs := outbox.Records()
				if len(recs) != 1 {
					t.Fatalf("outbox has %d records", len(recs))
				}
				want := channelstest.OutSent
				if !tt.delivered {
					want = channelstest.OutAbandoned
				}
				if recs[0].State != want || recs[0].Attempts != tt.attempts {
					t.Fatalf("outbox record %+v, want state %s attempts %d", recs[0], want, tt.attempts)
				}
				st := hub.Stats()
				if tt.delivered != (st.Abandoned == 0) {
					t.Fatalf("stats %+v", st)
				}
			})
		})
	}
}

func TestHubDrainsQueuedWorkOnShutdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		h := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
			<-gate
			return echo(ctx, in)
		})
		a := channelstest.NewAdapter("test", 100)
		for c := range 5 {
			for n := range 4 {
				a.Push(dm(fmt.Sprintf("c%d", c), n))
			}
		}
		inbox, outbox := channelstest.NewMemInbox(), channelstest.NewMemOutbox()
		opts := fastOpts()
		opts.Workers = 2
		hub := channels.NewHub(h, inbox, outbox, opts)
		hub.Register(a)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- hub.Run(ctx) }()
		synctest.Wait() // everything accepted, two turns blocked
		if st := hub.Stats(); st.Accepted != 20 || st.Turns != 0 {
			t.Fatalf("before shutdown: %+v", st)
		}
		cancel() // SIGTERM
		synctest.Wait()
		if err := hub.Accept(t.Context(), dm("late", 1)); !errors.Is(err, channels.ErrHubClosed) {
			t.Fatalf("Accept while draining: %v, want ErrHubClosed", err)
		}
		close(gate)
		if err := <-done; err != nil {
			t.Fatalf("Run: %v", err)
		}
		if n := len(a.Sent()); n != 20 {
			t.Fatalf("drain delivered %d of 20", n)
		}
		if un, _ := inbox.Unfinished(t.Context(), "test"); len(un) != 0 {
			t.Fatalf("%d turns left unfinished", len(un))
		}
		if !a.Closed() {
			t.Fatalf("adapter not closed after Run")
		}
	})
}

func TestHubDrainTimeoutLeavesTheRestForTheNextRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inbox, outbox := channelstest.NewMemInbox(), channelstest.NewMemOutbox()
		a := channelstest.NewAdapter("test", 100)
		a.FailNext(channels.RateLimited(errors.New("429"), time.Minute))
		a.Push(dm("c", 1))
		opts := fastOpts()
		opts.DrainTimeout = 5 * time.Second
		runHub(t, echo, inbox, outbox, opts, a)
		if len(a.Sent()) != 0 {
			t.Fatalf("sent during a minute-long pause")
		}
		a2 := channelstest.NewAdapter("test", 100)
		runHub(t, echo, inbox, outbox, opts, a2)
		if got := a2.Sent(); len(got) != 1 || got[0].Text != "re: 1" {
			t.Fatalf("next run sent %v, want the left-over reply", got)
		}
	})
}

func TestHubSplitsOnceInTheAdaptersMeasure(t *testing.T) {
	// 1,500 emoji in a code fence: 1,500 runes but 3,000 UTF-16 units.
	text := "Here you go 💛\n\n```\n" + strings.Repeat("🌱🌿🌳🌲🌴\n", 300) + "```\nTake care 🙂"
	h := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
		return []channels.Outbound{{Kind: channels.OutReply, Text: text}}, nil
	})
	for _, tt := range []struct {
		limit  channels.Limit
		pieces int
	}{
		{channels.Limit{Max: 2000, Measure: channels.Runes}, 1},
		{channels.Limit{Max: 2000, Measure: channels.UTF16}, 2},
		{channels.Limit{Max: 2000, Measure: channels.Bytes}, 4},
	} {
		limit := tt.limit
		t.Run(limit.Measure.String(), func(t *testing.T) {
			a := channelstest.NewMeasuredAdapter("test", limit)
			a.Push(dm("c", 1))
			runHub(t, h, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), fastOpts(), a)
			sent := a.Sent()
			want := channels.Split(text, limit)
			if len(sent) != len(want) || len(sent) != tt.pieces {
				t.Fatalf("sent %d pieces, want the %d of Split, %d", len(sent), len(want), tt.pieces)
			}
			for i, s := range sent {
				if s.Text != want[i] {
					t.Fatalf("piece %d = %q, want %q", i, s.Text, want[i])
				}
				if n := limit.Measure.Len(s.Text); n > limit.Max {
					t.Errorf("piece %d is %d %s long, over %s", i, n, limit.Measure, limit)
				}
				if strings.Count(s.Text, "```")%2 != 0 {
					t.Errorf("piece %d leaves a fence open: %q", i, s.Text)
				}
			}
		})
	}
}

func TestHubSplitsLongRepliesWithNothingLost(t *testing.T) {
	var long strings.Builder
	for p := range 12 {
		fmt.Fprintf(&long, "Paragraph %d. %s\n\n", p, strings.Repeat("Some words to fill the line. ", 5))
	}
	long.WriteString("```go\n" + strings.Repeat("fmt.Println(\"x\")\n", 20) + "```\nThe end.")
	text := long.String()
	h := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
		return []channels.Outbound{{Kind: channels.OutReply, Text: text}}, nil
	})
	a := channelstest.NewAdapter("test", 120)
	a.Push(dm("c", 1))
	runHub(t, h, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), fastOpts(), a)
	sent := a.Sent()
	want := channels.Split(text, channels.Limit{Max: 120})
	if len(sent) != len(want) || len(sent) < 5 {
		t.Fatalf("sent %d pieces, want %d", len(sent), len(want))
	}
	var got strings.Builder
	for i, s := range sent {
		if s.Text != want[i] {
			t.Fatalf("piece %d = %q, want %q", i, s.Text, want[i])
		}
		got.WriteString(s.Text)
	}
	strip := func(s string) string {
		s = strings.NewReplacer("```go", "", "```", "").Replace(s)
		return strings.Join(strings.Fields(s), "")
	}
	if strip(got.String()) != strip(text) {
		t.Fatalf("pieces lost or changed characters")
	}
}

func TestHubAnswersAFailedTurnWithANotice(t *testing.T) {
	tests := []struct {
		name string
		h    channels.HandlerFunc
	}{
		{"handler error", func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
			return nil, errors.New("model unavailable")
		}},
		{"handler panic", func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
			panic("boom")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inbox := channelstest.NewMemInbox()
			a := channelstest.NewAdapter("test", 500)
			a.Push(dm("c", 1))
			hub := runHub(t, tt.h, inbox, channelstest.NewMemOutbox(), fastOpts(), a)
			sent := a.Sent()
			if len(sent) != 1 || sent[0].Text != channels.ErrorNotice || sent[0].Kind != channels.OutNotice {
				t.Fatalf("sent %+v, want the error notice", sent)
			}
			if un, _ := inbox.Unfinished(t.Context(), "test"); len(un) != 0 {
				t.Fatalf("failed turn left unfinished: it would be retried forever")
			}
			if st := hub.Stats(); st.TurnErrors != 1 {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

func TestHubAcceptBlocksWhenTheQueueIsFull(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		opts := fastOpts()
		opts.MaxQueued = 2
		hub := channels.NewHub(echo, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), opts)
		hub.Register(channelstest.NewAdapter("test", 100))
		ctx := t.Context()
		for n := range 2 {
			if err := hub.Accept(ctx, dm("c", n)); err != nil {
				t.Fatalf("Accept %d: %v", n, err)
			}
		}
		tctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		if err := hub.Accept(tctx, dm("c", 3)); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Accept on a full queue: %v, want it to block until the deadline", err)
		}
	})
}

func TestHubAcceptRejectsMalformedInbound(t *testing.T) {
	hub := channels.NewHub(echo, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), fastOpts())
	tests := []struct {
		name   string
		mutate func(*channels.Inbound)
		want   string
	}{
		{"no delivery key", func(in *channels.Inbound) { in.DeliveryKey = "" }, "no delivery key"},
		{"no platform", func(in *channels.Inbound) { in.Platform = "" }, "no platform"},
		{"no conversation", func(in *channels.Inbound) { in.Conversation.ID = "" }, "no conversation id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := dm("c", 1)
			tt.mutate(&in)
			err := hub.Accept(t.Context(), in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Accept: %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

func TestHubRateLimitsSendsPerConversation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := channelstest.NewAdapter("test", 100)
		var at []time.Time
		a.SendHook = func(ctx context.Context, out channels.Outbound) error {
			at = append(at, time.Now())
			return nil
		}
		for n := range 4 {
			a.Push(dm("c", n))
		}
		opts := channels.HubOptions{Logger: quiet, ConversationRate: rate.Every(2 * time.Second), ConversationBurst: 1}
		runHub(t, echo, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), opts, a)
		if len(at) != 4 {
			t.Fatalf("sent %d, want 4", len(at))
		}
		for i := 1; i < len(at); i++ {
			if gap := at[i].Sub(at[i-1]); gap < 2*time.Second {
				t.Fatalf("sends %d and %d only %v apart, want the 2s conversation rate", i-1, i, gap)
			}
		}
	})
}

func TestHubShowsTypingWhileATurnRuns(t *testing.T) {
	a := channelstest.NewAdapter("test", 100)
	a.Push(dm("c", 1), dm("c", 2))
	runHub(t, echo, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), fastOpts(), a)
	if a.TypingCount() != 2 {
		t.Fatalf("typing shown %d times, want once per turn", a.TypingCount())
	}
}

// BenchmarkHub measures the Hub alone: many conversations, a trivial
// handler, in-memory inbox and outbox, no rate limits. ns/op and allocs/op
// are per message (accept, turn, outbox, delivery).
func BenchmarkHub(b *testing.B) {
	const convs = 1000
	ins := make([]channels.Inbound, b.N)
	for i := range ins {
		ins[i] = inbound("bench", fmt.Sprintf("c%d", i%convs), channels.KindDM, i)
	}
	a := channelstest.NewAdapter("bench", 4000)
	a.Push(ins...)
	a.End()
	hub := channels.NewHub(echo, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), fastOpts())
	hub.Register(a)
	b.ReportAllocs()
	b.ResetTimer()
	if err := hub.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if st := hub.Stats(); st.Sent != int64(b.N) {
		b.Fatalf("sent %d of %d", st.Sent, b.N)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// policies is a fixed ChannelPolicies (the SQLite store in production).
type policies map[string]channels.ChannelSettings

func (p policies) ChannelSettings(_ context.Context, id string) (channels.ChannelSettings, error) {
	if st, ok := p[id]; ok {
		return st, nil
	}
	return channels.ChannelSettings{}, nil
}

func TestHubAdmitsEveryMessageOfAConversationWhosePolicyIsAll(t *testing.T) {
	all := inbound("test", "all", channels.KindGroup, 1)
	other := inbound("test", "other", channels.KindGroup, 1)
	bot := inbound("test", "all", channels.KindGroup, 2)
	bot.Author.IsBot = true
	a := channelstest.NewAdapter("test", 100)
	a.Push(all, other, bot)
	opts := fastOpts()
	opts.Policies = policies{all.Conversation.ID: {Policy: channels.PolicyAll}, other.Conversation.ID: {Policy: channels.PolicyDMOnly}}
	hub := runHub(t, echo, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), opts, a)
	sent := a.Sent()
	if len(sent) != 1 || sent[0].Conversation.ID != all.Conversation.ID {
		t.Fatalf("sent %+v, want one answer in the conversation whose policy is all", sent)
	}
	if st := hub.Stats(); st.Accepted != 1 || st.Ignored != 2 {
		t.Fatalf("stats %+v: want 1 accepted and 2 ignored (the other policy, a bot)", st)
	}
}

func TestHubGivesChoicesToTheLastPieceOnlyAndDropsChoicesThatDoNotFit(t *testing.T) {
	yesNo := []channels.Choice{{Label: "Yes", Text: "yes"}, {Label: "No", Text: "no"}}
	tooMany := []channels.Choice{{Label: "1", Text: "1"}, {Label: "2", Text: "2"}, {Label: "3", Text: "3"}, {Label: "4", Text: "4"}, {Label: "5", Text: "5"}, {Label: "6", Text: "6"}}
	for _, tt := range []struct {
		name    string
		choices []channels.Choice
		want    []channels.Choice
	}{
		{"yes and no", yesNo, yesNo},
		{"more than five", tooMany, nil},
		{"an empty label", []channels.Choice{{Label: "", Text: "yes"}}, nil},
		{"the same text twice", []channels.Choice{{Label: "Yes", Text: "yes"}, {Label: "Sure", Text: "yes"}}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Repeat("word ", 60) + "Shall I? Reply yes or no."
			h := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
				return []channels.Outbound{{Kind: channels.OutReply, Text: text, Choices: tt.choices, ChoicesFor: in.Author.ID}}, nil
			})
			a := channelstest.NewMeasuredAdapter("test", channels.Limit{Max: 100, Measure: channels.Runes})
			a.Push(dm("c", 1))
			runHub(t, h, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), fastOpts(), a)
			sent := a.Sent()
			if len(sent) < 2 {
				t.Fatalf("sent %d pieces, want the text split", len(sent))
			}
			for i, s := range sent[:len(sent)-1] {
				if len(s.Choices) != 0 {
					t.Fatalf("piece %d of %d carries choices %+v", i+1, len(sent), s.Choices)
				}
			}
			if got := sent[len(sent)-1].Choices; !slices.Equal(got, tt.want) {
				t.Fatalf("last piece choices %+v, want %+v", got, tt.want)
			}
			if last := sent[len(sent)-1]; tt.want != nil && (last.ChoicesFor == "" || last.ChoicesFor != dm("c", 1).Author.ID) {
				t.Fatalf("last piece's choices are for %q, want the asker %q", last.ChoicesFor, dm("c", 1).Author.ID)
			}
		})
	}
}
