package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/extract"
)

// Store is what the Runner needs of the store: the queue and what each job
// kind reads and writes. memory/sqlite's Store implements it.
type Store interface {
	Queue
	ExtractionStore
	SessionStore
	Retainer
}

// Queue is the durable job queue the Runner works.
type Queue interface {
	// Claim leases the oldest due job for lease, or returns ok false when
	// none is due. A leased job not finished before its lease ends is
	// claimed again (a crash or restart loses no job).
	Claim(ctx context.Context, lease time.Duration) (j memory.Job, ok bool, err error)
	// Finish deletes a done job.
	Finish(ctx context.Context, id int64) error
	// Retry returns a failed job to the queue, due again after delay.
	Retry(ctx context.Context, id int64, delay time.Duration) error
}

// Options configure a Runner. Store is required.
type Options struct {
	Store Store
	// Extractor finds memories; nil uses patterns only.
	Extractor *extract.Extractor
	// Embedder, when set, embeds each new fact and episode.
	Embedder memory.Embedder
	// IdleTimeout ends a session with no activity for this long; zero means
	// 30 minutes.
	IdleTimeout time.Duration
	// Retention is applied by the retention job.
	Retention memory.Retention
	// Poll is how often the queue is checked without a Notify; zero means 2s.
	Poll time.Duration
	// SweepEvery is how often idle sessions are ended and retention
	// applied; zero means a minute.
	SweepEvery time.Duration
	// Lease is how long a claimed job is held before another claim may take
	// it; zero means 2 minutes.
	Lease time.Duration
	// MaxAttempts bounds the tries of a failing job; zero means 8.
	MaxAttempts int
	// Clock returns the current time; nil means time.Now.
	Clock func() time.Time
	// Logger receives structured logs (never message text above debug); nil
	// means slog.Default().
	Logger *slog.Logger
}

// Runner runs the memory jobs in the background: extraction after each
// turn, episodes at session end, the idle-session sweep and retention. Its
// owner calls Run and cancels its context to stop it.
type Runner struct {
	o       Options
	extract extraction
	notify  chan struct{}
}

// New returns a Runner, or an error naming a missing option.
func New(o Options) (*Runner, error) {
	if o.Store == nil {
		return nil, errors.New("jobs: Options.Store is required")
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 30 * time.Minute
	}
	if o.Poll <= 0 {
		o.Poll = 2 * time.Second
	}
	if o.SweepEvery <= 0 {
		o.SweepEvery = time.Minute
	}
	if o.Lease <= 0 {
		o.Lease = 2 * time.Minute
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 8
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Extractor == nil {
		o.Extractor = &extract.Extractor{Log: o.Logger}
	}
	x := extraction{store: o.Store, extractor: o.Extractor, embedder: o.Embedder, now: o.Clock, log: o.Logger}
	return &Runner{o: o, extract: x, notify: make(chan struct{}, 1)}, nil
}

// Notify tells the runner a job was queued. It never blocks.
func (r *Runner) Notify() {
	select {
	case r.notify <- struct{}{}:
	default:
	}
}

// Run works the queue until ctx is done, then returns nil. It ends idle
// sessions and applies retention at start and every SweepEvery.
func (r *Runner) Run(ctx context.Context) error {
	poll := time.NewTicker(r.o.Poll)
	defer poll.Stop()
	sweep := time.NewTicker(r.o.SweepEvery)
	defer sweep.Stop()
	r.maintain(ctx)
	// A job that has started runs to its end even when ctx is cancelled
	// (its model calls keep their own deadlines): cancelling mid-job would
	// leave it leased or pushed back by a retry backoff, and the shutdown
	// Drain that follows would not see it.
	jobs := context.WithoutCancel(ctx)
	for {
		if err := r.drain(ctx, jobs); err != nil && ctx.Err() == nil {
			r.o.Logger.Error("memory jobs: queue", slog.Any("err", err))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-r.notify:
		case <-poll.C:
		case <-sweep.C:
			r.maintain(ctx)
		}
	}
}

// maintain runs the periodic jobs: the idle-session sweep, then retention.
// Their failures are logged; the next sweep tries again.
func (r *Runner) maintain(ctx context.Context) {
	if _, err := r.SweepIdle(ctx); err != nil && ctx.Err() == nil {
		r.o.Logger.Error("memory jobs: idle sweep", slog.Any("err", err))
	}
	if err := r.applyRetention(ctx); err != nil && ctx.Err() == nil {
		r.o.Logger.Error("memory jobs: retention", slog.Any("err", err))
	}
}

// Drain runs due jobs until none is left or ctx is done.
func (r *Runner) Drain(ctx context.Context) error {
	return r.drain(ctx, ctx)
}

// drain runs due jobs with jobCtx until none is left or stop is done; it
// checks stop between jobs only.
func (r *Runner) drain(stop, jobCtx context.Context) error {
	for stop.Err() == nil {
		did, err := r.RunOnce(jobCtx)
		if err != nil {
			return err
		}
		if !did {
			return nil
		}
	}
	return stop.Err()
}

// RunOnce claims and runs one due job. did is false when none was due. A
// failing job is retried later with backoff, and dropped (logged) after
// MaxAttempts; only a failure of the queue itself is returned.
func (r *Runner) RunOnce(ctx context.Context) (did bool, err error) {
	j, ok, err := r.o.Store.Claim(ctx, r.o.Lease)
	if err != nil || !ok {
		return false, err
	}
	var jerr error
	switch j.Kind {
	case memory.JobTurn:
		jerr = r.extract.turn(ctx, j)
	case memory.JobSessionEnd:
		jerr = r.extract.sessionEnd(ctx, j)
	default:
		jerr = fmt.Errorf("unknown job kind %q", j.Kind)
	}
	if jerr == nil || j.Attempts >= r.o.MaxAttempts {
		if jerr != nil {
			r.o.Logger.Error("memory job dropped after retries", slog.Int64("job", j.ID), slog.String("kind", string(j.Kind)),
				slog.Int("attempts", j.Attempts), slog.Any("err", jerr))
		}
		return true, r.o.Store.Finish(ctx, j.ID)
	}
	r.o.Logger.Warn("memory job failed; will retry", slog.Int64("job", j.ID), slog.String("kind", string(j.Kind)), slog.Any("err", jerr))
	return true, r.o.Store.Retry(ctx, j.ID, retryDelay(j.Attempts))
}

// retryDelay is the backoff after a job's attempts-th failure: the square
// of attempts in seconds, at most 5 minutes.
func retryDelay(attempts int) time.Duration {
	return min(time.Duration(attempts*attempts)*time.Second, 5*time.Minute)
}
