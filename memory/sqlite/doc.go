// Package sqlite is Haven's embedded default store: one SQLite file (via the
// pure-Go modernc.org/sqlite driver) in WAL mode, written through a single
// writer connection whose transactions begin IMMEDIATE, and read through a
// small pool of query-only connections. The schema is embedded and migrated
// with goose at Open (migrations/*.sql, and wire.go's Go migration of the
// stored messages).
//
// Store implements memory.Store and memory.Searcher, memory/jobs.Store,
// core.MemoryStore, and channels.Inbox and channels.Outbox. Every SQL
// statement Haven runs against SQLite lives in this package, one file per
// entity (people.go, sessions.go, transcript.go, facts.go, episodes.go,
// rules.go, jobs.go, inbox.go, outbox.go, ...). Search is index.go (what is
// indexed), search.go and bm25.go (full text), vector.go and veccache.go
// (vectors); store.go opens the file and stmts.go keeps statements
// prepared.
//
// sqlite imports memory and channels, never core.
package sqlite
