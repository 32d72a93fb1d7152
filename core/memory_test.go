package core

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/llm/llmtest"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/extract"
	"github.com/havenbot/haven/memory/jobs"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

type memEnv struct {
	e      *Engine
	store  *sqlite.Store
	worker *jobs.Runner
	path   string
}

func newMemEnv(t *testing.T, mod func(*Options, *jobs.Options)) *memEnv {
	t.Helper()
	path := filepath.Join(t.TempDir(), "haven.db")
	return openMemEnv(t, path, mod)
}

func openMemEnv(t *testing.T, path string, mod func(*Options, *jobs.Options)) *memEnv {
	t.Helper()
	store, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	log := slog.New(slog.DiscardHandler)
	wo := jobs.Options{Store: store, Logger: log}
	o := Options{Store: store, Gate: safety.NewGate(safety.GateOptions{}), Logger: log, Memories: store, DefaultCountry: "GB"}
	if mod != nil {
		mod(&o, &wo)
	}
	w, err := jobs.New(wo)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return &memEnv{e: e, store: store, worker: w, path: path}
}

// say sends text from author in a DM and runs the memory queue dry.
func (m *memEnv) say(t *testing.T, author, text string) []channels.Outbound {
	t.Helper()
	return m.sayIn(t, author, channels.Conversation{ID: "test::dm-" + author, Kind: channels.KindDM}, text)
}

func (m *memEnv) sayIn(t *testing.T, author string, conv channels.Conversation, text string) []channels.Outbound {
	t.Helper()
	seq++
	in := channels.Inbound{
		Platform: "test", Conversation: conv, MessageID: fmt.Sprintf("test::m%d", seq), DeliveryKey: fmt.Sprintf("k%d", seq),
		Author: channels.Author{ID: "test::" + author, Display: strings.ToUpper(author[:1]) + author[1:]}, Text: text, ReceivedAt: time.Now(),
	}
	out, err := m.e.Handle(context.Background(), in)
	if err != nil {
		t.Fatalf("Handle(%q): %v", text, err)
	}
	if err := m.worker.Drain(context.Background()); err != nil {
		t.Fatalf("Drain: %v", err)
	}
	return out
}

func (m *memEnv) person(t *testing.T, author string) memory.Person {
	t.Helper()
	p, err := m.store.ResolvePerson(context.Background(), "test", "test::"+author, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (m *memEnv) retrieve(t *testing.T, author, text string) []string {
	t.Helper()
	r := memory.Retriever{Store: m.store}
	w, err := r.Retrieve(context.Background(), memory.Query{PersonID: m.person(t, author).ID, Text: text, Proactive: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range w.Entries {
		out = append(out, e.Text())
	}
	return out
}

func texts(outs []channels.Outbound) string {
	var b []string
	for _, o := range outs {
		b = append(b, o.Text)
	}
	return strings.Join(b, "\n")
}

func TestMovingSupersedesWhereThePersonLivesAndKeepsTheOldFactInactive(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "ann", "I live in York and I love it there")
	m.say(t, "ann", "big news, I moved to Leeds last week")
	facts, err := m.store.Facts(context.Background(), m.person(t, "ann").ID, true)
	if err != nil {
		t.Fatal(err)
	}
	var york, leeds *memory.Fact
	for i, f := range facts {
		if f.Predicate == memory.PredLivesIn {
			switch f.Object {
			case "York":
				york = &facts[i]
			case "Leeds":
				leeds = &facts[i]
			}
		}
	}
	if york == nil || leeds == nil {
		t.Fatalf("facts = %+v, want York and Leeds", facts)
	}
	if york.Active || york.SupersededBy != leeds.ID || !leeds.Active {
		t.Errorf("York should be inactive and superseded by Leeds: york=%+v leeds=%+v", *york, *leeds)
	}
	if leeds.Evidence != "big news, I moved to Leeds last week" || leeds.SessionID == "" || leeds.Turn != 2 {
		t.Errorf("Leeds provenance = %+v", *leeds)
	}
	got := strings.Join(m.retrieve(t, "ann", "do you remember where I live, York or Leeds?"), "\n")
	if strings.Contains(got, "York") && !strings.Contains(got, "Leeds") || strings.Contains(got, "lives in York") {
		t.Errorf("retrieval returned the inactive fact:\n%s", got)
	}
}

func TestForgetByQueryRemovesTheMemoryFromRetrievalAndExport(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "bo", "my ex Jordan keeps texting me")
	m.say(t, "bo", "my dog Biscuit is the best")
	if got := strings.Join(m.retrieve(t, "bo", "Jordan texted again"), "\n"); !strings.Contains(got, "Jordan") {
		t.Fatalf("before forgetting, retrieval should find Jordan:\n%s", got)
	}
	reply := texts(m.say(t, "bo", "forget that I mentioned my ex"))
	if !strings.Contains(reply, "forgotten 1 memory") || !strings.Contains(reply, "1 line") {
		t.Errorf("reply = %q", reply)
	}
	if got := strings.Join(m.retrieve(t, "bo", "Jordan my ex"), "\n"); strings.Contains(got, "Jordan") {
		t.Errorf("after forgetting, retrieval still finds Jordan:\n%s", got)
	}
	ex, err := m.store.Export(context.Background(), m.person(t, "bo").ID)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(ex)
	if strings.Contains(string(data), "Jordan") {
		t.Errorf("export still holds Jordan: %s", data)
	}
	if !strings.Contains(string(data), "Biscuit") {
		t.Errorf("export lost an unrelated memory: %s", data)
	}
	// Forget by number: /memory lists Biscuit as 1.
	list := texts(m.say(t, "bo", "/memory"))
	if !strings.Contains(list, "1. Biscuit is your dog") {
		t.Fatalf("list = %q", list)
	}
	if reply := texts(m.say(t, "bo", "/forget 1")); !strings.Contains(reply, "Biscuit") {
		t.Errorf("forget 1 = %q", reply)
	}
	if list := texts(m.say(t, "bo", "what do you remember about me?")); !strings.Contains(list, "don't remember anything") {
		t.Errorf("after forgetting both, list = %q", list)
	}
}

// dump returns every text value in every table of the database.
func dump(t *testing.T, path string) map[string][]string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tables := queryRows(t, db, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'memory_fts_%' AND name NOT LIKE 'memory_vec_%'`)
	out := map[string][]string{}
	for _, tb := range tables {
		if rows := queryRows(t, db, `SELECT * FROM "`+tb+`"`); len(rows) > 0 {
			out[tb] = rows
		}
	}
	return out
}

// queryRows runs q and returns each row's values as one string.
func queryRows(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals...))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestForgetEverythingAsksFirstAndLeavesOnlyTheDeidentifiedCrisisLog(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "cy", "my name is Cyrus and my partner Robin lives with me")
	m.say(t, "cy", "I want to kill myself")
	m.say(t, "cy", "/reset")
	m.say(t, "cy", "I love baking")
	other := m.say(t, "dee", "my brother Max is visiting")
	_ = other
	ask := texts(m.say(t, "cy", "/forget all"))
	if !strings.Contains(ask, "Reply yes") {
		t.Fatalf("forget all should ask first: %q", ask)
	}
	if no := texts(m.say(t, "cy", "no")); !strings.Contains(no, "kept everything") {
		t.Fatalf("no should keep everything: %q", no)
	}
	if facts, _ := m.store.Facts(context.Background(), m.person(t, "cy").ID, true); len(facts) == 0 {
		t.Fatal("no deleted everything")
	}
	m.say(t, "cy", "forget everything about me")
	done := texts(m.say(t, "cy", "yes"))
	if !strings.Contains(done, "deleted everything") {
		t.Fatalf("yes reply = %q", done)
	}
	tables := dump(t, m.path)
	for tb, rows := range tables {
		for _, row := range rows {
			for _, needle := range []string{"test::cy", "Cyrus", "Robin", "baking", "kill myself", "dm-cy", "Cy "} {
				if strings.Contains(row, needle) {
					t.Errorf("table %s still holds %q: %s", tb, needle, row)
				}
			}
		}
	}
	if n := len(tables["crisis_log"]); n != 1 {
		t.Errorf("crisis log has %d rows, want the 1 de-identified row", n)
	}
	if !strings.Contains(strings.Join(tables["facts"], "\n"), "Max") {
		t.Errorf("another person's memory was deleted: %v", tables["facts"])
	}
}

func TestIncognitoWritesNothing(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "eve", "/memory pause")
	before := dump(t, m.path)
	m.say(t, "eve", "my name is Evelyn and my sister Grace lives in Bristol")
	m.say(t, "eve", "remember that my exam is on Monday")
	m.say(t, "eve", "bye")
	after := dump(t, m.path)
	for _, tb := range []string{"facts", "episodes", "rules", "held_facts", "memory_jobs", "memory_fts", "transcript"} {
		if len(after[tb]) != len(before[tb]) {
			t.Errorf("incognito wrote to %s: %v", tb, after[tb])
		}
	}
	for tb, rows := range after {
		for _, row := range rows {
			if strings.Contains(row, "Grace") || strings.Contains(row, "Evelyn") || strings.Contains(row, "exam") {
				t.Errorf("incognito words stored in %s: %s", tb, row)
			}
		}
	}
	m.say(t, "eve", "/memory resume")
	m.say(t, "eve", "my sister Grace lives in Bristol")
	if facts, _ := m.store.Facts(context.Background(), m.person(t, "eve").ID, false); len(facts) == 0 {
		t.Error("after resume nothing was remembered")
	}
}

func TestCrisisTurnsWriteNoMemory(t *testing.T) {
	m := newMemEnv(t, nil)
	out := m.say(t, "fay", "my sister Joy lives in Hull and I want to kill myself")
	if out[0].Kind != channels.OutCrisis {
		t.Fatalf("want a crisis reply, got %+v", out)
	}
	tables := dump(t, m.path)
	if len(tables["facts"]) != 0 || len(tables["memory_jobs"]) != 0 {
		t.Errorf("a crisis turn wrote memory: %v %v", tables["facts"], tables["memory_jobs"])
	}
}

func TestMemoryIsOnlyLoadedForItsOwnPersonWithManyPeopleInterleaved(t *testing.T) {
	m := newMemEnv(t, nil)
	names := []string{"Ava", "Ben", "Cal", "Dot", "Eli", "Fin", "Gus", "Hal", "Ivy", "Jon", "Kai", "Liv"}
	for round := range 3 {
		for i, n := range names {
			author := strings.ToLower(n)
			switch round {
			case 0:
				m.say(t, author, "my name is "+n)
			case 1:
				m.say(t, author, fmt.Sprintf("my friend %s%s is great", names[(i+1)%len(names)], "ie"))
			case 2:
				m.say(t, author, "I work as a "+[]string{"nurse", "teacher", "chef", "baker"}[i%4]+" in town")
			}
		}
	}
	for i, n := range names {
		author := strings.ToLower(n)
		// Ask with every name, so that a leak would match.
		got := strings.Join(m.retrieve(t, author, strings.Join(names, " ")+" friend name work"), "\n")
		if !strings.Contains(got, "name is "+n) {
			t.Errorf("%s: own name not loaded:\n%s", n, got)
		}
		for j, other := range names {
			if j != i && strings.Contains(got, "name is "+other) {
				t.Errorf("%s got %s's name:\n%s", n, other, got)
			}
		}
		if friend := names[(i+1)%len(names)] + "ie"; !strings.Contains(got, friend) {
			t.Errorf("%s: own friend %s not loaded:\n%s", n, friend, got)
		}
		list := texts(m.say(t, author, "/memory"))
		for j, other := range names {
			if j != i && strings.Contains(list, "name is "+other) {
				t.Errorf("%s's list shows %s:\n%s", n, other, list)
			}
		}
	}
	// A linked identity on another platform sees the same memory.
	ava := m.person(t, "ava")
	if err := m.store.LinkIdentity(context.Background(), ava.ID, "test", "test::ava-phone"); err != nil {
		t.Fatal(err)
	}
	if list := texts(m.say(t, "ava-phone", "/memory")); !strings.Contains(list, "name is Ava") {
		t.Errorf("linked identity does not see its person's memory:\n%s", list)
	}
}

func TestMemoryCommandsInAGroupAnswerPrivately(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "gil", "my dog Rex is ill")
	group := channels.Conversation{ID: "test::group-1", Kind: channels.KindGroup}
	for _, text := range []string{"/memory", "what do you remember about me?", "/export", "export my data"} {
		out := m.sayIn(t, "gil", group, text)
		for _, o := range out {
			shows := strings.Contains(o.Text, "Rex") || (o.File != nil && strings.Contains(string(o.File.Data), "Rex"))
			if shows && (!o.Private || o.Recipient != "test::gil") {
				t.Errorf("%q: memory shown in the group: %+v", text, o)
			}
		}
		if len(out) != 2 || !out[0].Private || out[1].Private || out[1].File != nil {
			t.Errorf("%q: want a private answer and a public note, got %+v", text, out)
		}
		if isExport := strings.Contains(text, "export"); isExport != (out[0].File != nil) {
			t.Errorf("%q: private answer has file %v", text, out[0].File != nil)
		}
	}
}

func TestExportIsAJSONFileOfEverythingHeld(t *testing.T) {
	day := time.Date(2026, 3, 14, 22, 0, 0, 0, time.UTC)
	m := newMemEnv(t, func(o *Options, _ *jobs.Options) { o.Clock = func() time.Time { return day } })
	m.say(t, "hy", "please call me Hy, and I use they/them")
	for _, text := range []string{"/export", "please send me everything you know about me"} {
		out := m.say(t, "hy", text)
		if len(out) != 1 || out[0].File == nil {
			t.Fatalf("%q: out = %+v, want one message with a file", text, out)
		}
		o := out[0]
		if o.Text != "Here is everything I hold about you." || o.Private || o.Conversation.ID != "test::dm-hy" {
			t.Errorf("%q: message = %+v", text, o)
		}
		f := o.File
		if f.Name != "haven-export-2026-03-14.json" || f.ContentType != "application/json" {
			t.Errorf("%q: file %q (%s)", text, f.Name, f.ContentType)
		}
		if err := f.Check(); err != nil {
			t.Errorf("%q: file does not pass the channels check: %v", text, err)
		}
		var ex memory.Export
		if err := json.Unmarshal(f.Data, &ex); err != nil {
			t.Fatalf("%q: export is not JSON: %v", text, err)
		}
		if len(ex.Rules) != 1 || ex.Rules[0].Text != "Hy" || len(ex.Facts) != 1 || ex.Facts[0].Object != "they/them" || len(ex.Sessions) != 1 || len(ex.Identities) != 1 {
			t.Errorf("%q: export = %+v", text, ex)
		}
	}
}

func TestASafetyWeakeningRuleIsRefusedKindlyAndNotStored(t *testing.T) {
	m := newMemEnv(t, nil)
	for _, text := range []string{"never mention hotlines to me", "Please don't give me crisis numbers anymore", "no more helplines."} {
		reply := texts(m.say(t, "ida", text))
		if !strings.Contains(reply, "can't switch off") {
			t.Errorf("%q: reply = %q", text, reply)
		}
	}
	m.say(t, "ida", "just listen please, no advice")
	rules, _ := m.store.Rules(context.Background(), m.person(t, "ida").ID)
	if len(rules) != 1 || rules[0].Key != "advice" {
		t.Errorf("rules = %+v, want only the advice rule", rules)
	}
}

func TestANegativeSelfBeliefIsOnlyRememberedOnceRepeated(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "jo", "honestly I'm such a failure at everything")
	pid := m.person(t, "jo").ID
	if facts, _ := m.store.Facts(context.Background(), pid, false); len(facts) != 0 {
		t.Fatalf("said once, already remembered: %+v", facts)
	}
	m.say(t, "jo", "I'm a failure, that's the truth")
	facts, _ := m.store.Facts(context.Background(), pid, false)
	if len(facts) != 1 || facts[0].Predicate != memory.PredSelfBelief {
		t.Errorf("said twice: facts = %+v", facts)
	}
}

func TestAPreferenceWaitsForTheEndOfTheSessionAndResetWritesTheEpisode(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "kit", "work has been so stressful, my manager keeps piling things on")
	m.say(t, "kit", "I love swimming though")
	m.say(t, "kit", "I'm going to talk to my manager on Friday")
	pid := m.person(t, "kit").ID
	if facts, _ := m.store.Facts(context.Background(), pid, false); len(facts) != 0 {
		t.Fatalf("a preference was written before the session ended: %+v", facts)
	}
	m.say(t, "kit", "/reset")
	facts, _ := m.store.Facts(context.Background(), pid, false)
	if len(facts) != 1 || facts[0].Object != "swimming" {
		t.Errorf("facts after /reset = %+v", facts)
	}
	eps, _ := m.store.Episodes(context.Background(), pid, 5)
	if len(eps) != 1 || eps[0].Themes[0] != "work" || len(eps[0].OpenLoops) != 1 || eps[0].OpenLoops[0] != "wanted to talk to their manager on Friday" {
		t.Fatalf("episode = %+v", eps)
	}
	// The next session opens with a catch-up.
	if r := texts(m.say(t, "kit", "hi")); !strings.Contains(r, "you wanted to talk to your manager on Friday") {
		t.Errorf("first reply of the next session = %q", r)
	}
	// With proactive recall off there is none.
	m.say(t, "kit", "/memory recall off")
	m.say(t, "kit", "/reset")
	if r := texts(m.say(t, "kit", "hi")); strings.Contains(r, "Last time") {
		t.Errorf("recall off, but the reply brought up the past: %q", r)
	}
}

func TestIdleSessionsEndAndGetTheirEpisode(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	m := newMemEnv(t, func(o *Options, w *jobs.Options) {
		o.Clock = clock
		w.Clock = clock
		w.IdleTimeout = time.Hour
	})
	m.say(t, "lu", "I can't sleep before exams")
	if n, err := m.worker.SweepIdle(context.Background()); err != nil || n != 0 {
		t.Fatalf("sweep of a fresh session = %d, %v", n, err)
	}
	// The store stamps updated_at with the real clock; sweep as of a time
	// far enough ahead.
	now = time.Now().Add(2 * time.Hour)
	if n, err := m.worker.SweepIdle(context.Background()); err != nil || n != 1 {
		t.Fatalf("sweep after the idle timeout = %d, %v", n, err)
	}
	m.worker.Drain(context.Background())
	eps, _ := m.store.Episodes(context.Background(), m.person(t, "lu").ID, 5)
	if len(eps) != 1 || !strings.Contains(eps[0].Summary, "sleep") {
		t.Errorf("episodes = %+v", eps)
	}
}

func TestARestartLosesNoExtractionJob(t *testing.T) {
	path := filepath.Join(t.TempDir(), "haven.db")
	m := openMemEnv(t, path, nil)
	// Handle without draining: the job stays queued.
	if _, err := m.e.Handle(context.Background(), channels.Inbound{Platform: "test", Conversation: channels.Conversation{ID: "test::dm-mo", Kind: channels.KindDM},
		MessageID: "test::x1", DeliveryKey: "x1", Author: channels.Author{ID: "test::mo"}, Text: "my cat Pickle is asleep on me"}); err != nil {
		t.Fatal(err)
	}
	// A crash mid-job: the job was claimed but never finished.
	if _, ok, err := m.store.Claim(context.Background(), time.Nanosecond); !ok || err != nil {
		t.Fatalf("claim = %v, %v", ok, err)
	}
	m.store.Close()

	m2 := openMemEnv(t, path, nil)
	if err := m2.worker.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	facts, _ := m2.store.Facts(context.Background(), m2.person(t, "mo").ID, false)
	if len(facts) != 1 || facts[0].Subject != "Pickle" {
		t.Errorf("after the restart facts = %+v", facts)
	}
}

func TestLLMExtractionIsValidatedAndFallsBackToPatterns(t *testing.T) {
	srv := llmtest.NewServer(t)
	client, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	m := newMemEnv(t, func(o *Options, w *jobs.Options) {
		w.Extractor = &extract.Extractor{LLM: completeJSON(client)}
	})
	srv.Enqueue(llmtest.Reply{Content: `{"facts":[{"subject":"self","predicate":"works_as","object":"paramedic","evidence":"I do nights on the ambulance","confidence":0.9}],"rules":[]}`})
	m.say(t, "ned", "I do nights on the ambulance, it's a lot")
	// The model invents evidence: rejected, patterns answer instead.
	srv.Enqueue(llmtest.Reply{Content: `{"facts":[{"subject":"self","predicate":"lives_in","object":"Paris","evidence":"I live in Paris","confidence":0.9}],"rules":[]}`})
	m.say(t, "ned", "my brother Olly is visiting")
	// Malformed and failing answers fall back too.
	srv.Enqueue(llmtest.Reply{Content: "sure! here you go"})
	m.say(t, "ned", "my cat Mog is old now")
	srv.Enqueue(llmtest.Reply{Status: 500})
	m.say(t, "ned", "my name is Ned")
	facts, _ := m.store.Facts(context.Background(), m.person(t, "ned").ID, false)
	var got []string
	for _, f := range facts {
		got = append(got, f.Words(memory.AboutThem))
	}
	want := []string{"works as paramedic", "Olly is their brother", "Mog is their cat", "name is Ned"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("facts = %q, want %q", got, want)
	}
	if reqs := srv.Requests(); len(reqs) < 4 || reqs[0].ResponseFormat == nil || reqs[0].ResponseFormat.SchemaName != "memory_extraction" {
		t.Errorf("extraction requests = %+v", reqs)
	}
}

func TestEmbeddingsAddVectorSearch(t *testing.T) {
	srv := llmtest.NewServer(t)
	emb, err := llm.NewOpenAIEmbedder(llm.EmbedderConfig{BaseURL: srv.URL(), Model: "embed"})
	if err != nil {
		t.Fatal(err)
	}
	m := newMemEnv(t, func(o *Options, w *jobs.Options) {
		o.Embedder = emb
		w.Embedder = emb
	})
	m.say(t, "ola", "my sister Pia studies medicine")
	pid := m.person(t, "ola").ID
	v := llmtest.Embed("Pia is their sister", llmtest.DefaultEmbeddingDim)
	res, err := m.store.Search(context.Background(), memory.SearchQuery{PersonID: pid, Vector: v, Model: "embed"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Vector) == 0 || res.Records[res.Vector[0]].Fact == nil || res.Records[res.Vector[0]].Fact.Subject != "Pia" {
		t.Errorf("vector search = %+v", res)
	}
	// An embedding failure is not a failed turn.
	srv.EnqueueEmbeddings(llmtest.Reply{Status: 500})
	if out := m.say(t, "ola", "Pia called"); len(out) != 1 || out[0].Kind != channels.OutReply {
		t.Errorf("turn with a failing embedder = %+v", out)
	}
}

func TestAJustListenRuleFromAnEarlierSessionReachesTheTherapeuticBranch(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "ana", "please just listen, I don't want advice")
	m.say(t, "ana", "/reset")
	var replies []string
	for _, msg := range []string{
		"I have been so stressed about work and I can't sleep",
		"my manager keeps piling things on and I feel anxious all the time",
		"I just feel overwhelmed",
	} {
		replies = append(replies, texts(m.say(t, "ana", msg)))
	}
	for _, r := range replies {
		low := strings.ToLower(r)
		for _, offer := range []string{"exercise", "would you like to try", "you could try", "it might help to"} {
			if strings.Contains(low, offer) {
				t.Errorf("\"just listen\" remembered from an earlier session, but the reply offers %q: %q", offer, r)
			}
		}
	}
}

// hugeExport is a memory store whose export is over channels.MaxFileSize.
type hugeExport struct{ *sqlite.Store }

func (h hugeExport) Export(ctx context.Context, personID string) (memory.Export, error) {
	ex, err := h.Store.Export(ctx, personID)
	ex.Display = strings.Repeat("x", channels.MaxFileSize)
	return ex, err
}

func TestAnExportTooLargeToSendIsExplainedNotSent(t *testing.T) {
	m := newMemEnv(t, func(o *Options, _ *jobs.Options) { o.Memories = hugeExport{o.Store.(*sqlite.Store)} })
	out := m.say(t, "zed", "/export")
	if len(out) != 1 || out[0].File != nil {
		t.Fatalf("out = %+v, want one message without a file", out)
	}
	if !strings.Contains(out[0].Text, "more than the 20.0 MB I can send") || !strings.Contains(out[0].Text, "Nothing has been deleted") {
		t.Errorf("reply = %q", out[0].Text)
	}
}

// completeJSON adapts a model client to the extractor's LLM function, as
// cmd/haven wires it.
func completeJSON(c llm.Client) extract.LLM {
	return func(ctx context.Context, system, user, schemaName string, schema json.RawMessage) (string, error) {
		resp, err := c.Complete(ctx, llm.Request{
			Messages: []llm.Message{{Role: llm.RoleSystem, Content: system}, {Role: llm.RoleUser, Content: user}},
			Schema:   &llm.Schema{Name: schemaName, JSON: schema},
		})
		if err != nil {
			return "", err
		}
		return resp.Content, nil
	}
}

func TestHandleDeferredLeavesTheTurnsWritesToTheCaller(t *testing.T) {
	m := newMemEnv(t, nil)
	m.say(t, "ana", "hello") // the person and the session exist from here on
	before := dump(t, m.path)
	in := channels.Inbound{
		Platform: "test", Conversation: channels.Conversation{ID: "test::dm-ana", Kind: channels.KindDM}, MessageID: "test::deferred",
		DeliveryKey: "deferred", Author: channels.Author{ID: "test::ana", Display: "Ana"}, Text: "work has been heavy, thanks and good night", ReceivedAt: time.Now(),
	}
	outs, w, err := m.e.HandleDeferred(context.Background(), in)
	if err != nil || len(outs) == 0 || w == nil {
		t.Fatalf("HandleDeferred = %d replies, writes %v, %v; want a reply and writes", len(outs), w, err)
	}
	after := dump(t, m.path)
	for _, tb := range []string{"transcript", "memory_jobs", "sessions"} {
		if fmt.Sprint(after[tb]) != fmt.Sprint(before[tb]) {
			t.Errorf("HandleDeferred wrote to %s before anyone committed", tb)
		}
	}
	rec := w.(memory.Pending).PendingTurn()
	if len(rec.Entries) != 2 || len(rec.Jobs) != 1 || rec.Jobs[0].Kind != memory.JobTurn || !rec.EndSession || !rec.Episode {
		t.Fatalf("pending record = %d entries, jobs %+v, end %v, episode %v; want the exchange, its extraction and the session's end with its episode",
			len(rec.Entries), rec.Jobs, rec.EndSession, rec.Episode)
	}
	if err := m.store.CommitTurn(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	w.Committed(nil)
	if got := len(dump(t, m.path)["transcript"]); got != len(before["transcript"])+2 {
		t.Errorf("transcript has %d rows after the commit, want %d", got, len(before["transcript"])+2)
	}
}

func TestACrisisTurnLogsItsRowWithTheTurnOrAloneWhenTheTurnCannotCommit(t *testing.T) {
	for _, commitFails := range []bool{false, true} {
		t.Run(fmt.Sprint("commit fails ", commitFails), func(t *testing.T) {
			m := newMemEnv(t, nil)
			m.say(t, "ana", "hello")
			in := channels.Inbound{
				Platform: "test", Conversation: channels.Conversation{ID: "test::dm-ana", Kind: channels.KindDM}, MessageID: "test::c",
				DeliveryKey: "c", Author: channels.Author{ID: "test::ana", Display: "Ana"}, Text: "I want to kill myself", ReceivedAt: time.Now(),
			}
			outs, w, err := m.e.HandleDeferred(context.Background(), in)
			if err != nil || len(outs) == 0 || w == nil {
				t.Fatalf("HandleDeferred = %d replies, writes %v, %v", len(outs), w, err)
			}
			if n := len(dump(t, m.path)["crisis_log"]); n != 0 {
				t.Fatalf("%d crisis-log rows before the commit, want none", n)
			}
			rec := w.(memory.Pending).PendingTurn()
			if rec.Crisis == nil || rec.Crisis.Level < 2 {
				t.Fatalf("pending record's crisis row = %+v, want the level-2+ assessment", rec.Crisis)
			}
			if commitFails {
				w.Committed(errors.New("database is locked"))
			} else {
				if err := m.store.CommitTurn(context.Background(), rec); err != nil {
					t.Fatal(err)
				}
				w.Committed(nil)
			}
			if n := len(dump(t, m.path)["crisis_log"]); n != 1 {
				t.Errorf("%d crisis-log rows after the turn, want exactly 1", n)
			}
		})
	}
}
