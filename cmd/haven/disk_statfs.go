//go:build linux || darwin || freebsd

package main

import "syscall"

// freeBytes returns the bytes available to this user on the filesystem
// holding path; ok is false when the system cannot say.
func freeBytes(path string) (free uint64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return 0, false
	}
	return uint64(st.Bavail) * uint64(st.Bsize), true
}
