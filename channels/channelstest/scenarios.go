package channelstest

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
)

// This file is the platform-neutral scenario suite every adapter passes
// against its own fake platform: RunScenarios drives a real Hub, a scripted
// core (ScenarioCore) and the adapter under test, and checks what the fake
// platform shows people.

// Message is a message a person sent on the fake platform.
type Message struct {
	// Conversation is the namespaced conversation id.
	Conversation string
	// ID is the namespaced message id.
	ID string
}

// Posted is a message Haven posted on the fake platform, as people see it.
type Posted struct {
	// Conversation is the namespaced conversation id it was posted in.
	Conversation string
	// Text is the text as people see it (after the platform's markup).
	Text string
	// ReplyTo is the namespaced id of the message it threads under or
	// quotes, "" for none.
	ReplyTo string
}

// Platform is one platform's fake and adapter, as the scenario suite drives
// them. People are numbered 0, 1 and 2; all three are members of one shared
// group (or channel) and can message Haven directly.
type Platform interface {
	// Adapter returns the adapter under test, connected to the fake. The
	// suite registers it with a Hub, which runs and closes it.
	Adapter() channels.Adapter
	// DM makes person send text to Haven in a direct message.
	DM(t testing.TB, person int, text string) Message
	// Group makes person send text in the shared group. With mention the
	// message addresses Haven the platform's usual way.
	Group(t testing.TB, person int, text string, mention bool) Message
	// Edit makes the author of m change its text.
	Edit(t testing.TB, m Message, text string)
	// Redeliver makes the platform deliver m's event again, as platforms do
	// after a timeout or a reconnect.
	Redeliver(t testing.TB, m Message)
	// OwnMessage makes the platform deliver a message that Haven itself
	// posted in the group, addressed to Haven (so that only the check for
	// the bot's own messages stops it).
	OwnMessage(t testing.TB, text string)
	// MakeAdmin makes person an administrator of the group.
	MakeAdmin(t testing.TB, person int)
	// DropConnection breaks the adapter's open connections to the platform,
	// waiting for a receiving one to be open first. The suite calls it when
	// no send is in flight.
	DropConnection(t testing.TB)
	// RateLimitNextSend makes the platform refuse the next message Haven
	// posts with a 429 asking to retry after d.
	RateLimitNextSend(t testing.TB, d time.Duration)
	// WaitPosted blocks until Haven has posted at least n messages, and
	// returns all it has posted, in order.
	WaitPosted(ctx context.Context, n int) ([]Posted, error)
}

// The scripted core's replies.
const (
	// CrisisText is in ScenarioCore's crisis reply.
	CrisisText = "You deserve support right now. If you are in danger, please call your local emergency number."
	// DeniedText answers an admin command from someone who is not an admin.
	DeniedText = "Only an admin of this group can pause Haven here."
	// PausedText answers an admin's /haven pause.
	PausedText = "Paused."
	// ResumedText answers an admin's /haven resume.
	ResumedText = "Resumed."
)

// ScenarioCore is the scripted channels.Handler the suite runs, with
// core's admin semantics: "/haven pause" and "/haven resume" ("/pause" is
// the old spelling of pause) are admin commands, with a side effect only
// for PlatformAdmin authors; in a paused conversation only a crisis is
// answered. A message containing "end my life" gets a crisis reply, "long"
// gets a reply several times the adapter's limit, anything else is echoed
// as "echo: TEXT".
type ScenarioCore struct {
	// Limit is the adapter's MessageLimit, for the long reply.
	Limit channels.Limit

	mu     sync.Mutex
	seen   []channels.Inbound
	pauses int
	paused map[string]bool
}

// Handle answers in.
func (c *ScenarioCore) Handle(ctx context.Context, in channels.Inbound) ([]channels.Outbound, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seen = append(c.seen, in)
	out := channels.Outbound{Platform: in.Platform, Conversation: in.Conversation, ReplyTo: in.MessageID, Kind: channels.OutReply}
	switch {
	case in.Text == "/pause" || in.Text == "/haven pause" || in.Text == "/haven resume":
		if !in.Author.PlatformAdmin {
			out.Kind, out.Text = channels.OutNotice, DeniedText
			break
		}
		if c.paused == nil {
			c.paused = map[string]bool{}
		}
		pause := in.Text != "/haven resume"
		c.paused[in.Conversation.ID] = pause
		out.Text = ResumedText
		if pause {
			c.pauses++
			out.Text = PausedText
		}
	case strings.Contains(in.Text, "end my life"):
		out.Kind, out.Text = channels.OutCrisis, CrisisText
	case c.paused[in.Conversation.ID]:
		return nil, nil
	case in.Text == "long":
		out.Text = LongReply(c.Limit.Max)
	default:
		out.Text = "echo: " + in.Text
	}
	return []channels.Outbound{out}, nil
}

// LongReply is ScenarioCore's reply to "long": numbered words in
// paragraphs, about 3.5 times limit.
func LongReply(limit int) string {
	var b strings.Builder
	for i := 0; b.Len() < limit*7/2; i++ {
		if i > 0 && i%40 == 0 {
			b.WriteString("\n\n")
		} else if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "word%d", i)
	}
	return b.String()
}

// Seen returns the texts of the inbound messages the core ran turns for.
func (c *ScenarioCore) Seen() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, len(c.seen))
	for i, in := range c.seen {
		out[i] = in.Text
	}
	return out
}

// Pauses returns how many times an admin command took effect.
func (c *ScenarioCore) Pauses() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pauses
}

// Attempt is one Send call the Hub made on the adapter under test.
type Attempt struct {
	Out channels.Outbound
	Err error
	At  time.Time
}

// recorder wraps the adapter under test and records every Send.
type recorder struct {
	channels.Adapter
	mu       sync.Mutex
	attempts []Attempt
	changed  chan struct{}
}

func (r *recorder) Send(ctx context.Context, out channels.Outbound) error {
	err := r.Adapter.Send(ctx, out)
	r.mu.Lock()
	r.attempts = append(r.attempts, Attempt{Out: out, Err: err, At: time.Now()})
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
	return err
}

func (r *recorder) Typing(ctx context.Context, conv channels.Conversation) error {
	if t, ok := r.Adapter.(channels.Typer); ok {
		return t.Typing(ctx, conv)
	}
	return nil
}

// waitFor blocks until done(attempts) holds, and returns the attempts.
func (r *recorder) waitFor(ctx context.Context, what string, done func([]Attempt) bool) ([]Attempt, error) {
	for {
		r.mu.Lock()
		all := slices.Clone(r.attempts)
		ch := r.changed
		r.mu.Unlock()
		if done(all) {
			return all, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return all, fmt.Errorf("wait for %s: %w", what, ctx.Err())
		}
	}
}

// waitFailed blocks until a Send has failed, and returns the attempts.
func (r *recorder) waitFailed(ctx context.Context) ([]Attempt, error) {
	return r.waitFor(ctx, "a failed send", func(as []Attempt) bool {
		return slices.ContainsFunc(as, func(a Attempt) bool { return a.Err != nil })
	})
}

// waitAttempts blocks until n Sends have returned.
func (r *recorder) waitAttempts(ctx context.Context, n int) ([]Attempt, error) {
	return r.waitFor(ctx, fmt.Sprintf("%d send attempts", n), func(as []Attempt) bool { return len(as) >= n })
}

func (r *recorder) all() []Attempt {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.attempts)
}

// scenarioEnv is one scenario's platform, core and running Hub.
type scenarioEnv struct {
	p    Platform
	core *ScenarioCore
	rec  *recorder
	hub  *channels.Hub
}

func newScenarioEnv(t *testing.T, newPlatform func(t *testing.T) Platform) *scenarioEnv {
	t.Helper()
	p := newPlatform(t)
	a := p.Adapter()
	rec := &recorder{Adapter: a, changed: make(chan struct{})}
	core := &ScenarioCore{Limit: a.MessageLimit()}
	hub := channels.NewHub(core, NewMemInbox(), NewMemOutbox(), channels.HubOptions{
		NoRateLimit:  true,
		BaseBackoff:  10 * time.Millisecond,
		MaxBackoff:   100 * time.Millisecond,
		DrainTimeout: 5 * time.Second,
		Logger:       slog.New(slog.DiscardHandler),
	})
	hub.Register(rec)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- hub.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("hub run: %v", err)
		}
	})
	return &scenarioEnv{p: p, core: core, rec: rec, hub: hub}
}

func scenarioCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// posted waits for n posts and fails the test without them.
func (e *scenarioEnv) posted(t *testing.T, n int) []Posted {
	t.Helper()
	got, err := e.p.WaitPosted(scenarioCtx(t), n)
	if err != nil {
		t.Fatalf("%v; posted so far: %+v", err, got)
	}
	return got
}

func texts(ps []Posted) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Text
	}
	return out
}

// RunScenarios runs the shared adapter scenarios, each on a fresh Platform
// from newPlatform, with a real Hub and ScenarioCore.
func RunScenarios(t *testing.T, newPlatform func(t *testing.T) Platform) {
	scenarios := []struct {
		name string
		run  func(t *testing.T, e *scenarioEnv)
	}{
		{"DM gets a reply in the same DM", scenarioDM},
		{"group message without a mention is ignored", scenarioGroupIgnored},
		{"group mention gets a threaded reply", scenarioGroupMention},
		{"long reply is split with nothing lost", scenarioLongSplit},
		{"crisis reply under its own 429 is retried and holds back no other chat", scenarioCrisisUnder429},
		{"crisis reply does not wait behind another chat's 429", scenarioCrisisBesideAnother429},
		{"duplicate delivery gets one reply", scenarioDuplicate},
		{"dropped connection reconnects and goes on", scenarioReconnect},
		{"429 is honoured", scenarioRateLimit},
		{"admin command from a non-admin is denied without effect", scenarioAdminDenied},
		{"admin pauses a group: only a crisis is answered there until resume", scenarioAdminPause},
		{"edit is not run again", scenarioEdit},
		{"own messages are ignored", scenarioOwnMessages},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			s.run(t, newScenarioEnv(t, newPlatform))
		})
	}
}

func scenarioDM(t *testing.T, e *scenarioEnv) {
	m := e.p.DM(t, 0, "hello there")
	got := e.posted(t, 1)
	if got[0].Conversation != m.Conversation || got[0].Text != "echo: hello there" {
		t.Errorf("posted %+v, want \"echo: hello there\" in %s", got[0], m.Conversation)
	}
}

func scenarioGroupIgnored(t *testing.T, e *scenarioEnv) {
	e.p.Group(t, 0, "just chatting among ourselves", false)
	e.p.Group(t, 1, "marker", true)
	got := e.posted(t, 1)
	if got[0].Text != "echo: marker" {
		t.Errorf("first post %q, want the marker's reply (the unaddressed message must get none)", got[0].Text)
	}
	if seen := e.core.Seen(); slices.Contains(seen, "just chatting among ourselves") {
		t.Errorf("the core ran a turn for a message not addressed to Haven: %q", seen)
	}
}

func scenarioGroupMention(t *testing.T, e *scenarioEnv) {
	m := e.p.Group(t, 0, "can you help me think this through", true)
	got := e.posted(t, 1)
	want := Posted{Conversation: m.Conversation, Text: "echo: can you help me think this through", ReplyTo: m.ID}
	if got[0] != want {
		t.Errorf("posted %+v, want %+v (the mention stripped, threaded under the message)", got[0], want)
	}
}

func scenarioLongSplit(t *testing.T, e *scenarioEnv) {
	e.p.DM(t, 0, "long")
	limit := e.rec.MessageLimit()
	want := LongReply(limit.Max)
	pieces := channels.Split(want, limit)
	if len(pieces) < 2 {
		t.Fatalf("the long reply fits in one message (%d %s, limit %s)", limit.Measure.Len(want), limit.Measure, limit)
	}
	got := e.posted(t, len(pieces))
	var joined []string
	for _, p := range got {
		if n := limit.Measure.Len(p.Text); n > limit.Max {
			t.Errorf("a piece has %d %s, over the limit %s", n, limit.Measure, limit)
		}
		joined = append(joined, p.Text)
	}
	if g, w := strings.Fields(strings.Join(joined, "\n")), strings.Fields(want); !slices.Equal(g, w) {
		t.Errorf("the pieces hold %d words, want the %d of the reply in order", len(g), len(w))
	}
}

func scenarioCrisisUnder429(t *testing.T, e *scenarioEnv) {
	const wait = time.Second
	e.p.RateLimitNextSend(t, wait)
	crisis := e.p.DM(t, 1, "I want to end my life")
	if _, err := e.rec.waitFailed(scenarioCtx(t)); err != nil {
		t.Fatal(err)
	}
	// The platform refused the crisis reply in its chat only: another
	// person's reply is not held back meanwhile, and the crisis reply is
	// retried once the wait is over.
	e.p.DM(t, 0, "hello")
	got := e.posted(t, 2)
	if !slices.Contains(got, Posted{Conversation: crisis.Conversation, Text: CrisisText}) || !slices.ContainsFunc(got, func(p Posted) bool { return p.Text == "echo: hello" }) {
		t.Errorf("posted %+v, want the crisis reply and the ordinary one", got)
	}
	delivered := func(a Attempt) bool { return a.Out.Kind == channels.OutCrisis && a.Err == nil }
	as, err := e.rec.waitFor(scenarioCtx(t), "the crisis reply's retry", func(as []Attempt) bool {
		return slices.ContainsFunc(as, delivered)
	})
	if err != nil {
		t.Fatal(err)
	}
	first := as[0]
	if first.Out.Kind != channels.OutCrisis || channels.RetryAfter(first.Err) != wait {
		t.Fatalf("first attempt kind %s err %v, want the crisis reply refused with retry after %s", first.Out.Kind, first.Err, wait)
	}
	if gap := as[slices.IndexFunc(as, delivered)].At.Sub(first.At); gap < wait {
		t.Errorf("the crisis reply was retried after %s, before the %s the platform asked for", gap, wait)
	}
}

func scenarioCrisisBesideAnother429(t *testing.T, e *scenarioEnv) {
	// Longer than the scenario's patience: a crisis reply held behind this
	// chat's wait would not be posted in time.
	const wait = time.Minute
	e.p.RateLimitNextSend(t, wait)
	other := e.p.DM(t, 0, "hello")
	if _, err := e.rec.waitFailed(scenarioCtx(t)); err != nil {
		t.Fatal(err)
	}
	crisis := e.p.DM(t, 1, "I want to end my life")
	got := e.posted(t, 1)
	if got[0].Conversation != crisis.Conversation || got[0].Text != CrisisText {
		t.Errorf("first post %+v, want the crisis reply while the other chat waits out its 429", got[0])
	}
	first := e.rec.all()[0]
	if first.Out.Conversation.ID != other.Conversation || channels.RetryAfter(first.Err) != wait {
		t.Errorf("first attempt in %s err %v, want the other chat's reply refused with retry after %s", first.Out.Conversation.ID, first.Err, wait)
	}
}

func scenarioDuplicate(t *testing.T, e *scenarioEnv) {
	m := e.p.DM(t, 0, "only once please")
	e.p.Redeliver(t, m)
	e.p.DM(t, 0, "marker")
	got := e.posted(t, 2)
	if want := []string{"echo: only once please", "echo: marker"}; !slices.Equal(texts(got), want) {
		t.Errorf("posted %q, want %q", texts(got), want)
	}
	n := 0
	for _, s := range e.core.Seen() {
		if s == "only once please" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the core ran %d turns for one message delivered twice, want 1", n)
	}
}

func scenarioReconnect(t *testing.T, e *scenarioEnv) {
	e.p.DM(t, 0, "before")
	e.posted(t, 1)
	// A send whose response is cut off is retried and may show twice, as on
	// a real network; the drop here is of the receiving side.
	if _, err := e.rec.waitAttempts(scenarioCtx(t), 1); err != nil {
		t.Fatal(err)
	}
	e.p.DropConnection(t)
	e.p.DM(t, 0, "after")
	got := e.posted(t, 2)
	if got[1].Text != "echo: after" {
		t.Errorf("posted %q after the drop, want \"echo: after\"", got[1].Text)
	}
}

func scenarioRateLimit(t *testing.T, e *scenarioEnv) {
	const wait = time.Second
	e.p.RateLimitNextSend(t, wait)
	e.p.DM(t, 0, "hello")
	got := e.posted(t, 1)
	if got[0].Text != "echo: hello" {
		t.Errorf("posted %q", got[0].Text)
	}
	as, err := e.rec.waitAttempts(scenarioCtx(t), 2)
	if err != nil {
		t.Fatal(err)
	}
	if channels.RetryAfter(as[0].Err) != wait || as[1].Err != nil {
		t.Fatalf("attempts %+v, want a 429 asking for %s, then success", as, wait)
	}
	if gap := as[1].At.Sub(as[0].At); gap < wait {
		t.Errorf("retried after %s, before the %s the platform asked for", gap, wait)
	}
}

func scenarioAdminDenied(t *testing.T, e *scenarioEnv) {
	e.p.Group(t, 0, "/haven pause", true)
	got := e.posted(t, 1)
	if got[0].Text != DeniedText || e.core.Pauses() != 0 {
		t.Fatalf("posted %q with %d pauses, want the denial and no effect", got[0].Text, e.core.Pauses())
	}
	e.p.MakeAdmin(t, 1)
	e.p.Group(t, 1, "/haven pause", true)
	got = e.posted(t, 2)
	if got[1].Text != PausedText || e.core.Pauses() != 1 {
		t.Errorf("admin got %q with %d pauses, want %q and 1", got[1].Text, e.core.Pauses(), PausedText)
	}
}

func scenarioAdminPause(t *testing.T, e *scenarioEnv) {
	e.p.MakeAdmin(t, 1)
	e.p.Group(t, 1, "/haven pause", true)
	got := e.posted(t, 1)
	if got[0].Text != PausedText {
		t.Fatalf("admin's /haven pause got %q, want %q", got[0].Text, PausedText)
	}
	// Turns of one conversation run in order: had the first message been
	// answered, its echo would come before the crisis reply.
	e.p.Group(t, 0, "are you there", true)
	crisis := e.p.Group(t, 2, "I want to end my life", true)
	got = e.posted(t, 2)
	if got[1].Text != CrisisText || got[1].Conversation != crisis.Conversation {
		t.Fatalf("second post %+v, want the crisis reply (nothing else is answered in a paused group)", got[1])
	}
	e.p.DM(t, 0, "in private")
	if got = e.posted(t, 3); got[2].Text != "echo: in private" {
		t.Fatalf("a DM during the group's pause got %q, want its echo", got[2].Text)
	}
	e.p.Group(t, 0, "/haven resume", true)
	if got = e.posted(t, 4); got[3].Text != DeniedText {
		t.Fatalf("a non-admin's /haven resume got %q, want the denial", got[3].Text)
	}
	e.p.Group(t, 1, "/haven resume", true)
	e.p.Group(t, 0, "back again", true)
	got = e.posted(t, 6)
	if got[4].Text != ResumedText || got[5].Text != "echo: back again" {
		t.Errorf("posts after resume %q, %q; want %q and the echo", got[4].Text, got[5].Text, ResumedText)
	}
}

func scenarioEdit(t *testing.T, e *scenarioEnv) {
	m := e.p.DM(t, 0, "first")
	e.posted(t, 1)
	e.p.Edit(t, m, "first, edited")
	e.p.DM(t, 0, "marker")
	got := e.posted(t, 2)
	if got[1].Text != "echo: marker" {
		t.Errorf("posted %q after the edit, want only the marker's reply", texts(got))
	}
	if seen := e.core.Seen(); slices.Contains(seen, "first, edited") {
		t.Errorf("the edit was run as a turn: %q", seen)
	}
}

func scenarioOwnMessages(t *testing.T, e *scenarioEnv) {
	e.p.OwnMessage(t, "something Haven said")
	e.p.Group(t, 0, "marker", true)
	got := e.posted(t, 1)
	if got[0].Text != "echo: marker" {
		t.Errorf("first post %q, want the marker's reply", got[0].Text)
	}
	for _, s := range e.core.Seen() {
		if strings.Contains(s, "something Haven said") {
			t.Errorf("Haven's own message was run as a turn")
		}
	}
}
