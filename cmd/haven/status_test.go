package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestAdminStatusInTheTerminalReportsTheRunningHaven(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "h.db")
	if code, _, errOut := haven(t, "hi\n", noEnv, "chat", "--db", db); code != 0 {
		t.Fatalf("chat exit %d:\n%s", code, errOut)
	}
	code, out, errOut := haven(t, "/haven status\n", noEnv, "chat", "--db", db)
	if code != 0 {
		t.Fatalf("status exit %d:\n%s", code, errOut)
	}
	for _, want := range []string{"Haven ", "console: running", "no model configured", "Database: ", "no backup recorded"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if code, _, errOut := haven(t, "", noEnv, "backup", "--db", db, filepath.Join(dir, "copy.db")); code != 0 {
		t.Fatalf("backup exit %d:\n%s", code, errOut)
	}
	_, out, _ = haven(t, "/haven status\n", noEnv, "chat", "--db", db)
	if !strings.Contains(out, "last backup") {
		t.Errorf("status after a backup does not name it:\n%s", out)
	}
}
