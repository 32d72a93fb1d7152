package sqlite

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/havenbot/haven/memory"
)

// Records returns the person's facts, rules, episodes, journal entries
// and mood entries, oldest first.
func (s *Store) Records(ctx context.Context, personID string) ([]memory.Record, error) {
	facts, err := s.Facts(ctx, personID, true)
	if err != nil {
		return nil, err
	}
	rules, err := s.Rules(ctx, personID)
	if err != nil {
		return nil, err
	}
	eps, err := s.Episodes(ctx, personID, 1<<30)
	if err != nil {
		return nil, err
	}
	journal, err := s.JournalEntries(ctx, personID, time.Time{}, time.Time{}, 0)
	if err != nil {
		return nil, err
	}
	moods, err := s.Moods(ctx, personID, time.Time{}, time.Time{})
	if err != nil {
		return nil, err
	}
	var out []memory.Record
	for i := range journal {
		out = append(out, memory.Record{Ref: memory.Ref{Kind: memory.KindJournal, ID: journal[i].ID}, Created: journal[i].Created, Journal: &journal[i]})
	}
	for i := range facts {
		out = append(out, memory.Record{Ref: memory.Ref{Kind: memory.KindFact, ID: facts[i].ID}, Created: facts[i].Created, Fact: &facts[i]})
	}
	for i := range rules {
		out = append(out, memory.Record{Ref: memory.Ref{Kind: memory.KindRule, ID: rules[i].ID}, Created: rules[i].Created, Rule: &rules[i]})
	}
	for i := range eps {
		out = append(out, memory.Record{Ref: memory.Ref{Kind: memory.KindEpisode, ID: eps[i].ID}, Created: eps[i].Created, Episode: &eps[i]})
	}
	for i := range moods {
		out = append(out, memory.Record{Ref: memory.Ref{Kind: memory.KindMood, ID: moods[i].ID}, Created: moods[i].At, Mood: &moods[i]})
	}
	slices.SortStableFunc(out, func(a, b memory.Record) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		if a.Ref.Kind != b.Ref.Kind {
			return strings.Compare(string(a.Ref.Kind), string(b.Ref.Kind))
		}
		return int(a.Ref.ID - b.Ref.ID)
	})
	return out, nil
}

// Forget deletes the person's records refs (facts, episodes, rules and mood
// entries, and transcript entries for memory.KindTranscript refs) from
// storage, search and export. Refs that are not the person's are left alone.
func (s *Store) Forget(ctx context.Context, personID string, refs ...memory.Ref) error {
	err := s.write(ctx, func(tx *wtx) error {
		for _, ref := range refs {
			var q string
			switch ref.Kind {
			case memory.KindFact:
				q = `DELETE FROM facts WHERE id = ? AND person_id = ?`
			case memory.KindEpisode:
				q = `DELETE FROM episodes WHERE id = ? AND person_id = ?`
			case memory.KindRule:
				q = `DELETE FROM rules WHERE id = ? AND person_id = ?`
			case memory.KindJournal:
				q = `DELETE FROM journal WHERE id = ? AND person_id = ?`
			case memory.KindMood:
				q = `DELETE FROM moods WHERE id = ? AND person_id = ?`
			case memory.KindTranscript:
				q = `DELETE FROM transcript WHERE id = ? AND session_id IN (SELECT id FROM sessions WHERE person_id = ?)`
			default:
				return fmt.Errorf("unknown record kind %q", ref.Kind)
			}
			if ref.Kind == memory.KindTranscript {
				// A message forgotten before the background worker read it
				// must not become a memory afterwards: its pending
				// extraction job goes with it.
				if _, err := tx.ExecContext(ctx, `DELETE FROM memory_jobs WHERE kind = 'turn' AND person_id = ?1 AND EXISTS (
					SELECT 1 FROM transcript t JOIN sessions s ON s.id = t.session_id
					 WHERE t.id = ?2 AND s.person_id = ?1 AND t.role = 'user'
					   AND t.session_id = memory_jobs.session_id AND t.text = memory_jobs.text)`, personID, ref.ID); err != nil {
					return fmt.Errorf("drop the pending extraction of transcript %d: %w", ref.ID, err)
				}
			}
			res, err := tx.ExecContext(ctx, q, ref.ID, personID)
			if err != nil {
				return fmt.Errorf("delete %s %d: %w", ref.Kind, ref.ID, err)
			}
			if n, _ := res.RowsAffected(); n == 1 && (ref.Kind == memory.KindFact || ref.Kind == memory.KindEpisode) {
				if err := s.unindex(ctx, tx, ref); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		s.vc.drop(personID)
		return fmt.Errorf("forget %d records of person %s: %w", len(refs), personID, err)
	}
	var rowids []int64
	for _, ref := range refs {
		if ref.Kind == memory.KindFact || ref.Kind == memory.KindEpisode {
			rowids = append(rowids, ftsRowid(ref))
		}
	}
	if len(rowids) > 0 {
		s.vc.remove(personID, rowids)
	}
	return nil
}
