package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/havenbot/haven/memory"
)

func factBody(f memory.Fact) string {
	return f.Words(memory.AboutThem) + " " + strings.ReplaceAll(f.Predicate, "_", " ") + " " + f.Evidence
}

const factColumns = `id, person_id, subject, predicate, object, evidence, session_id, turn, confidence, active, coalesce(superseded_by, 0), created_at`

func scanFact(row scanner) (memory.Fact, error) {
	var f memory.Fact
	var created int64
	err := row.Scan(&f.ID, &f.PersonID, &f.Subject, &f.Predicate, &f.Object, &f.Evidence, &f.SessionID, &f.Turn,
		&f.Confidence, &f.Active, &f.SupersededBy, &created)
	f.Created = fromTS(created)
	return f, err
}

// AddFact stores f after validating it (memory.ValidFact, its evidence cut
// with memory.Quote) and indexes it for search. A fact that says what an
// active one already says is not stored again: the existing one is
// returned. Active facts f supersedes become inactive, pointing at f, and
// leave search.
func (s *Store) AddFact(ctx context.Context, f memory.Fact) (memory.Fact, error) {
	f.Evidence = memory.Quote(f.Evidence)
	if msg := memory.ValidFact(f); msg != "" {
		return memory.Fact{}, fmt.Errorf("add fact %s for person %q: %s", f.Predicate, f.PersonID, msg)
	}
	if f.Created.IsZero() {
		f.Created = s.now()
	}
	f.Created = fromTS(ts(f.Created))
	f.Active, f.SupersededBy = true, 0
	var unindexed []int64
	err := s.write(ctx, func(tx *wtx) error {
		unindexed = unindexed[:0]
		old, err := list(ctx, tx, scanFact, `SELECT `+factColumns+` FROM facts WHERE person_id = ? AND active = 1 AND subject = ? COLLATE NOCASE`,
			f.PersonID, f.Subject)
		if err != nil {
			return fmt.Errorf("load active facts: %w", err)
		}
		for _, o := range old {
			if f.Same(o) {
				f = o
				return nil
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO facts (person_id, subject, predicate, object, evidence, session_id, turn, confidence, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, f.PersonID, f.Subject, f.Predicate, f.Object, f.Evidence, f.SessionID, f.Turn, f.Confidence, ts(f.Created))
		if err != nil {
			return fmt.Errorf("insert: %w", err)
		}
		if f.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		for _, o := range old {
			if !f.Supersedes(o) {
				continue
			}
			if _, err := tx.ExecContext(ctx, `UPDATE facts SET active = 0, superseded_by = ?, superseded_at = ? WHERE id = ?`,
				f.ID, ts(f.Created), o.ID); err != nil {
				return fmt.Errorf("supersede fact %d: %w", o.ID, err)
			}
			if err := s.unindex(ctx, tx, memory.Ref{Kind: memory.KindFact, ID: o.ID}); err != nil {
				return err
			}
			unindexed = append(unindexed, ftsRowid(memory.Ref{Kind: memory.KindFact, ID: o.ID}))
		}
		return s.indexText(ctx, tx, f.PersonID, memory.Ref{Kind: memory.KindFact, ID: f.ID}, factBody(f))
	})
	if err != nil {
		s.vc.drop(f.PersonID)
		return memory.Fact{}, fmt.Errorf("add fact %s for person %s: %w", f.Predicate, f.PersonID, err)
	}
	if len(unindexed) > 0 {
		s.vc.remove(f.PersonID, unindexed)
	}
	return f, nil
}

// Facts returns the person's facts, oldest first.
func (s *Store) Facts(ctx context.Context, personID string, inactive bool) ([]memory.Fact, error) {
	q := `SELECT ` + factColumns + ` FROM facts WHERE person_id = ?`
	if !inactive {
		q += ` AND active = 1`
	}
	out, err := list(ctx, s.rd, scanFact, q+` ORDER BY id`, personID)
	if err != nil {
		return nil, fmt.Errorf("list facts of person %s: %w", personID, s.classify(err))
	}
	return out, nil
}
