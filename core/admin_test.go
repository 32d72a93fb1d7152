package core

import (
	"context"
	"database/sql"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// adminEngine is an engine with channel settings in its SQLite store and
// test::root as a configured admin.
func adminEngine(t *testing.T, opts ...func(*Options)) (*Engine, *sqlite.Store, string) {
	t.Helper()
	var st *sqlite.Store
	e, store, path := newEngine(t, append([]func(*Options){func(o *Options) {
		st = o.Store.(*sqlite.Store)
		o.Channels, o.Stats, o.CrisisLog, o.Admins, o.DefaultCountry = st, st, st, []string{"test::root"}, "US"
	}}, opts...)...)
	return e, store, path
}

// inGroup is a message in test::group-1, addressed to Haven, from author.
func inGroup(author, text string) channels.Inbound {
	in := dm(text)
	in.Conversation = channels.Conversation{ID: "test::group-1", Kind: channels.KindGroup}
	in.Author = channels.Author{ID: author, Display: author}
	in.MentionsBot = true
	return in
}

func run(t *testing.T, e *Engine, in channels.Inbound) []channels.Outbound {
	t.Helper()
	out, err := e.Handle(context.Background(), in)
	if err != nil {
		t.Fatalf("Handle(%q): %v", in.Text, err)
	}
	return out
}

// onlyPrivate checks out is one private answer to in's author and returns
// its text.
func onlyPrivate(t *testing.T, out []channels.Outbound, in channels.Inbound) string {
	t.Helper()
	if len(out) != 1 || !out[0].Private || out[0].Recipient != in.Author.ID {
		t.Fatalf("got %+v, want one private answer to %s", out, in.Author.ID)
	}
	return out[0].Text
}

type auditRow struct {
	actor, platform, conv, command, detail string
	allowed                                bool
}

func audits(t *testing.T, path string) []auditRow {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT actor_id, platform, conversation_id, command, allowed, detail FROM admin_audit ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []auditRow
	for rows.Next() {
		var r auditRow
		if err := rows.Scan(&r.actor, &r.platform, &r.conv, &r.command, &r.allowed, &r.detail); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func transcriptLines(t *testing.T, path string) int {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM transcript`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAdminCommandsFromANonAdminAreRefusedAuditedAndChangeNothing(t *testing.T) {
	for _, cmd := range []string{"/haven pause", "/haven status", "/haven stats month", "/haven crisis", "/haven forget-user test::root", "/haven resume", "/haven policy all", "/haven help", "/haven", "/haven launch rockets"} {
		t.Run(cmd, func(t *testing.T) {
			e, store, path := adminEngine(t)
			in := inGroup("test::bob", cmd)
			text := onlyPrivate(t, run(t, e, in), in)
			if !strings.Contains(text, "Only an admin") {
				t.Errorf("answer %q, want the refusal", text)
			}
			st, err := store.ChannelSettings(context.Background(), in.Conversation.ID)
			if err != nil || st != (channels.ChannelSettings{}) {
				t.Errorf("settings after a refused command = %+v, %v; want none", st, err)
			}
			rows := audits(t, path)
			if len(rows) != 1 || rows[0].allowed || rows[0].actor != "test::bob" || rows[0].platform != "test" || rows[0].conv != in.Conversation.ID || rows[0].detail != "not an admin" {
				t.Fatalf("audit rows %+v, want one refusal of test::bob", rows)
			}
			if strings.Contains(rows[0].command, "rockets") {
				t.Errorf("audit row keeps free text: %q", rows[0].command)
			}
			if n := transcriptLines(t, path); n != 0 {
				t.Errorf("an admin command left %d transcript lines", n)
			}
		})
	}
}

func TestAdminIdentityIsTheConfiguredListOrThePlatformRoleAndNeverABot(t *testing.T) {
	tests := []struct {
		name  string
		a     channels.Author
		admin bool
	}{
		{"configured admin", channels.Author{ID: "test::root"}, true},
		{"platform admin", channels.Author{ID: "test::mod", PlatformAdmin: true}, true},
		{"anyone else", channels.Author{ID: "test::bob"}, false},
		{"a configured id on another platform", channels.Author{ID: "other::root"}, false},
		{"a bot, even flagged admin", channels.Author{ID: "test::root", IsBot: true, PlatformAdmin: true}, false},
	}
	e, _, _ := adminEngine(t)
	for _, tt := range tests {
		if got := e.isAdmin(&Turn{In: channels.Inbound{Author: tt.a}}); got != tt.admin {
			t.Errorf("%s: isAdmin = %v, want %v", tt.name, got, tt.admin)
		}
	}
}

func TestAdminHelpIsPrivateAuditedAndNeverReachesTheTranscript(t *testing.T) {
	e, _, path := adminEngine(t)
	in := inGroup("test::root", "/haven help")
	text := onlyPrivate(t, run(t, e, in), in)
	for _, want := range []string{"/haven pause", "/haven resume", "/haven policy mentions|all|dm-only"} {
		if !strings.Contains(text, want) {
			t.Errorf("help %q lacks %q", text, want)
		}
	}
	// In a DM the answer is an ordinary reply; plain words work for an admin.
	d := dm("help")
	d.Author.ID = "test::root"
	out := run(t, e, d)
	if len(out) != 1 || out[0].Private || !strings.Contains(out[0].Text, "/haven pause") {
		t.Fatalf("admin's plain 'help' in a DM = %+v, want the admin help", out)
	}
	rows := audits(t, path)
	if len(rows) != 2 || !rows[0].allowed || rows[0].command != "help" || rows[0].detail != "ok" {
		t.Fatalf("audit rows %+v, want two allowed help rows", rows)
	}
	if n := transcriptLines(t, path); n != 0 {
		t.Errorf("admin commands left %d transcript lines", n)
	}
}

func TestAPausedChannelAnswersACrisisAndNothingElseAlsoAfterARestart(t *testing.T) {
	e, store, path := adminEngine(t)
	in := inGroup("test::root", "/haven pause")
	if text := onlyPrivate(t, run(t, e, in), in); !strings.Contains(text, "Paused") {
		t.Fatalf("pause answered %q", text)
	}
	check := func(e *Engine) {
		t.Helper()
		for _, msg := range []string{"hello Haven, how are you?", "/help", "/memory"} {
			if out := run(t, e, inGroup("test::bob", msg)); len(out) != 0 {
				t.Errorf("paused channel answered %q with %+v", msg, out)
			}
		}
		crisis := inGroup("test::bob", "I want to kill myself")
		out := run(t, e, crisis)
		if len(out) != 1 || out[0].Kind != channels.OutCrisis || !out[0].Private || out[0].Recipient != "test::bob" || !strings.Contains(out[0].Text, "988") {
			t.Fatalf("crisis in a paused channel got %+v, want only the private crisis reply", out)
		}
	}
	check(e)
	store.Close()

	store2, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer store2.Close()
	e2, err := New(Options{Store: store2, Gate: safety.NewGate(safety.GateOptions{}), Channels: store2,
		Admins: []string{"test::root"}, DefaultCountry: "US", Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	check(e2)

	// A platform admin resumes it in plain words addressed to Haven.
	resume := inGroup("test::mod", "resume")
	resume.Author.PlatformAdmin = true
	if text := onlyPrivate(t, run(t, e2, resume), resume); !strings.Contains(text, "Resumed") {
		t.Fatalf("resume answered %q", text)
	}
	if out := run(t, e2, inGroup("test::bob", "hello Haven, how are you?")); len(out) == 0 || out[0].Private {
		t.Fatalf("after resume the channel got %+v, want an answer", out)
	}
}

func TestAPolicyChangeTakesEffectForTheNextMessage(t *testing.T) {
	e, store, _ := adminEngine(t)
	ctx := context.Background()
	admin := inGroup("test::root", "/haven policy dm-only")
	if text := onlyPrivate(t, run(t, e, admin), admin); !strings.Contains(text, "dm-only") {
		t.Fatalf("policy answered %q", text)
	}
	out := run(t, e, inGroup("test::bob", "hello Haven, how are you?"))
	if len(out) != 1 || out[0].Kind != channels.OutNotice || !strings.Contains(out[0].Text, "direct message") {
		t.Fatalf("dm-only channel answered %+v, want the pointer to a DM", out)
	}
	if out := run(t, e, inGroup("test::bob", "I want to kill myself")); len(out) == 0 || out[0].Kind != channels.OutCrisis {
		t.Fatalf("dm-only channel answered a crisis with %+v, want the crisis reply", out)
	}
	if out := run(t, e, dm("hello Haven, how are you?")); len(out) != 1 || out[0].Kind != channels.OutReply {
		t.Fatalf("a DM under a dm-only channel policy got %+v, want an ordinary answer", out)
	}

	admin = inGroup("test::root", "/haven policy all")
	onlyPrivate(t, run(t, e, admin), admin)
	if st, err := store.ChannelSettings(ctx, admin.Conversation.ID); err != nil || st.Policy != channels.PolicyAll {
		t.Fatalf("stored settings %+v, %v; want policy all", st, err)
	}
	out = run(t, e, inGroup("test::bob", "hello Haven, how are you?"))
	if len(out) != 1 || out[0].Kind != channels.OutReply {
		t.Fatalf("after policy all the channel got %+v, want an ordinary answer", out)
	}
	bad := inGroup("test::root", "/haven policy sometimes")
	if text := onlyPrivate(t, run(t, e, bad), bad); !strings.Contains(text, "don't know") {
		t.Fatalf("bad policy answered %q, want help", text)
	}
}

// statusFunc is a StatusSource from a function (cmd/haven's reads the
// running Hub and adapters).
type statusFunc func(context.Context) Status

func (f statusFunc) Status(ctx context.Context) Status { return f(ctx) }

func TestStatusReportsAnAdapterThatStoppedSendingHeartbeatsAsNotLive(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	var fresh, stale, down channels.LiveRecorder
	fresh.SetConnected(true)
	fresh.Heartbeat(now.Add(-10 * time.Second))
	stale.SetConnected(true)
	stale.Event(now.Add(-10 * time.Minute))
	down.Heartbeat(now.Add(-5 * time.Second))
	src := statusFunc(func(context.Context) Status {
		return Status{
			Version: "v1.2.3", Started: now.Add(-3 * time.Hour),
			Adapters: []AdapterStatus{
				{Platform: "telegram", Reports: true, Liveness: fresh.Liveness()},
				{Platform: "slack", Reports: true, Liveness: stale.Liveness()},
				{Platform: "discord", Reports: true, Liveness: down.Liveness()},
			},
			Hub:   channels.Stats{Queued: 2, Pending: 5},
			Model: ModelStatus{Configured: false}, DatabaseBytes: 3 << 20,
		}
	})
	e, _, path := newEngine(t, func(o *Options) {
		o.Status, o.Admins, o.Clock = src, []string{"test::root"}, func() time.Time { return now }
	})
	in := inGroup("test::root", "/haven status")
	text := onlyPrivate(t, run(t, e, in), in)
	for _, want := range []string{"Haven v1.2.3, up 3h0m0s", "telegram: live, last heartbeat 10s ago",
		"slack: connected but NOT live, last heartbeat 10m0s ago", "discord: NOT connected",
		"2 turns waiting", "5 replies waiting to be sent", "no model configured", "3.0 MB", "no backup recorded"} {
		if !strings.Contains(text, want) {
			t.Errorf("status lacks %q:\n%s", want, text)
		}
	}
	if rows := audits(t, path); len(rows) != 1 || rows[0].command != "status" || !rows[0].allowed {
		t.Errorf("audit rows %+v, want one allowed status", rows)
	}

	bob := inGroup("test::bob", "/haven status")
	if text := onlyPrivate(t, run(t, e, bob), bob); strings.Contains(text, "telegram") {
		t.Errorf("a non-admin saw the status: %q", text)
	}
}

func TestStatsAreDeidentifiedCountsOfThePeriod(t *testing.T) {
	e, _, path := adminEngine(t)
	alice := dm("hello, I have been so stressed about work")
	run(t, e, alice)
	bob := dm("I want to kill myself")
	bob.Author.ID, bob.Author.Display, bob.Conversation.ID = "test::bob", "Bobby Tables", "test::dm-bob"
	run(t, e, bob)
	in := dm("/haven stats week")
	in.Author.ID = "test::root"
	out := run(t, e, in)
	if len(out) != 1 {
		t.Fatalf("stats answered %+v", out)
	}
	text := out[0].Text
	for _, want := range []string{"last week", "2 turns with 2 people", "routes: crisis 1, therapeutic 1", "platforms: test 2", "crisis log: level 2 1", "exercises: 0 started, 0 finished", "output guard: 0"} {
		if !strings.Contains(text, want) {
			t.Errorf("stats lack %q:\n%s", want, text)
		}
	}
	for _, never := range []string{"alice", "bob", "Bobby", "kill", "stressed", "dm-"} {
		if strings.Contains(text, never) {
			t.Errorf("stats name %q:\n%s", never, text)
		}
	}
	if rows := audits(t, path); len(rows) != 1 || rows[0].command != "stats week" {
		t.Errorf("audit rows %+v, want one 'stats week'", rows)
	}
	in = dm("/haven stats")
	in.Author.ID = "test::root"
	if out := run(t, e, in); len(out) != 1 || !strings.Contains(out[0].Text, "last day") {
		t.Errorf("stats without a period = %+v, want the last day", out)
	}
}

func TestCrisisLogIsShownOnlyInAPrivateAdminConversationAndNeverWithText(t *testing.T) {
	e, _, path := adminEngine(t, func(o *Options) { o.AlertConversation = "test::ops" })
	bob := dm("I want to kill myself")
	bob.Author.ID, bob.Conversation.ID = "test::bob", "test::dm-bob"
	run(t, e, bob)

	group := inGroup("test::root", "/haven crisis 5")
	if text := onlyPrivate(t, run(t, e, group), group); strings.Contains(text, "level 2") || !strings.Contains(text, "only in") {
		t.Fatalf("crisis log in a group = %q, want a refusal", text)
	}
	in := dm("/haven crisis")
	in.Author.ID = "test::root"
	out := run(t, e, in)
	if len(out) != 1 || !strings.Contains(out[0].Text, "level 2, person ") || !strings.Contains(out[0].Text, "conversation test::dm-bob") {
		t.Fatalf("crisis log in a DM with an admin = %+v, want the row", out)
	}
	ops := inGroup("test::root", "/haven crisis 1")
	ops.Conversation = channels.Conversation{ID: "test::ops", Kind: channels.KindChannel}
	if text := onlyPrivate(t, run(t, e, ops), ops); !strings.Contains(text, "last 1 crisis-log row") {
		t.Fatalf("crisis log in the alert conversation = %q, want one row", text)
	}
	for _, o := range append(out, run(t, e, in)...) {
		if strings.Contains(o.Text, "kill myself") {
			t.Errorf("crisis log shows message text: %q", o.Text)
		}
	}
	rows := audits(t, path)
	if len(rows) != 4 || rows[0].allowed || rows[0].command != "crisis 5" || rows[0].detail != "not a private conversation" || !rows[1].allowed || rows[1].command != "crisis 10" {
		t.Errorf("audit rows %+v, want the refusal, then the allowed reads", rows)
	}
	nonAdmin := dm("/haven crisis")
	nonAdmin.Author.ID = "test::bob"
	if out := run(t, e, nonAdmin); len(out) != 1 || strings.Contains(out[0].Text, "level 2") {
		t.Errorf("a non-admin read the crisis log: %+v", out)
	}
}

func TestForgetUserAsksTheAdminAndLeavesOnlyTheDeidentifiedCrisisRow(t *testing.T) {
	e, store, path := adminEngine(t, func(o *Options) {
		st := o.Store.(*sqlite.Store)
		o.Memories, o.People = st, st
	})
	ctx := context.Background()
	cy := func(text string) channels.Inbound {
		in := dm(text)
		in.Author, in.Conversation.ID = channels.Author{ID: "test::cy", Display: "Cyrus"}, "test::dm-cy"
		return in
	}
	run(t, e, cy("my partner Robin lives with me"))
	run(t, e, cy("I want to kill myself"))

	refused := inGroup("test::bob", "/haven forget-user test::cy")
	onlyPrivate(t, run(t, e, refused), refused)
	if _, err := store.FindPerson(ctx, "test::cy"); err != nil {
		t.Fatalf("a non-admin's forget-user had an effect: %v", err)
	}

	ask := inGroup("test::root", "/haven forget-user test::cy")
	if text := onlyPrivate(t, run(t, e, ask), ask); !strings.Contains(text, "Reply yes") {
		t.Fatalf("forget-user should ask first: %q", text)
	}
	if text := onlyPrivate(t, run(t, e, inGroup("test::root", "no")), ask); !strings.Contains(text, "nothing was deleted") {
		t.Fatalf("no answered %q", text)
	}
	if _, err := store.FindPerson(ctx, "test::cy"); err != nil {
		t.Fatalf("no deleted the person: %v", err)
	}
	onlyPrivate(t, run(t, e, ask), ask)
	// Someone else's yes answers nothing of the admin's.
	if out := run(t, e, inGroup("test::bob", "yes")); len(out) > 0 && strings.Contains(out[0].Text, "deleted") {
		t.Fatalf("another person's yes confirmed: %+v", out)
	}
	yes := inGroup("test::root", "/haven yes")
	if text := onlyPrivate(t, run(t, e, yes), yes); !strings.Contains(text, "deleted everything") {
		t.Fatalf("yes answered %q", text)
	}
	if _, err := store.FindPerson(ctx, "test::cy"); err == nil {
		t.Fatal("the person is still there")
	}
	tables := dump(t, path)
	for tb, rows := range tables {
		for _, row := range rows {
			for _, needle := range []string{"test::cy", "Cyrus", "Robin", "kill myself", "dm-cy"} {
				if strings.Contains(row, needle) {
					t.Errorf("table %s still holds %q: %s", tb, needle, row)
				}
			}
		}
	}
	if n := len(tables["crisis_log"]); n != 1 {
		t.Errorf("crisis log has %d rows, want the 1 de-identified row", n)
	}
	var outcomes []string
	for _, r := range audits(t, path) {
		outcomes = append(outcomes, r.command+"/"+r.detail)
	}
	want := "forget-user/not an admin,forget-user/ok,forget-user/cancelled,forget-user/ok,forget-user/forgotten"
	if got := strings.Join(outcomes, ","); got != want {
		t.Errorf("audit = %s\nwant    %s", got, want)
	}
}
