package core

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// newEngine returns an engine on a real SQLite file in a temp dir, and the
// file's path.
func newEngine(t testing.TB, opts ...func(*Options)) (*Engine, *sqlite.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "haven.db")
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	o := Options{Store: store, Gate: safety.NewGate(safety.GateOptions{}), Logger: slog.New(slog.DiscardHandler)}
	for _, f := range opts {
		f(&o)
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return e, store, path
}

var seq int

func dm(text string) channels.Inbound {
	seq++
	id := channels.NamespacedID("test", "", "m"+string(rune('a'+seq%26))+strings.Repeat("x", seq/26))
	return channels.Inbound{
		Platform:     "test",
		Conversation: channels.Conversation{ID: "test::dm-1", Kind: channels.KindDM},
		MessageID:    id,
		DeliveryKey:  id,
		Author:       channels.Author{ID: "test::alice", Display: "Alice Example"},
		Text:         text,
		ReceivedAt:   time.Now(),
	}
}

func handle(t *testing.T, e *Engine, in channels.Inbound) channels.Outbound {
	t.Helper()
	out, err := e.Handle(context.Background(), in)
	if err != nil {
		t.Fatalf("Handle: %v", err)
	}
	if len(out) != 1 {
		t.Fatalf("Handle returned %d messages, want 1: %+v", len(out), out)
	}
	return out[0]
}

func TestHandleRepliesAndPersistsTheSessionAcrossRestarts(t *testing.T) {
	e, store, path := newEngine(t)
	first := handle(t, e, dm("hi"))
	if !strings.Contains(first.Text, "AI companion") {
		t.Errorf("first contact should say what Haven is, got %q", first.Text)
	}
	handle(t, e, dm("I have been so stressed about work"))
	store.Close()

	store2, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer store2.Close()
	e2, _ := New(Options{Store: store2, Gate: safety.NewGate(safety.GateOptions{})})
	who := handle(t, e2, dm("/whoami"))
	if !strings.Contains(who.Text, "2 turns") {
		t.Errorf("/whoami after restart should report 2 turns, got %q", who.Text)
	}
	again := handle(t, e2, dm("hello"))
	if strings.Contains(again.Text, "not a therapist") {
		t.Errorf("second meeting should not introduce Haven again, got %q", again.Text)
	}
	handle(t, e2, dm("/reset"))
	who = handle(t, e2, dm("/whoami"))
	if !strings.Contains(who.Text, "0 turns") {
		t.Errorf("/whoami after /reset should report a new session, got %q", who.Text)
	}
}

func TestClearDisclosureGetsCrisisReplyAndATextFreeCrisisLog(t *testing.T) {
	e, _, path := newEngine(t, func(o *Options) { o.DefaultCountry = "US" })
	const msg = "I want to kill myself"
	out := handle(t, e, dm(msg))
	if out.Kind != channels.OutCrisis {
		t.Fatalf("kind = %s, want crisis; reply %q", out.Kind, out.Text)
	}
	if !strings.Contains(out.Text, "988") {
		t.Errorf("US crisis reply should name 988 from the directory: %q", out.Text)
	}

	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT * FROM crisis_log`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	n := 0
	for rows.Next() {
		n++
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			s, _ := v.(string)
			if b, ok := v.([]byte); ok {
				s = string(b)
			}
			if strings.Contains(strings.ToLower(s), strings.ToLower(msg)) || strings.Contains(strings.ToLower(s), "myself") {
				t.Errorf("crisis_log column %s holds message text", cols[i])
			}
		}
	}
	if n != 1 {
		t.Errorf("crisis_log has %d rows, want 1", n)
	}
}

func TestIdiomStaysTherapeutic(t *testing.T) {
	e, _, _ := newEngine(t)
	out := handle(t, e, dm("this exam is killing me"))
	if out.Kind != channels.OutReply {
		t.Fatalf("idiom got kind %s: %q", out.Kind, out.Text)
	}
}

func TestCrisisInAGroupGoesPrivatelyWithAPublicNote(t *testing.T) {
	e, _, _ := newEngine(t)
	in := dm("I want to kill myself")
	in.Conversation = channels.Conversation{ID: "test::group-1", Kind: channels.KindGroup}
	in.MentionsBot = true
	out, err := e.Handle(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	var private, public int
	for _, o := range out {
		if o.Kind != channels.OutCrisis {
			t.Errorf("message of kind %s in a crisis turn", o.Kind)
		}
		if o.Private {
			private++
			if o.Recipient != in.Author.ID {
				t.Errorf("private crisis reply to %q, want the author", o.Recipient)
			}
		} else {
			public++
			if strings.Contains(o.Text, "kill") || o.ReplyTo != in.MessageID {
				t.Errorf("public note must not repeat the message and must answer it: %+v", o)
			}
		}
	}
	if private != 1 || public != 1 {
		t.Fatalf("got %d private and %d public messages, want 1 and 1", private, public)
	}
}

// failingStore is a store whose every call fails, as a locked or broken
// database would.
type failingStore struct{ memory.Store }

var errBroken = errors.New("database is locked")

func (failingStore) ResolvePerson(context.Context, string, string, string) (memory.Person, error) {
	return memory.Person{}, errBroken
}

func TestBrokenStoreStillAnswersACrisis(t *testing.T) {
	e, err := New(Options{Store: failingStore{}, Gate: safety.NewGate(safety.GateOptions{})})
	if err != nil {
		t.Fatal(err)
	}
	out, err := e.Handle(context.Background(), dm("I want to kill myself"))
	if err != nil || len(out) != 1 || out[0].Kind != channels.OutCrisis {
		t.Fatalf("crisis with a broken store: out=%+v err=%v, want one crisis reply", out, err)
	}
	_, err = e.Handle(context.Background(), dm("I have been stressed"))
	if !errors.Is(err, errBroken) {
		t.Fatalf("ordinary turn with a broken store: err = %v, want it to wrap the store error", err)
	}
}

func TestWarningSignsGetOneDirectQuestionAndSessionRiskOnlyRises(t *testing.T) {
	e, store, _ := newEngine(t)
	out := handle(t, e, dm("I feel like such a burden to everyone"))
	if out.Kind != channels.OutReply {
		t.Fatalf("warning signs should stay therapeutic, got %s", out.Kind)
	}
	if strings.Count(out.Text, "?") != 1 {
		t.Errorf("want exactly one question, got %q", out.Text)
	}
	handle(t, e, dm("I want to die"))
	handle(t, e, dm("thanks for listening"))
	p, _ := store.ResolvePerson(context.Background(), "test", "test::alice", "")
	s, err := store.OpenSession(context.Background(), p.ID, "test::dm-1", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if s.Checkpoint.SessionMaxRisk != 2 && s.Checkpoint.SessionMaxRisk != 3 {
		t.Errorf("session max risk = %d after ideation, want >= 2", s.Checkpoint.SessionMaxRisk)
	}
	if s.Checkpoint.TurnCount != 3 {
		t.Errorf("turn count = %d, want 3", s.Checkpoint.TurnCount)
	}
}

func TestCommands(t *testing.T) {
	e, _, _ := newEngine(t)
	tests := []struct{ in, want string }{
		{"/help", "/reset"},
		{"/whoami", "test::alice"},
		{"/frobnicate", "/help, /reset, /whoami"},
	}
	for _, tt := range tests {
		out := handle(t, e, dm(tt.in))
		if !strings.Contains(out.Text, tt.want) {
			t.Errorf("%s: reply %q does not contain %q", tt.in, out.Text, tt.want)
		}
	}
}

func TestCrisisWordsAfterACommandAreAssessed(t *testing.T) {
	e, _, _ := newEngine(t)
	out := handle(t, e, dm("/help I want to kill myself"))
	if out.Kind != channels.OutCrisis {
		t.Fatalf("command with a disclosure got %s: %q", out.Kind, out.Text)
	}
}

func TestInvalidUTF8AndHugeMessagesAreHandled(t *testing.T) {
	e, _, _ := newEngine(t)
	handle(t, e, dm("I feel \xff\xfe lost"))
	big := strings.Repeat("I have been so stressed about work. ", 1<<20/36)
	out := handle(t, e, dm(big))
	if out.Text == "" {
		t.Fatal("empty reply to a 1 MB message")
	}
}

func TestStepLimitStopsALoop(t *testing.T) {
	e, _, _ := newEngine(t, func(o *Options) { o.MaxSteps = 2 })
	_, err := e.Handle(context.Background(), dm("hello there"))
	if !errors.Is(err, ErrStepLimit) {
		t.Fatalf("err = %v, want ErrStepLimit", err)
	}
}

func TestDiagnosticsRecordEveryNodeVisited(t *testing.T) {
	e, _, _ := newEngine(t)
	tr := &Turn{In: dm("I have been so stressed about work")}
	if err := e.runCommitted(context.Background(), tr); err != nil {
		t.Fatal(err)
	}
	want := "gateway crisis_gate load_memory dispatch therapeutic finalize"
	if got := strings.Join(tr.Diag.Path(), " "); got != want {
		t.Errorf("path = %q, want %q", got, want)
	}
}

func BenchmarkHandle(b *testing.B) {
	e, _, _ := newEngine(b)
	msgs := []string{"hi", "I have been so stressed about work", "my manager keeps piling things on", "I feel like nobody listens to me"}
	ctx := context.Background()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		in := dm(msgs[i%len(msgs)])
		i++
		if _, err := e.Handle(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "turns/s")
}

func TestCrisisTurnAlertsOperatorsWithoutTheMessage(t *testing.T) {
	e, _, _ := newEngine(t, func(o *Options) { o.AlertConversation = "slack:T1:C-ops" })
	const msg = "I want to kill myself tonight"
	out, err := e.Handle(context.Background(), dm(msg))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 {
		t.Fatalf("got %d messages, want the reply then the alert: %+v", len(out), out)
	}
	alert := out[1]
	if alert.Platform != "slack" || alert.Conversation.ID != "slack:T1:C-ops" {
		t.Errorf("alert went to %s %s", alert.Platform, alert.Conversation.ID)
	}
	if strings.Contains(alert.Text, "kill myself") || strings.Contains(alert.Text, "tonight") || strings.Contains(alert.Text, "Alice") {
		t.Errorf("alert leaks message text or name: %q", alert.Text)
	}
	if out2 := handle(t, e, dm("yes I'm safe")); out2.Kind != channels.OutReply {
		t.Errorf("a clear yes to \"are you safe?\" got %s and no ordinary reply", out2.Kind)
	}
}

func TestAlertConversationMustBeNamespaced(t *testing.T) {
	_, err := New(Options{Store: failingStore{}, Gate: safety.NewGate(safety.GateOptions{}), AlertConversation: "#ops"})
	if err == nil || !strings.Contains(err.Error(), "#ops") {
		t.Fatalf("err = %v, want an error naming the bad id", err)
	}
}

func TestNoToAreYouSafeIsAnsweredAsDanger(t *testing.T) {
	e, _, _ := newEngine(t, func(o *Options) { o.DefaultCountry = "US" })
	var asked channels.Outbound
	// Rotate until the crisis reply asks whether the person is safe.
	for range 6 {
		asked = handle(t, e, dm("I have the pills ready and I will take them tonight"))
		if strings.Contains(asked.Text, "safe") && strings.HasSuffix(asked.Text, "?") {
			break
		}
	}
	out := handle(t, e, dm("no"))
	if out.Kind != channels.OutCrisis || !strings.Contains(out.Text, "911") {
		t.Fatalf("\"no\" to %q got %s: %q", asked.Text[strings.LastIndex(asked.Text, "\n")+1:], out.Kind, out.Text)
	}
}

func TestWorryAboutSomeoneElseGetsHelperGuidance(t *testing.T) {
	e, _, _ := newEngine(t, func(o *Options) { o.DefaultCountry = "US" })
	out := handle(t, e, dm("my friend said she wants to die, what do I do"))
	if out.Kind != channels.OutCrisis || !strings.Contains(out.Text, "988") {
		t.Fatalf("third-party worry got %s: %q", out.Kind, out.Text)
	}
}

func TestSecondCrisisTurnDoesNotRepeatTheResourceBlock(t *testing.T) {
	e, _, _ := newEngine(t, func(o *Options) { o.DefaultCountry = "US" })
	first := handle(t, e, dm("I want to kill myself"))
	second := handle(t, e, dm("yes"))
	if second.Kind != channels.OutCrisis {
		t.Fatalf("\"yes\" to a question about suicidal thoughts got %s: %q", second.Kind, second.Text)
	}
	if strings.Count(second.Text, "\n- ") > 0 || len(second.Text) >= len(first.Text) {
		t.Errorf("follow-up repeats the block:\nfirst:  %q\nsecond: %q", first.Text, second.Text)
	}
}

func TestSomeoneBeingHurtHearsTheEmergencyNumber(t *testing.T) {
	e, _, _ := newEngine(t, func(o *Options) { o.DefaultCountry = "GB" })
	out := handle(t, e, dm("I'm scared my boyfriend will hurt me again"))
	if out.Kind != channels.OutReply || !strings.Contains(out.Text, "999") {
		t.Fatalf("abuse got %s: %q", out.Kind, out.Text)
	}
	if strings.Count(out.Text, "?") > 1 {
		t.Errorf("more than one question: %q", out.Text)
	}
}

// runCommitted runs a turn through the graph and commits its writes, as
// Handle does, keeping the Turn for the test to inspect.
func (e *Engine) runCommitted(ctx context.Context, t *Turn) error {
	if err := e.run(ctx, t); err != nil {
		return err
	}
	e.commit(ctx, t.pending)
	return nil
}
