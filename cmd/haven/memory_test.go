package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/havenbot/haven/memory"
)

// TestChatLearnsANameARelationshipAndAPreferenceAndUsesThemAfterARestart
// drives the binary twice on one database: the first run learns, the
// second (a new process, a new session) uses what was learned.
func TestChatLearnsANameARelationshipAndAPreferenceAndUsesThemAfterARestart(t *testing.T) {
	db := filepath.Join(t.TempDir(), "h.db")
	code, out, errOut := haven(t, "hi\nmy name is Sam\nmy sister Anna has been really supportive lately\nI love hiking, it clears my head\nbye for now\n",
		noEnv, "chat", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if r := replies(out); len(r) != 5 {
		t.Fatalf("first run: got %d replies, want 5:\n%s", len(r), out)
	}

	code, out, errOut = haven(t, "hi\nAnna came round yesterday\nI might go hiking this weekend\n/memory\n", noEnv, "chat", "--db", db)
	if code != 0 {
		t.Fatalf("second run exit %d, stderr:\n%s", code, errOut)
	}
	r := replies(out)
	if len(r) < 4 {
		t.Fatalf("second run: got %d replies, want 4:\n%s", len(r), out)
	}
	if !strings.Contains(r[0], "Sam") {
		t.Errorf("the greeting in a new session should use the remembered name: %q", r[0])
	}
	if !strings.Contains(r[1], "Anna is your sister") {
		t.Errorf("a mention of Anna should bring up the relationship: %q", r[1])
	}
	if !strings.Contains(r[2], "you like hiking") {
		t.Errorf("a mention of hiking should bring up the preference: %q", r[2])
	}
	list := out[strings.LastIndex(out, "haven> "):]
	for _, want := range []string{"your name is Sam", "Anna is your sister", "you like hiking", "a past conversation"} {
		if !strings.Contains(list, want) {
			t.Errorf("/memory does not list %q:\n%s", want, list)
		}
	}
}

// TestChatExportIsSavedAsAFile drives /export end to end: the engine builds
// the file, the Hub keeps it in the SQLite outbox and the console saves it.
func TestChatExportIsSavedAsAFile(t *testing.T) {
	wd := t.TempDir()
	t.Chdir(wd)
	db := filepath.Join(wd, "h.db")
	code, out, errOut := haven(t, "my name is Sam\n/export\n", noEnv, "chat", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	_, saved, ok := strings.Cut(out, "Here is everything I hold about you.\n       saved to ")
	if !ok {
		t.Fatalf("no saved export in the output:\n%s", out)
	}
	path, _, _ := strings.Cut(saved, "\n")
	if filepath.Dir(path) != filepath.Join(wd, "haven-exports") || !strings.HasPrefix(filepath.Base(path), "haven-export-") || filepath.Ext(path) != ".json" {
		t.Fatalf("saved to %q, want ./haven-exports/haven-export-DATE.json", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ex memory.Export
	if err := json.Unmarshal(data, &ex); err != nil {
		t.Fatalf("saved export is not JSON: %v", err)
	}
	if !strings.Contains(string(data), "Sam") || len(ex.Identities) != 1 {
		t.Errorf("export does not hold what was said: %s", data)
	}
	if strings.Count(out, "\"Sam\"") != 0 {
		t.Errorf("the export's JSON was printed in the chat too:\n%s", out)
	}
}
