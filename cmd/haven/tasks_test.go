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

// TestChatRemindersEndToEnd sets a reminder through the console adapter
// (asked first, then yes), restarts on the same SQLite file, and lists,
// moves and cancels it there: the approval, the store and "move that"
// work through the binary's wiring.
func TestChatRemindersEndToEnd(t *testing.T) {
	db := filepath.Join(t.TempDir(), "h.db")
	code, out, errOut := haven(t, "my time zone is Europe/Dublin\nremind me to take a walk tomorrow at 6pm\nyes\n", noEnv, "chat", "--db", db)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	r := replies(out)
	if len(r) != 3 || !strings.Contains(r[1], "Reply yes or no") || !strings.Contains(r[2], "I'll remind you to take a walk at 18:00 tomorrow") {
		t.Fatalf("setting the reminder:\n%s", out)
	}
	code, out, errOut = haven(t, "/reminders\nmove the walk reminder to 7\n/reminders\ncancel the walk reminder\n/reminders\n", noEnv, "chat", "--db", db)
	if code != 0 {
		t.Fatalf("second run exit %d, stderr:\n%s", code, errOut)
	}
	r = replies(out)
	if len(r) != 5 {
		t.Fatalf("got %d replies, want 5:\n%s", len(r), out)
	}
	// A reply's later lines (the list) are indented under its first.
	first, rest, _ := strings.Cut(out, "Done: the reminder")
	if !strings.Contains(first, "- take a walk, at 18:00 tomorrow") {
		t.Errorf("the reminder was not listed after a restart:\n%s", out)
	}
	if !strings.Contains(r[1], "is now at 19:00 tomorrow") || !strings.Contains(rest, "- take a walk, at 19:00 tomorrow") {
		t.Errorf("after 'move ... to 7':\n%s", out)
	}
	if !strings.Contains(r[3], "Cancelled the reminder to take a walk") || !strings.HasPrefix(r[4], "You have no reminders") {
		t.Errorf("after cancelling: %q, then %q", r[3], r[4])
	}
}
