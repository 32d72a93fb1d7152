package main

import (
	"context"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core"
	"github.com/havenbot/haven/llm"
)

// statusProbeTimeout bounds the model probe of /haven status when the
// model has no timeout of its own.
const statusProbeTimeout = 10 * time.Second

// lastBackuper says when the database was last backed up (memory/sqlite's
// Store).
type lastBackuper interface {
	LastBackup(ctx context.Context) (time.Time, bool, error)
}

// hubStats is the Hub's counters (channels.Hub).
type hubStats interface{ Stats() channels.Stats }

// statusSource answers /haven status for a serving process: the core asks
// it, serve fills it as it wires the Hub and the adapters (before the Hub
// runs).
type statusSource struct {
	started time.Time
	model   llm.Client // nil: no model configured
	timeout time.Duration
	dbPath  string
	backups lastBackuper

	mu       sync.Mutex
	hub      hubStats
	adapters []statusAdapter
}

type statusAdapter struct {
	name string
	a    channels.Adapter
}

// setHub sets the Hub whose queues status reports.
func (s *statusSource) setHub(h hubStats) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hub = h
}

// addAdapter adds a served platform.
func (s *statusSource) addAdapter(name string, a channels.Adapter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.adapters = append(s.adapters, statusAdapter{name: name, a: a})
}

// Status implements core.StatusSource.
func (s *statusSource) Status(ctx context.Context) core.Status {
	s.mu.Lock()
	hub, adapters := s.hub, append([]statusAdapter(nil), s.adapters...)
	s.mu.Unlock()
	st := core.Status{Version: version(), Started: s.started}
	for _, a := range adapters {
		as := core.AdapterStatus{Platform: a.name}
		if l, ok := a.a.(channels.Live); ok {
			as.Reports, as.Liveness = true, l.Liveness()
		}
		st.Adapters = append(st.Adapters, as)
	}
	if hub != nil {
		st.Hub = hub.Stats()
	}
	st.Model = s.probe(ctx)
	if s.dbPath != "" {
		for _, p := range []string{s.dbPath, s.dbPath + "-wal"} {
			if fi, err := os.Stat(p); err == nil {
				st.DatabaseBytes += fi.Size()
			}
		}
	}
	if s.backups != nil {
		if at, ok, err := s.backups.LastBackup(ctx); err == nil && ok {
			st.LastBackup = at
		}
	}
	return st
}

// probe asks the model for one word, with a deadline.
func (s *statusSource) probe(ctx context.Context) core.ModelStatus {
	if s.model == nil {
		return core.ModelStatus{}
	}
	timeout := s.timeout
	if timeout <= 0 {
		timeout = statusProbeTimeout
	}
	start := time.Now()
	_, err := s.model.Complete(ctx, llm.Request{
		Messages:  []llm.Message{{Role: llm.RoleUser, Content: "Reply with the one word: ok"}},
		MaxTokens: 5, Timeout: timeout,
	})
	return core.ModelStatus{Configured: true, Latency: time.Since(start), Err: err}
}

// version is the build's module version ("(devel)" for a local build).
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "unknown"
}
