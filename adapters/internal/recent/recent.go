// Package recent remembers the last keys an adapter saw (event ids,
// message ids), so that a platform's redelivery is dropped before it
// reaches the Hub, and what it needs to keep about its latest messages
// for a little while. It bounds memory: past its size, the oldest key
// goes.
package recent

import "sync"

// Map remembers a value for each of the last n keys put; it is safe for
// concurrent use.
type Map[V any] struct {
	mu   sync.Mutex
	vals map[string]V
	ring []string
	next int
}

// NewMap returns a Map remembering the last n keys (n >= 1).
func NewMap[V any](n int) *Map[V] {
	return &Map[V]{vals: map[string]V{}, ring: make([]string, max(n, 1))}
}

// Put records v for key and reports whether key was new; a key still
// remembered keeps its place and takes the new value.
func (m *Map[V]) Put(key string, v V) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.vals[key]; ok {
		m.vals[key] = v
		return false
	}
	if old := m.ring[m.next]; old != "" {
		delete(m.vals, old)
	}
	m.ring[m.next] = key
	m.next = (m.next + 1) % len(m.ring)
	m.vals[key] = v
	return true
}

// Has reports whether key was put and is still remembered.
func (m *Map[V]) Has(key string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.vals[key]
	return ok
}

// Take returns key's value and forgets it; ok is false when key is not
// remembered.
func (m *Map[V]) Take(key string) (v V, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok = m.vals[key]
	delete(m.vals, key)
	return v, ok
}

// Set remembers up to n keys; it is safe for concurrent use.
type Set struct{ m *Map[struct{}] }

// New returns a Set remembering the last n keys (n >= 1).
func New(n int) *Set { return &Set{m: NewMap[struct{}](n)} }

// Add records key and reports whether it was new.
func (s *Set) Add(key string) bool { return s.m.Put(key, struct{}{}) }

// Has reports whether key was added and is still remembered.
func (s *Set) Has(key string) bool { return s.m.Has(key) }

// Forget drops key, so that a later Add of it is new again (an event the
// Hub refused must be taken when it comes back).
func (s *Set) Forget(key string) { s.m.Take(key) }
