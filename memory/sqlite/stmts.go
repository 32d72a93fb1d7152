package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// maxCachedStmts bounds each statement cache. Haven's statements are a
// fixed set far below it; SQL built at run time (vector table names) is run
// uncached so it never fills the cache.
const maxCachedStmts = 256

// stmtCache keeps the statements run on one pool prepared, so that a query
// costs SQLite's step and not its parser. database/sql prepares a cached
// *sql.Stmt again on each pool connection the first time it runs there.
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, m: map[string]*sql.Stmt{}}
}

// lookup returns the cached statement of q, or nil.
func (c *stmtCache) lookup(q string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[q]
}

// prepare returns q's statement, preparing and caching it if needed. It
// takes a connection of the pool, so it must not be called while the
// caller holds one (inside a write transaction: see wtx).
func (c *stmtCache) prepare(ctx context.Context, q string) (*sql.Stmt, error) {
	if st := c.lookup(q); st != nil {
		return st, nil
	}
	st, err := c.db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.m[q]; old != nil {
		st.Close() //nolint:sqlclosecheck // lost the race to cache q: dropped now, the cached one is used
		return old, nil
	}
	if len(c.m) >= maxCachedStmts {
		// Still usable by this caller; database/sql closes it when the
		// pool closes.
		return st, nil
	}
	c.m[q] = st
	return st, nil
}

// close closes the cached statements.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.m {
		st.Close()
		delete(c.m, q)
	}
}

// queryer is what the read pool and a write transaction share for reading
// one row.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// execer is what a write transaction (and database/sql's types) share for
// running a statement.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// scanner is a row to scan: *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// rowsQueryer runs a query that returns rows: the read pool (reader), a
// write transaction (*wtx) or a *sql.Tx.
type rowsQueryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// list runs the query q and returns every row as scan reads it.
func list[T any](ctx context.Context, db rowsQueryer, scan func(scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// forEach runs the query q and calls fn with each row in turn. It stops at
// fn's first error and returns it; the rows are closed when it returns. fn
// takes *sql.Rows, not a scanner: a Scan called through an interface
// allocates its argument list on every row.
func forEach(ctx context.Context, db rowsQueryer, fn func(*sql.Rows) error, q string, args ...any) error {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// scanInt64 reads a row of one integer column.
func scanInt64(row scanner) (int64, error) {
	var n int64
	err := row.Scan(&n)
	return n, err
}

// reader runs read-only statements on the read pool through its statement
// cache, in the read transaction of ctx's read scope if it has one
// (readscope.go). It has the methods of *sql.DB that the Store's reads use.
type reader struct {
	c *stmtCache
	s *Store
}

// QueryContext runs q on the read pool.
func (r reader) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if rs := r.scope(ctx); rs != nil {
		if tx, st := rs.stmt(ctx, r.c, q); tx != nil { //nolint:sqlclosecheck // bound to the scope's transaction, which closes it
			if st != nil {
				return st.QueryContext(ctx, args...)
			}
			return tx.QueryContext(ctx, q, args...)
		}
	}
	st, err := r.c.prepare(ctx, q) //nolint:sqlclosecheck // cached: closed with the cache
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// QueryRowContext runs q on the read pool. A failure to prepare q is
// reported by the Row's Scan.
func (r reader) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if rs := r.scope(ctx); rs != nil {
		if tx, st := rs.stmt(ctx, r.c, q); tx != nil { //nolint:sqlclosecheck // bound to the scope's transaction, which closes it
			if st != nil {
				return st.QueryRowContext(ctx, args...)
			}
			return tx.QueryRowContext(ctx, q, args...)
		}
	}
	st, err := r.c.prepare(ctx, q) //nolint:sqlclosecheck // cached: closed with the cache
	if err != nil {
		// database/sql builds a Row that carries err only from a query; run
		// q unprepared to get one with the same error.
		return r.c.db.QueryRowContext(ctx, q, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// scope returns ctx's read scope on the reader's Store, or nil.
func (r reader) scope(ctx context.Context) *readScope {
	if r.s == nil {
		return nil
	}
	return r.s.scopeOf(ctx)
}

// wtx is a write transaction on the writer connection. Statements it runs
// use the writer's statement cache; a statement not cached yet runs
// unprepared and is prepared once the transaction has released the single
// writer connection (preparing it now would wait for that connection
// forever).
type wtx struct {
	tx     *sql.Tx
	c      *stmtCache
	missed []string
	// unindexed are the memory_fts rows the transaction deleted: their
	// cached lengths go once it has ended.
	unindexed []int64
}

func (t *wtx) stmt(ctx context.Context, q string) *sql.Stmt {
	if st := t.c.lookup(q); st != nil {
		return t.tx.StmtContext(ctx, st)
	}
	if len(t.missed) < maxCachedStmts {
		t.missed = append(t.missed, q)
	}
	return nil
}

// ExecContext runs q in the transaction.
func (t *wtx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if st := t.stmt(ctx, q); st != nil { //nolint:sqlclosecheck // the transaction closes it when it ends
		return st.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, q, args...)
}

// QueryContext runs q in the transaction.
func (t *wtx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := t.stmt(ctx, q); st != nil { //nolint:sqlclosecheck // the transaction closes it when it ends
		return st.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, q, args...)
}

// QueryRowContext runs q in the transaction.
func (t *wtx) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if st := t.stmt(ctx, q); st != nil { //nolint:sqlclosecheck // the transaction closes it when it ends
		return st.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, q, args...)
}

// PrepareContext returns q's statement for repeated use in the
// transaction; the caller closes it.
func (t *wtx) PrepareContext(ctx context.Context, q string) (*sql.Stmt, error) {
	if st := t.stmt(ctx, q); st != nil {
		return st, nil
	}
	return t.tx.PrepareContext(ctx, q)
}

// uncached runs SQL built at run time, which must not enter the cache.
func (t *wtx) uncached() *sql.Tx { return t.tx }

// prepareMissed caches the statements the transaction ran unprepared. A
// statement that fails to prepare is left uncached: it failed, or will
// fail, where it runs.
func (c *stmtCache) prepareMissed(ctx context.Context, missed []string) {
	for _, q := range missed {
		if c.lookup(q) != nil {
			continue
		}
		c.prepare(ctx, q) //nolint:errcheck // see above
	}
}
