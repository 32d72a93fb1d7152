package core

import (
	"bytes"
	"context"
	"image/png"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/llm/llmtest"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// aliceMoods returns the DM person's mood log.
func aliceMoods(t *testing.T, store *sqlite.Store) []memory.Mood {
	t.Helper()
	p, err := store.ResolvePerson(context.Background(), "test", "test::alice", "")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := store.Moods(context.Background(), p.ID, time.Time{}, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestTheMoodLogEndToEndByRules(t *testing.T) {
	e, store, c := journalEngine(t)
	steps := []struct {
		text, reply string
		logged      int // entries after the turn
	}{
		{"/mood 6 tired but ok", "Logged your mood: 6/10 (tired but ok).", 1},
		{"log my mood as 4", "Logged your mood: 4/10.", 2},
		{"I'd rate my mood a 3 today", "Logged your mood: 3/10.", 3},
		{"mood 12", "I can't log 12. What number from 0 to 10", 3},
		{"/mood", "How would you rate your mood right now, from 0 (the worst) to 10 (the best)?", 3},
		{"7 calmer after a walk", "Logged your mood: 7/10 (calmer after a walk).", 4},
		{"log my mood", "How would you rate your mood right now", 4},
		{"8", "Logged your mood: 8/10.", 5},
	}
	for _, s := range steps {
		tr := turn(t, e, s.text)
		if tr.Branch != BranchTask || !strings.Contains(tr.Reply, s.reply) {
			t.Fatalf("%q: branch %s reply %q, want it to contain %q", s.text, tr.Branch, tr.Reply, s.reply)
		}
		if n := len(aliceMoods(t, store)); n != s.logged {
			t.Fatalf("%q: %d entries logged, want %d", s.text, n, s.logged)
		}
	}

	c.now = c.now.AddDate(0, 0, 1)
	for _, text := range []string{"/mood week", "how was my mood this week?"} {
		tr := turn(t, e, text)
		if !strings.Contains(tr.Reply, "Wed 14 Jan: 6 (tired but ok); 4; 3; 7 (calmer after a walk); 8") ||
			!strings.Contains(tr.Reply, "Thu 15 Jan, today: -") || !strings.Contains(tr.Reply, "Average: 5.6 from 5 entries.") {
			t.Errorf("%q: reply %q", text, tr.Reply)
		}
	}

	for _, text := range []string{"/mood chart", "show me my mood chart"} {
		tr := turn(t, e, text)
		if len(tr.Out) != 1 || tr.Out[0].File == nil {
			t.Fatalf("%q: out %+v, want one reply with the chart", text, tr.Out)
		}
		f := tr.Out[0].File
		if f.ContentType != "image/png" || f.Name != "mood-2026-01-15.png" || f.Check() != nil {
			t.Fatalf("%q: file %q (%s), check %v", text, f.Name, f.ContentType, f.Check())
		}
		img, err := png.Decode(bytes.NewReader(f.Data))
		if err != nil || img.Bounds().Dx() != 800 || img.Bounds().Dy() != 400 {
			t.Fatalf("%q: the chart does not decode as an 800x400 PNG: %v", text, err)
		}
		if !strings.Contains(tr.Out[0].Text, "Your mood over the last 30 days: 5 entries, average 5.6.") {
			t.Errorf("%q: caption %q", text, tr.Out[0].Text)
		}
	}

	help := turn(t, e, "/help").Reply
	for _, want := range []string{"/mood 6 tired but ok: Log how you feel", "/mood week: See your moods", "/mood chart: Get a chart of your mood"} {
		if !strings.Contains(help, want) {
			t.Errorf("/help lacks %q:\n%s", want, help)
		}
	}
}

func TestAMoodWithCrisisWordsGetsTheCrisisReplyAndIsNotLogged(t *testing.T) {
	e, store, _ := journalEngine(t)
	for _, text := range []string{"/mood 1 I am going to kill myself tonight", "log my mood as 0, I want to end my life"} {
		tr := turn(t, e, text)
		if tr.ReplyKind != channels.OutCrisis {
			t.Errorf("%q: reply kind %s, want the crisis reply", text, tr.ReplyKind)
		}
	}
	if ms := aliceMoods(t, store); len(ms) != 0 {
		t.Fatalf("a crisis turn logged %d moods", len(ms))
	}
}

// The texts are ones therapy's rules are not confident about, so the
// model is asked (a confident therapeutic reading never reaches it).
func TestTheModelPicksTheMoodCapabilitiesWhenNoRuleDoes(t *testing.T) {
	tests := []struct {
		name, text string
		reply      llmtest.Reply
		want       string
		logged     int
		file       bool
	}{
		{"log", "score today a five, a bit flat",
			llmtest.Reply{Content: `{"capability":"mood.log","args":{"score":"5","note":"a bit flat"}}`}, "Logged your mood: 5/10 (a bit flat).", 1, false},
		{"log with the score as a word", "five out of ten for me today",
			llmtest.Reply{Content: `{"capability":"mood.log","args":{"score":"five"}}`}, "Logged your mood: 5/10.", 1, false},
		{"score off the scale is asked, not clamped", "honestly about a 15 today",
			llmtest.Reply{Content: `{"capability":"mood.log","args":{"score":"15"}}`}, "I can't log 15", 0, false},
		{"no score asks for it", "can you start a tracker for me",
			llmtest.Reply{Content: `{"capability":"mood.log","args":{}}`}, "How would you rate your mood right now", 0, false},
		{"chart", "picture of my scores please",
			llmtest.Reply{Content: `{"capability":"mood.chart","args":{"days":"14"}}`}, "Your mood over the last 14 days", 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t)
			byCall(srv, tt.reply)
			c, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), Model: "test"})
			if err != nil {
				t.Fatal(err)
			}
			e, store, _ := journalEngine(t, func(o *Options) { o.LLM, o.LLMDeadline = c, 5*time.Second })
			if tt.file {
				// Something to chart, logged by a rule.
				if tr := turn(t, e, "mood 6"); !strings.Contains(tr.Reply, "Logged") {
					t.Fatalf("mood 6: %q", tr.Reply)
				}
			}
			tr := turn(t, e, tt.text)
			if tr.Branch != BranchTask || !strings.Contains(tr.Reply, tt.want) {
				t.Fatalf("branch %s reply %q, want it to contain %q", tr.Branch, tr.Reply, tt.want)
			}
			if n := len(aliceMoods(t, store)); n != tt.logged {
				t.Errorf("%d entries logged, want %d", n, tt.logged)
			}
			if got := len(tr.Out) == 1 && tr.Out[0].File != nil; got != tt.file {
				t.Errorf("file sent = %v, want %v", got, tt.file)
			}
		})
	}
}

func TestMoodsSurviveARestartAndTheWeekReadsThem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "haven.db")
	c := &clock{now: time.Date(2026, 1, 14, 12, 0, 0, 0, time.UTC)}
	open := func() (*Engine, *sqlite.Store) {
		store, err := sqlite.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		e, err := New(Options{Store: store, Memories: store, Clock: c.Now, Gate: safety.NewGate(safety.GateOptions{}), Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		return e, store
	}
	e, store := open()
	turn(t, e, "/mood 4 slow start")
	store.Close()
	c.now = c.now.AddDate(0, 0, 7) // a week later: the entry is in the week before
	e, store = open()
	t.Cleanup(func() { store.Close() })
	turn(t, e, "/mood 6")
	if tr := turn(t, e, "/mood week"); !strings.Contains(tr.Reply, "That's up 2.0 from the week before (4.0).") {
		t.Fatalf("week after a restart: %q", tr.Reply)
	}
}
