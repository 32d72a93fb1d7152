//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package sqlite

import "os"

// lockSupported reports whether this system enforces the database lock. It
// does not here: Haven has no flock on this system, so a second Haven on
// the same file is not refused (SQLite's own locking still keeps the file
// consistent).
const lockSupported = false

// tryLock always succeeds: see lockSupported.
func tryLock(*os.File) (bool, error) { return true, nil }
