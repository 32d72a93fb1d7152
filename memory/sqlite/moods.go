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

const moodColumns = `id, person_id, score, note, at`

func scanMood(row scanner) (memory.Mood, error) {
	var m memory.Mood
	var at int64
	err := row.Scan(&m.ID, &m.PersonID, &m.Score, &m.Note, &at)
	m.At = fromTS(at)
	return m, err
}

// AddMood stores a mood entry of m.PersonID and returns it with its id.
// A zero At is now. The score must be on the scale (memory.MoodMin to
// memory.MoodMax) and the note at most memory.MaxMoodNote runes: nothing
// is stored otherwise, and the error says which is wrong. The person must
// exist. A mood with a Source already stored for the person is not stored
// again: the stored entry is returned (a turn run again after a crash).
func (s *Store) AddMood(ctx context.Context, m memory.Mood) (memory.Mood, error) {
	m.Note = strings.TrimSpace(m.Note)
	switch {
	case m.PersonID == "":
		return memory.Mood{}, fmt.Errorf("add mood: empty person id")
	case m.Score < memory.MoodMin || m.Score > memory.MoodMax:
		return memory.Mood{}, fmt.Errorf("add mood for person %s: score %d is outside %d-%d", m.PersonID, m.Score, memory.MoodMin, memory.MoodMax)
	case !utf8.ValidString(m.Note) || utf8.RuneCountInString(m.Note) > memory.MaxMoodNote:
		return memory.Mood{}, fmt.Errorf("add mood for person %s: the note must be valid text of at most %d characters", m.PersonID, memory.MaxMoodNote)
	}
	if m.At.IsZero() {
		m.At = s.now()
	}
	m.At = fromTS(ts(m.At))
	err := s.write(ctx, func(tx *wtx) error {
		if err := s.requirePerson(ctx, tx, m.PersonID); err != nil {
			return err
		}
		if m.Source != "" {
			old, err := scanMood(tx.QueryRowContext(ctx, `SELECT `+moodColumns+` FROM moods WHERE person_id = ? AND source = ?`, m.PersonID, m.Source))
			if err == nil {
				old.Source = m.Source
				m = old
				return nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("find entry of source: %w", err)
			}
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO moods (person_id, score, note, at, source) VALUES (?, ?, ?, ?, ?)`,
			m.PersonID, m.Score, m.Note, ts(m.At), m.Source)
		if err != nil {
			return fmt.Errorf("insert: %w", err)
		}
		m.ID, err = res.LastInsertId()
		return err
	})
	if err != nil {
		return memory.Mood{}, fmt.Errorf("add mood for person %s: %w", m.PersonID, err)
	}
	return m, nil
}

// Moods returns the person's mood entries logged at or after from and
// before to, oldest first. A zero from or to leaves that end open.
func (s *Store) Moods(ctx context.Context, personID string, from, to time.Time) ([]memory.Mood, error) {
	hi := int64(1<<63 - 1)
	if !to.IsZero() {
		hi = ts(to)
	}
	out, err := list(ctx, s.rd, scanMood, `SELECT `+moodColumns+` FROM moods WHERE person_id = ? AND at >= ? AND at < ? ORDER BY at, id`,
		personID, ts(from), hi)
	if err != nil {
		return nil, fmt.Errorf("list moods of person %s: %w", personID, s.classify(err))
	}
	return out, nil
}
