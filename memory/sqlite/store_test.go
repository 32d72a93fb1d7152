package sqlite

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/havenbot/haven/memory"
)

// openTest opens a store on path and closes it when the test ends.
func openTest(t testing.TB, path string, opts ...Option) *Store {
	t.Helper()
	s, err := Open(context.Background(), path, opts...)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func pragma(t *testing.T, db *sql.DB, name string) string {
	t.Helper()
	var v string
	if err := db.QueryRow("PRAGMA " + name).Scan(&v); err != nil {
		t.Fatalf("PRAGMA %s: %v", name, err)
	}
	return v
}

func TestOpenCreatesParentDirectoryAndSetsPragmasOnEveryConnection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "haven.db")
	s := openTest(t, path, WithBusyTimeout(1234*time.Millisecond), WithReadConns(3))
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database file not created: %v", err)
	}
	tests := []struct {
		name string
		db   *sql.DB
		want map[string]string
	}{
		{"writer", s.w, map[string]string{"journal_mode": "wal", "foreign_keys": "1", "synchronous": "1", "busy_timeout": "1234", "query_only": "0"}},
		{"reader", s.r, map[string]string{"journal_mode": "wal", "foreign_keys": "1", "synchronous": "1", "busy_timeout": "1234", "query_only": "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, want := range tt.want {
				if got := pragma(t, tt.db, k); got != want {
					t.Errorf("PRAGMA %s = %q, want %q", k, got, want)
				}
			}
		})
	}
	if got := s.w.Stats().MaxOpenConnections; got != 1 {
		t.Errorf("writer MaxOpenConnections = %d, want 1", got)
	}
	if got := s.r.Stats().MaxOpenConnections; got != 3 {
		t.Errorf("reader MaxOpenConnections = %d, want 3", got)
	}
	if _, err := s.r.Exec(`INSERT INTO people (id, display, created_at) VALUES ('x', '', 0)`); err == nil {
		t.Error("a write through the read pool succeeded, want it refused (query_only)")
	}
	if got := pragma(t, s.w, "application_id"); got != "1212241486" {
		t.Errorf("application_id = %s, want Haven's", got)
	}
}

func TestOpenTwiceKeepsDataAndDoesNotRemigrate(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.ResolvePerson(ctx, "console", "console::me", "Me")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := openTest(t, path)
	p2, err := s2.ResolvePerson(ctx, "console", "console::me", "")
	if err != nil {
		t.Fatal(err)
	}
	if !p.FirstSeen || !p2.FirstSeen {
		t.Errorf("FirstSeen: first contact %v, after reopen %v; want true both times (no turn has finished)", p.FirstSeen, p2.FirstSeen)
	}
	if p2 != p {
		t.Errorf("after reopen ResolvePerson = %+v, want %+v", p2, p)
	}
}

func TestOpenRejectsFilesThatAreNotHavenDatabases(t *testing.T) {
	random := make([]byte, 8192)
	rand.Read(random)
	otherApp := func(t *testing.T, path string) {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('soup')`); err != nil {
			t.Fatal(err)
		}
	}
	foreignAppID := func(t *testing.T, path string) {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`PRAGMA application_id = 42`); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		make  func(t *testing.T, path string)
		wants []string
	}{
		{"random bytes", func(t *testing.T, path string) { os.WriteFile(path, random, 0o600) }, []string{"not a valid Haven database", "corrupt or is not an SQLite database"}},
		{"text file", func(t *testing.T, path string) {
			os.WriteFile(path, bytes.Repeat([]byte("These are my notes, not a database.\n"), 200), 0o600)
		}, []string{"not a valid Haven database", "corrupt or is not an SQLite database"}},
		{"another program's SQLite tables", otherApp, []string{"not a valid Haven database", "another program"}},
		{"another program's application id", foreignAppID, []string{"not a valid Haven database", "application id 0x2a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "h.db")
			tt.make(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Open(context.Background(), path)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded, want an error")
			}
			if !errors.Is(err, ErrNotHavenDB) {
				t.Errorf("error %v does not wrap ErrNotHavenDB", err)
			}
			for _, want := range append(tt.wants, path) {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(before, after) {
				t.Error("a failed Open changed the file")
			}
		})
	}
}

func TestOpenRejectsBadPaths(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"empty", "", "empty path"},
		{"directory", dir, "is a directory"},
		{"parent is a file", filepath.Join(file, "h.db"), "create its directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Open(context.Background(), tt.path)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}
}

func TestOpenRejectsASchemaFromANewerHaven(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, 1)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(context.Background(), path)
	if err == nil {
		s.Close()
		t.Fatal("Open succeeded, want an error")
	}
	if !errors.Is(err, ErrNewerSchema) || !strings.Contains(err.Error(), "99999") {
		t.Errorf("error = %v, want ErrNewerSchema naming version 99999", err)
	}
}

func TestWriteFailsClearlyWhenAnotherWriterHoldsTheLock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "h.db")
	other := openTest(t, path, WithBusyTimeout(20*time.Millisecond))
	// The holder is another program's connection (a second Store on the
	// file is refused by its lock file). It only begins a transaction and
	// keeps it open: with _txlock=immediate, BEGIN alone takes SQLite's
	// write lock.
	holder, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}

	_, err = other.ResolvePerson(ctx, "console", "console::late", "")
	if err == nil {
		t.Fatal("ResolvePerson succeeded while another writer held the lock")
	}
	if !errors.Is(err, ErrLocked) {
		t.Errorf("error %v does not wrap ErrLocked", err)
	}
	for _, want := range []string{"database is locked", "another process/writer", path, "console::late"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	// Reads still work in WAL mode while the writer holds its lock.
	if _, err := other.Unfinished(ctx, "console"); err != nil {
		t.Errorf("read while locked: %v", err)
	}

	// Once the lock is released, the same write goes through and nothing
	// the holder wrote is lost.
	if _, err := tx.Exec(`INSERT INTO people (id, display, created_at) VALUES ('held', '', 1)`); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := other.ResolvePerson(ctx, "console", "console::late", ""); err != nil {
		t.Fatalf("ResolvePerson after the lock was released: %v", err)
	}
	var n int
	if err := other.r.QueryRow(`SELECT count(*) FROM people`).Scan(&n); err != nil || n != 2 {
		t.Errorf("people = %d (%v), want 2", n, err)
	}
}

func TestWriteFailsClearlyWhenTheDatabaseIsFull(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	p, err := s.ResolvePerson(ctx, "console", "console::me", "")
	if err != nil {
		t.Fatal(err)
	}
	ss, err := s.OpenSession(ctx, p.ID, "console::c", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// Cap the file at its current size: SQLite then reports SQLITE_FULL
	// exactly as on a full disk.
	var pages int
	if err := s.w.QueryRow(`PRAGMA page_count`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec(`PRAGMA max_page_count = ` + itoa(pages)); err != nil {
		t.Fatal(err)
	}
	err = s.CommitTurn(ctx, turn(ss.ID, 1, strings.Repeat("x", 1<<20)))
	if !errors.Is(err, ErrFull) || !strings.Contains(err.Error(), "free disk space") || !strings.Contains(err.Error(), ss.ID) {
		t.Errorf("CommitTurn on a full database: %v, want ErrFull naming the session and what to do", err)
	}
}

func TestOpenReadOnlyFileGivesClearError(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores file permissions; the read-only case cannot be produced")
	}
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "h.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		os.Chmod(p, 0o444)
	}
	os.Chmod(dir, 0o555)
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	s, err = Open(ctx, path)
	if err == nil {
		_, err = s.ResolvePerson(ctx, "console", "console::me", "")
		s.Close()
	}
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("writing a read-only database: %v, want a clear error naming %s", err, path)
	}
}

func TestUnknownRecordsGiveNotFound(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"))
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"OpenSession of unknown person", func() error {
			_, err := s.OpenSession(ctx, "nobody", "console::c", time.Now())
			return err
		}, "person nobody"},
		{"ResetSession of unknown person", func() error {
			_, err := s.ResetSession(ctx, "nobody", "console::c", time.Now())
			return err
		}, "person nobody"},
		{"CommitTurn of unknown session", func() error { return s.CommitTurn(ctx, turn("nosession", 1, "hi")) }, "session nosession"},
		{"Done of unknown delivery", func() error { return s.Done(ctx, "nokey") }, "delivery nokey"},
		{"Sent of unknown message", func() error { return s.Sent(ctx, 404) }, "message 404"},
		{"Attempted of unknown message", func() error { return s.Attempted(ctx, 404, "timeout") }, "message 404"},
		{"Abandon of unknown message", func() error { return s.Abandon(ctx, 404, "gone") }, "message 404"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, memory.ErrNotFound) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want memory.ErrNotFound naming %q", err, tt.want)
			}
		})
	}
}

func TestClipKeepsRunesWhole(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 3, "abc"},
		{"héllo", 2, "h"},
		{"héllo", 3, "hé"},
		{"日本", 4, "日"},
		{"日本", 0, ""},
	}
	for _, tt := range tests {
		if got := clip(tt.in, tt.n); got != tt.want {
			t.Errorf("clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// TestConcurrentWritersNeverSeeBusy runs many goroutines that write through
// every write path at once. The single writer connection serializes them, so
// none may fail with SQLITE_BUSY, and every write must be stored.
func TestConcurrentWritersNeverSeeBusy(t *testing.T) {
	ctx := context.Background()
	// A second store on the same file would compete for the lock; one store
	// must never compete with itself, even with a minimal busy timeout.
	s := openTest(t, filepath.Join(t.TempDir(), "h.db"), WithBusyTimeout(time.Millisecond), WithReadConns(4))
	const workers, turns = 24, 15
	var wg sync.WaitGroup
	errs := make(chan error, workers*turns*6)
	for w := range workers {
		wg.Go(func() {
			uid := fmt.Sprintf("console::u%d", w%8) // several workers share a person
			conv := fmt.Sprintf("console::c%d", w)
			for i := range turns {
				p, err := s.ResolvePerson(ctx, "console", uid, fmt.Sprint("name", i))
				if err != nil {
					errs <- err
					return
				}
				ss, err := s.OpenSession(ctx, p.ID, conv, time.Now())
				if err != nil {
					errs <- err
					return
				}
				if err := s.CommitTurn(ctx, turn(ss.ID, i+1, "x")); err != nil {
					errs <- err
				}
				key := fmt.Sprintf("k-%d-%d", w, i)
				if _, err := s.Record(ctx, inbound(key, conv)); err != nil {
					errs <- err
				}
				if err := s.Done(ctx, key); err != nil {
					errs <- err
				}
				if _, err := s.RecentEntries(ctx, ss.ID, 4); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	counts := map[string]int{
		"SELECT count(*) FROM people":                          8,
		"SELECT count(*) FROM sessions":                        workers,
		"SELECT count(*) FROM transcript":                      workers * turns * 2,
		"SELECT count(*) FROM inbox WHERE done_at IS NOT NULL": workers * turns,
	}
	for q, want := range counts {
		var n int
		if err := s.r.QueryRow(q).Scan(&n); err != nil || n != want {
			t.Errorf("%s = %d (%v), want %d", q, n, err, want)
		}
	}
}

func TestWriterKeepsStatementJournalsInMemory(t *testing.T) {
	s := openMem(t)
	var mode int
	if err := s.w.QueryRowContext(context.Background(), `PRAGMA temp_store`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != 2 {
		t.Errorf("writer temp_store = %d, want 2 (MEMORY): savepoint journals of grouped writes would spill to temporary files", mode)
	}
}
