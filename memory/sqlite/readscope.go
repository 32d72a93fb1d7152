package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// A read scope lets a run of reads share one read transaction. In WAL mode
// a read transaction that finds the database changed since the
// connection's last one drops the connection's whole page cache, and under
// load every read finds it changed: each read, run as its own transaction,
// reads its pages again and takes and drops the WAL read lock. The reads of
// a scope do that once.
type readScope struct {
	s   *Store
	ctx context.Context // the scope's, for its transaction

	mu     sync.Mutex
	tx     *sql.Tx // nil until the first read, and after a write or end
	closed bool
	missed []string // statements run unprepared (see stmt)
}

type readScopeKey struct{}

// ReadScope returns a context under which the Store's reads (made with it
// or a context derived from it) share one read transaction on one
// connection of the read pool, begun at the first read, until end is
// called: they see one snapshot of the database. A write the Store commits
// under the context ends that transaction, so the reads after it see the
// write, each as a read outside the scope would. end may be called more
// than once; after it the context's reads run as if it had no scope. The
// caller must not hold the scope across a wait for anything but the Store
// (a model, the network): it holds a read connection and keeps the WAL
// from being checkpointed past its snapshot.
func (s *Store) ReadScope(ctx context.Context) (context.Context, func()) {
	rs := &readScope{s: s, ctx: context.WithoutCancel(ctx)}
	return context.WithValue(ctx, readScopeKey{}, rs), rs.end
}

// scopeOf returns the Store's read scope that ctx carries, or nil.
func (s *Store) scopeOf(ctx context.Context) *readScope {
	rs, _ := ctx.Value(readScopeKey{}).(*readScope)
	if rs == nil || rs.s != s {
		return nil
	}
	return rs
}

// stmt returns the scope's transaction, beginning it if needed, and q's
// cached statement bound to it, or nil when q is not cached yet: the
// caller runs q unprepared in the transaction, and q is prepared on the
// pool once the transaction has given its connection back (preparing it
// now could wait for a connection that scopes hold, each waiting the
// same). tx is nil when the scope has ended or its transaction cannot
// begin: the read then runs on the pool, as outside a scope, and meets
// the same error there.
func (rs *readScope) stmt(ctx context.Context, c *stmtCache, q string) (tx *sql.Tx, st *sql.Stmt) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.closed {
		return nil, nil
	}
	if rs.tx == nil {
		t, err := rs.s.r.BeginTx(rs.ctx, nil)
		if err != nil {
			return nil, nil
		}
		rs.tx = t
	}
	if cached := c.lookup(q); cached != nil {
		return rs.tx, rs.tx.StmtContext(ctx, cached)
	}
	if len(rs.missed) < maxCachedStmts {
		rs.missed = append(rs.missed, q)
	}
	return rs.tx, nil
}

// release ends the scope's transaction, if one is open (the next read
// begins another). A read
// transaction has nothing to commit: its end only releases the snapshot
// and the connection.
func (rs *readScope) release() { rs.finish(false) }

// end ends the scope and prepares the statements it ran unprepared.
func (rs *readScope) end() { rs.finish(true) }

func (rs *readScope) finish(closing bool) {
	rs.mu.Lock()
	if rs.tx != nil {
		rs.tx.Rollback() //nolint:errcheck // read only: nothing is lost, the connection goes back to the pool either way
		rs.tx = nil
	}
	var missed []string
	if closing {
		rs.closed = true
		missed, rs.missed = rs.missed, nil
	}
	rs.mu.Unlock()
	if len(missed) > 0 {
		rs.s.rd.c.prepareMissed(rs.ctx, missed)
	}
}

// wrote ends the read transaction of ctx's scope, if any, after a write:
// the reads after it must see it.
func (s *Store) wrote(ctx context.Context) {
	if rs := s.scopeOf(ctx); rs != nil {
		rs.release()
	}
}
