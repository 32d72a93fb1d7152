package extract

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/havenbot/haven/memory"
)

// WorkerOptions configure a Worker. Store is required.
type WorkerOptions struct {
	Store memory.Memories
	// Extractor finds memories; nil uses patterns only.
	Extractor *Extractor
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
	Clock       func() time.Time
	Logger      *slog.Logger
}

// Worker runs the durable memory queue in the background: extraction after
// each turn, episodes at session end, the idle-session sweep and retention.
// Its owner calls Run and cancels its context to stop it.
type Worker struct {
	o      WorkerOptions
	notify chan struct{}
}

// NewWorker returns a Worker, or an error naming a missing option.
func NewWorker(o WorkerOptions) (*Worker, error) {
	if o.Store == nil {
		return nil, errors.New("extract: WorkerOptions.Store is required")
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
		o.Extractor = &Extractor{Log: o.Logger}
	}
	return &Worker{o: o, notify: make(chan struct{}, 1)}, nil
}

// Notify tells the worker a job was queued. It never blocks.
func (w *Worker) Notify() {
	select {
	case w.notify <- struct{}{}:
	default:
	}
}

// Run works the queue until ctx is done, then returns nil. It sweeps idle
// sessions and applies retention at start and every SweepEvery.
func (w *Worker) Run(ctx context.Context) error {
	poll := time.NewTicker(w.o.Poll)
	defer poll.Stop()
	sweep := time.NewTicker(w.o.SweepEvery)
	defer sweep.Stop()
	w.maintain(ctx)
	// A job that has started runs to its end even when ctx is cancelled
	// (its model calls keep their own deadlines): cancelling mid-job would
	// leave it leased or pushed back by a retry backoff, and the shutdown
	// Drain that follows would not see it.
	jobs := context.WithoutCancel(ctx)
	for {
		if err := w.drain(ctx, jobs); err != nil && ctx.Err() == nil {
			w.o.Logger.Error("memory worker: queue", slog.Any("err", err))
		}
		select {
		case <-ctx.Done():
			return nil
		case <-w.notify:
		case <-poll.C:
		case <-sweep.C:
			w.maintain(ctx)
		}
	}
}

func (w *Worker) maintain(ctx context.Context) {
	if _, err := w.SweepIdle(ctx); err != nil && ctx.Err() == nil {
		w.o.Logger.Error("memory worker: idle sweep", slog.Any("err", err))
	}
	sw, err := w.o.Store.ApplyRetention(ctx, w.o.Retention, w.o.Clock())
	if err != nil {
		if ctx.Err() == nil {
			w.o.Logger.Error("memory worker: retention", slog.Any("err", err))
		}
		return
	}
	if sw != (memory.Swept{}) {
		w.o.Logger.Info("retention applied", slog.Int64("transcript_entries", sw.Transcripts), slog.Int64("delivery_records", sw.Deliveries),
			slog.Int64("inactive_facts", sw.Inactive), slog.Int64("crisis_log_rows", sw.CrisisLog))
	}
}

// Drain runs due jobs until none is left or ctx is done.
func (w *Worker) Drain(ctx context.Context) error {
	return w.drain(ctx, ctx)
}

// drain runs due jobs with jobCtx until none is left or stop is done; it
// checks stop between jobs only.
func (w *Worker) drain(stop, jobCtx context.Context) error {
	for stop.Err() == nil {
		did, err := w.RunOnce(jobCtx)
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
func (w *Worker) RunOnce(ctx context.Context) (did bool, err error) {
	j, ok, err := w.o.Store.Claim(ctx, w.o.Lease)
	if err != nil || !ok {
		return false, err
	}
	var jerr error
	switch j.Kind {
	case memory.JobTurn:
		jerr = w.turn(ctx, j)
	case memory.JobSessionEnd:
		jerr = w.sessionEnd(ctx, j)
	default:
		jerr = fmt.Errorf("unknown job kind %q", j.Kind)
	}
	if jerr == nil || j.Attempts >= w.o.MaxAttempts {
		if jerr != nil {
			w.o.Logger.Error("memory job dropped after retries", slog.Int64("job", j.ID), slog.String("kind", string(j.Kind)),
				slog.Int("attempts", j.Attempts), slog.Any("err", jerr))
		}
		return true, w.o.Store.Finish(ctx, j.ID)
	}
	w.o.Logger.Warn("memory job failed; will retry", slog.Int64("job", j.ID), slog.String("kind", string(j.Kind)), slog.Any("err", jerr))
	delay := time.Duration(j.Attempts*j.Attempts) * time.Second
	return true, w.o.Store.Retry(ctx, j.ID, min(delay, 5*time.Minute))
}

// turn extracts and writes the memories of one message.
func (w *Worker) turn(ctx context.Context, j memory.Job) error {
	cands, source := w.o.Extractor.Extract(ctx, j.Text)
	w.o.Logger.Debug("memory extraction", slog.Int64("job", j.ID), slog.String("source", source), slog.Int("candidates", len(cands)))
	repeated := false
	for _, c := range cands {
		if c.Rule != nil {
			r := *c.Rule
			if UnsafeRule(r.Text) || UnsafeRule(r.Evidence) {
				continue
			}
			r.PersonID, r.SessionID = j.PersonID, j.SessionID
			if _, err := w.o.Store.AddRule(ctx, r); err != nil {
				return err
			}
			continue
		}
		f := *c.Fact
		f.PersonID, f.SessionID, f.Turn = j.PersonID, j.SessionID, j.Turn
		if f.Evidence == "" {
			f.Evidence = memory.Quote(j.Text)
		}
		switch c.Policy {
		case memory.CommitNow:
			if err := w.addFact(ctx, f); err != nil {
				return err
			}
		case memory.AtSessionEnd, memory.AfterRepetition:
			if _, err := w.o.Store.Hold(ctx, f, c.Policy, c.Key()); err != nil {
				return err
			}
			repeated = repeated || c.Policy == memory.AfterRepetition
		}
	}
	if repeated {
		due, err := w.o.Store.TakeHeld(ctx, j.PersonID, "")
		if err != nil {
			return err
		}
		for _, f := range due {
			if err := w.addFact(ctx, f); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *Worker) addFact(ctx context.Context, f memory.Fact) error {
	if f.Created.IsZero() {
		f.Created = w.o.Clock()
	}
	got, err := w.o.Store.AddFact(ctx, f)
	if err != nil {
		return err
	}
	w.embed(ctx, f.PersonID, memory.Record{Ref: memory.Ref{Kind: memory.KindFact, ID: got.ID}, Fact: &got})
	return nil
}

// embed stores a record's embedding; a failure is logged, never fatal: the
// record is still found by full-text search.
func (w *Worker) embed(ctx context.Context, personID string, rec memory.Record) {
	if w.o.Embedder == nil {
		return
	}
	vs, err := w.o.Embedder.Embed(ctx, []string{rec.Text()})
	if err == nil && len(vs) != 1 {
		err = fmt.Errorf("got %d vectors, want 1", len(vs))
	}
	if err == nil {
		err = w.o.Store.SetEmbedding(ctx, personID, rec.Ref, w.o.Embedder.Model(), vs[0])
	}
	if err != nil {
		w.o.Logger.Warn("memory: embedding failed; the record is found by text only", slog.String("kind", string(rec.Ref.Kind)),
			slog.Int64("id", rec.Ref.ID), slog.Any("err", err))
	}
}

// sessionEnd writes the episode of an ended session and commits the
// memories held for its end.
func (w *Worker) sessionEnd(ctx context.Context, j memory.Job) error {
	entries, err := w.o.Store.SessionEntries(ctx, j.SessionID)
	if err != nil {
		return err
	}
	if ep, ok := w.o.Extractor.Episode(ctx, entries); ok {
		ep.PersonID, ep.SessionID = j.PersonID, j.SessionID
		ep.Started, ep.Ended = entries[0].At, entries[len(entries)-1].At
		ep.Created = w.o.Clock()
		got, err := w.o.Store.AddEpisode(ctx, ep)
		if err != nil {
			return err
		}
		w.embed(ctx, j.PersonID, memory.Record{Ref: memory.Ref{Kind: memory.KindEpisode, ID: got.ID}, Episode: &got})
	}
	held, err := w.o.Store.TakeHeld(ctx, j.PersonID, j.SessionID)
	if err != nil {
		return err
	}
	for _, f := range held {
		if err := w.addFact(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

// SweepIdle ends the sessions idle for longer than IdleTimeout and queues
// their episodes. It returns how many it ended.
func (w *Worker) SweepIdle(ctx context.Context) (int, error) {
	now := w.o.Clock()
	n := 0
	for {
		idle, err := w.o.Store.IdleSessions(ctx, now.Add(-w.o.IdleTimeout), 100)
		if err != nil {
			return n, err
		}
		for _, s := range idle {
			ended, err := w.o.Store.EndSession(ctx, s.ID, now)
			if err != nil {
				return n, err
			}
			if !ended {
				continue
			}
			n++
			if err := w.o.Store.Enqueue(ctx, memory.Job{Kind: memory.JobSessionEnd, PersonID: s.PersonID, SessionID: s.ID}); err != nil {
				return n, err
			}
		}
		if len(idle) < 100 {
			return n, nil
		}
	}
}
