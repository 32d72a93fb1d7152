package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/havenbot/haven/memory"
)

// ftsRowid maps a fact or an episode to its row in memory_fts (and in the
// vector tables): facts are even, episodes odd.
func ftsRowid(ref memory.Ref) int64 {
	if ref.Kind == memory.KindEpisode {
		return 2*ref.ID + 1
	}
	return 2 * ref.ID
}

func refOfRowid(rowid int64) memory.Ref {
	if rowid%2 == 1 {
		return memory.Ref{Kind: memory.KindEpisode, ID: (rowid - 1) / 2}
	}
	return memory.Ref{Kind: memory.KindFact, ID: rowid / 2}
}

// personTerms returns the indexed tokens of text for a person: each term
// prefixed with the person's id.
func personTerms(personID, text string) []string {
	terms := memory.TermsN(text, 200)
	for i, t := range terms {
		terms[i] = "p" + personID + "x" + t
	}
	return terms
}

func (s *Store) indexText(ctx context.Context, tx execer, personID string, ref memory.Ref, body string) error {
	terms := personTerms(personID, body)
	if _, err := tx.ExecContext(ctx, `INSERT INTO memory_fts (rowid, body) VALUES (?, ?)`,
		ftsRowid(ref), strings.Join(terms, " ")); err != nil {
		return fmt.Errorf("index %s %d: %w", ref.Kind, ref.ID, err)
	}
	return countTerms(ctx, tx, terms, 1)
}

// countTerms adds delta to the record counts of indexed terms.
func countTerms(ctx context.Context, tx execer, terms []string, delta int) error {
	for _, t := range terms {
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_terms (term, docs) VALUES (?, max(?, 0))
			ON CONFLICT (term) DO UPDATE SET docs = max(docs + ?, 0)`, t, delta, delta); err != nil {
			return fmt.Errorf("count term: %w", err)
		}
	}
	return nil
}

// unindex removes a fact or episode from full-text and vector search.
func (s *Store) unindex(ctx context.Context, tx *wtx, ref memory.Ref) error {
	var body string
	err := tx.QueryRowContext(ctx, `SELECT body FROM memory_fts WHERE rowid = ?`, ftsRowid(ref)).Scan(&body)
	switch {
	case err == nil:
		if _, err := tx.ExecContext(ctx, `DELETE FROM memory_fts WHERE rowid = ?`, ftsRowid(ref)); err != nil {
			return fmt.Errorf("unindex %s %d: %w", ref.Kind, ref.ID, err)
		}
		tx.unindexed = append(tx.unindexed, ftsRowid(ref))
		if err := countTerms(ctx, tx, strings.Fields(body), -1); err != nil {
			return err
		}
	case !errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("unindex %s %d: %w", ref.Kind, ref.ID, err)
	}
	return s.deleteVectors(ctx, tx, ftsRowid(ref))
}
