package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// readyTimeout bounds the checks of one /readyz request.
const readyTimeout = 3 * time.Second

// writable is the store's side of readiness: sqlite.Store implements it.
type writable interface {
	CheckWritable(ctx context.Context) error
}

// liveCheck says whether one platform's adapter is connected and its API
// answers: nil when it is.
type liveCheck struct {
	name string
	live func() error
}

// readiness answers /readyz: Haven is ready while its database can be
// written, every platform it serves is connected and answering, and it is
// not shutting down. Its methods are safe for concurrent use.
type readiness struct {
	store writable
	// serving is done once Haven is asked to stop (SIGTERM); stopped is
	// set when the Hub has stopped on its own.
	serving context.Context
	stopped atomic.Bool
	mu      sync.Mutex
	checks  []liveCheck
}

// addPlatform adds a platform to the checks.
func (r *readiness) addPlatform(name string, live func() error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.checks = append(r.checks, liveCheck{name: name, live: live})
}

// problems returns what keeps Haven from being ready, each in plain words;
// none when it is ready.
func (r *readiness) problems(ctx context.Context) []string {
	var out []string
	if r.stopped.Load() || (r.serving != nil && r.serving.Err() != nil) {
		out = append(out, "shutting down: finishing queued turns and replies, taking no new messages")
	}
	if r.store != nil {
		if err := r.store.CheckWritable(ctx); err != nil {
			out = append(out, "database: "+err.Error())
		}
	}
	r.mu.Lock()
	checks := append([]liveCheck(nil), r.checks...)
	r.mu.Unlock()
	for _, c := range checks {
		if err := c.live(); err != nil {
			out = append(out, err.Error())
		}
	}
	return out
}

// ServeHTTP answers 200 "ready" or 503 with one line per problem.
func (r *readiness) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	ctx, cancel := context.WithTimeout(req.Context(), readyTimeout)
	defer cancel()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if p := r.problems(ctx); len(p) > 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "not ready:\n- %s\n", strings.Join(p, "\n- "))
		return
	}
	fmt.Fprintln(w, "ready")
}

// alive answers /healthz: 200 while the process serves HTTP at all.
func alive(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintln(w, "ok")
}
