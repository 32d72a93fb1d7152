package core

import "github.com/havenbot/haven/memory/sqlite"

// The SQLite store is the engine's memory in production (memory/sqlite may
// not import core, so the check lives here).
var _ MemoryStore = (*sqlite.Store)(nil)
