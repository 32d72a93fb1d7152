package jobs

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/havenbot/haven/memory"
	"github.com/havenbot/haven/memory/extract"
)

// ExtractionStore is what the extraction jobs read and write.
type ExtractionStore interface {
	// AddFact stores f (validated with memory.ValidFact). A fact that says
	// what an active one already says is not stored again: the existing one
	// is returned. Active facts f supersedes become inactive, pointing at f.
	AddFact(ctx context.Context, f memory.Fact) (memory.Fact, error)
	// AddRule stores r; a rule with the same key is replaced (newest wins),
	// and past memory.MaxRules the oldest rule is dropped.
	AddRule(ctx context.Context, r memory.Rule) (memory.Rule, error)
	// AddEpisode stores the episode of a session; a session has at most one
	// episode, and a second call for it is a no-op returning the first.
	AddEpisode(ctx context.Context, ep memory.Episode) (memory.Episode, error)
	// Hold keeps f until its policy lets it be written: key identifies what
	// f says, f.Turn the turn it was said in. It returns in how many
	// distinct turns f has now been said.
	Hold(ctx context.Context, f memory.Fact, p memory.Policy, key string) (times int, err error)
	// TakeHeld removes and returns the held facts that are now due: those
	// held for the end of session sessionID and, for AfterRepetition, those
	// said at least memory.RepetitionsNeeded times.
	TakeHeld(ctx context.Context, personID, sessionID string) ([]memory.Fact, error)
	// SetEmbedding stores the embedding of a fact or episode under model.
	SetEmbedding(ctx context.Context, personID string, ref memory.Ref, model string, v []float32) error
	// SessionEntries returns the session's whole transcript, oldest first.
	SessionEntries(ctx context.Context, sessionID string) ([]memory.Entry, error)
}

// extraction is the extraction job kind: it runs memory/extract on a
// queued message or ended session and writes what it finds.
type extraction struct {
	store     ExtractionStore
	extractor *extract.Extractor
	embedder  memory.Embedder
	now       func() time.Time
	log       *slog.Logger
}

// turn extracts and writes the memories of one message.
func (x extraction) turn(ctx context.Context, j memory.Job) error {
	cands, source := x.extractor.Extract(ctx, j.Text)
	x.log.Debug("memory extraction", slog.Int64("job", j.ID), slog.String("source", source), slog.Int("candidates", len(cands)))
	repeated := false
	for _, c := range cands {
		if c.Rule != nil {
			r := *c.Rule
			if extract.UnsafeRule(r.Text) || extract.UnsafeRule(r.Evidence) {
				continue
			}
			r.PersonID, r.SessionID = j.PersonID, j.SessionID
			if _, err := x.store.AddRule(ctx, r); err != nil {
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
			if err := x.addFact(ctx, f); err != nil {
				return err
			}
		case memory.AtSessionEnd, memory.AfterRepetition:
			if _, err := x.store.Hold(ctx, f, c.Policy, c.Key()); err != nil {
				return err
			}
			repeated = repeated || c.Policy == memory.AfterRepetition
		}
	}
	if repeated {
		due, err := x.store.TakeHeld(ctx, j.PersonID, "")
		if err != nil {
			return err
		}
		for _, f := range due {
			if err := x.addFact(ctx, f); err != nil {
				return err
			}
		}
	}
	return nil
}

func (x extraction) addFact(ctx context.Context, f memory.Fact) error {
	if f.Created.IsZero() {
		f.Created = x.now()
	}
	got, err := x.store.AddFact(ctx, f)
	if err != nil {
		return err
	}
	x.embed(ctx, f.PersonID, memory.Record{Ref: memory.Ref{Kind: memory.KindFact, ID: got.ID}, Fact: &got})
	return nil
}

// embed stores a record's embedding; a failure is logged, never fatal: the
// record is still found by full-text search.
func (x extraction) embed(ctx context.Context, personID string, rec memory.Record) {
	if x.embedder == nil {
		return
	}
	vs, err := x.embedder.Embed(ctx, []string{rec.Text()})
	if err == nil && len(vs) != 1 {
		err = fmt.Errorf("got %d vectors, want 1", len(vs))
	}
	if err == nil {
		err = x.store.SetEmbedding(ctx, personID, rec.Ref, x.embedder.Model(), vs[0])
	}
	if err != nil {
		x.log.Warn("memory: embedding failed; the record is found by text only", slog.String("kind", string(rec.Ref.Kind)),
			slog.Int64("id", rec.Ref.ID), slog.Any("err", err))
	}
}

// sessionEnd writes the episode of an ended session and commits the
// memories held for its end.
func (x extraction) sessionEnd(ctx context.Context, j memory.Job) error {
	entries, err := x.store.SessionEntries(ctx, j.SessionID)
	if err != nil {
		return err
	}
	if ep, ok := x.extractor.Episode(ctx, entries); ok {
		ep.PersonID, ep.SessionID = j.PersonID, j.SessionID
		ep.Started, ep.Ended = entries[0].At, entries[len(entries)-1].At
		ep.Created = x.now()
		got, err := x.store.AddEpisode(ctx, ep)
		if err != nil {
			return err
		}
		x.embed(ctx, j.PersonID, memory.Record{Ref: memory.Ref{Kind: memory.KindEpisode, ID: got.ID}, Episode: &got})
	}
	held, err := x.store.TakeHeld(ctx, j.PersonID, j.SessionID)
	if err != nil {
		return err
	}
	for _, f := range held {
		if err := x.addFact(ctx, f); err != nil {
			return err
		}
	}
	return nil
}
