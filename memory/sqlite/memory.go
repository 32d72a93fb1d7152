package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/havenbot/haven/memory"
)

// ResolvePerson returns the person behind a namespaced platform user id,
// creating the person (with a random opaque id) and the identity on first
// contact. A non-empty display different from the remembered one replaces it.
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
		p = memory.Person{ID: newID(), Display: display, Created: now.UTC(), FirstSeen: true}
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

// queryer is what the read pool and a write transaction share for reading.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (s *Store) personByIdentity(ctx context.Context, q queryer, platformUserID string) (memory.Person, error) {
	var p memory.Person
	var created int64
	err := q.QueryRowContext(ctx, `SELECT p.id, p.display, p.created_at
		FROM identities i JOIN people p ON p.id = i.person_id
		WHERE i.platform_user_id = ?`, platformUserID).Scan(&p.ID, &p.Display, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return memory.Person{}, fmt.Errorf("identity %s: %w", platformUserID, memory.ErrNotFound)
	}
	if err != nil {
		return memory.Person{}, fmt.Errorf("look up identity %s: %w", platformUserID, err)
	}
	p.Created = fromTS(created)
	return p, nil
}

const sessionColumns = `id, person_id, conversation_id, started_at, ended_at, checkpoint`

func scanSession(row interface{ Scan(...any) error }) (memory.Session, error) {
	var (
		ss             memory.Session
		started        int64
		ended          sql.NullInt64
		checkpointJSON string
	)
	if err := row.Scan(&ss.ID, &ss.PersonID, &ss.ConversationID, &started, &ended, &checkpointJSON); err != nil {
		return memory.Session{}, err
	}
	ss.Started = fromTS(started)
	if ended.Valid {
		ss.Ended = fromTS(ended.Int64)
	}
	if err := json.Unmarshal([]byte(checkpointJSON), &ss.Checkpoint); err != nil {
		return memory.Session{}, fmt.Errorf("decode checkpoint of session %s: %w", ss.ID, err)
	}
	return ss, nil
}

func (s *Store) openSession(ctx context.Context, q queryer, personID, conversationID string) (memory.Session, error) {
	ss, err := scanSession(q.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM sessions
		WHERE person_id = ? AND conversation_id = ? AND ended_at IS NULL`, personID, conversationID))
	if errors.Is(err, sql.ErrNoRows) {
		return memory.Session{}, fmt.Errorf("open session of person %s in %s: %w", personID, conversationID, memory.ErrNotFound)
	}
	return ss, err
}

// startSession inserts a new open session; the caller holds the write lock.
func (s *Store) startSession(ctx context.Context, tx *wtx, personID, conversationID string, now time.Time) (memory.Session, error) {
	ss := memory.Session{ID: newID(), PersonID: personID, ConversationID: conversationID, Started: now.UTC()}
	cp, err := json.Marshal(ss.Checkpoint)
	if err != nil {
		return memory.Session{}, fmt.Errorf("encode checkpoint: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO sessions (id, person_id, conversation_id, started_at, checkpoint, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)`, ss.ID, personID, conversationID, ts(now), string(cp), ts(now)); err != nil {
		return memory.Session{}, fmt.Errorf("start session: %w", err)
	}
	// Round-trip the start time through storage so the returned value
	// equals what a later load returns.
	ss.Started = fromTS(ts(now))
	return ss, nil
}

func checkSessionArgs(personID, conversationID string) error {
	if personID == "" || conversationID == "" {
		return errors.New("person id and conversation id are required")
	}
	return nil
}

// OpenSession returns the person's open session in the conversation,
// starting one at now (the Store's clock if now is zero) if there is none.
// An unknown person is an error wrapping memory.ErrNotFound.
func (s *Store) OpenSession(ctx context.Context, personID, conversationID string, now time.Time) (memory.Session, error) {
	if err := checkSessionArgs(personID, conversationID); err != nil {
		return memory.Session{}, fmt.Errorf("open session of person %q in %q: %w", personID, conversationID, err)
	}
	if now.IsZero() {
		now = s.now()
	}
	ss, err := s.openSession(ctx, s.rd, personID, conversationID)
	if err == nil {
		return ss, nil
	}
	if !errors.Is(err, memory.ErrNotFound) {
		return memory.Session{}, s.classify(err)
	}
	err = s.write(ctx, func(tx *wtx) error {
		ss, err = s.openSession(ctx, tx, personID, conversationID)
		if !errors.Is(err, memory.ErrNotFound) {
			return err
		}
		if err := s.requirePerson(ctx, tx, personID); err != nil {
			return err
		}
		ss, err = s.startSession(ctx, tx, personID, conversationID, now)
		return err
	})
	if err != nil {
		return memory.Session{}, fmt.Errorf("open session of person %s in %s: %w", personID, conversationID, err)
	}
	return ss, nil
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

// ResetSession ends the person's open session in the conversation (if any)
// at now (the Store's clock if now is zero) and starts a new one, in one
// transaction.
func (s *Store) ResetSession(ctx context.Context, personID, conversationID string, now time.Time) (memory.Session, error) {
	if err := checkSessionArgs(personID, conversationID); err != nil {
		return memory.Session{}, fmt.Errorf("reset session of person %q in %q: %w", personID, conversationID, err)
	}
	if now.IsZero() {
		now = s.now()
	}
	var ss memory.Session
	err := s.write(ctx, func(tx *wtx) error {
		if err := s.requirePerson(ctx, tx, personID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE sessions SET ended_at = ?, updated_at = ?
			WHERE person_id = ? AND conversation_id = ? AND ended_at IS NULL`,
			ts(now), ts(now), personID, conversationID); err != nil {
			return fmt.Errorf("end open session: %w", err)
		}
		var err error
		ss, err = s.startSession(ctx, tx, personID, conversationID, now)
		return err
	})
	if err != nil {
		return memory.Session{}, fmt.Errorf("reset session of person %s in %s: %w", personID, conversationID, err)
	}
	return ss, nil
}

// CommitTurn appends the turn's transcript entries and saves the checkpoint
// in one IMMEDIATE transaction: either all of it is stored or none. An
// entry's empty SessionID means rec.SessionID; a zero At means now. The
// session's max risk never goes down: a checkpoint with a lower
// SessionMaxRisk than the stored one is saved with the stored one.
func (s *Store) CommitTurn(ctx context.Context, rec memory.TurnRecord) error {
	if rec.SessionID == "" {
		return errors.New("commit turn: empty session id")
	}
	for i, e := range rec.Entries {
		if e.SessionID != "" && e.SessionID != rec.SessionID {
			return fmt.Errorf("commit turn for session %s: entry %d belongs to session %s", rec.SessionID, i, e.SessionID)
		}
		if e.Role != memory.RoleUser && e.Role != memory.RoleAssistant {
			return fmt.Errorf("commit turn for session %s: entry %d has role %q, want %q or %q", rec.SessionID, i, e.Role, memory.RoleUser, memory.RoleAssistant)
		}
	}
	cp := rec.Checkpoint
	cp.SessionMaxRisk = min(max(cp.SessionMaxRisk, 0), 3)
	cpJSON, err := json.Marshal(cp)
	if err != nil {
		return fmt.Errorf("commit turn for session %s: encode checkpoint: %w", rec.SessionID, err)
	}
	err = s.write(ctx, func(tx *wtx) error {
		now := s.now()
		// One statement: the stored max risk is raised, never lowered, and
		// the checkpoint's copy of it set to the result.
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET
			checkpoint = json_set(?1, '$.session_max_risk', max(?2, max_risk)),
			max_risk = max(?2, max_risk), turn_count = ?3, updated_at = ?4
			WHERE id = ?5`, string(cpJSON), cp.SessionMaxRisk, cp.TurnCount, ts(now), rec.SessionID)
		if err != nil {
			return fmt.Errorf("save checkpoint: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("save checkpoint: %w", err)
		} else if n == 0 {
			return fmt.Errorf("no such session: %w", memory.ErrNotFound)
		}
		if len(rec.Entries) == 0 {
			return nil
		}
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO transcript (session_id, role, text, crisis, at) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("prepare transcript insert: %w", err)
		}
		defer stmt.Close()
		for i, e := range rec.Entries {
			at := e.At
			if at.IsZero() {
				at = now
			}
			if _, err := stmt.ExecContext(ctx, rec.SessionID, string(e.Role), e.Text, e.Crisis, ts(at)); err != nil {
				return fmt.Errorf("append transcript entry %d: %w", i, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("commit turn for session %s: %w", rec.SessionID, err)
	}
	return nil
}

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

// maxCrisisField bounds the crisis log's short text fields (reason, path,
// flags), so that no message could be stored in them. The schema enforces
// the same bound.
const maxCrisisField = 120

var flagName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// LogCrisis appends a row to the crisis log. It never refuses a row for its
// content, because a crisis must always be logged: the level is clamped to
// 0-3, the confidence to 0-1, reason and path are cut to 120 bytes (on a rune
// boundary), and flags that are not snake_case names are dropped. A zero At
// means now.
func (s *Store) LogCrisis(ctx context.Context, ev memory.CrisisEvent) error {
	level := min(max(ev.Level, 0), 3)
	conf := ev.Confidence
	if math.IsNaN(conf) {
		conf = 0
	}
	conf = min(max(conf, 0), 1)
	var flags []string
	for _, f := range ev.Flags {
		if flagName.MatchString(f) {
			flags = append(flags, f)
		}
	}
	flagsText := clip(strings.Join(flags, ","), maxCrisisField)
	at := ev.At
	if at.IsZero() {
		at = s.now()
	}
	err := s.write(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO crisis_log
			(person_id, session_id, conversation_id, platform, level, confidence, reason, path, flags, at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			ev.PersonID, ev.SessionID, ev.ConversationID, ev.Platform, level, conf,
			clip(ev.Reason, maxCrisisField), clip(ev.Path, maxCrisisField), flagsText, ts(at))
		return err
	})
	if err != nil {
		return fmt.Errorf("log crisis for session %s: %w", ev.SessionID, err)
	}
	return nil
}

// clip cuts s to at most n bytes without splitting a rune.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// AuditAdmin appends a row to the admin audit log. A zero At means now.
func (s *Store) AuditAdmin(ctx context.Context, ev memory.AdminEvent) error {
	if ev.ActorID == "" || ev.Command == "" {
		return fmt.Errorf("audit admin command %q by %q: actor id and command are required", ev.Command, ev.ActorID)
	}
	at := ev.At
	if at.IsZero() {
		at = s.now()
	}
	err := s.write(ctx, func(tx *wtx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO admin_audit (actor_id, conversation_id, command, allowed, detail, at)
			VALUES (?, ?, ?, ?, ?, ?)`, ev.ActorID, ev.ConversationID, ev.Command, ev.Allowed, ev.Detail, ts(at))
		return err
	})
	if err != nil {
		return fmt.Errorf("audit admin command %s by %s: %w", ev.Command, ev.ActorID, err)
	}
	return nil
}
