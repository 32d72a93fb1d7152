package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/havenbot/haven/memory"
)

const sessionColumns = `id, person_id, conversation_id, started_at, ended_at, checkpoint`

func scanSession(row scanner) (memory.Session, error) {
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

// CommitTurn commits a turn's record in one IMMEDIATE transaction: either
// all of it is stored or none (see commitTurn).
func (s *Store) CommitTurn(ctx context.Context, rec memory.TurnRecord) error {
	c, err := prepareTurn(rec)
	if err != nil {
		return err
	}
	err = s.write(ctx, func(tx *wtx) error { return s.commitTurn(ctx, tx, c) })
	if err != nil {
		return fmt.Errorf("commit turn for session %s: %w", rec.SessionID, err)
	}
	return nil
}

// preparedTurn is a checked TurnRecord with its checkpoint encoded.
type preparedTurn struct {
	rec    memory.TurnRecord
	cpJSON string
}

// prepareTurn checks rec and encodes its checkpoint, before any
// transaction starts.
func prepareTurn(rec memory.TurnRecord) (preparedTurn, error) {
	if rec.SessionID == "" {
		return preparedTurn{}, errors.New("commit turn: empty session id")
	}
	for i, e := range rec.Entries {
		if e.SessionID != "" && e.SessionID != rec.SessionID {
			return preparedTurn{}, fmt.Errorf("commit turn for session %s: entry %d belongs to session %s", rec.SessionID, i, e.SessionID)
		}
		if e.Role != memory.RoleUser && e.Role != memory.RoleAssistant {
			return preparedTurn{}, fmt.Errorf("commit turn for session %s: entry %d has role %q, want %q or %q", rec.SessionID, i, e.Role, memory.RoleUser, memory.RoleAssistant)
		}
	}
	for i, j := range rec.Jobs {
		if err := checkJob(j); err != nil {
			return preparedTurn{}, fmt.Errorf("commit turn for session %s: job %d: %w", rec.SessionID, i, err)
		}
	}
	rec.Checkpoint.SessionMaxRisk = min(max(rec.Checkpoint.SessionMaxRisk, 0), 3)
	cpJSON, err := json.Marshal(rec.Checkpoint)
	if err != nil {
		return preparedTurn{}, fmt.Errorf("commit turn for session %s: encode checkpoint: %w", rec.SessionID, err)
	}
	return preparedTurn{rec: rec, cpJSON: string(cpJSON)}, nil
}

// commitTurn writes a prepared turn in tx: the checkpoint (the session's
// max risk never goes down: a lower SessionMaxRisk is saved as the stored
// one), the transcript entries (an empty SessionID means the record's, a
// zero At means now), the jobs, and the session's end when asked; the
// session's person is met from then on.
func (s *Store) commitTurn(ctx context.Context, tx *wtx, c preparedTurn) error {
	rec, cp := c.rec, c.rec.Checkpoint
	now := s.now()
	// One statement: the stored max risk is raised, never lowered, and
	// the checkpoint's copy of it set to the result.
	res, err := tx.ExecContext(ctx, `UPDATE sessions SET
		checkpoint = json_set(?1, '$.session_max_risk', max(?2, max_risk)),
		max_risk = max(?2, max_risk), turn_count = ?3, updated_at = ?4
		WHERE id = ?5`, c.cpJSON, cp.SessionMaxRisk, cp.TurnCount, ts(now), rec.SessionID)
	if err != nil {
		return fmt.Errorf("save checkpoint: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("save checkpoint: %w", err)
	} else if n == 0 {
		return fmt.Errorf("no such session: %w", memory.ErrNotFound)
	}
	if err := markMet(ctx, tx, `SELECT person_id FROM sessions WHERE id = ?`, rec.SessionID, now); err != nil {
		return err
	}
	for i, e := range rec.Entries {
		at := e.At
		if at.IsZero() {
			at = now
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO transcript (session_id, role, text, crisis, at) VALUES (?, ?, ?, ?, ?)`,
			rec.SessionID, string(e.Role), e.Text, e.Crisis, ts(at)); err != nil {
			return fmt.Errorf("append transcript entry %d: %w", i, err)
		}
	}
	for i, j := range rec.Jobs {
		if err := insertJob(ctx, tx, j, now); err != nil {
			return fmt.Errorf("queue job %d: %w", i, err)
		}
	}
	if rec.Crisis != nil {
		if err := insertCrisis(ctx, tx, *rec.Crisis, now); err != nil {
			return fmt.Errorf("log crisis: %w", err)
		}
	}
	if st := rec.Stat; st != nil {
		at := st.At
		if at.IsZero() {
			at = now
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO turn_stats (at, platform, route, mode, level, exercise, guarded) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			ts(at), clip(st.Platform, 40), clip(st.Route, 40), clip(st.Mode, 40), min(max(st.Level, -1), 3), clip(st.Exercise, 40), st.Guarded); err != nil {
			return fmt.Errorf("count the turn: %w", err)
		}
	}
	if rec.EndSession {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET ended_at = ?, updated_at = ? WHERE id = ? AND ended_at IS NULL`, ts(now), ts(now), rec.SessionID)
		if err != nil {
			return fmt.Errorf("end session: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("end session: %w", err)
		}
		if n == 1 && rec.Episode {
			var person string
			if err := tx.QueryRowContext(ctx, `SELECT person_id FROM sessions WHERE id = ?`, rec.SessionID).Scan(&person); err != nil {
				return fmt.Errorf("end session: %w", err)
			}
			if err := insertJob(ctx, tx, memory.Job{Kind: memory.JobSessionEnd, PersonID: person, SessionID: rec.SessionID}, now); err != nil {
				return fmt.Errorf("queue the episode: %w", err)
			}
		}
	}
	return nil
}

// EndSession ends the open session sessionID at now (the Store's clock if
// zero).
func (s *Store) EndSession(ctx context.Context, sessionID string, now time.Time) (bool, error) {
	if now.IsZero() {
		now = s.now()
	}
	var ended bool
	err := s.write(ctx, func(tx *wtx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sessions SET ended_at = ?, updated_at = ? WHERE id = ? AND ended_at IS NULL`, ts(now), ts(now), sessionID)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		ended = n == 1
		return err
	})
	if err != nil {
		return false, fmt.Errorf("end session %s: %w", sessionID, err)
	}
	return ended, nil
}

// idleSessionsSQL lists the open sessions idle since ?1, least recently
// active first, at most ?2. It reads the open sessions through
// sessions_open (the partial index of open sessions) and sorts them: an
// index on the last activity would be written by every turn.
const idleSessionsSQL = `SELECT ` + sessionColumns + ` FROM sessions INDEXED BY sessions_open
	WHERE ended_at IS NULL AND updated_at < ?1 ORDER BY updated_at LIMIT ?2`

// IdleSessions returns up to n open sessions with no activity since before.
func (s *Store) IdleSessions(ctx context.Context, before time.Time, n int) ([]memory.Session, error) {
	out, err := list(ctx, s.rd, scanSession, idleSessionsSQL, ts(before), n)
	if err != nil {
		return nil, fmt.Errorf("list idle sessions: %w", s.classify(err))
	}
	return out, nil
}
