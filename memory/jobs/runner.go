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

// BatchQueue is a Queue that leases, finishes and releases several jobs
// in one write each. The Runner works the queue in batches when its Store
// is one: a job costs a share of two transactions instead of two.
type BatchQueue interface {
	Queue
	// ClaimBatch leases up to n of the oldest due jobs for lease and
	// returns them oldest first, each with the Due it had; an empty list
	// means none is due.
	ClaimBatch(ctx context.Context, lease time.Duration, n int) ([]memory.Job, error)
	// FinishAll deletes the done jobs ids.
	FinishAll(ctx context.Context, ids []int64) error
	// Release returns claimed jobs not started to the queue as they were
	// before their claim: due at their Due, the claim's attempt not
	// counted.
	Release(ctx context.Context, js []memory.Job) error
}

// batchSize is how many jobs the Runner claims at once from a BatchQueue.
const batchSize = 16

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
	// Gather is how long Run waits after a Notify before it works the
	// queue, so that the jobs of turns finishing close together are
	// claimed and finished in a few batches (two writes each) rather than
	// two writes per job, which compete with the turns for the single
	// writer; zero means 25ms, negative means no wait.
	Gather time.Duration
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
	switch {
	case o.Gather == 0:
		o.Gather = 25 * time.Millisecond
	case o.Gather < 0:
		o.Gather = 0
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
			if !r.gather(ctx) {
				return nil
			}
		case <-poll.C:
		case <-sweep.C:
			r.maintain(ctx)
		}
	}
}

// gather waits Gather after a Notify, for the jobs of other turns to
// join the batch; it reports false when ctx ended first (the queued jobs
// then wait for Drain or the next start).
func (r *Runner) gather(ctx context.Context) bool {
	if r.o.Gather <= 0 {
		return true
	}
	t := time.NewTimer(r.o.Gather)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
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
// checks stop between jobs only. From a BatchQueue it claims jobs in
// batches: the done ones of a batch are finished together, and those of a
// batch not started when stop is done are released, so that a Drain after
// Run finds them.
func (r *Runner) drain(stop, jobCtx context.Context) error {
	bq, ok := r.o.Store.(BatchQueue)
	for stop.Err() == nil {
		if !ok {
			did, err := r.RunOnce(jobCtx)
			if err != nil {
				return err
			}
			if !did {
				return nil
			}
			continue
		}
		js, err := bq.ClaimBatch(jobCtx, r.o.Lease, batchSize)
		if err != nil || len(js) == 0 {
			return err
		}
		if err := r.runBatch(stop, jobCtx, bq, js); err != nil {
			return err
		}
	}
	return stop.Err()
}

// runBatch runs the claimed jobs js in order until stop is done, then
// finishes the done ones in one write and releases those not started.
func (r *Runner) runBatch(stop, jobCtx context.Context, bq BatchQueue, js []memory.Job) error {
	done := make([]int64, 0, len(js))
	i := 0
	var runErr error
	for ; i < len(js) && (i == 0 || stop.Err() == nil); i++ {
		finish, err := r.run(jobCtx, js[i])
		if finish {
			done = append(done, js[i].ID)
		}
		if err != nil {
			runErr = err
			i++
			break
		}
	}
	return errors.Join(runErr, bq.FinishAll(jobCtx, done), bq.Release(jobCtx, js[i:]))
}

// RunOnce claims and runs one due job. did is false when none was due. A
// failing job is retried later with backoff, and dropped (logged) after
// MaxAttempts; only a failure of the queue itself is returned.
func (r *Runner) RunOnce(ctx context.Context) (did bool, err error) {
	j, ok, err := r.o.Store.Claim(ctx, r.o.Lease)
	if err != nil || !ok {
		return false, err
	}
	finish, err := r.run(ctx, j)
	if finish {
		return true, r.o.Store.Finish(ctx, j.ID)
	}
	return true, err
}

// run runs the claimed job j. finish says it is to be deleted: it
// succeeded, or failed its last attempt (logged). Otherwise it is put back
// with a retry backoff, and err is the queue's failure to do so.
func (r *Runner) run(ctx context.Context, j memory.Job) (finish bool, err error) {
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
		return true, nil
	}
	r.o.Logger.Warn("memory job failed; will retry", slog.Int64("job", j.ID), slog.String("kind", string(j.Kind)), slog.Any("err", jerr))
	return false, r.o.Store.Retry(ctx, j.ID, retryDelay(j.Attempts))
}

// retryDelay is the backoff after a job's attempts-th failure: the square
// of attempts in seconds, at most 5 minutes.
func retryDelay(attempts int) time.Duration {
	return min(time.Duration(attempts*attempts)*time.Second, 5*time.Minute)
}
