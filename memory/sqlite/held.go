package sqlite

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/havenbot/haven/memory"
)

// Hold keeps f until its policy (memory.AtSessionEnd or
// memory.AfterRepetition) lets it be written: key identifies what f says,
// f.SessionID and f.Turn the turn it was said in. It returns in how many
// distinct turns f has now been said.
func (s *Store) Hold(ctx context.Context, f memory.Fact, p memory.Policy, key string) (int, error) {
	if p != memory.AtSessionEnd && p != memory.AfterRepetition {
		return 0, fmt.Errorf("hold fact for person %s: policy %q cannot be held", f.PersonID, p)
	}
	if key == "" || f.PersonID == "" {
		return 0, fmt.Errorf("hold fact for person %q: person id and key are required", f.PersonID)
	}
	f.Evidence = memory.Quote(f.Evidence)
	data, err := json.Marshal(f)
	if err != nil {
		return 0, fmt.Errorf("hold fact for person %s: %w", f.PersonID, err)
	}
	turn := f.SessionID + "#" + strconv.Itoa(f.Turn)
	var times int
	err = s.write(ctx, func(tx *wtx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO held_facts (person_id, session_id, key, policy, fact, last_turn, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (person_id, key) DO UPDATE SET
				fact = excluded.fact, session_id = excluded.session_id,
				times = times + (last_turn <> excluded.last_turn), last_turn = excluded.last_turn
			RETURNING times`, f.PersonID, f.SessionID, key, string(p), string(data), turn, ts(s.now())).Scan(&times)
	})
	if err != nil {
		return 0, fmt.Errorf("hold fact for person %s: %w", f.PersonID, err)
	}
	return times, nil
}

// TakeHeld removes and returns the person's held facts that are now due:
// those held for the end of session sessionID and those held for
// repetition that were said at least memory.RepetitionsNeeded times.
func (s *Store) TakeHeld(ctx context.Context, personID, sessionID string) ([]memory.Fact, error) {
	var out []memory.Fact
	err := s.write(ctx, func(tx *wtx) error {
		rows, err := tx.QueryContext(ctx, `DELETE FROM held_facts WHERE person_id = ? AND
			((policy = 'session_end' AND session_id = ?) OR (policy = 'repetition' AND times >= ?))
			RETURNING fact`, personID, sessionID, memory.RepetitionsNeeded)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var data string
			if err := rows.Scan(&data); err != nil {
				return err
			}
			var f memory.Fact
			if err := json.Unmarshal([]byte(data), &f); err != nil {
				return fmt.Errorf("decode held fact: %w", err)
			}
			out = append(out, f)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("take held facts of person %s: %w", personID, err)
	}
	return out, nil
}
