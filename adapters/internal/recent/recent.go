// Package recent remembers the last keys an adapter saw (event ids,
// message ids), so that a platform's redelivery is dropped before it
// reaches the Hub. It bounds memory: past its size, the oldest key goes.
package recent

import "sync"

// Set remembers up to n keys; it is safe for concurrent use.
type Set struct {
	mu   sync.Mutex
	keys map[string]bool
	ring []string
	next int
}

// New returns a Set remembering the last n keys (n >= 1).
func New(n int) *Set { return &Set{keys: map[string]bool{}, ring: make([]string, max(n, 1))} }

// Add records key and reports whether it was new.
func (s *Set) Add(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.keys[key] {
		return false
	}
	if old := s.ring[s.next]; old != "" {
		delete(s.keys, old)
	}
	s.ring[s.next] = key
	s.next = (s.next + 1) % len(s.ring)
	s.keys[key] = true
	return true
}

// Has reports whether key was added and is still remembered.
func (s *Set) Has(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.keys[key]
}

// Forget drops key, so that a later Add of it is new again (an event the
// Hub refused must be taken when it comes back).
func (s *Set) Forget(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.keys, key)
}
