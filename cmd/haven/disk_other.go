//go:build !(linux || darwin || freebsd)

package main

// freeBytes cannot tell the free space on this system.
func freeBytes(string) (uint64, bool) { return 0, false }
