package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestChatJournalAndHelplinesEndToEnd drives the task branch through the
// binary's wiring and the console adapter on one SQLite file: an entry
// written in one run is read back in the next (a restart), and a helpline
// comes from the directory.
func TestChatJournalAndHelplinesEndToEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "h.db")
	code, out, errOut := haven(t, "/journal the first warm evening of the year\n/help\nwhat's the helpline in Ireland?\n", noEnv, "chat", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if !strings.Contains(out, "I've written that in your journal") {
		t.Errorf("the entry was not written:\n%s", out)
	}
	if !strings.Contains(out, "/journal today was hard") {
		t.Errorf("/help does not list the journal:\n%s", out)
	}
	if !strings.Contains(out, "Crisis lines in Ireland") || !strings.Contains(out, "116 123") {
		t.Errorf("no Irish helpline from the directory:\n%s", out)
	}
	code, out, errOut = haven(t, "show me my journal\n", noEnv, "chat", "--db", db)
	if code != 0 {
		t.Fatalf("second run exit %d, stderr:\n%s", code, errOut)
	}
	if !strings.Contains(out, "the first warm evening of the year") {
		t.Errorf("the entry was not read back after a restart:\n%s", out)
	}
}
