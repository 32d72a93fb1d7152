package core

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/core/tasks"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/sqlite"
)

// moodEnv is the mood capabilities over a real SQLite file, for one person.
type moodEnv struct {
	store *sqlite.Store
	reg   *tasks.Registry
	pid   string
	loc   *time.Location
}

func newMoodEnv(t *testing.T) *moodEnv {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "haven.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	p, err := store.ResolvePerson(context.Background(), "test", "test::ana", "Ana")
	if err != nil {
		t.Fatal(err)
	}
	reg := tasks.NewRegistry()
	for _, c := range tasks.MoodCapabilities(MoodStore(store)) {
		if err := reg.Register(c); err != nil {
			t.Fatal(err)
		}
	}
	loc := time.FixedZone("UTC-5", -5*3600)
	return &moodEnv{store: store, reg: reg, pid: p.ID, loc: loc}
}

// run finds the capability the way the rules do (Match over the registry,
// or the slash command) and executes it at now.
func (m *moodEnv) run(t *testing.T, text string, now time.Time, private bool) (string, tasks.Result, tasks.Context) {
	t.Helper()
	req := &tasks.Request{Text: text, Now: now, Location: m.loc, PersonID: m.pid, SessionID: "s1", Private: private, Context: tasks.Context{}}
	for _, c := range m.reg.All() {
		if c.Match == nil {
			continue
		}
		if args, ok := c.Match(req); ok {
			res, err := c.Execute(context.Background(), req, args)
			if err != nil {
				t.Fatalf("%s(%q): %v", c.Name, text, err)
			}
			return c.Name, res, req.Context
		}
	}
	if word, body, ok := strings.Cut(strings.TrimPrefix(text, "/"), " "); ok || strings.HasPrefix(text, "/") {
		if c := m.reg.ByCommand(word); c != nil {
			req.Text = body
			res, err := c.Execute(context.Background(), req, tasks.Args{})
			if err != nil {
				t.Fatalf("/%s %q: %v", word, body, err)
			}
			return c.Name, res, req.Context
		}
	}
	t.Fatalf("no mood capability takes %q", text)
	return "", tasks.Result{}, nil
}

func (m *moodEnv) moods(t *testing.T) []memory.Mood {
	t.Helper()
	ms, err := m.store.Moods(context.Background(), m.pid, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestMoodLogStoresTheScoreAndNoteAndRefusesOffTheScale(t *testing.T) {
	m := newMoodEnv(t)
	now := time.Date(2026, 11, 24, 20, 0, 0, 0, m.loc)
	tests := []struct {
		text      string
		wantScore int // -1: nothing stored
		wantNote  string
		reply     string
	}{
		{"/mood 6 tired but ok", 6, "tired but ok", "Logged your mood: 6/10 (tired but ok)."},
		{"log my mood as 4", 4, "", "Logged your mood: 4/10."},
		{"I'd rate my mood a 1 today", 1, "", "That sounds like a hard time."},
		{"/mood 12 amazing", -1, "", "I can't log 12"},
		{"mood -3", -1, "", "I can't log -3"},
		{"mood 7.5", -1, "", "whole numbers"},
		{"log my mood as 3 out of 5", -1, "", "3 out of 5 is on another scale"},
		{"/mood 5 " + strings.Repeat("so much to say ", 40), -1, "", "Your note is 599 characters long and I keep up to 500"},
	}
	for _, tt := range tests {
		before := len(m.moods(t))
		name, res, cctx := m.run(t, tt.text, now, true)
		if name != tasks.MoodLog {
			t.Fatalf("%q went to %s, want %s", tt.text, name, tasks.MoodLog)
		}
		if !strings.Contains(res.Text, tt.reply) {
			t.Errorf("%q: reply %q, want it to contain %q", tt.text, res.Text, tt.reply)
		}
		got := m.moods(t)
		if tt.wantScore < 0 {
			if len(got) != before {
				t.Errorf("%q: stored an entry off the scale: %+v", tt.text, got[len(got)-1])
			}
			if cctx.Get("mood", "last") != nil {
				t.Errorf("%q: a refused mood changed the capability context", tt.text)
			}
			continue
		}
		if len(got) != before+1 {
			t.Fatalf("%q: %d entries, want %d", tt.text, len(got), before+1)
		}
		last := got[len(got)-1]
		if last.Score != tt.wantScore || last.Note != tt.wantNote || !last.At.Equal(now) {
			t.Errorf("%q: stored %+v, want score %d note %q at %v", tt.text, last, tt.wantScore, tt.wantNote, now)
		}
		if f := cctx.Get("mood", "last"); f["score"] != strconv.Itoa(last.Score) {
			t.Errorf("%q: capability context = %v, want the logged entry", tt.text, f)
		}
	}
}

func TestMoodWeekListsEachDayAndComparesWithTheWeekBefore(t *testing.T) {
	m := newMoodEnv(t)
	ctx := context.Background()
	// Tuesday 24 Nov 2026, 9 in the evening in the person's zone (02:00 UTC
	// on the 25th: the week is counted in their zone, not UTC's).
	now := time.Date(2026, 11, 24, 21, 0, 0, 0, m.loc)
	add := func(daysAgo, hour, score int, note string) {
		t.Helper()
		at := time.Date(2026, 11, 24-daysAgo, hour, 0, 0, 0, m.loc)
		if _, err := m.store.AddMood(ctx, memory.Mood{PersonID: m.pid, Score: score, Note: note, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	add(0, 20, 7, "saw a friend")
	add(0, 8, 5, "")
	add(2, 12, 6, "")
	add(6, 9, 4, "rainy") // Wednesday 18th: the first day of the week
	add(7, 23, 2, "")     // Tuesday 17th: the week before
	add(10, 9, 4, "")
	add(14, 9, 1, "") // two weeks ago: in neither

	name, res, _ := m.run(t, "/mood week", now, true)
	if name != tasks.MoodWeek {
		t.Fatalf("/mood week went to %s", name)
	}
	want := []string{
		"Wed 18 Nov: 4 (rainy)",
		"Thu 19 Nov: -",
		"Sun 22 Nov: 6",
		"Tue 24 Nov, today: 5; 7 (saw a friend)",
		"Average: 5.5 from 4 entries.",
		"That's up 2.5 from the week before (3.0).",
	}
	for _, w := range want {
		if !strings.Contains(res.Text, w) {
			t.Errorf("week view lacks %q:\n%s", w, res.Text)
		}
	}
	if strings.Contains(res.Text, "Tue 17 Nov") || res.File != nil {
		t.Errorf("week view shows the week before as a day, or a file:\n%s", res.Text)
	}

	// With nothing logged this week, it says so and how to log.
	later := now.AddDate(0, 0, 9)
	if _, res, _ := m.run(t, "how was my mood this week?", later, true); !strings.Contains(res.Text, "haven't logged a mood in the last seven days") ||
		!strings.Contains(res.Text, "/mood 6") {
		t.Errorf("empty week = %q", res.Text)
	}
}

func TestMoodChartIsAPNGOfTheLoggedDays(t *testing.T) {
	m := newMoodEnv(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 24, 21, 0, 0, 0, m.loc)
	if _, res, _ := m.run(t, "/mood chart", now, true); res.File != nil || !strings.Contains(res.Text, "nothing to chart yet") {
		t.Fatalf("chart with no entries = %q (file %v), want an explanation and no file", res.Text, res.File != nil)
	}
	for d := range 10 {
		if _, err := m.store.AddMood(ctx, memory.Mood{PersonID: m.pid, Score: d, At: now.AddDate(0, 0, -d)}); err != nil {
			t.Fatal(err)
		}
	}
	name, res, _ := m.run(t, "show me my mood chart for the last two weeks", now, true)
	if name != tasks.MoodChart || res.File == nil {
		t.Fatalf("chart went to %s with file %v: %q", name, res.File != nil, res.Text)
	}
	if res.File.MIME != "image/png" || res.File.Name != "mood-2026-11-24.png" {
		t.Errorf("file %q (%s), want mood-2026-11-24.png (image/png)", res.File.Name, res.File.MIME)
	}
	img, err := png.Decode(bytes.NewReader(res.File.Data))
	if err != nil {
		t.Fatalf("the file is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 800 || b.Dy() != 400 {
		t.Errorf("chart is %v, want 800x400", b)
	}
	if !strings.Contains(res.Text, "last 14 days: 10 entries, average 4.5") {
		t.Errorf("caption = %q", res.Text)
	}
	if _, res, _ := m.run(t, "/mood chart 400", now, true); res.File != nil || !strings.Contains(res.Text, "7 to 90 days") {
		t.Errorf("/mood chart 400 = %q, want the question naming the range", res.Text)
	}
}

func TestTheMoodLogIsOnlyShownInADirectMessage(t *testing.T) {
	m := newMoodEnv(t)
	now := time.Date(2026, 11, 24, 21, 0, 0, 0, m.loc)
	_, res, _ := m.run(t, "/mood 3 awful meeting", now, false)
	if strings.Contains(res.Text, "3") || strings.Contains(res.Text, "awful") || !strings.Contains(res.Text, "direct message") {
		t.Errorf("logging in a group replied %q: it must not repeat the mood and must point to a DM", res.Text)
	}
	if got := m.moods(t); len(got) != 1 || got[0].Score != 3 {
		t.Errorf("logging in a group stored %+v, want the entry kept", got)
	}
	for _, text := range []string{"/mood week", "/mood chart", "show me my mood chart"} {
		_, res, _ := m.run(t, text, now, false)
		if res.File != nil || strings.Contains(res.Text, "awful") || !strings.Contains(res.Text, "direct message") {
			t.Errorf("%q in a group = %q (file %v), want only a pointer to a DM", text, res.Text, res.File != nil)
		}
	}
}

func TestMoodEntriesAreMemoryThePersonControls(t *testing.T) {
	m := newMemEnv(t, nil)
	ctx := context.Background()
	pid := m.person(t, "mo").ID
	for _, e := range []memory.Mood{{Score: 6, Note: "tired but ok"}, {Score: 8, Note: "long walk by the sea"}} {
		e.PersonID = pid
		if _, err := m.store.AddMood(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	list := texts(m.say(t, "mo", "/memory"))
	if !strings.Contains(list, "mood 6/10") || !strings.Contains(list, "tired but ok") || !strings.Contains(list, "long walk by the sea") {
		t.Fatalf("/memory does not list the mood entries:\n%s", list)
	}
	if got := texts(m.say(t, "mo", "/forget the sea")); !strings.Contains(got, "forgotten 1 memory") {
		t.Fatalf("/forget the sea = %q", got)
	}
	out := m.say(t, "mo", "/export")
	if len(out) != 1 || out[0].File == nil {
		t.Fatalf("/export = %+v", out)
	}
	var ex memory.Export
	if err := json.Unmarshal(out[0].File.Data, &ex); err != nil {
		t.Fatal(err)
	}
	if len(ex.Moods) != 1 || ex.Moods[0].Note != "tired but ok" || ex.Moods[0].Score != 6 {
		t.Fatalf("export moods = %+v, want the one entry left", ex.Moods)
	}
	m.say(t, "mo", "/forget all")
	m.say(t, "mo", "yes")
	for _, row := range dump(t, m.path)["moods"] {
		t.Errorf("a mood row is left after forget all: %s", row)
	}
}

func TestTheMoodCapabilitiesAndMemoryAgreeOnTheScale(t *testing.T) {
	if tasks.MoodMin != memory.MoodMin || tasks.MoodMax != memory.MoodMax || tasks.MaxMoodNote != memory.MaxMoodNote {
		t.Fatalf("tasks scale %d-%d note %d, memory scale %d-%d note %d: a mood one accepts the other refuses",
			tasks.MoodMin, tasks.MoodMax, tasks.MaxMoodNote, memory.MoodMin, memory.MoodMax, memory.MaxMoodNote)
	}
}

// A turn run again after a crash executes its capability again with the
// same message key: the mood is logged once, and another message logs
// its own.
func TestAMoodLoggedByATurnRunAgainIsLoggedOnce(t *testing.T) {
	m := newMoodEnv(t)
	c, err := m.reg.Lookup(tasks.MoodLog)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)
	for i, key := range []string{"telegram:42", "telegram:42", "telegram:43"} {
		req := &tasks.Request{Text: "6 tired but ok", Now: now.Add(time.Duration(i) * time.Minute), Location: m.loc,
			PersonID: m.pid, SessionID: "s1", Private: true, MessageKey: key, Context: tasks.Context{}}
		if _, err := c.Execute(context.Background(), req, tasks.Args{}); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	got := m.moods(t)
	if len(got) != 2 || !got[0].At.Equal(now) || got[1].Note != "tired but ok" {
		t.Fatalf("moods = %+v, want one for the message run twice (at its first run) and one for the next", got)
	}
}
