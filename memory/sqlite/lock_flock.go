//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package sqlite

import (
	"errors"
	"os"
	"syscall"
)

// lockSupported reports whether this system enforces the database lock.
const lockSupported = true

// tryLock takes an exclusive flock on f without waiting; held is false when
// another open file (of this process or another) holds it. flock locks
// belong to the open file, not the process, so two Stores in one process
// exclude each other too.
func tryLock(f *os.File) (held bool, err error) {
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		case errors.Is(err, syscall.EINTR):
			continue
		}
		return false, err
	}
}
