package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/havenbot/haven/memory"
)

const ruleColumns = `id, person_id, key, text, evidence, session_id, created_at`

func scanRule(row scanner) (memory.Rule, error) {
	var r memory.Rule
	var created int64
	err := row.Scan(&r.ID, &r.PersonID, &r.Key, &r.Text, &r.Evidence, &r.SessionID, &created)
	r.Created = fromTS(created)
	return r, err
}

// AddRule stores r. A rule with the same key is replaced (the newest
// wins), and past memory.MaxRules the person's oldest rules are dropped.
func (s *Store) AddRule(ctx context.Context, r memory.Rule) (memory.Rule, error) {
	r.Evidence = memory.Quote(r.Evidence)
	r.Text = strings.TrimSpace(r.Text)
	if r.PersonID == "" || r.Key == "" || r.Text == "" || len([]rune(r.Text)) > 200 {
		return memory.Rule{}, fmt.Errorf("add rule %q for person %q: person id, key and a text of 1-200 characters are required", r.Key, r.PersonID)
	}
	if r.Created.IsZero() {
		r.Created = s.now()
	}
	r.Created = fromTS(ts(r.Created))
	err := s.write(ctx, func(tx *wtx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM rules WHERE person_id = ? AND key = ?`, r.PersonID, r.Key); err != nil {
			return fmt.Errorf("replace rule: %w", err)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO rules (person_id, key, text, evidence, session_id, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			r.PersonID, r.Key, r.Text, r.Evidence, r.SessionID, ts(r.Created))
		if err != nil {
			return fmt.Errorf("insert: %w", err)
		}
		if r.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		// Past the cap the oldest rules go.
		_, err = tx.ExecContext(ctx, `DELETE FROM rules WHERE person_id = ? AND id NOT IN
			(SELECT id FROM rules WHERE person_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)`, r.PersonID, r.PersonID, memory.MaxRules)
		return err
	})
	if err != nil {
		return memory.Rule{}, fmt.Errorf("add rule %s for person %s: %w", r.Key, r.PersonID, err)
	}
	return r, nil
}

// Rules returns the person's rules, oldest first.
func (s *Store) Rules(ctx context.Context, personID string) ([]memory.Rule, error) {
	out, err := list(ctx, s.rd, scanRule, `SELECT `+ruleColumns+` FROM rules WHERE person_id = ? ORDER BY created_at, id`, personID)
	if err != nil {
		return nil, fmt.Errorf("list rules of person %s: %w", personID, s.classify(err))
	}
	return out, nil
}
