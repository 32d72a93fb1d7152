package channels_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/channels/channelstest"
	"golang.org/x/time/rate"
)

// logBuf collects a Hub's JSON log lines; it is safe for concurrent use.
type logBuf struct{ channelstest.LogBuffer }

// find returns the records whose message is msg.
func (l *logBuf) find(t *testing.T, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.Lines(l.String()) {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if r["msg"] == msg {
			out = append(out, r)
		}
	}
	return out
}

func jsonLogger(l *logBuf) *slog.Logger {
	return slog.New(slog.NewJSONHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// delivered is one piece an adapter took, and when.
type delivered struct {
	conv, text string
	at         time.Time
}

// recordSends makes a's sends succeed and records them, in order.
func recordSends(a *channelstest.Adapter) func() []delivered {
	var mu sync.Mutex
	var ds []delivered
	a.SendHook = func(ctx context.Context, out channels.Outbound) error {
		mu.Lock()
		defer mu.Unlock()
		ds = append(ds, delivered{conv: out.Conversation.ID, text: out.Text, at: time.Now()})
		return nil
	}
	return func() []delivered {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(ds)
	}
}

// crisisIn answers with a crisis reply in conversations whose id ends in
// ":crisis" and to messages numbered 99, and echoes otherwise.
var crisisIn = channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	kind := channels.OutReply
	if strings.HasSuffix(in.Conversation.ID, ":crisis") || in.Text == "99" {
		kind = channels.OutCrisis
	}
	return []channels.Outbound{{Kind: kind, Text: "re: " + in.Text}}, nil
})

func TestHubA429HoldsBackOnlyItsConversationUnlessGlobal(t *testing.T) {
	const retryAfter = 45 * time.Second
	tests := []struct {
		name string
		err  error
		// othersAfter is when the replies of the other conversations go,
		// after the 429 (plus up to 10% jitter).
		othersAfter time.Duration
	}{
		{"a conversation's 429 delays neither another's crisis reply nor its ordinary one",
			channels.RateLimited(errors.New("429 Too Many Requests"), retryAfter), 0},
		{"a global 429 holds every conversation, and the crisis reply goes first after it",
			channels.RateLimitedGlobal(errors.New("429 Too Many Requests (global)"), retryAfter), retryAfter},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				a := channelstest.NewAdapter("test", 100)
				sends := recordSends(a)
				a.FailNext(tt.err)
				opts := fastOpts()
				opts.DrainTimeout = 10 * time.Minute
				hub := channels.NewHub(crisisIn, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), opts)
				hub.Register(a)
				done := make(chan error, 1)
				go func() { done <- hub.Run(t.Context()) }()

				a.Push(dm("limited", 1), dm("limited", 2))
				synctest.Wait() // the first reply was refused
				if n := len(a.Attempts()); n != 1 {
					t.Fatalf("attempts before the 429's wait ended: %d, want 1", n)
				}
				refused := time.Now()
				a.Push(dm("crisis", 1), dm("other", 1))
				a.End()
				if err := <-done; err != nil {
					t.Fatalf("Run: %v", err)
				}

				ds := sends()
				var order []string
				at := map[string]time.Duration{}
				for _, d := range ds {
					_, _, local, _ := channels.SplitID(d.conv)
					key := local + "/" + d.text
					order = append(order, key)
					at[key] = d.at.Sub(refused)
				}
				within := func(key string, from time.Duration) {
					t.Helper()
					got, ok := at[key]
					if !ok {
						t.Fatalf("%s was not delivered; delivered %v", key, order)
					}
					if got < from || got > from+from/10 {
						t.Errorf("%s went %v after the 429, want %v (plus at most 10%% jitter)", key, got, from)
					}
				}
				within("crisis/re: 1", tt.othersAfter)
				within("other/re: 1", tt.othersAfter)
				within("limited/re: 1", retryAfter)
				if i, j := slices.Index(order, "limited/re: 1"), slices.Index(order, "limited/re: 2"); j < i {
					t.Errorf("the limited conversation's replies went out of order: %v", order)
				}
				// After a global pause the crisis reply goes first. Without one,
				// the crisis and the other conversation's reply are made by turns
				// running at once, so either may go first; both go at once.
				if tt.othersAfter > 0 && order[0] != "crisis/re: 1" {
					t.Errorf("delivery order %v, want the crisis reply first", order)
				}
				if st := hub.Stats(); st.RateLimited != 1 || st.Retries != 1 || st.Sent != 4 {
					t.Errorf("stats %+v, want 1 rate limited retry and 4 sent", st)
				}
			})
		})
	}
}

func TestHubCrisisReplyDoesNotWaitForItsConversationsBackoff(t *testing.T) {
	tests := []struct {
		name string
		// inFlight: the crisis reply comes while the failing send is in
		// flight, rather than while the conversation waits for its retry.
		inFlight bool
	}{
		{"crisis reply comes while its conversation waits to retry a failing reply", false},
		{"crisis reply comes while the failing reply's send is in flight", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				a := channelstest.NewAdapter("test", 100)
				var mu sync.Mutex
				down := true
				var pushed, crisisAt time.Time
				failures := 0
				a.SendHook = func(ctx context.Context, out channels.Outbound) error {
					mu.Lock()
					if out.Kind == channels.OutCrisis {
						crisisAt = time.Now()
						mu.Unlock()
						return nil
					}
					failures++
					fail, push := down, tt.inFlight && failures == 10
					mu.Unlock()
					if push {
						pushed = time.Now()
						a.Push(dm("c", 99))
						synctest.Wait() // its turn ran; the reply waits behind this send
					}
					if fail {
						return &channels.SendError{Err: errors.New("503 Service Unavailable")}
					}
					return nil
				}
				opts := fastOpts()
				opts.DrainTimeout = 10 * time.Minute
				hub := channels.NewHub(crisisIn, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), opts)
				hub.Register(a)
				done := make(chan error, 1)
				go func() { done <- hub.Run(t.Context()) }()

				a.Push(dm("c", 1))
				// Advance the fake clock: the ordinary reply keeps failing and
				// its backoff grows to MaxBackoff.
				time.Sleep(10 * time.Minute)
				synctest.Wait()
				if !tt.inFlight {
					pushed = time.Now()
					a.Push(dm("c", 99))
					synctest.Wait()
				}
				mu.Lock()
				got, n := crisisAt, failures
				down = false
				mu.Unlock()
				switch {
				case pushed.IsZero():
					t.Fatalf("only %d failures in 10 minutes; the case never made the crisis message", n)
				case got.IsZero():
					t.Fatalf("the crisis reply was not sent while its conversation was in backoff")
				case !got.Equal(pushed):
					t.Fatalf("the crisis reply went %v after it was made (its conversation was in backoff), want at once", got.Sub(pushed))
				}
				a.End()
				if err := <-done; err != nil {
					t.Fatalf("Run: %v", err)
				}
				var texts []string
				for _, s := range a.Sent() {
					texts = append(texts, s.Text)
				}
				if strings.Join(texts, ",") != "re: 99,re: 1" {
					t.Fatalf("sent %q, want the crisis reply, then the ordinary one once the platform is back", texts)
				}
			})
		})
	}
}

func TestHubConversationWaitingForItsRetryHoldsNoSender(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := channelstest.NewAdapter("test", 100)
		var mu sync.Mutex
		sentAt := map[string]time.Time{}
		a.SendHook = func(ctx context.Context, out channels.Outbound) error {
			mu.Lock()
			defer mu.Unlock()
			if strings.HasSuffix(out.Conversation.ID, ":failing") {
				return &channels.SendError{Err: errors.New("500 Internal Server Error")}
			}
			sentAt[out.Conversation.ID] = time.Now()
			return nil
		}
		opts := fastOpts()
		opts.SendersPerPlatform = 1
		opts.BaseBackoff = time.Minute
		opts.MaxBackoff = time.Minute
		hub := channels.NewHub(echo, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), opts)
		hub.Register(a)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- hub.Run(ctx) }()

		a.Push(dm("failing", 1))
		synctest.Wait() // its send failed; it waits about a minute to retry
		pushed := time.Now()
		a.Push(dm("other", 1))
		synctest.Wait()
		mu.Lock()
		got, ok := sentAt[dm("other", 1).Conversation.ID]
		mu.Unlock()
		switch {
		case !ok:
			t.Errorf("the other conversation's reply was not sent while the failing one waited for its retry")
		case !got.Equal(pushed):
			t.Errorf("the other conversation's reply went %v after it was made, want at once", got.Sub(pushed))
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("Run: %v", err)
		}
	})
}

func TestHubOutageOf5xxLosesNothingAndTriesEveryConversation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const convs = 200
		const outage = 3 * time.Minute
		a := channelstest.NewAdapter("test", 100)
		start := time.Now()
		var mu sync.Mutex
		triedInOutage := map[string]bool{}
		var lastSend time.Time
		a.SendHook = func(ctx context.Context, out channels.Outbound) error {
			mu.Lock()
			defer mu.Unlock()
			if time.Since(start) < outage {
				triedInOutage[out.Conversation.ID] = true
				return &channels.SendError{Err: errors.New("500 Internal Server Error")}
			}
			lastSend = time.Now()
			return nil
		}
		for c := range convs {
			a.Push(dm(fmt.Sprintf("c%d", c), 1))
		}
		// The default rate limits and backoff, as in production.
		opts := channels.HubOptions{Logger: quiet, DrainTimeout: time.Hour}
		hub := runHub(t, echo, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), opts, a)

		st := hub.Stats()
		if st.Sent != convs || st.Abandoned != 0 {
			t.Fatalf("stats %+v: want all %d replies sent, none abandoned", st, convs)
		}
		if len(triedInOutage) != convs {
			t.Errorf("only %d of %d conversations were tried during the outage", len(triedInOutage), convs)
		}
		per := map[string]int{}
		for _, s := range a.Sent() {
			per[s.Conversation.ID]++
		}
		for conv, n := range per {
			if n != 1 {
				t.Errorf("%s got %d replies, want 1", conv, n)
			}
		}
		// Every conversation retries at least every MaxBackoff*1.5 (30s
		// plus 50% jitter), and 200 replies at 25/s take 8s.
		if after := lastSend.Sub(start.Add(outage)); after > 45*time.Second+8*time.Second {
			t.Errorf("the last reply went %v after the outage ended, want within the longest backoff and the platform rate", after)
		}
	})
}

func TestHubGivesUpOnlyOnAnOrdinaryReplyOlderThanMaxAge(t *testing.T) {
	const maxAge = time.Hour
	const secret = "words a person must never find in a log"
	tests := []struct {
		name     string
		kind     channels.OutKind
		fromLast time.Duration // >0: the reply was left in the outbox by an earlier run this long ago
		fail     bool          // the platform fails every send with a 5xx
		state    channelstest.OutState
		givenUp  int64
	}{
		{"an ordinary reply failing for longer than MaxAge is given up, logged and counted", channels.OutReply, 0, true, channelstest.OutAbandoned, 1},
		{"a crisis reply failing for longer than MaxAge is still retried and kept for the next start", channels.OutCrisis, 0, true, channelstest.OutPending, 0},
		{"a reply older than MaxAge from an earlier run is still tried, and sent", channels.OutReply, 7 * time.Hour, false, channelstest.OutSent, 0},
		{"a reply older than MaxAge from an earlier run is given up at its first failure", channels.OutReply, 7 * time.Hour, true, channelstest.OutAbandoned, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
					return []channels.Outbound{{Kind: tt.kind, Text: secret}}, nil
				})
				inbox, outbox := channelstest.NewMemInbox(), channelstest.NewMemOutbox()
				a := channelstest.NewAdapter("test", 100)
				if tt.fromLast > 0 {
					if _, err := outbox.Add(t.Context(), []channels.Outbound{{Platform: "test", Conversation: dm("c", 1).Conversation, Kind: tt.kind, Text: secret}}); err != nil {
						t.Fatal(err)
					}
					time.Sleep(tt.fromLast) // the fake clock: Haven was down meanwhile
				} else {
					a.Push(dm("c", 1))
				}
				a.SendHook = func(ctx context.Context, out channels.Outbound) error {
					if tt.fail {
						return &channels.SendError{Err: errors.New("500 Internal Server Error")}
					}
					return nil
				}
				var logs logBuf
				opts := fastOpts()
				opts.MaxAge = maxAge
				opts.DrainTimeout = 3 * time.Hour
				opts.Logger = jsonLogger(&logs)
				hub := runHub(t, h, inbox, outbox, opts, a)

				recs := outbox.Records()
				if len(recs) != 1 || recs[0].State != tt.state {
					t.Fatalf("outbox %+v, want one record %s", recs, tt.state)
				}
				st := hub.Stats()
				if st.GivenUp != tt.givenUp || st.Abandoned != tt.givenUp {
					t.Errorf("stats %+v, want %d given up", st, tt.givenUp)
				}
				if strings.Contains(logs.String(), secret) {
					t.Errorf("the message text is in the log")
				}
				abandoned := logs.find(t, "outbound abandoned")
				if int64(len(abandoned)) != tt.givenUp {
					t.Fatalf("logged %d abandonments, want %d: %s", len(abandoned), tt.givenUp, logs.String())
				}
				for _, r := range abandoned {
					if reason, _ := r["reason"].(string); !strings.Contains(reason, "gave up") || r["level"] != "WARN" {
						t.Errorf("abandonment logged as %v", r)
					}
					if age, _ := r["age"].(float64); time.Duration(age) < maxAge {
						t.Errorf("given up at age %v, before MaxAge %v", time.Duration(age), maxAge)
					}
				}
				if tt.fail && tt.fromLast == 0 && recs[0].Attempts < 20 {
					t.Errorf("%d attempts in an hour or more: retries look bounded by a count, not by time", recs[0].Attempts)
				}
				if tt.fail && tt.fromLast > 0 && recs[0].Attempts != 1 {
					t.Errorf("%d attempts, want the one that failed", recs[0].Attempts)
				}
				wantLeft := int64(0)
				if tt.state == channelstest.OutPending {
					wantLeft = 1
				}
				if st.Left != wantLeft {
					t.Errorf("left %d in the outbox when Run returned, want %d", st.Left, wantLeft)
				}
			})
		})
	}
}

func TestHubShutdownEndsWithinTheDrainTimeoutAndSaysWhatIsLeft(t *testing.T) {
	const convs, each = 20, 10
	const drain = 10 * time.Second
	waitForStop := channels.HandlerFunc(func(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	tests := []struct {
		name    string
		handler channels.Handler
		send    func(ctx context.Context, out channels.Outbound) error // the platform; nil takes every send
		opts    func(*channels.HubOptions)
	}{
		{"the platform hangs", echo, func(ctx context.Context, out channels.Outbound) error {
			<-ctx.Done()
			return ctx.Err()
		}, nil},
		{"the platform fails with 5xx", echo, func(ctx context.Context, out channels.Outbound) error {
			return &channels.SendError{Err: errors.New("502 Bad Gateway")}
		}, nil},
		{"the platform answers 429 in every conversation", echo, func(ctx context.Context, out channels.Outbound) error {
			return channels.RateLimited(errors.New("429 Too Many Requests"), 30*time.Second)
		}, nil},
		{"a backlog under the conversation rate limit", echo, nil, func(o *channels.HubOptions) {
			o.NoRateLimit, o.ConversationRate, o.ConversationBurst = false, rate.Every(2*time.Second), 1
		}},
		{"turns still running", waitForStop, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				inbox, outbox := channelstest.NewMemInbox(), channelstest.NewMemOutbox()
				a := channelstest.NewAdapter("test", 100)
				a.SendHook = tt.send
				var logs logBuf
				opts := fastOpts()
				opts.DrainTimeout = drain
				opts.Logger = jsonLogger(&logs)
				if tt.opts != nil {
					tt.opts(&opts)
				}
				hub := channels.NewHub(tt.handler, inbox, outbox, opts)
				hub.Register(a)
				ctx, cancel := context.WithCancel(t.Context())
				done := make(chan error, 1)
				go func() { done <- hub.Run(ctx) }()
				for n := range each {
					for c := range convs {
						a.Push(dm(fmt.Sprintf("c%d", c), n))
					}
				}
				synctest.Wait()

				stopped := time.Now()
				cancel() // SIGTERM
				if err := <-done; err != nil {
					t.Fatalf("Run: %v", err)
				}
				if took := time.Since(stopped); took > drain {
					t.Errorf("Run returned %v after the stop, over the %v drain timeout", took, drain)
				}

				st := hub.Stats()
				unsent, _ := outbox.Unsent(t.Context(), "test")
				unfinished, _ := inbox.Unfinished(t.Context(), "test")
				if st.Left != int64(len(unsent)) || st.Queued != int64(len(unfinished)) || st.Lost != 0 {
					t.Errorf("stats say %d replies and %d turns left (%d lost); the outbox holds %d, the inbox %d",
						st.Left, st.Queued, st.Lost, len(unsent), len(unfinished))
				}
				if st.Left+st.Queued == 0 {
					t.Fatalf("nothing was left: the case does not stop with a backlog")
				}
				if got := int(st.Sent) + len(unsent) + len(unfinished); got != convs*each {
					t.Errorf("sent %d + left in the outbox %d + left in the inbox %d = %d, want %d",
						st.Sent, len(unsent), len(unfinished), got, convs*each)
				}
				for _, r := range outbox.Records() {
					if r.Out.Text == channels.ErrorNotice {
						t.Errorf("a turn stopped by the shutdown was answered with the error notice")
					}
				}
				said := logs.find(t, "hub stopped before everything was delivered; the rest is kept for the next start")
				if len(said) != 1 || said[0]["replies_left_in_outbox"] != float64(st.Left) || said[0]["turns_left_in_inbox"] != float64(st.Queued) {
					t.Errorf("the stop was logged as %v, want the %d replies and %d turns left", said, st.Left, st.Queued)
				}

				// The next start delivers the rest, each reply once, in order.
				a2 := channelstest.NewAdapter("test", 100)
				runHub(t, echo, inbox, outbox, fastOpts(), a2)
				got := map[string][]string{}
				for _, s := range append(a.Sent(), a2.Sent()...) {
					got[s.Conversation.ID] = append(got[s.Conversation.ID], s.Text)
				}
				for c := range convs {
					conv := dm(fmt.Sprintf("c%d", c), 0).Conversation.ID
					var want []string
					for n := range each {
						want = append(want, fmt.Sprintf("re: %d", n))
					}
					if !slices.Equal(got[conv], want) {
						t.Errorf("%s got %q over both runs, want %q", conv, got[conv], want)
					}
				}
			})
		})
	}
}

// addFails is an outbox that cannot record new messages (a full disk).
type addFails struct{ *channelstest.MemOutbox }

func (addFails) Add(ctx context.Context, outs []channels.Outbound) ([]int64, error) {
	return nil, errors.New("disk full")
}

func TestHubSaysHowManyRepliesAreLostWhenTheOutboxCouldNotRecordThem(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		outbox := addFails{channelstest.NewMemOutbox()}
		a := channelstest.NewAdapter("test", 100)
		a.SendHook = func(ctx context.Context, out channels.Outbound) error {
			<-ctx.Done() // the platform hangs
			return ctx.Err()
		}
		var logs logBuf
		opts := fastOpts()
		opts.DrainTimeout = 10 * time.Second
		opts.Logger = jsonLogger(&logs)
		hub := channels.NewHub(echo, channelstest.NewMemInbox(), outbox, opts)
		hub.Register(a)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- hub.Run(ctx) }()
		a.Push(dm("c", 1), dm("d", 1))
		synctest.Wait()
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("Run: %v", err)
		}
		if st := hub.Stats(); st.Lost != 2 || st.Left != 0 {
			t.Errorf("stats %+v, want 2 replies lost and none left in the outbox", st)
		}
		said := logs.find(t, "hub stopped; replies the outbox could not record are lost")
		if len(said) != 1 || said[0]["replies_lost"] != float64(2) || said[0]["level"] != "ERROR" {
			t.Errorf("the loss was logged as %v, want an error naming 2 replies lost", said)
		}
	})
}

// A crisis reply made while the same conversation's earlier ordinary reply
// waits only for its pacing goes after it: the person reads the replies in
// the order of their messages. (It overtakes an earlier reply the platform
// refuses: TestHubCrisisReplyDoesNotWaitForItsConversationsBackoff.)
func TestHubCrisisReplyKeepsItsConversationsOrderWhenOnlyPacingWaits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := channelstest.NewAdapter("test", 100)
		sent := recordSends(a)
		opts := channels.HubOptions{Logger: quiet, ConversationRate: rate.Every(time.Second), ConversationBurst: 1, PlatformRate: rate.Inf}
		hub := channels.NewHub(crisisIn, channelstest.NewMemInbox(), channelstest.NewMemOutbox(), opts)
		hub.Register(a)
		done := make(chan error, 1)
		go func() { done <- hub.Run(t.Context()) }()
		a.Push(dm("c", 1))
		a.Push(dm("c", 2))
		synctest.Wait() // reply 1 sent; reply 2 waits for its pacing
		a.Push(dm("c", 99))
		synctest.Wait()
		time.Sleep(5 * time.Second)
		synctest.Wait()
		a.End()
		if err := <-done; err != nil {
			t.Fatalf("Run: %v", err)
		}
		var texts []string
		for _, d := range sent() {
			texts = append(texts, d.text)
		}
		if got := strings.Join(texts, ","); got != "re: 1,re: 2,re: 99" {
			t.Fatalf("sent %q, want the replies in the order of the messages", got)
		}
	})
}
