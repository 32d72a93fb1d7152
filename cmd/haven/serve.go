package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/havenbot/haven/adapters/console"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/configs"
	"github.com/havenbot/haven/core"
	"github.com/havenbot/haven/llm"
	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/extract"
	"github.com/havenbot/haven/memory/jobs"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// serve runs Haven: every configured platform adapter, or the console when
// none is configured (or when consoleOnly, for `haven chat`). It returns when
// ctx is done (SIGINT, SIGTERM) or, for the console, at the end of input,
// after every queued reply has been delivered.
func serve(ctx context.Context, args []string, std stdio, env func(string) (string, bool), consoleOnly bool) error {
	name := "serve"
	if consoleOnly {
		name = "chat"
	}
	var flags commonFlags
	fs := newFlagSet(name, std)
	flags.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	ps := platforms()
	cfg, err := loadConfigWith(flags, env, ps)
	if err != nil {
		return err
	}
	interactive := isTerminal(std.in)
	useConsole := consoleOnly || !cfg.AnyPlatformEnabled()
	log := newLogger(cfg, std.err, useConsole)
	obs := newOps(log) // metrics and health: observe.go

	store, err := openStore(ctx, cfg.Database.Path)
	if err != nil {
		return err
	}
	defer store.Close()
	warnCountry(cfg, log)

	model, err := newLLM(cfg)
	if err != nil {
		return err
	}
	gate := safety.NewGate(safety.GateOptions{LLM: obs.model(model, "crisis"), Deadline: cfg.Safety.LLMDeadline})
	embedder, err := newEmbedder(cfg)
	if err != nil {
		return err
	}
	worker, err := newMemoryWorker(cfg, store, obs.model(model, "memory"), embedder, log)
	if err != nil {
		return err
	}
	reloader := &configReloader{current: cfg, load: func() (configs.Config, []string, error) {
		fresh := platforms()
		names := make([]string, len(fresh))
		for i, p := range fresh {
			names[i] = p.name
		}
		c, err := loadConfigWith(flags, env, fresh)
		return c, names, err
	}}
	status := &statusSource{started: time.Now(), model: model, timeout: cfg.LLM.Timeout, dbPath: cfg.Database.Path, backups: store}
	var sched schedulerRef
	opts := core.Options{
		Status:            status,
		Reloader:          reloader,
		Stats:             store,
		People:            store,
		CrisisLog:         store,
		Store:             store,
		Gate:              gate,
		DefaultCountry:    cfg.Safety.DefaultCountry,
		AlertConversation: cfg.Safety.AlertConversation,
		LLM:               obs.model(model, "turn"),
		Observe:           obs.m.ObserveTurn,
		Logger:            log,
		Memories:          store,
		MemoryTokenBudget: cfg.Memory.TokenBudget,
		MemoryNotify:      worker.Notify,
		Admins:            cfg.Admins,
		Channels:          store,
		// The scheduler starts after the Hub, which needs the engine.
		ReminderWake: sched.wake,
	}
	if embedder != nil {
		opts.Embedder = embedder
	}
	engine, err := core.New(opts)
	if err != nil {
		return err
	}
	reloader.apply = engine // before any turn can ask for a reload
	// The memory worker runs beside the hub and stops after it: at shutdown
	// it first finishes the jobs already queued (bounded by the drain
	// timeout); whatever it cannot finish stays queued for the next start.
	//
	// The whole shutdown, the Hub's drain, the webhook servers' and the
	// memory jobs', ends within one drain timeout of the stop signal.
	stopBy := newShutdownDeadline(ctx, cfg.Hub.DrainTimeout)
	defer stopBy.release()
	workerCtx, stopWorker := context.WithCancel(context.WithoutCancel(ctx))
	workerDone := make(chan struct{})
	go func() {
		defer close(workerDone)
		worker.Run(workerCtx)
	}()
	defer func() {
		stopWorker()
		<-workerDone
		deadline := stopBy.at()
		if !time.Now().Before(deadline) {
			log.Info("no time left of the drain timeout for memory jobs; those queued run at the next start")
			return
		}
		drainCtx, cancel := context.WithDeadline(context.WithoutCancel(ctx), deadline)
		defer cancel()
		if err := worker.Drain(drainCtx); err != nil {
			log.Warn("memory jobs left for the next start", slog.Any("err", err))
		}
	}()
	hub := channels.NewHub(engine, store, store, channels.HubOptions{
		Workers:      cfg.Hub.Workers,
		MaxQueued:    cfg.Hub.MaxQueued,
		DrainTimeout: cfg.Hub.DrainTimeout,
		MaxAge:       cfg.Hub.ReplyMaxAge,
		// A terminal has no platform rate limit to respect.
		NoRateLimit: useConsole,
		Logger:      log,
		Policies:    store,
	})
	status.setHub(hub)
	stopScheduler, err := startScheduler(ctx, cfg, store, hub, log, &sched)
	if err != nil {
		return err
	}
	defer stopScheduler() // before the Hub's Run returns its drain: it refuses new messages by then
	_, stopOps, err := obs.start(ctx, cfg.Metrics.Listen, store, hub)
	if err != nil {
		return err
	}
	defer stopOps() // after the Hub has drained: /readyz says so meanwhile
	if useConsole {
		con := console.New(console.Options{
			In: std.in, Out: std.out, Name: cfg.Console.Name, Interactive: interactive,
		})
		hub.Register(con)
		status.addAdapter(console.Platform, con)
		if interactive {
			fmt.Fprintln(std.out, "Haven: an AI companion in your terminal. Type /help for commands, Ctrl-D to leave.")
		}
		if err := hub.Run(ctx); err != nil {
			return fmt.Errorf("run: %w", err)
		}
		return nil
	}
	handlers, err := registerPlatforms(hub, ps, platformDeps{admins: cfg.Admins, store: store, log: log,
		httpClient: obs.httpClient, registered: func(name string, a channels.Adapter) {
			obs.platform(name, a)
			status.addAdapter(name, a)
		}})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	waitHTTP, err := serveHTTP(ctx, handlers, stopBy.at, log)
	if err != nil {
		return err
	}
	runErr := hub.Run(ctx)
	cancel()
	if err := errors.Join(runErr, waitHTTP()); err != nil {
		return fmt.Errorf("run: %w", err)
	}
	return nil
}

// serveHTTP serves each handler on its address until ctx is done, then
// shuts the servers down, waiting for requests in flight until stopBy()
// at most. It returns the first listen error.
func serveHTTP(ctx context.Context, handlers map[string]http.Handler, stopBy func() time.Time, log *slog.Logger) (wait func() error, err error) {
	var servers []*http.Server
	errc := make(chan error, len(handlers))
	for addr, h := range handlers {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			for _, s := range servers {
				s.Close()
			}
			return nil, fmt.Errorf("listen on %s: %w", addr, err)
		}
		srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
		servers = append(servers, srv)
		log.Info("webhook server listening", slog.String("addr", ln.Addr().String()))
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				errc <- fmt.Errorf("serve %s: %w", addr, err)
				return
			}
			errc <- nil
		}()
	}
	return func() error {
		<-ctx.Done()
		shutdown, cancel := context.WithDeadline(context.Background(), stopBy())
		defer cancel()
		for _, s := range servers {
			_ = s.Shutdown(shutdown)
		}
		var first error
		for range servers {
			if err := <-errc; err != nil && first == nil {
				first = err
			}
		}
		return first
	}, nil
}

// shutdownDeadline is when a serving process must have stopped: one drain
// timeout after its context was done.
type shutdownDeadline struct {
	drain time.Duration
	mu    sync.Mutex
	done  time.Time // when ctx was done; zero until then
	stop  func() bool
}

// newShutdownDeadline starts watching ctx; call release when serving ends.
func newShutdownDeadline(ctx context.Context, drain time.Duration) *shutdownDeadline {
	d := &shutdownDeadline{drain: drain}
	d.stop = context.AfterFunc(ctx, func() {
		d.mu.Lock()
		d.done = time.Now()
		d.mu.Unlock()
	})
	return d
}

// at returns the deadline: a drain timeout after ctx was done, or after
// now when it is not (the terminal chat's input ended).
func (d *shutdownDeadline) at() time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done.IsZero() {
		return time.Now().Add(d.drain)
	}
	return d.done.Add(d.drain)
}

func (d *shutdownDeadline) release() { d.stop() }

// loadConfig loads and validates the configuration, with every platform's
// section (see platforms).
func loadConfig(flags commonFlags, env func(string) (string, bool)) (configs.Config, error) {
	return loadConfigWith(flags, env, platforms())
}

// loadConfigWith loads and validates the configuration, filling the
// settings of the platforms ps.
func loadConfigWith(flags commonFlags, env func(string) (string, bool), ps []platform) (configs.Config, error) {
	cfg, err := configs.Load(flags.config, env, sections(ps)...)
	if err != nil {
		return cfg, err
	}
	if flags.db != "" {
		cfg.Database.Path = flags.db
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("invalid configuration:\n%w", err)
	}
	return cfg, nil
}

// newLLM returns the configured model client, or nil when none is configured.
func newLLM(cfg configs.Config) (llm.Client, error) {
	if !cfg.LLMEnabled() {
		return nil, nil
	}
	c, err := llm.NewOpenAI(llm.OpenAIConfig{
		BaseURL: cfg.LLM.BaseURL,
		Model:   cfg.LLM.Model,
		APIKey:  cfg.LLM.APIKey,
		Timeout: cfg.LLM.Timeout,
	})
	if err != nil {
		return nil, fmt.Errorf("configure llm: %w", err)
	}
	return c, nil
}

// newLogger builds the structured logger. In the terminal chat, logs below
// warnings are kept out of the conversation unless debug was asked for.
func newLogger(cfg configs.Config, w io.Writer, console bool) *slog.Logger {
	level := cfg.SlogLevel()
	if console && level > slog.LevelDebug && level < slog.LevelWarn {
		level = slog.LevelWarn
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// isTerminal reports whether r is a character device (an interactive terminal).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// newEmbedder returns the configured embedding client, or nil when vector
// search is not configured.
func newEmbedder(cfg configs.Config) (*llm.OpenAIEmbedder, error) {
	if !cfg.EmbeddingsEnabled() {
		return nil, nil
	}
	e, err := llm.NewOpenAIEmbedder(llm.EmbedderConfig{
		BaseURL: cfg.EmbeddingsURL(),
		Model:   cfg.Memory.EmbeddingsModel,
		APIKey:  cfg.LLM.APIKey,
		Timeout: cfg.LLM.Timeout,
	})
	if err != nil {
		return nil, fmt.Errorf("configure embeddings: %w", err)
	}
	return e, nil
}

// newMemoryWorker returns the background worker of the memory queue.
func newMemoryWorker(cfg configs.Config, store *sqlite.Store, model llm.Client, embedder *llm.OpenAIEmbedder, log *slog.Logger) (*jobs.Runner, error) {
	o := jobs.Options{
		Store:       store,
		Extractor:   &extract.Extractor{LLM: extractionLLM(model), Log: log},
		IdleTimeout: cfg.Memory.IdleTimeout,
		Retention: memory.Retention{
			Transcripts: cfg.Memory.TranscriptRetention,
			Inactive:    cfg.Memory.InactiveRetention,
			CrisisLog:   cfg.Memory.CrisisLogRetention,
			Deliveries:  cfg.Memory.DeliveryRetention,
		},
		Logger: log,
	}
	if embedder != nil {
		o.Embedder = embedder
	}
	return jobs.New(o)
}
