package telegram

import (
	"context"
	"sync"
)

// OffsetStore keeps the last update_id the Hub accepted, durably, so that a
// restarted adapter neither replays nor skips updates. The memory/sqlite
// store implements it in production.
type OffsetStore interface {
	// LoadOffset returns the value last saved under key, or 0 and no error
	// when nothing was saved.
	LoadOffset(ctx context.Context, key string) (int64, error)
	// SaveOffset durably stores v under key, replacing what was there.
	SaveOffset(ctx context.Context, key string, v int64) error
}

// MemoryOffsets is an OffsetStore in memory, for tests and for running
// without a database; it forgets everything when the process ends. The zero
// value is ready to use.
type MemoryOffsets struct {
	mu sync.Mutex
	m  map[string]int64
}

// LoadOffset returns the value saved under key, or 0.
func (s *MemoryOffsets) LoadOffset(_ context.Context, key string) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[key], nil
}

// SaveOffset stores v under key.
func (s *MemoryOffsets) SaveOffset(_ context.Context, key string, v int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]int64{}
	}
	s.m[key] = v
	return nil
}
