package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/metrics"
)

// ops is the operator's view of a serving process: its metrics, its
// readiness, and the HTTP endpoint (metrics.listen) serving /metrics,
// /healthz and /readyz. serve builds one and hands its hooks to the parts
// it wires.
type ops struct {
	m     *metrics.Metrics
	ready *readiness
	log   *slog.Logger
}

func newOps(log *slog.Logger) *ops {
	return &ops{m: metrics.New(), ready: &readiness{}, log: log}
}

// model returns c counted under use ("crisis", "turn", "memory"); nil
// stays nil.
func (o *ops) model(c llm.Client, use string) llm.Client { return o.m.Model(c, use) }

// httpClient returns an HTTP client for a platform adapter whose calls are
// counted and whose latest outcome feeds readiness.
func (o *ops) httpClient(platform string) *http.Client {
	base := http.DefaultTransport.(*http.Transport).Clone()
	return &http.Client{Transport: o.m.Transport(platform, base)}
}

// platform adds a served platform to readiness and haven_platform_up: live
// while its adapter is connected (when it can say so, through Ready or
// channels.Live) and its API's latest answer was healthy. An adapter that
// reports liveness also gets the age of its last event and heartbeat as
// metrics.
func (o *ops) platform(name string, a channels.Adapter) {
	reporter, _ := a.(channels.Live)
	live := func() error {
		if r, ok := a.(interface{ Ready() <-chan struct{} }); ok {
			select {
			case <-r.Ready():
			default:
				return fmt.Errorf("%s: not connected yet", name)
			}
		}
		if reporter != nil && !reporter.Liveness().Connected {
			return fmt.Errorf("%s: not connected", name)
		}
		return o.m.PlatformProblem(name)
	}
	o.ready.addPlatform(name, live)
	o.m.WatchPlatform(name, live)
	if reporter != nil {
		o.m.WatchLiveness(name, reporter.Liveness)
	}
	if c, ok := a.(interface{ SkippedEvents() uint64 }); ok {
		o.m.WatchSkipped(name, c.SkippedEvents)
	}
}

// start watches store and hub, counts Haven as shutting down once ctx is
// done, and serves the endpoint on addr ("" serves none). It returns the
// address it listens on ("" for none) and stop, which ends it all; call
// stop after the Hub has drained, so that /readyz says "shutting down"
// meanwhile.
func (o *ops) start(ctx context.Context, addr string, store writable, hub metrics.HubStats) (listening string, stop func(), err error) {
	o.ready.store, o.ready.serving = store, ctx
	o.m.WatchHub(hub)
	if addr == "" {
		return "", func() { o.ready.stopped.Store(true) }, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("metrics.listen: cannot listen on %s (is another process using it?): %w", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", o.m.Handler())
	mux.HandleFunc("GET /healthz", alive)
	mux.Handle("GET /readyz", o.ready)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			o.log.Error("operator endpoint stopped", slog.Any("err", err))
		}
	}()
	listening = ln.Addr().String()
	o.log.Info("operator endpoint listening", slog.String("addr", listening), slog.String("paths", "/metrics /healthz /readyz"))
	return listening, func() {
		o.ready.stopped.Store(true)
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second) // scrapes are short
		defer cancel()
		_ = srv.Shutdown(shutdown)
		<-done
	}, nil
}
