package main

import "syscall"

// childAttr makes a haven process started by a test die with the test
// process (the kernel kills it when its parent thread ends), so that a
// test binary that crashes or times out leaves none running. Go's threads
// do not end while the process runs, unless a goroutine locked to one
// exits, which no test here does.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
