// Package confcheck holds the checks that several adapters' configuration
// sections share, so that each rule is written once: an http(s) URL, a
// listen address. Messages name the key and its environment variable and
// say what to write.
package confcheck
