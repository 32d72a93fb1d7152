package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/havenbot/haven/memory"
)

// Stats returns de-identified counts of what happened since since: turns by
// route, mode, exercise event and platform (turn_stats), distinct people
// with a turn in a session active in the window, crisis-log rows by level, guard replacements.
func (s *Store) Stats(ctx context.Context, since time.Time) (memory.Stats, error) {
	st := memory.Stats{Since: since, Routes: map[string]int{}, Modes: map[string]int{}, Exercises: map[string]int{},
		Platforms: map[string]int{}, CrisisLevels: map[int]int{}}
	from := ts(since)
	if err := s.rd.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(guarded), 0) FROM turn_stats WHERE at >= ?`, from).Scan(&st.Turns, &st.Guarded); err != nil {
		return memory.Stats{}, fmt.Errorf("count turns: %w", s.classify(err))
	}
	if err := s.rd.QueryRowContext(ctx, `SELECT count(DISTINCT person_id) FROM sessions WHERE updated_at >= ? AND turn_count > 0`, from).Scan(&st.People); err != nil {
		return memory.Stats{}, fmt.Errorf("count people: %w", s.classify(err))
	}
	for col, into := range map[string]map[string]int{"route": st.Routes, "mode": st.Modes, "exercise": st.Exercises, "platform": st.Platforms} {
		if err := s.countBy(ctx, col, from, into); err != nil {
			return memory.Stats{}, err
		}
	}
	rows, err := s.rd.QueryContext(ctx, `SELECT level, count(*) FROM crisis_log WHERE at >= ? AND level > 0 GROUP BY level`, from)
	if err != nil {
		return memory.Stats{}, fmt.Errorf("count crisis levels: %w", s.classify(err))
	}
	defer rows.Close()
	for rows.Next() {
		var level, n int
		if err := rows.Scan(&level, &n); err != nil {
			return memory.Stats{}, fmt.Errorf("count crisis levels: %w", err)
		}
		st.CrisisLevels[level] = n
	}
	if err := rows.Err(); err != nil {
		return memory.Stats{}, fmt.Errorf("count crisis levels: %w", s.classify(err))
	}
	return st, nil
}

// countBy counts the turn_stats rows since from by the column col (one of
// Stats' own names, never input), into into.
func (s *Store) countBy(ctx context.Context, col string, from int64, into map[string]int) error {
	rows, err := s.rd.QueryContext(ctx, `SELECT `+col+`, count(*) FROM turn_stats WHERE at >= ? AND `+col+` != '' GROUP BY `+col, from)
	if err != nil {
		return fmt.Errorf("count turns by %s: %w", col, s.classify(err))
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return fmt.Errorf("count turns by %s: %w", col, err)
		}
		into[k] = n
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("count turns by %s: %w", col, s.classify(err))
	}
	return nil
}
