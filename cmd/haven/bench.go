package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/havenbot/haven/adapters/telegram/telegramtest"
	"github.com/havenbot/haven/channels"
	"github.com/havenbot/haven/core"
	"github.com/havenbot/haven/llm/llmtest"
	"github.com/havenbot/haven/memory/sqlite"
	"github.com/havenbot/haven/safety"
)

// benchToken is the bot token the in-process fake Bot API accepts.
const benchToken = "123456:bench-token-abcdefghijklmnopqrstuvwxyz"

// benchTexts are what the simulated people write, in turn: everyday
// messages that take the therapeutic branch (no crisis language).
var benchTexts = []string{
	"I had a long day at work and I feel really tired",
	"my sister and I argued again and I keep thinking about it",
	"can you help me plan my week, it feels like too much",
	"I've been sleeping badly and I'm worried about my exam",
	"I don't really know how to start, things have been heavy lately",
}

// benchLoad is what one bench run drives.
type benchLoad struct {
	people, messages int
	// think is the pause between a reply and the person's next message.
	think time.Duration
	// concurrency is how many people are writing at any one time.
	concurrency int
	// ramp spreads the people's first messages evenly over this span
	// (0: all at once), as people who write now and then do not all
	// start in the same instant.
	ramp time.Duration
}

// benchResult is what one run measured.
type benchResult struct {
	answered int             // messages answered
	elapsed  time.Duration   // first message sent to last reply received
	latency  []time.Duration // one per message, sorted
	// grouped is how the store's small writes shared transactions
	// (Haven's run only).
	grouped sqlite.GroupStats
}

func (r benchResult) throughput() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(r.answered) / r.elapsed.Seconds()
}

// percentile returns the p-th percentile (0 < p <= 100) of the sorted
// latencies, nearest rank.
func (r benchResult) percentile(p float64) time.Duration {
	if len(r.latency) == 0 {
		return 0
	}
	i := int(float64(len(r.latency))*p/100+0.5) - 1
	return r.latency[min(max(i, 0), len(r.latency)-1)]
}

// bench runs `haven bench`: the same load through the whole of Haven
// (real Telegram adapter, Hub, core, SQLite, crisis gate) and through a
// bare echo bot written with the same client library, each against its
// own in-process fake Bot API, and prints throughput, turn latency and
// their ratio. A message that is not answered exactly once fails the run.
func bench(ctx context.Context, args []string, std stdio, _ func(string) (string, bool)) error {
	fs := newFlagSet("bench", std)
	var (
		load       benchLoad
		latency    time.Duration
		dir        string
		cpuprofile string
		memprofile string
		tracefile  string
		skipEcho   bool
	)
	fs.IntVar(&load.people, "people", 100, "how many simulated people write to Haven")
	fs.IntVar(&load.messages, "messages", 5, "how many messages each person sends, one after the other's reply")
	fs.DurationVar(&load.think, "think", 0, "pause between a reply and the person's next message")
	fs.IntVar(&load.concurrency, "concurrency", 0, "how many people write at the same time (0: all of them)")
	fs.DurationVar(&load.ramp, "ramp", 0, "spread the people's first messages evenly over this span (0: all at once)")
	fs.DurationVar(&latency, "model-latency", 0, "serve a fake model answering after this long (0: no model, scripted replies)")
	fs.StringVar(&dir, "dir", "", "`folder` for the bench database (default: a temporary folder, removed after)")
	fs.StringVar(&cpuprofile, "cpuprofile", "", "write a CPU profile of the Haven run to `file`")
	fs.StringVar(&memprofile, "memprofile", "", "write a profile of what the process allocated, up to the end of the Haven run, to `file`")
	fs.StringVar(&tracefile, "trace", "", "write a runtime execution trace of the Haven run to `file` (go tool trace)")
	fs.BoolVar(&skipEcho, "no-echo", false, "skip the echo-bot run")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	case load.people < 1 || load.messages < 1:
		return fmt.Errorf("%w: -people and -messages must be at least 1", errUsage)
	case load.concurrency < 0 || load.think < 0 || load.ramp < 0 || latency < 0:
		return fmt.Errorf("%w: -concurrency, -think, -ramp and -model-latency cannot be negative", errUsage)
	}
	if load.concurrency == 0 || load.concurrency > load.people {
		load.concurrency = load.people
	}
	if dir == "" {
		tmp, err := os.MkdirTemp("", "haven-bench-")
		if err != nil {
			return fmt.Errorf("bench folder: %w", err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	model := "scripted replies, no model"
	if latency > 0 {
		model = fmt.Sprintf("fake model answering in %v", latency)
	}
	fmt.Fprintf(std.out, "haven bench: %d people x %d messages, think %v, ramp %v, %d at a time, %s\n",
		load.people, load.messages, load.think, load.ramp, load.concurrency, model)

	// The recordings cover the Haven run only: each is stopped right after
	// it (and on an early return).
	var recordings []func()
	stopRecordings := func() {
		for _, stop := range recordings {
			stop()
		}
	}
	defer stopRecordings()
	for _, r := range []struct {
		path, what string
		start      func(io.Writer) error
		stop       func()
	}{
		{cpuprofile, "cpu profile", pprof.StartCPUProfile, pprof.StopCPUProfile},
		{tracefile, "trace", trace.Start, trace.Stop},
	} {
		if r.path == "" {
			continue
		}
		stop, err := record(r.path, r.what, r.start, r.stop)
		if err != nil {
			return err
		}
		recordings = append(recordings, stop)
	}
	full, err := benchHaven(ctx, load, filepath.Join(dir, "haven.db"), latency, std.err)
	stopRecordings()
	if err != nil {
		return fmt.Errorf("haven run: %w", err)
	}
	if memprofile != "" {
		if err := writeAllocs(memprofile); err != nil {
			return err
		}
	}
	fmt.Fprintf(std.out, "%-9s %8s %9s %10s %10s %10s %10s\n", "", "messages", "seconds", "msgs/s", "p50", "p95", "p99")
	printResult(std.out, "haven", full)
	if g := full.grouped; g.Batches > 0 {
		fmt.Fprintf(std.out, "group commit: %d writes (deliveries recorded, turns finished, replies sent, jobs done) in %d transactions, %.1f each\n",
			g.Writes, g.Batches, float64(g.Writes)/float64(g.Batches))
	}
	if skipEcho {
		return nil
	}
	echo, err := benchEcho(ctx, load)
	if err != nil {
		return fmt.Errorf("echo-bot run: %w", err)
	}
	printResult(std.out, "echo bot", echo)
	fmt.Fprintf(std.out, "haven/echo: throughput %.2fx, p50 latency %.1fx, p99 latency %.1fx\n",
		full.throughput()/echo.throughput(),
		ratio(full.percentile(50), echo.percentile(50)), ratio(full.percentile(99), echo.percentile(99)))
	return nil
}

func ratio(a, b time.Duration) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func printResult(w io.Writer, name string, r benchResult) {
	fmt.Fprintf(w, "%-9s %8d %9.2f %10.1f %10s %10s %10s\n", name, r.answered, r.elapsed.Seconds(), r.throughput(),
		r.percentile(50).Round(10*time.Microsecond), r.percentile(95).Round(10*time.Microsecond), r.percentile(99).Round(10*time.Microsecond))
}

// benchHaven runs load through Haven as `haven serve` wires it (config
// defaults, SQLite at dbPath, crisis gate, core, memory worker, the
// platform table's Telegram adapter in polling mode) against a fake Bot
// API, with the Hub's rate limits off: Telegram's own (about 30 messages a
// second) would be all it measured. Errors are logged to logw.
func benchHaven(ctx context.Context, load benchLoad, dbPath string, latency time.Duration, logw io.Writer) (benchResult, error) {
	srv := telegramtest.NewServer(benchToken)
	defer srv.Close()
	env := map[string]string{
		"HAVEN_TELEGRAM_TOKEN":   benchToken,
		"HAVEN_TELEGRAM_API_URL": srv.APIEndpoint(),
		"HAVEN_DATABASE_PATH":    dbPath,
		"HAVEN_LOG_LEVEL":        "error",
	}
	if latency > 0 {
		ms := llmtest.NewServer(nil)
		defer ms.Close()
		ms.SetDefault(llmtest.Reply{Latency: latency, Content: "That sounds like a lot to carry, and it makes sense that you feel worn out."})
		env["HAVEN_LLM_BASE_URL"], env["HAVEN_LLM_MODEL"] = ms.URL(), llmtest.DefaultModel
	}
	ps := platforms()
	cfg, err := loadConfigWith(commonFlags{}, func(k string) (string, bool) { v, ok := env[k]; return v, ok }, ps)
	if err != nil {
		return benchResult{}, err
	}
	log := newLogger(cfg, logw, false)
	store, err := openStore(ctx, cfg.Database.Path)
	if err != nil {
		return benchResult{}, err
	}
	defer store.Close()
	model, err := newLLM(cfg)
	if err != nil {
		return benchResult{}, err
	}
	worker, err := newMemoryWorker(cfg, store, model, nil, log)
	if err != nil {
		return benchResult{}, err
	}
	engine, err := core.New(core.Options{
		Store:             store,
		Gate:              safety.NewGate(safety.GateOptions{LLM: model, Deadline: cfg.Safety.LLMDeadline}),
		DefaultCountry:    cfg.Safety.DefaultCountry,
		LLM:               model,
		Logger:            log,
		Memories:          store,
		MemoryTokenBudget: cfg.Memory.TokenBudget,
		MemoryNotify:      worker.Notify,
	})
	if err != nil {
		return benchResult{}, err
	}
	hub := channels.NewHub(engine, store, store, channels.HubOptions{
		Workers: cfg.Hub.Workers, MaxQueued: cfg.Hub.MaxQueued, DrainTimeout: cfg.Hub.DrainTimeout,
		NoRateLimit: true, Logger: log,
	})
	var ready <-chan struct{}
	_, err = registerPlatforms(hub, ps, platformDeps{admins: cfg.Admins, store: store, log: log,
		registered: func(_ string, a channels.Adapter) {
			if r, ok := a.(interface{ Ready() <-chan struct{} }); ok {
				ready = r.Ready()
			}
		}})
	if err != nil {
		return benchResult{}, err
	}

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	wg.Go(func() { worker.Run(runCtx) })
	hubDone := make(chan error, 1)
	go func() { hubDone <- hub.Run(runCtx) }()
	if ready != nil {
		select {
		case <-ready:
		case err := <-hubDone:
			stop()
			wg.Wait()
			return benchResult{}, fmt.Errorf("haven stopped before it was ready: %w", err)
		case <-ctx.Done():
		}
	}
	res, driveErr := drive(runCtx, srv, load)
	stop()
	runErr := <-hubDone
	wg.Wait()
	if err := errors.Join(driveErr, runErr); err != nil {
		return res, err
	}
	res.grouped = store.GroupStats()
	// The Hub has drained: a reply sent twice would be in Sent by now.
	return res, checkExactlyOnce(srv.Sent(), load)
}

// benchEcho runs load through a bare echo bot: one goroutine long-polling
// getUpdates with the same client library and answering each message with
// its text.
func benchEcho(ctx context.Context, load benchLoad) (benchResult, error) {
	srv := telegramtest.NewServer(benchToken)
	defer srv.Close()
	stopEcho, err := srv.EchoBot(benchToken, 10)
	if err != nil {
		return benchResult{}, err
	}
	res, err := drive(ctx, srv, load)
	srv.Close() // ends the echo bot's waiting long poll
	stopEcho()
	if err != nil {
		return res, err
	}
	return res, checkExactlyOnce(srv.Sent(), load)
}

// benchUser is the i-th simulated person.
func benchUser(i int) tgbotapi.User {
	return tgbotapi.User{ID: int64(1_000_000 + i), FirstName: fmt.Sprintf("P%d", i), LanguageCode: "en"}
}

// drive plays load against srv: each person sends a message, waits for the
// reply, thinks, and sends the next; at most load.concurrency people are
// writing at once. A turn's latency runs from just before the update is
// queued at the fake to the moment the fake has the reply.
func drive(ctx context.Context, srv *telegramtest.Server, load benchLoad) (benchResult, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	replies := make(map[int64]chan time.Time, load.people)
	for i := range load.people {
		replies[benchUser(i).ID] = make(chan time.Time, load.messages+1)
	}
	// The watcher stamps each reply as the fake records it and hands it to
	// its person; more replies than messages fail the run.
	extra := make(chan int64, 1)
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		seen := 0
		for {
			sent, err := srv.WaitSentAfter(ctx, seen)
			if err != nil {
				return
			}
			now := time.Now()
			for _, s := range sent {
				select {
				case replies[s.ChatID] <- now:
				default: // a chat that is no person's, or more replies than messages
					select {
					case extra <- s.ChatID:
						cancel()
					default:
					}
				}
			}
			seen += len(sent)
		}
	}()

	var (
		mu      sync.Mutex
		lat     = make([]time.Duration, 0, load.people*load.messages)
		last    time.Time
		failure error
	)
	slots := make(chan struct{}, load.concurrency)
	var people sync.WaitGroup
	start := time.Now()
	for i := range load.people {
		people.Go(func() {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-slots }()
			if load.ramp > 0 {
				t := time.NewTimer(time.Duration(i) * load.ramp / time.Duration(load.people))
				select {
				case <-t.C:
				case <-ctx.Done():
					t.Stop()
					return
				}
			}
			u := benchUser(i)
			chat := telegramtest.PrivateChat(u)
			mine := make([]time.Duration, 0, load.messages)
			for m := range load.messages {
				msg := srv.NewMessage(chat, u, benchTexts[(i+m)%len(benchTexts)])
				t0 := time.Now()
				srv.Inject(msg)
				select {
				case at := <-replies[u.ID]:
					mine = append(mine, at.Sub(t0))
				case <-ctx.Done():
					mu.Lock()
					if failure == nil {
						failure = fmt.Errorf("person %d: message %d of %d unanswered: %w", i, m+1, load.messages, context.Cause(ctx))
					}
					mu.Unlock()
					return
				}
				if load.think > 0 && m < load.messages-1 {
					t := time.NewTimer(load.think)
					select {
					case <-t.C:
					case <-ctx.Done():
						t.Stop()
						return
					}
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			if now := time.Now(); now.After(last) {
				last = now
			}
			mu.Unlock()
		})
	}
	people.Wait()
	cancel()
	<-watchDone
	select {
	case chat := <-extra:
		return benchResult{}, fmt.Errorf("chat %d got a reply it did not ask for (a message answered twice?)", chat)
	default:
	}
	if failure != nil {
		return benchResult{}, failure
	}
	slices.Sort(lat)
	return benchResult{answered: len(lat), elapsed: last.Sub(start), latency: lat}, nil
}

// checkExactlyOnce checks that every person got exactly one reply per
// message and nobody else got anything.
func checkExactlyOnce(sent []telegramtest.Sent, load benchLoad) error {
	per := make(map[int64]int, load.people)
	for _, s := range sent {
		per[s.ChatID]++
	}
	for i := range load.people {
		id := benchUser(i).ID
		if n := per[id]; n != load.messages {
			return fmt.Errorf("person %d got %d replies to %d messages", i, n, load.messages)
		}
		delete(per, id)
	}
	for chat, n := range per {
		return fmt.Errorf("chat %d, no person's, got %d messages", chat, n)
	}
	return nil
}

// record creates path and starts a recording (what: a CPU profile, an
// execution trace) into it. The function it returns stops the recording
// and closes the file; it may be called more than once.
func record(path, what string, start func(io.Writer) error, stop func()) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", what, err)
	}
	if err := start(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("start %s: %w", what, err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			stop()
			f.Close()
		})
	}, nil
}

// writeAllocs writes the allocations profile (everything allocated since
// the process started, sampled) to path.
func writeAllocs(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create memory profile: %w", err)
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("write memory profile %s: %w", path, err)
	}
	return f.Close()
}
