package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/havenbot/haven/memory"
)

// ResolvePerson returns the person behind a namespaced platform user id,
// creating the person (with a random opaque id) and the identity on first
// contact. A non-empty display different from the remembered one replaces it.
// FirstSeen stays true until a turn for the person has finished (markDone,
// commitTurn): a first turn cut short by a crash is met again as a first
// contact.
func (s *Store) ResolvePerson(ctx context.Context, platform, platformUserID, display string) (memory.Person, error) {
	if platform == "" || platformUserID == "" {
		return memory.Person{}, fmt.Errorf("resolve person %q on %q: platform and platform user id are required", platformUserID, platform)
	}
	// The common case, a known person with an unchanged name, needs no write.
	p, err := s.personByIdentity(ctx, s.rd, platformUserID)
	switch {
	case err == nil && (display == "" || display == p.Display):
		return p, nil
	case err != nil && !errors.Is(err, memory.ErrNotFound):
		return memory.Person{}, fmt.Errorf("resolve person %s: %w", platformUserID, s.classify(err))
	}
	err = s.write(ctx, func(tx *wtx) error {
		// Check again under the write lock: another turn may have created it.
		p, err = s.personByIdentity(ctx, tx, platformUserID)
		switch {
		case err == nil:
			if display != "" && display != p.Display {
				if _, err := tx.ExecContext(ctx, `UPDATE people SET display = ? WHERE id = ?`, display, p.ID); err != nil {
					return fmt.Errorf("update display name of person %s: %w", p.ID, err)
				}
				p.Display = display
			}
			return nil
		case !errors.Is(err, memory.ErrNotFound):
			return err
		}
		now := s.now()
		p = memory.Person{ID: newID(), Display: display, Created: now.UTC(), FirstSeen: true} // met_at NULL
		if _, err := tx.ExecContext(ctx, `INSERT INTO people (id, display, created_at) VALUES (?, ?, ?)`,
			p.ID, p.Display, ts(now)); err != nil {
			return fmt.Errorf("create person: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO identities (platform_user_id, person_id, platform, created_at) VALUES (?, ?, ?, ?)`,
			platformUserID, p.ID, platform, ts(now)); err != nil {
			return fmt.Errorf("create identity: %w", err)
		}
		return nil
	})
	if err != nil {
		return memory.Person{}, fmt.Errorf("resolve person %s: %w", platformUserID, err)
	}
	return p, nil
}

func (s *Store) personByIdentity(ctx context.Context, q queryer, platformUserID string) (memory.Person, error) {
	var p memory.Person
	var created int64
	err := q.QueryRowContext(ctx, `SELECT p.id, p.display, p.created_at, p.met_at IS NULL
		FROM identities i JOIN people p ON p.id = i.person_id
		WHERE i.platform_user_id = ?`, platformUserID).Scan(&p.ID, &p.Display, &created, &p.FirstSeen)
	if errors.Is(err, sql.ErrNoRows) {
		return memory.Person{}, fmt.Errorf("identity %s: %w", platformUserID, memory.ErrNotFound)
	}
	if err != nil {
		return memory.Person{}, fmt.Errorf("look up identity %s: %w", platformUserID, err)
	}
	p.Created = fromTS(created)
	return p, nil
}

func (s *Store) requirePerson(ctx context.Context, tx *wtx, personID string) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM people WHERE id = ?`, personID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("person %s: %w", personID, memory.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("look up person %s: %w", personID, err)
	}
	return nil
}

// ForgetAll deletes the person and everything about them. Delivered inbox and outbox rows of their identities and
// DM conversations are scrubbed of ids and text; the crisis log keeps its
// rows with person, session and conversation ids removed.
func (s *Store) ForgetAll(ctx context.Context, personID string) error {
	if personID == "" {
		return errors.New("forget everything: empty person id")
	}
	err := s.write(ctx, func(tx *wtx) error {
		rowids, err := list(ctx, tx, scanInt64, `SELECT 2 * id FROM facts WHERE person_id = ?1 UNION ALL SELECT 2 * id + 1 FROM episodes WHERE person_id = ?1`, personID)
		if err != nil {
			return fmt.Errorf("list indexed records: %w", err)
		}
		for _, id := range rowids {
			if err := s.unindex(ctx, tx, refOfRowid(id)); err != nil {
				return err
			}
		}
		for _, q := range []string{
			`UPDATE crisis_log SET person_id = '', session_id = '', conversation_id = '' WHERE person_id = ?1`,
			`UPDATE inbox SET payload = json_set(payload, '$.text', '', '$.author.display', '', '$.author.id', '',
				'$.conversation.id', '', '$.message_id', '')
				WHERE done_at IS NOT NULL AND json_extract(payload, '$.author.id') IN (SELECT platform_user_id FROM identities WHERE person_id = ?1)`,
			`UPDATE outbox SET payload = json_remove(json_set(payload, '$.text', '', '$.recipient', '', '$.conversation.id', '', '$.reply_to', ''), '$.file.data')
				WHERE (sent_at IS NOT NULL OR abandoned_at IS NOT NULL) AND (
					json_extract(payload, '$.recipient') IN (SELECT platform_user_id FROM identities WHERE person_id = ?1)
					OR (json_extract(payload, '$.conversation.kind') = 'dm' AND
						json_extract(payload, '$.conversation.id') IN (SELECT conversation_id FROM sessions WHERE person_id = ?1)))`,
			`DELETE FROM people WHERE id = ?1`,
		} {
			if _, err := tx.ExecContext(ctx, q, personID); err != nil {
				return fmt.Errorf("delete: %w", err)
			}
		}
		return nil
	})
	s.vc.drop(personID)
	if err != nil {
		return fmt.Errorf("forget everything about person %s: %w", personID, err)
	}
	return nil
}

// LinkIdentity links another namespaced platform user id to an existing
// person, so that their memory follows them across platforms. Linking an id
// already linked to someone else is an error.
func (s *Store) LinkIdentity(ctx context.Context, personID, platform, platformUserID string) error {
	err := s.write(ctx, func(tx *wtx) error {
		if err := s.requirePerson(ctx, tx, personID); err != nil {
			return err
		}
		var other string
		err := tx.QueryRowContext(ctx, `SELECT person_id FROM identities WHERE platform_user_id = ?`, platformUserID).Scan(&other)
		switch {
		case err == nil && other == personID:
			return nil
		case err == nil:
			return errors.New("the identity belongs to another person")
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO identities (platform_user_id, person_id, platform, created_at) VALUES (?, ?, ?, ?)`,
			platformUserID, personID, platform, ts(s.now()))
		return err
	})
	if err != nil {
		return fmt.Errorf("link identity %s to person %s: %w", platformUserID, personID, err)
	}
	return nil
}

// FindPerson returns the person an admin names: by a namespaced platform
// user id ("telegram::42") or by the opaque person id (as the crisis log
// shows it). It never creates anyone; an unknown id is memory.ErrNotFound.
func (s *Store) FindPerson(ctx context.Context, id string) (memory.Person, error) {
	p, err := s.personByIdentity(ctx, s.rd, id)
	if !errors.Is(err, memory.ErrNotFound) {
		if err != nil {
			return memory.Person{}, fmt.Errorf("find person %s: %w", id, s.classify(err))
		}
		return p, nil
	}
	var created int64
	err = s.rd.QueryRowContext(ctx, `SELECT id, display, created_at, met_at IS NULL FROM people WHERE id = ?`, id).
		Scan(&p.ID, &p.Display, &created, &p.FirstSeen)
	if errors.Is(err, sql.ErrNoRows) {
		return memory.Person{}, fmt.Errorf("find person %s: %w", id, memory.ErrNotFound)
	}
	if err != nil {
		return memory.Person{}, fmt.Errorf("find person %s: %w", id, s.classify(err))
	}
	p.Created = fromTS(created)
	return p, nil
}
