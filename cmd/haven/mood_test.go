package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChatMoodChartIsSavedAsAPNG drives the mood log end to end in the
// terminal: the rules log two moods, the week view reads them back, and
// the chart goes from the engine through the Hub's SQLite outbox to the
// console, which saves the PNG and says where.
func TestChatMoodChartIsSavedAsAPNG(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	db := filepath.Join(wd, "h.db")
	code, out, errOut := haven(t, "/mood 6 tired but ok\nlog my mood as 8\n/mood week\n/mood chart\n", noEnv, "chat", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	r := replies(out)
	if len(r) != 4 {
		t.Fatalf("got %d replies, want 4:\n%s", len(r), out)
	}
	if !strings.Contains(r[0], "Logged your mood: 6/10 (tired but ok).") || !strings.Contains(r[1], "Logged your mood: 8/10.") {
		t.Errorf("log replies: %q, %q", r[0], r[1])
	}
	// A reply's later lines are indented under its first.
	if !strings.HasPrefix(r[2], "Your mood over the last seven days") || !strings.Contains(out, "today: 6 (tired but ok); 8\n") ||
		!strings.Contains(out, "Average: 7.0 from 2 entries.") {
		t.Errorf("week view:\n%s", out)
	}
	_, saved, ok := strings.Cut(out, "Your mood over the last 30 days: 2 entries, average 7.0.\n       saved to ")
	if !ok {
		t.Fatalf("no saved chart in the output:\n%s", out)
	}
	path, _, _ := strings.Cut(saved, "\n")
	if filepath.Dir(path) != filepath.Join(wd, "haven-exports") || !strings.HasPrefix(filepath.Base(path), "mood-") || filepath.Ext(path) != ".png" {
		t.Fatalf("saved to %q, want ./haven-exports/mood-DATE.png", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("saved chart is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 800 || b.Dy() != 400 {
		t.Errorf("saved chart is %dx%d, want 800x400", b.Dx(), b.Dy())
	}
	if strings.Contains(out, "\x89PNG") {
		t.Error("the PNG's bytes were printed in the chat")
	}
}
