//go:build unix && !linux

package main

import "syscall"

// childAttr is nothing special where the kernel cannot kill a child with
// its parent: the tests' cleanups kill the haven processes they start.
func childAttr() *syscall.SysProcAttr { return nil }
