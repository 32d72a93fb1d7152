package sqlite

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrInUse is wrapped by Open's error when another Haven serves from the
// database (holds its lock file); the error names the file and, when it can
// tell, the other process's id.
var ErrInUse = errors.New("database is in use by another Haven")

// LockSuffix is appended to the database path to name its lock file
// ("haven.db.lock"). The file stays after Close: removing it would let two
// processes lock two different files of the same name.
const LockSuffix = ".lock"

// inUseError is ErrInUse with what to do, in one sentence.
type inUseError struct{ msg string }

func (e *inUseError) Error() string        { return e.msg }
func (e *inUseError) Is(target error) bool { return target == ErrInUse }

// fileLock is a serving Store's exclusive hold on its database: an OS lock
// (flock) on the side file LockSuffix names, which the OS releases when the
// process ends however it ends. It is not SQLite's locking, so the
// operations that open the file by path (Backup, SchemaStatus,
// CheckFileWritable) go on working while a Store serves from it.
type fileLock struct {
	f *os.File
}

// lockDatabase takes the exclusive lock of the database at abs (an
// absolute path) and writes this process's id into the lock file. It fails
// with an error wrapping ErrInUse when another Store, in this process or
// another, holds it.
func lockDatabase(abs string) (*fileLock, error) {
	// A symlink to the database and the database itself share one lock.
	target := abs
	if p, err := filepath.EvalSymlinks(abs); err == nil {
		target = p
	}
	path := target + LockSuffix
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open haven database %s: create its lock file %s: %w", abs, path, err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open haven database %s: lock %s: %w", abs, path, err)
	}
	if !held {
		pid := holderPID(f)
		f.Close()
		return nil, &inUseError{msg: fmt.Sprintf("another Haven (pid %s) is serving %s; stop it first, or give this one another --db", pid, abs)}
	}
	// The id is for the message above and for people; the lock is the flock.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &fileLock{f: f}, nil
}

// holderPID reads the process id the lock's holder wrote, or "unknown"
// (the holder may not have written it yet).
func holderPID(f *os.File) string {
	b, err := io.ReadAll(io.NewSectionReader(f, 0, 32))
	if err != nil {
		return "unknown"
	}
	s := strings.TrimSpace(string(b))
	if _, err := strconv.Atoi(s); err != nil {
		return "unknown"
	}
	return s
}

// release lets another Store take the database. The lock file stays.
func (l *fileLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the descriptor drops the flock
	l.f = nil
	return err
}
