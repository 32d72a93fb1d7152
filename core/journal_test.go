package core

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/llm/llmtest"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/sqlite"
)

// clock is a settable test clock.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// journalEngine is an engine on SQLite with the built-in capabilities and
// memory, on a clock the test moves (Wednesday 14 Jan 2026, noon UTC).
func journalEngine(t *testing.T, opts ...func(*Options)) (*Engine, *sqlite.Store, *clock) {
	t.Helper()
	c := &clock{now: time.Date(2026, 1, 14, 12, 0, 0, 0, time.UTC)}
	e, store, _ := newEngine(t, append([]func(*Options){func(o *Options) {
		o.Clock = c.Now
		o.Memories = o.Store.(*sqlite.Store)
	}}, opts...)...)
	return e, store, c
}

func TestTheJournalIsWrittenAndReadBackByPeriod(t *testing.T) {
	e, _, c := journalEngine(t)
	if tr := turn(t, e, "/journal a long walk by the canal, felt lighter after"); !strings.Contains(tr.Reply, "written that in your journal") || tr.Branch != BranchTask {
		t.Fatalf("write: branch %s reply %q", tr.Branch, tr.Reply)
	}
	c.now = c.now.AddDate(0, 0, 7) // the next Wednesday
	if tr := turn(t, e, "write in my journal: dinner with Sam, we laughed a lot"); !strings.Contains(tr.Reply, "written that") {
		t.Fatalf("plain-word write: %q", tr.Reply)
	}
	tests := []struct {
		ask      string
		has, not []string
	}{
		{"what did I write last week?", []string{"What you wrote last week", "canal"}, []string{"dinner"}},
		{"What did I write this week", []string{"dinner"}, []string{"canal"}},
		{"show me my journal", []string{"latest journal entries", "canal", "dinner"}, nil},
		{"what did I write yesterday?", []string{"I don't have any journal entries from yesterday"}, nil},
	}
	for _, tt := range tests {
		tr := turn(t, e, tt.ask)
		for _, s := range tt.has {
			if !strings.Contains(tr.Reply, s) {
				t.Errorf("%q: reply %q lacks %q", tt.ask, tr.Reply, s)
			}
		}
		for _, s := range tt.not {
			if strings.Contains(tr.Reply, s) {
				t.Errorf("%q: reply %q holds %q", tt.ask, tr.Reply, s)
			}
		}
	}
}

func TestABareJournalCommandAsksWhatToWrite(t *testing.T) {
	e, store, _ := journalEngine(t)
	if tr := turn(t, e, "/journal"); tr.Reply != "What would you like to write in your journal?" {
		t.Fatalf("reply %q", tr.Reply)
	}
	if tr := turn(t, e, "that I finally slept well"); !strings.Contains(tr.Reply, "written that") {
		t.Fatalf("reply %q", tr.Reply)
	}
	p, _ := store.ResolvePerson(context.Background(), "test", "test::alice", "")
	es, err := store.JournalEntries(context.Background(), p.ID, time.Time{}, time.Time{}, 0)
	if err != nil || len(es) != 1 || es[0].Text != "that I finally slept well" {
		t.Fatalf("entries %+v, %v", es, err)
	}
}

func TestJournalEntriesAreMemoryThePersonControls(t *testing.T) {
	e, _, _ := journalEngine(t)
	turn(t, e, "/journal the interview went better than I feared")
	if tr := turn(t, e, "/memory"); !strings.Contains(tr.Reply, "journal entry of 14 Jan 2026: the interview went better than I feared") {
		t.Fatalf("/memory does not list the entry: %q", tr.Reply)
	}
	out, err := e.Handle(context.Background(), dm("/export"))
	if err != nil || len(out) != 1 || out[0].File == nil {
		t.Fatalf("export: %+v %v", out, err)
	}
	var ex memory.Export
	if err := json.Unmarshal(out[0].File.Data, &ex); err != nil || len(ex.Journal) != 1 || ex.Journal[0].Text != "the interview went better than I feared" {
		t.Fatalf("export journal %+v, %v", ex.Journal, err)
	}
	if tr := turn(t, e, "/forget interview"); !strings.Contains(tr.Reply, "forgotten 1 memory") {
		t.Fatalf("/forget: %q", tr.Reply)
	}
	if tr := turn(t, e, "show me my journal"); !strings.Contains(tr.Reply, "Your journal is empty") {
		t.Fatalf("after /forget: %q", tr.Reply)
	}
}

func TestTheJournalIsOnlyShownOrWrittenInADM(t *testing.T) {
	e, store, _ := journalEngine(t)
	turn(t, e, "/journal private thoughts about my brother")
	in := dm("show me my journal")
	in.Conversation = channels.Conversation{ID: "test::group-1", Kind: channels.KindGroup}
	in.MentionsBot = true
	out, err := e.Handle(context.Background(), in)
	if err != nil || len(out) != 1 || out[0].Text != journalPrivateForTest || strings.Contains(out[0].Text, "brother") {
		t.Fatalf("group read: %+v %v", out, err)
	}
	in = dm("/journal written in a group")
	in.Conversation = channels.Conversation{ID: "test::group-1", Kind: channels.KindGroup}
	if _, err := e.Handle(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	p, _ := store.ResolvePerson(context.Background(), "test", "test::alice", "")
	if es, _ := store.JournalEntries(context.Background(), p.ID, time.Time{}, time.Time{}, 0); len(es) != 1 {
		t.Fatalf("an entry was written from a group: %+v", es)
	}
}

const journalPrivateForTest = "Your journal is private, so I only write in it or read it back in a direct message. Send me a DM and ask there."

// A journal entry at crisis level gets the crisis reply and is not written:
// the person is answered for their safety, and the words stay only in the
// (crisis-marked) transcript, never among entries read back later.
func TestAJournalEntryAtCrisisLevelGetsTheCrisisReplyAndIsNotWritten(t *testing.T) {
	e, store, _ := journalEngine(t)
	tr := turn(t, e, "/journal I am going to kill myself tonight")
	if tr.ReplyKind != channels.OutCrisis {
		t.Fatalf("kind %s reply %q", tr.ReplyKind, tr.Reply)
	}
	p, _ := store.ResolvePerson(context.Background(), "test", "test::alice", "")
	if es, _ := store.JournalEntries(context.Background(), p.ID, time.Time{}, time.Time{}, 0); len(es) != 0 {
		t.Fatalf("the entry was written: %d entries", len(es))
	}
}

// failingJournal is the real store whose journal writes fail (a disk
// error), to prove that a failing step answers kindly and changes nothing.
type failingJournal struct{ *sqlite.Store }

func (failingJournal) AddJournalEntry(context.Context, string, string, time.Time, string) (memory.JournalEntry, error) {
	return memory.JournalEntry{}, errors.New("disk I/O error")
}

func TestAFailingJournalWriteAnswersKindlyAndChangesNothing(t *testing.T) {
	e, store, _ := journalEngine(t, func(o *Options) { o.Store = failingJournal{o.Store.(*sqlite.Store)} })
	turn(t, e, "/journal first entry is fine") // fails too: the wrapper fails every write
	before := savedCheckpoint(t, e)
	tr := turn(t, e, "write in my journal: a day at the sea")
	if got := tr.Diag.Path(); !slices.Contains(got, "task_error") || tr.Reply != taskFailedReply {
		t.Fatalf("path %v reply %q", got, tr.Reply)
	}
	after := savedCheckpoint(t, e)
	if len(after.CapabilityContext["journal"]) != len(before.CapabilityContext["journal"]) {
		t.Fatalf("the capability context changed: %v -> %v", before.CapabilityContext, after.CapabilityContext)
	}
	p, _ := store.ResolvePerson(context.Background(), "test", "test::alice", "")
	if es, _ := store.JournalEntries(context.Background(), p.ID, time.Time{}, time.Time{}, 0); len(es) != 0 {
		t.Fatalf("entries written: %d", len(es))
	}
}

func TestTheModelCanAskForTheJournal(t *testing.T) {
	srv := llmtest.NewServer(t)
	byCall(srv, llmtest.Reply{Content: `{"capability":"journal.write","args":{"text":"lunch by the river with Maya"}}`})
	c, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), Model: "test"})
	if err != nil {
		t.Fatal(err)
	}
	e, store, _ := journalEngine(t, func(o *Options) { o.LLM = c })
	tr := turn(t, e, "jot this in the diary: lunch by the river with Maya")
	if !strings.Contains(tr.Reply, "written that in your journal") || tr.ModeSource == "rules" {
		t.Fatalf("reply %q source %s", tr.Reply, tr.ModeSource)
	}
	p, _ := store.ResolvePerson(context.Background(), "test", "test::alice", "")
	if es, _ := store.JournalEntries(context.Background(), p.ID, time.Time{}, time.Time{}, 0); len(es) != 1 || es[0].Text != "lunch by the river with Maya" {
		t.Fatalf("entries %+v", es)
	}
}

func TestHelplinesComeFromTheDirectory(t *testing.T) {
	e, _, _ := journalEngine(t, func(o *Options) { o.DefaultCountry = "GB" })
	tests := []struct {
		ask    string
		branch Branch
		has    []string
	}{
		{"what's the helpline in Ireland?", BranchTask, []string{"Crisis lines in Ireland", "Samaritans: Call 116 123"}},
		{"/helpline Canada", BranchTask, []string{"Crisis lines in Canada", "Call or text 9-8-8"}},
		{"is there a crisis line I could call?", BranchTask, []string{"United Kingdom", "999"}},
		{"what's the helpline in Narnia?", BranchTask, []string{"United Kingdom"}},
		{"I called a helpline last year and it did help", BranchTherapeutic, nil},
	}
	for _, tt := range tests {
		tr := turn(t, e, tt.ask)
		if tr.Branch != tt.branch {
			t.Errorf("%q: branch %s reply %q", tt.ask, tr.Branch, tr.Reply)
			continue
		}
		for _, s := range tt.has {
			if !strings.Contains(tr.Reply, s) {
				t.Errorf("%q: reply %q lacks %q", tt.ask, tr.Reply, s)
			}
		}
	}
}

func TestHelpListsWhatHavenCanDo(t *testing.T) {
	e, _, _ := journalEngine(t)
	tr := turn(t, e, "/help")
	for _, s := range []string{"/journal today was hard", "what did I write last week?", "/helpline Ireland"} {
		if !strings.Contains(tr.Reply, s) {
			t.Errorf("/help lacks %q:\n%s", s, tr.Reply)
		}
	}
}

// A turn run again (the process died before its commit; the Hub hands the
// same message over once more) writes the entry once.
func TestAJournalTurnRunAgainWritesTheEntryOnce(t *testing.T) {
	e, store, _ := journalEngine(t)
	in := dm("/journal the bus was late but I didn't mind")
	for range 2 {
		if _, _, err := e.HandleDeferred(context.Background(), in); err != nil { // never committed
			t.Fatal(err)
		}
	}
	p, _ := store.ResolvePerson(context.Background(), "test", "test::alice", "")
	if es, _ := store.JournalEntries(context.Background(), p.ID, time.Time{}, time.Time{}, 0); len(es) != 1 {
		t.Fatalf("%d entries, want 1", len(es))
	}
}

func TestOnlyTheLatestJournalEntryIsKeptInTheContext(t *testing.T) {
	e, _, _ := journalEngine(t)
	for _, s := range []string{"/journal one", "/journal two", "/journal three"} {
		turn(t, e, s)
	}
	cc := tasks.Context(savedCheckpoint(t, e).CapabilityContext)
	if n := len(cc["journal"]); n != 1 {
		t.Fatalf("%d journal keys in the context, want 1", n)
	}
	if _, _, ok := cc.Latest("journal"); !ok {
		t.Fatal("no latest journal entry")
	}
}

// BenchmarkJournalTurn measures a whole task turn on SQLite: the crisis
// gate, dispatch, the journal write and the turn's commit.
func BenchmarkJournalTurn(b *testing.B) {
	e, _, _ := newEngine(b, func(o *Options) { o.Memories = o.Store.(*sqlite.Store) })
	ctx := context.Background()
	for b.Loop() {
		if _, err := e.Handle(ctx, dm("/journal a quiet evening with a book")); err != nil {
			b.Fatal(err)
		}
	}
}
