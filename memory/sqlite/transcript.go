package sqlite

import (
	"context"
	"fmt"
	"slices"

	"github.com/havenbot/haven/memory"
)

// RecentEntries returns up to n of the session's latest transcript entries,
// oldest first. n <= 0 returns none.
func (s *Store) RecentEntries(ctx context.Context, sessionID string, n int) ([]memory.Entry, error) {
	if n <= 0 {
		return nil, nil
	}
	rows, err := s.rd.QueryContext(ctx, `SELECT role, text, crisis, at FROM transcript
		WHERE session_id = ? ORDER BY id DESC LIMIT ?`, sessionID, n)
	if err != nil {
		return nil, fmt.Errorf("load recent entries of session %s: %w", sessionID, s.classify(err))
	}
	defer rows.Close()
	var out []memory.Entry
	for rows.Next() {
		e := memory.Entry{SessionID: sessionID}
		var role string
		var at int64
		if err := rows.Scan(&role, &e.Text, &e.Crisis, &at); err != nil {
			return nil, fmt.Errorf("load recent entries of session %s: %w", sessionID, err)
		}
		e.Role = memory.Role(role)
		e.At = fromTS(at)
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load recent entries of session %s: %w", sessionID, s.classify(err))
	}
	slices.Reverse(out)
	return out, nil
}

// MatchTranscript returns the ids of the person's transcript entries whose
// text match accepts.
func (s *Store) MatchTranscript(ctx context.Context, personID string, match func(string) bool) ([]int64, error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT t.id, t.text FROM transcript t JOIN sessions s ON s.id = t.session_id WHERE s.person_id = ? ORDER BY t.id`, personID)
	if err != nil {
		return nil, fmt.Errorf("match transcript of person %s: %w", personID, s.classify(err))
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		var text string
		if err := rows.Scan(&id, &text); err != nil {
			return nil, fmt.Errorf("match transcript of person %s: %w", personID, err)
		}
		if match(text) {
			ids = append(ids, id)
		}
	}
	return ids, rows.Err()
}

// SessionEntries returns the session's whole transcript, oldest first.
func (s *Store) SessionEntries(ctx context.Context, sessionID string) ([]memory.Entry, error) {
	return s.RecentEntries(ctx, sessionID, 1<<30)
}

// LastMessage returns the ids of the transcript entries of the latest
// message person personID wrote in session sessionID and of Haven's replies
// to it, with that message's text. ids is empty when the session holds no
// message of theirs (or is not theirs).
func (s *Store) LastMessage(ctx context.Context, personID, sessionID string) (ids []int64, text string, err error) {
	rows, err := s.rd.QueryContext(ctx, `SELECT t.id, t.role, t.text FROM transcript t JOIN sessions s ON s.id = t.session_id
		WHERE t.session_id = ? AND s.person_id = ? ORDER BY t.id DESC LIMIT 16`, sessionID, personID)
	if err != nil {
		return nil, "", fmt.Errorf("last message of session %s: %w", sessionID, s.classify(err))
	}
	defer rows.Close()
	var replies []int64
	for rows.Next() {
		var id int64
		var role, t string
		if err := rows.Scan(&id, &role, &t); err != nil {
			return nil, "", fmt.Errorf("last message of session %s: %w", sessionID, err)
		}
		if memory.Role(role) != memory.RoleUser {
			replies = append(replies, id)
			continue
		}
		return append([]int64{id}, replies...), t, nil
	}
	if err := rows.Err(); err != nil {
		return nil, "", fmt.Errorf("last message of session %s: %w", sessionID, s.classify(err))
	}
	return nil, "", nil
}
