package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/havenbot/haven/memory/sqlite"
)

// childEnv marks the copy of the test binary that unprivileged starts.
const childEnv = "HAVENTEST_UNPRIVILEGED"

// unprivileged makes the calling test run where file permissions apply. As
// an ordinary user it returns true at once: the test goes on here. As root
// (whom permissions do not stop) it runs the same test in a copy of the test
// binary as the user nobody, reports that run's failures, and returns false:
// the caller returns. In that copy it returns true.
func unprivileged(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == "1" || os.Geteuid() != 0 {
		return true
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A directory nobody can enter, holding a copy nobody can run, and a
	// temporary directory nobody can write.
	dir, err := os.MkdirTemp("", "haven-unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	tmp := filepath.Join(dir, "tmp")
	for d, mode := range map[string]os.FileMode{dir: 0o755, tmp: 0o777} {
		if err := os.MkdirAll(d, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, mode); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "haven.test")
	if err := copyFile(exe, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = []string{childEnv + "=1", "TMPDIR=" + tmp, "HOME=" + tmp, "PATH=" + os.Getenv("PATH")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s as user nobody: %v\n%s", t.Name(), err, out)
	}
	t.Logf("ran as user nobody:\n%s", out)
	return false
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// makeReadOnly creates the Haven database at path and then takes write
// permission away from the file (as when it belongs to another user), not
// from its directory: SQLite then opens and reads it, and refuses writes.
func makeReadOnly(t *testing.T, path string) {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
}
