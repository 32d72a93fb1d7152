package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenCreatesTheDatabaseForItsOwnerOnly(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "data")
	path := filepath.Join(dir, "h.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.SaveOffset(ctx, "k", 1); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]fs.FileMode{dir: 0o700 | fs.ModeDir, path: 0o600, path + "-wal": 0o600, path + "-shm": 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s has mode %v, want %v", filepath.Base(p), fi.Mode(), want)
		}
	}
}

func TestCheckWritableNamesALockHeldByAnotherWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(ctx, path, WithBusyTimeout(20e6)) // 20ms
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CheckWritable(ctx); err != nil {
		t.Fatalf("CheckWritable on a fresh database: %v", err)
	}
	if err := CheckFileWritable(ctx, path); err != nil {
		t.Fatalf("CheckFileWritable on a fresh database: %v", err)
	}
	other, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	err = s.CheckWritable(ctx)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), path) {
		t.Fatalf("CheckWritable while another writer holds the lock: %v, want ErrLocked naming %s", err, path)
	}
}

// writePairs writes the offsets "a" and "b" with the same value, 1, 2, ...,
// in one transaction each, until stop is closed; it closes first after its
// first write and returns the last value written.
func writePairs(t *testing.T, s *Store, first, stop chan struct{}, last chan<- int64) {
	ctx := context.Background()
	var n int64
	defer func() { last <- n }()
	for {
		select {
		case <-stop:
			return
		default:
		}
		err := s.write(ctx, func(tx *wtx) error {
			for _, k := range []string{"a", "b"} {
				if _, err := tx.ExecContext(ctx, `INSERT INTO offsets (key, value, updated_at) VALUES (?, ?, 0)
					ON CONFLICT (key) DO UPDATE SET value = excluded.value`, k, n+1); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Error(err)
			return
		}
		n++
		if n == 1 {
			close(first)
		}
	}
}

func TestBackupIsAConsistentPrivateCopyWhileWritesGoOn(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "h.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Some bulk, so that a copy takes a while.
	p := person(t, s, "p")
	ss, err := s.OpenSession(ctx, p.ID, "c", s.now())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		if err := s.CommitTurn(ctx, turn(ss.ID, i+1, strings.Repeat("words ", 50))); err != nil {
			t.Fatal(err)
		}
	}
	first, stop, last := make(chan struct{}), make(chan struct{}), make(chan int64, 1)
	go writePairs(t, s, first, stop, last)
	<-first
	var copies []string
	for i := range 3 {
		dst := filepath.Join(dir, "copy"+itoa(i)+".db")
		if err := Backup(ctx, path, dst); err != nil {
			close(stop)
			t.Fatalf("Backup while writing: %v", err)
		}
		copies = append(copies, dst)
	}
	close(stop)
	final := <-last

	for _, c := range copies {
		fi, err := os.Stat(c)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", filepath.Base(c), fi.Mode().Perm())
		}
		cs, err := Open(ctx, c)
		if err != nil {
			t.Fatalf("open the copy: %v", err)
		}
		a, errA := cs.LoadOffset(ctx, "a")
		b, errB := cs.LoadOffset(ctx, "b")
		entries, errE := cs.RecentEntries(ctx, ss.ID, 1000)
		cs.Close()
		if errA != nil || errB != nil || errE != nil {
			t.Fatal(errA, errB, errE)
		}
		if a != b || a < 1 || a > final {
			t.Errorf("%s: a=%d b=%d (final %d): not one transaction's snapshot", filepath.Base(c), a, b, final)
		}
		if len(entries) != 400 {
			t.Errorf("%s holds %d transcript entries, want 400", filepath.Base(c), len(entries))
		}
	}
}

func TestBackupNeverOverwritesAndLeavesNothingOnFailure(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "h.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	dst := filepath.Join(dir, "precious.db")
	if err := os.WriteFile(dst, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	err = Backup(ctx, path, dst)
	if err == nil || !strings.Contains(err.Error(), "already exists") || !strings.Contains(err.Error(), dst) {
		t.Fatalf("Backup onto an existing file: %v, want a refusal naming it", err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "keep me" {
		t.Errorf("the existing file was changed: %q", b)
	}
	if err := Backup(ctx, path, path); err == nil {
		t.Error("Backup onto the database itself succeeded")
	}
	missing := filepath.Join(dir, "missing.db")
	err = Backup(ctx, missing, filepath.Join(dir, "out.db"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("Backup of a missing database: %v, want a not-exist error naming it", err)
	}
	for _, p := range []string{missing, filepath.Join(dir, "out.db")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was created", filepath.Base(p))
		}
	}
}

func TestSchemaStatusReadsWithoutMigrating(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	// A file migrated to version 3 only, as an older Haven left it.
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := migrations(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 3); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// Versions need not be contiguous (a branch's number may land before
	// the numbers below it): every known migration above 3 is pending.
	later := 0
	for _, src := range p.ListSources() {
		if src.Version > 3 {
			later++
		}
	}

	for range 2 { // reading twice: the first read changed nothing
		st, err := SchemaStatus(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Current != 3 || st.Target < 5 || st.Newer() || len(st.Pending) != later || st.Pending[0].Version != 4 {
			t.Fatalf("SchemaStatus = %+v, want version 3 with the later migrations pending", st)
		}
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	st, err := SchemaStatus(ctx, path)
	if err != nil || st.Current != st.Target || len(st.Pending) != 0 {
		t.Fatalf("after Open: SchemaStatus = %+v, %v; want up to date", st, err)
	}
}

func TestSchemaStatusSaysWhatIsWrongWithTheFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.db")
	if _, err := SchemaStatus(ctx, missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("SchemaStatus created the missing file")
	}
	other := filepath.Join(dir, "other.db")
	db, _ := sql.Open("sqlite", "file:"+other)
	if _, err := db.Exec("CREATE TABLE t (x)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := SchemaStatus(ctx, other); !errors.Is(err, ErrNotHavenDB) {
		t.Errorf("another program's database: %v, want ErrNotHavenDB", err)
	}
}

func TestBackupRecordsWhenItLastMadeAGoodCopy(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "h.db")
	s := openTest(t, path)
	if _, ok, err := s.LastBackup(ctx); ok || err != nil {
		t.Fatalf("LastBackup before any backup: ok=%v err=%v, want none", ok, err)
	}
	if err := Backup(ctx, path, filepath.Join(dir, "copy.db")); err != nil {
		t.Fatal(err)
	}
	at, ok, err := s.LastBackup(ctx)
	if !ok || err != nil || at.IsZero() {
		t.Fatalf("LastBackup after a backup = %v, %v, %v; want its time", at, ok, err)
	}
	if err := Backup(ctx, path, path); err == nil {
		t.Fatal("Backup onto the database itself succeeded")
	}
	if again, _, _ := s.LastBackup(ctx); !again.Equal(at) {
		t.Errorf("a failed backup moved the last backup from %v to %v", at, again)
	}
}
