package sqlite

import (
	"context"
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/pressly/goose/v3"
	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/memory"
)

// Compile-time checks that Store keeps the contracts it implements that
// memory/sqlite can see. memory/jobs.Store and core.MemoryStore are checked
// in those packages' tests (memory/sqlite imports neither).
var (
	_ memory.Store    = (*Store)(nil)
	_ memory.Searcher = (*Store)(nil)
	_ channels.Inbox  = (*Store)(nil)
	_ channels.Outbox = (*Store)(nil)
)

//go:embed migrations/*.sql
var migrationsFS embed.FS

// applicationID marks a SQLite file as Haven's ("HAVN" in ASCII). The first
// migration sets it.
const applicationID = 0x4841564E

// The defaults Open uses when no Option says otherwise.
const (
	DefaultBusyTimeout = 5 * time.Second
	DefaultReadConns   = 4
)

// Errors Open and the Store's methods wrap, so callers can tell the cases
// apart with errors.Is. The wrapping error names the file and what to do.
var (
	// ErrNotHavenDB: the file is corrupt, is not an SQLite database, or is
	// another program's SQLite database.
	ErrNotHavenDB = errors.New("not a valid Haven database")
	// ErrLocked: another process or writer held the database longer than the
	// busy timeout.
	ErrLocked = errors.New("database is locked")
	// ErrReadOnly: the file or its directory cannot be written.
	ErrReadOnly = errors.New("database is read-only")
	// ErrFull: the disk (or SQLite's page limit) is full.
	ErrFull = errors.New("database or disk is full")
	// ErrNewerSchema: the file was migrated by a newer Haven than this one.
	ErrNewerSchema = errors.New("database schema is newer than this Haven")
)

// Store is the SQLite implementation of memory.Store, channels.Inbox and
// channels.Outbox. It is safe for concurrent use. Create it with Open and
// release it with Close.
type Store struct {
	path string
	// lock is the serving Store's exclusive hold on the file (lock.go),
	// taken before the file is created or migrated.
	lock *fileLock
	// group lets the small writes of many turns share transactions
	// (group.go).
	group groupCommit
	// w is the single writer connection: MaxOpenConns(1), _txlock=immediate.
	// All writes are serialized by database/sql's pool, so they never race
	// each other for SQLite's write lock.
	w *sql.DB
	// r is the read pool (query_only connections).
	r *sql.DB
	// ck checkpoints the WAL beside the writer (checkpoint.go).
	ck *checkpointer
	// wc and rd keep the statements run on w and r prepared.
	wc   *stmtCache
	rd   reader
	opts options
	// vec caches which vector tables exist.
	vec vecTables
	// vc keeps people's embeddings in memory for search.
	vc *vecCache
	// lens keeps the token counts of memory_fts rows for ranking.
	lens docLens
}

type options struct {
	busyTimeout time.Duration
	readConns   int
	vectorCache int64
	now         func() time.Time
}

// Option configures Open.
type Option func(*options)

// WithBusyTimeout sets how long a statement waits for a lock held by another
// process or connection before failing with ErrLocked. d is rounded down to
// milliseconds; d <= 0 keeps the default (DefaultBusyTimeout).
func WithBusyTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.busyTimeout = d
		}
	}
}

// WithReadConns sets the size of the read pool; n < 1 keeps the default
// (DefaultReadConns).
func WithReadConns(n int) Option {
	return func(o *options) {
		if n >= 1 {
			o.readConns = n
		}
	}
}

// WithVectorCache sets how many bytes of embeddings the Store keeps in
// memory for vector search (people's vectors, least recently searched
// first out); n < 0 turns the cache off, so that every search asks vec0;
// n == 0 keeps the default (DefaultVectorCache).
func WithVectorCache(n int64) Option {
	return func(o *options) {
		switch {
		case n < 0:
			o.vectorCache = 0
		case n > 0:
			o.vectorCache = n
		}
	}
}

// WithClock sets the clock used for the times the Store stamps itself
// (creation, recording, delivery). Times passed in by the caller are kept.
// A nil now keeps time.Now.
func WithClock(now func() time.Time) Option {
	return func(o *options) {
		if now != nil {
			o.now = now
		}
	}
}

// Open opens (creating if missing, with its parent directory: the file
// 0600, the directory 0700) the Haven
// database at path, applies the embedded migrations and returns the Store.
// The Store holds the database exclusively until Close: before it creates
// or migrates anything, Open takes an OS lock on the side file path +
// LockSuffix, and a second Open of the same file (from this process or
// another) fails with an error wrapping ErrInUse that names the file and
// the holder's process id, never with a migration error. Backup,
// SchemaStatus and CheckFileWritable do not take that lock.
// A file that is not a Haven database gives an error wrapping ErrNotHavenDB
// that names the path; a file locked by another writer past the busy timeout
// gives one wrapping ErrLocked.
func Open(ctx context.Context, path string, opts ...Option) (_ *Store, err error) {
	o := options{busyTimeout: DefaultBusyTimeout, readConns: DefaultReadConns, vectorCache: DefaultVectorCache, now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	if path == "" {
		return nil, errors.New("open haven database: empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open haven database %s: %w", path, err)
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("open haven database %s: the path is a directory, not a database file", abs)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o700); err != nil {
		return nil, fmt.Errorf("open haven database %s: create its directory: %w", abs, err)
	}
	lock, err := lockDatabase(abs)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			lock.release()
		}
	}()
	if err := createPrivate(abs); err != nil {
		return nil, fmt.Errorf("open haven database %s: create it: %w", abs, err)
	}
	s := &Store{path: abs, lock: lock, opts: o, vc: newVecCache(o.vectorCache)}

	s.w, err = sql.Open("sqlite", s.dsn(false)+"&"+url.Values{"_pragma": {"wal_autocheckpoint(" + strconv.Itoa(writerAutoCheckpoint) + ")"}}.Encode())
	if err != nil {
		return nil, fmt.Errorf("open haven database %s: %w", abs, err)
	}
	s.w.SetMaxOpenConns(1)
	s.w.SetMaxIdleConns(1)
	s.w.SetConnMaxLifetime(0)
	s.w.SetConnMaxIdleTime(0)
	s.wc = newStmtCache(s.w)
	if err := s.prepare(ctx); err != nil {
		s.w.Close()
		return nil, err
	}

	s.r, err = sql.Open("sqlite", s.dsn(true))
	if err != nil {
		s.w.Close()
		return nil, fmt.Errorf("open haven database %s: read pool: %w", abs, err)
	}
	s.r.SetMaxOpenConns(o.readConns)
	s.r.SetMaxIdleConns(o.readConns)
	s.r.SetConnMaxLifetime(0)
	s.r.SetConnMaxIdleTime(0)
	s.rd = reader{c: newStmtCache(s.r), s: s}
	if err := s.r.PingContext(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open haven database: read pool: %w", s.classify(err))
	}
	if s.ck, err = startCheckpointer(ctx, s.dsn(false), checkpointEvery, s.w, restartAt); err != nil {
		s.Close()
		return nil, fmt.Errorf("open haven database: checkpoint connection: %w", s.classify(err))
	}
	return s, nil
}

// dsn builds the connection string. Every connection gets its pragmas
// through modernc's _pragma parameters: busy_timeout, foreign_keys and
// synchronous on all, query_only on readers. journal_mode=WAL is not among
// them: it is a persistent property of the file, which prepare sets once
// after checking that the file is Haven's.
func (s *Store) dsn(readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(s.opts.busyTimeout.Milliseconds(), 10)+")")
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(NORMAL)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		q.Set("_txlock", "immediate")
		// Statement and savepoint journals (every grouped write runs
		// under a savepoint) stay in memory instead of spilling to a
		// temporary file past 64 KiB. They only undo a statement or a
		// savepoint inside a transaction, never a crash: the WAL does that.
		q.Add("_pragma", "temp_store(MEMORY)")
	}
	return "file:" + (&url.URL{Path: s.path}).EscapedPath() + "?" + q.Encode()
}

// prepare checks that the writer's file is a Haven database (or a new,
// empty one) and migrates it.
func (s *Store) prepare(ctx context.Context) error {
	if err := s.w.PingContext(ctx); err != nil {
		return fmt.Errorf("open haven database: %w", s.classify(err))
	}
	var appID int64
	if err := s.w.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return fmt.Errorf("open haven database: read application id: %w", s.classify(err))
	}
	switch appID {
	case applicationID:
	case 0:
		// A new file, or one left by a migration that never committed, holds
		// at most goose's version table. Anything else is another program's.
		var n int
		err := s.w.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema
			WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'goose_db_version'`).Scan(&n)
		if err != nil {
			return fmt.Errorf("open haven database: list tables: %w", s.classify(err))
		}
		if n > 0 {
			return fmt.Errorf("%s is %w: it is an SQLite database of another program (%d tables, no Haven application id); pass another path", s.path, ErrNotHavenDB, n)
		}
	default:
		return fmt.Errorf("%s is %w: it is an SQLite database of another program (application id %#x); pass another path", s.path, ErrNotHavenDB, appID)
	}

	// WAL is a property of the file, so it is set once here, after the
	// checks above: a file that is not Haven's is left exactly as it was.
	var mode string
	if err := s.w.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode); err != nil {
		return fmt.Errorf("open haven database: set WAL journal mode: %w", s.classify(err))
	}
	if mode != "wal" {
		return fmt.Errorf("open haven database %s: journal mode is %q, want wal (is the file on a filesystem without shared memory?)", s.path, mode)
	}

	p, err := migrations(s.w)
	if err != nil {
		return fmt.Errorf("open haven database: %w", err)
	}
	// p.Close would close s.w; the provider holds nothing else.
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("open haven database: migrate %s: %w", s.path, s.classify(err))
	}
	current, target, err := p.GetVersions(ctx)
	if err != nil {
		return fmt.Errorf("open haven database: read schema version of %s: %w", s.path, s.classify(err))
	}
	if current > target {
		return fmt.Errorf("open haven database %s: %w: the file has schema version %d, this build knows up to %d; run a newer Haven", s.path, ErrNewerSchema, current, target)
	}
	return nil
}

// migrations returns the goose provider of Haven's schema on db: the
// embedded SQL migrations and the Go ones (wireMigration).
func migrations(db *sql.DB) (*goose.Provider, error) {
	sub, err := fs.Sub(migrationsFS, "migrations")
	if err != nil {
		return nil, fmt.Errorf("embedded migrations: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, sub,
		goose.WithDisableGlobalRegistry(true), goose.WithGoMigrations(wireMigration))
	if err != nil {
		return nil, fmt.Errorf("load migrations: %w", err)
	}
	return p, nil
}

// Close stops the background checkpoints and releases the connection
// pools, then the database's lock. The
// Store must not be used after.
func (s *Store) Close() error {
	var errs []error
	if err := s.ck.close(); err != nil {
		errs = append(errs, fmt.Errorf("close checkpoint connection of %s: %w", s.path, err))
	}
	if s.rd.c != nil {
		s.rd.c.close()
	}
	if s.wc != nil {
		s.wc.close()
	}
	if s.r != nil {
		if err := s.r.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close read pool of %s: %w", s.path, err))
		}
	}
	if s.w != nil {
		if err := s.w.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close writer of %s: %w", s.path, err))
		}
	}
	if err := s.lock.release(); err != nil {
		errs = append(errs, fmt.Errorf("release the lock of %s: %w", s.path, err))
	}
	return errors.Join(errs...)
}

// Path returns the absolute path of the database file.
func (s *Store) Path() string { return s.path }

// classify turns SQLite's result codes into errors that say what happened to
// which file and what to do, wrapping both the package's sentinel and the
// original error.
func (s *Store) classify(err error) error {
	if err == nil {
		return nil
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return fmt.Errorf("%w: %s is held by another process/writer for longer than the busy timeout (%v); is another Haven running on this file? (%w)",
			ErrLocked, s.path, s.opts.busyTimeout, err)
	case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
		return fmt.Errorf("%s is %w: the file is corrupt or is not an SQLite database; move it aside or pass another path (%w)",
			s.path, ErrNotHavenDB, err)
	case sqlite3.SQLITE_READONLY:
		return fmt.Errorf("%w: cannot write %s; check the permissions of the file and its directory (%w)", ErrReadOnly, s.path, err)
	case sqlite3.SQLITE_FULL:
		return fmt.Errorf("%w: cannot write %s; free disk space (%w)", ErrFull, s.path, err)
	case sqlite3.SQLITE_CANTOPEN:
		return fmt.Errorf("cannot open %s; check that its directory exists and is writable (%w)", s.path, err)
	}
	return err
}

// now is the Store's clock.
func (s *Store) now() time.Time { return s.opts.now() }

// newID returns a random opaque id: 16 bytes from crypto/rand, in hex.
func newID() string {
	var b [16]byte
	rand.Read(b[:]) // never returns an error; it crashes the program instead
	return hex.EncodeToString(b[:])
}

// ts stores a time as unix nanoseconds; the zero time is stored as 0.
func ts(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// fromTS is the inverse of ts, in UTC.
func fromTS(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// nullTS stores an optional time: the zero time is NULL.
func nullTS(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixNano(), Valid: true}
}

// write runs fn in one IMMEDIATE transaction on the writer connection and
// commits it; any error rolls it back. Errors are classified. Statements fn
// ran for the first time are prepared for the next transactions once this
// one has ended.
func (s *Store) write(ctx context.Context, fn func(tx *wtx) error) error {
	sqlTx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin write: %w", s.classify(err))
	}
	tx := &wtx{tx: sqlTx, c: s.wc}
	defer func() {
		if len(tx.unindexed) > 0 {
			s.lens.forget(tx.unindexed)
		}
		if len(tx.missed) > 0 {
			s.wc.prepareMissed(ctx, tx.missed)
		}
	}()
	if err := fn(tx); err != nil {
		sqlTx.Rollback()
		return s.classify(err)
	}
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", s.classify(err))
	}
	s.ck.committed()
	s.wrote(ctx)
	return nil
}

// clip cuts s to at most n bytes without splitting a rune.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// updateOne runs one UPDATE in a write transaction and returns an error
// wrapping memory.ErrNotFound, prefixed with missing, when it changed no row.
func (s *Store) updateOne(ctx context.Context, missing, query string, args ...any) error {
	return s.write(ctx, func(tx *wtx) error { return execOne(ctx, tx, missing, query, args...) })
}

// execOne runs one statement in tx and returns an error wrapping
// memory.ErrNotFound, prefixed with missing, when it changed no row.
func execOne(ctx context.Context, tx *wtx, missing, query string, args ...any) error {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%s: %w", missing, memory.ErrNotFound)
	}
	return nil
}
