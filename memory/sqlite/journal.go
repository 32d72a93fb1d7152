package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/havenbot/haven/memory"
)

func scanJournal(row scanner) (memory.JournalEntry, error) {
	var e memory.JournalEntry
	var created int64
	err := row.Scan(&e.ID, &e.PersonID, &e.Text, &created)
	e.Created = fromTS(created)
	return e, err
}

// AddJournalEntry stores a journal entry of the person written at at (now
// when zero) and returns it with its id. The text must be 1 to
// memory.MaxJournalRunes characters after trimming. source, when not
// empty, names the message it came from: a second call with the same
// source returns the entry already written (a turn run again).
func (s *Store) AddJournalEntry(ctx context.Context, personID, text string, at time.Time, source string) (memory.JournalEntry, error) {
	text = strings.TrimSpace(text)
	if personID == "" || text == "" || utf8.RuneCountInString(text) > memory.MaxJournalRunes {
		return memory.JournalEntry{}, fmt.Errorf("add journal entry for person %q: a person id and a text of 1-%d characters are required", personID, memory.MaxJournalRunes)
	}
	if at.IsZero() {
		at = s.now()
	}
	e := memory.JournalEntry{PersonID: personID, Text: text, Created: fromTS(ts(at))}
	err := s.write(ctx, func(tx *wtx) error {
		if err := s.requirePerson(ctx, tx, personID); err != nil {
			return err
		}
		if source != "" {
			old, err := scanJournal(tx.QueryRowContext(ctx, `SELECT id, person_id, text, created_at FROM journal WHERE person_id = ? AND source = ?`, personID, source))
			if err == nil {
				e = old
				return nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("find entry of source: %w", err)
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO journal (person_id, text, source, created_at) VALUES (?, ?, ?, ?)`, personID, text, source, ts(e.Created))
		if err != nil {
			return fmt.Errorf("insert: %w", err)
		}
		e.ID, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return memory.JournalEntry{}, fmt.Errorf("add journal entry for person %s: %w", personID, err)
	}
	return e, nil
}

// JournalEntries returns the person's entries written in [from, to),
// oldest first; a zero from or to leaves that end open. limit > 0 keeps
// only the newest limit entries.
func (s *Store) JournalEntries(ctx context.Context, personID string, from, to time.Time, limit int) ([]memory.JournalEntry, error) {
	hi := int64(1<<63 - 1)
	if !to.IsZero() {
		hi = ts(to)
	}
	if limit <= 0 {
		limit = -1
	}
	out, err := list(ctx, s.rd, scanJournal, `SELECT id, person_id, text, created_at FROM (
		SELECT id, person_id, text, created_at FROM journal WHERE person_id = ? AND created_at >= ? AND created_at < ?
		ORDER BY created_at DESC, id DESC LIMIT ?) ORDER BY created_at, id`, personID, ts(from), hi, limit)
	if err != nil {
		return nil, fmt.Errorf("list journal entries of person %s: %w", personID, s.classify(err))
	}
	return out, nil
}
