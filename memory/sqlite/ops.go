package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
)

// This file holds what an operator runs against the database file, beside
// the Store: the write check, the online backup and the schema status. None
// of the path-based functions migrates or creates the file, and none needs
// the Store's writer, so they work while another process serves from it.

// createPrivate creates the database file readable and writable by its
// owner alone (0600) when it does not exist yet; SQLite would create it
// with the process's umask (often 0644), and its -wal and -shm files take
// the database file's permissions. An existing file keeps its mode.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}

// CheckWritable reports whether the database can be written now: it takes
// the write lock and changes the file's header inside a transaction that it
// rolls back, so nothing is written. It fails (wrapping ErrReadOnly) when
// the file or its directory is read-only for this process, and (wrapping
// ErrLocked) when another process holds the write lock past the busy
// timeout.
func (s *Store) CheckWritable(ctx context.Context) error {
	if err := probeWrite(ctx, s.w); err != nil {
		return fmt.Errorf("check that %s is writable: %w", s.path, s.classify(err))
	}
	return nil
}

// probeWrite writes the header's user_version, unchanged, in a transaction
// it rolls back: a page is made dirty, which a read-only file refuses,
// and nothing reaches the disk. Haven does not use user_version.
func probeWrite(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var v int64
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v))
	return err
}

// openFile opens the existing Haven database at path without creating,
// migrating or changing it, on one connection. The connection can write
// when writable is true (its transactions begin IMMEDIATE); else it is
// query-only. The returned Store holds only the path and options, for
// classify.
func openFile(ctx context.Context, path string, writable bool) (*sql.DB, *Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil, fmt.Errorf("open haven database %s: %w", path, err)
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, fmt.Errorf("open haven database %s: %w: no such file (haven creates it when it first starts)", abs, fs.ErrNotExist)
	case err != nil:
		return nil, nil, fmt.Errorf("open haven database %s: %w", abs, err)
	case fi.IsDir():
		return nil, nil, fmt.Errorf("open haven database %s: the path is a directory, not a database file", abs)
	}
	s := &Store{path: abs, opts: options{busyTimeout: DefaultBusyTimeout}}
	db, err := sql.Open("sqlite", s.dsn(!writable))
	if err != nil {
		return nil, nil, fmt.Errorf("open haven database %s: %w", abs, err)
	}
	db.SetMaxOpenConns(1)
	var appID int64
	if err := db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("open haven database %s: %w", abs, s.classify(err))
	}
	if appID != applicationID {
		db.Close()
		return nil, nil, fmt.Errorf("%s is %w: it has no Haven application id (is it an empty file, or another program's database?)", abs, ErrNotHavenDB)
	}
	return db, s, nil
}

// CheckFileWritable is CheckWritable for the Haven database at path, which
// must exist; it opens the file on a connection of its own and neither
// migrates nor changes it.
func CheckFileWritable(ctx context.Context, path string) error {
	db, s, err := openFile(ctx, path, true)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := probeWrite(ctx, db); err != nil {
		return fmt.Errorf("check that %s is writable: %w", s.path, s.classify(err))
	}
	return nil
}

// Backup writes a consistent copy of the Haven database at path to dst,
// while other connections and processes go on reading and writing it: the
// copy is one read transaction's snapshot (SQLite's VACUUM INTO, which also
// compacts it), created readable by its owner alone (0600), synced to disk
// and checked (quick_check) before Backup returns. dst must not exist:
// Backup never overwrites a file. On failure nothing is left at dst.
func Backup(ctx context.Context, path, dst string) (err error) {
	absDst, err := filepath.Abs(dst)
	if err != nil {
		return fmt.Errorf("back up to %s: %w", dst, err)
	}
	db, s, err := openFile(ctx, path, true)
	if err != nil {
		return fmt.Errorf("back up: %w", err)
	}
	defer db.Close()
	if absDst == s.path {
		return fmt.Errorf("back up %s: the copy must be another file", s.path)
	}
	f, err := os.OpenFile(absDst, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("back up %s: %s already exists; Haven never overwrites a file: choose a new name or remove it first", s.path, absDst)
		}
		return fmt.Errorf("back up %s: create %s: %w", s.path, absDst, err)
	}
	f.Close()
	defer func() {
		if err != nil {
			os.Remove(absDst)
		}
	}()
	// VACUUM INTO fills an empty file, keeping its mode. It runs on a
	// connection that may write: SQLite refuses it on a query-only one,
	// although it writes nothing to the source.
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", absDst); err != nil {
		return fmt.Errorf("back up %s to %s: %w", s.path, absDst, s.classify(err))
	}
	if err := syncFile(absDst); err != nil {
		return fmt.Errorf("back up %s: sync %s: %w", s.path, absDst, err)
	}
	if err := quickCheck(ctx, absDst); err != nil {
		return fmt.Errorf("back up %s: the copy %s does not check out: %w", s.path, absDst, err)
	}
	// The time of the last good copy, for /haven status. Best effort: the
	// copy is made and checked whether or not this row can be written (a
	// database older than the offsets table has nowhere to keep it).
	_, _ = db.ExecContext(ctx, `INSERT INTO offsets (key, value, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		lastBackupKey, ts(time.Now()), ts(time.Now()))
	return nil
}

// syncFile flushes path and its directory entry to disk: VACUUM INTO does
// not sync the file it writes.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	// Some filesystems cannot sync a directory; the file itself is synced.
	_ = d.Sync()
	return nil
}

// quickCheck runs PRAGMA quick_check on the database at path, read-only.
func quickCheck(ctx context.Context, path string) error {
	s := &Store{path: path, opts: options{busyTimeout: DefaultBusyTimeout}}
	db, err := sql.Open("sqlite", s.dsn(true))
	if err != nil {
		return err
	}
	defer db.Close()
	var res string
	if err := db.QueryRowContext(ctx, "PRAGMA quick_check").Scan(&res); err != nil {
		return s.classify(err)
	}
	if res != "ok" {
		return fmt.Errorf("quick_check: %s", res)
	}
	return nil
}

// Migration is one schema migration this build of Haven carries.
type Migration struct {
	// Version is the schema version the migration brings the file to.
	Version int64
	// Name is the migration's file name ("00003_memory.sql"), or the Go
	// migration's name.
	Name string
}

// Schema is the schema version of a database against this build's.
type Schema struct {
	// Path is the database file's absolute path.
	Path string
	// Current is the file's schema version: 0 for a file never migrated.
	Current int64
	// Target is the newest version this build knows.
	Target int64
	// Pending are the migrations not applied to the file yet, oldest first.
	Pending []Migration
}

// Newer reports whether the file was migrated by a newer Haven than this
// one (which then refuses to open it).
func (s Schema) Newer() bool { return s.Current > s.Target }

// SchemaStatus reads the schema version of the Haven database at path and
// the migrations this build would apply to it. It neither creates, migrates
// nor changes the file, so it runs while Haven serves from it.
func SchemaStatus(ctx context.Context, path string) (Schema, error) {
	db, s, err := openFile(ctx, path, false)
	if err != nil {
		return Schema{}, err
	}
	defer db.Close()
	out := Schema{Path: s.path}
	p, err := migrations(db)
	if err != nil {
		return out, err
	}
	sources := p.ListSources()
	if len(sources) > 0 {
		out.Target = sources[len(sources)-1].Version
	}
	var tables int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'goose_db_version'`).Scan(&tables); err != nil {
		return out, fmt.Errorf("read schema version of %s: %w", s.path, s.classify(err))
	}
	applied := map[int64]bool{}
	if tables > 0 {
		st, err := p.Status(ctx)
		if err != nil {
			return out, fmt.Errorf("read schema version of %s: %w", s.path, s.classify(err))
		}
		for _, m := range st {
			if m.State == goose.StateApplied {
				applied[m.Source.Version] = true
			}
		}
		if err := db.QueryRowContext(ctx, `SELECT coalesce(max(version_id), 0) FROM goose_db_version WHERE is_applied`).Scan(&out.Current); err != nil {
			return out, fmt.Errorf("read schema version of %s: %w", s.path, s.classify(err))
		}
	}
	for _, src := range sources {
		if !applied[src.Version] {
			name := filepath.Base(src.Path)
			if name == "" || name == "." {
				name = fmt.Sprintf("%05d (built in)", src.Version)
			}
			out.Pending = append(out.Pending, Migration{Version: src.Version, Name: strings.TrimSpace(name)})
		}
	}
	return out, nil
}
