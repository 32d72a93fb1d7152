package sqlite

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func skipWithoutLock(t *testing.T) {
	t.Helper()
	if !lockSupported {
		t.Skip("this system has no flock: the database lock is not enforced")
	}
}

func TestASecondOpenIsRefusedWhileTheFirstServesAndBackupStillWorks(t *testing.T) {
	skipWithoutLock(t)
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "h.db")
	first, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	if err := first.SaveOffset(ctx, "k", 7); err != nil {
		t.Fatal(err)
	}

	second, err := Open(ctx, path)
	if err == nil {
		second.Close()
		t.Fatal("a second Open of a served database succeeded")
	}
	if !errors.Is(err, ErrInUse) {
		t.Errorf("second Open: %v, want an error wrapping ErrInUse", err)
	}
	for _, want := range []string{"another Haven", "pid " + strconv.Itoa(os.Getpid()), path, "stop it first", "--db"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("second Open's error %q does not say %q", err, want)
		}
	}
	if fi, err := os.Stat(path + LockSuffix); err != nil || fi.Mode() != 0o600 {
		t.Errorf("lock file: %v, %v; want mode 0600", fi, err)
	}

	// What an operator runs beside a serving Haven still works.
	cp := filepath.Join(dir, "copy.db")
	if err := Backup(ctx, path, cp); err != nil {
		t.Errorf("Backup while served: %v", err)
	}
	if st, err := SchemaStatus(ctx, path); err != nil || len(st.Pending) != 0 {
		t.Errorf("SchemaStatus while served: %+v, %v", st, err)
	}
	if err := CheckFileWritable(ctx, path); err != nil {
		t.Errorf("CheckFileWritable while served: %v", err)
	}

	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open after the first Store closed: %v", err)
	}
	defer again.Close()
	if v, err := again.LoadOffset(ctx, "k"); err != nil || v != 7 {
		t.Errorf("offset after reopening: %d, %v; want 7", v, err)
	}
	// The copy is a database of its own, with its own lock.
	c, err := Open(ctx, cp)
	if err != nil {
		t.Fatalf("Open the backup while the original is served: %v", err)
	}
	c.Close()
}

func TestRacingOpensOnAFreshFileLeaveOneServingAndRefuseTheOther(t *testing.T) {
	skipWithoutLock(t)
	ctx := context.Background()
	for round := range 10 {
		path := filepath.Join(t.TempDir(), "fresh.db")
		start := make(chan struct{})
		var wg sync.WaitGroup
		stores := make([]*Store, 2)
		errs := make([]error, 2)
		for i := range 2 {
			wg.Go(func() {
				<-start
				stores[i], errs[i] = Open(ctx, path)
			})
		}
		close(start)
		wg.Wait()
		opened := 0
		for _, err := range errs {
			if err == nil {
				opened++
				continue
			}
			if !errors.Is(err, ErrInUse) || strings.Contains(err.Error(), "migrat") {
				t.Errorf("round %d: the losing Open failed with %v, want only the in-use error", round, err)
			}
		}
		if opened != 1 {
			t.Fatalf("round %d: %d Opens succeeded, want exactly 1 (errors %v)", round, opened, errs)
		}
		for _, s := range stores {
			if s != nil {
				s.Close()
			}
		}
		st, err := SchemaStatus(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Current != st.Target || len(st.Pending) != 0 {
			t.Errorf("round %d: the file ended at schema %d of %d, pending %v", round, st.Current, st.Target, st.Pending)
		}
	}
}

// holdEnv names the database a helper process (TestHelperHoldsTheDatabase)
// opens and holds until its stdin closes.
const holdEnv = "HAVEN_SQLITE_TEST_HOLD"

func TestHelperHoldsTheDatabase(t *testing.T) {
	path := os.Getenv(holdEnv)
	if path == "" {
		t.Skip("a helper run by TestAnotherProcessIsRefusedWithItsPID")
	}
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	os.Stdout.WriteString("holding\n")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n') // until the parent closes stdin
}

func TestAnotherProcessIsRefusedWithItsPID(t *testing.T) {
	skipWithoutLock(t)
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "h.db")
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperHoldsTheDatabase$")
	cmd.Env = append(os.Environ(), holdEnv+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer stdin.Close() // ends the helper if the test fails early; ctx kills it at the end
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "holding\n" {
		t.Fatalf("helper did not take the database: %q, %v", line, err)
	}

	_, err = Open(ctx, path)
	if !errors.Is(err, ErrInUse) || !strings.Contains(err.Error(), "pid "+strconv.Itoa(cmd.Process.Pid)) {
		t.Fatalf("Open while another process serves: %v, want ErrInUse naming pid %d", err, cmd.Process.Pid)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open after the other process ended: %v", err)
	}
	s.Close()
	if _, err := os.Stat(path + LockSuffix); errors.Is(err, fs.ErrNotExist) {
		t.Error("the lock file was removed; it must stay")
	}
}
